import SystemPackage

/// The bytes ``TIFFStructureParser`` walks: a whole file held in memory, or an open file read on demand, so that
/// parsing a raw file's directories reads its directories and values, not its image data (a 24 MB uncompressed DNG
/// has a few kilobytes of them).
///
/// A file is read in aligned blocks of ``defaultBlockSize`` bytes, each read once and kept; a value larger than a block is
/// read on its own. When the file ends before its size at opening (it shrank meanwhile) or a read fails, the
/// missing bytes read as zeros and ``isIncomplete`` is set: the caller then knows the structure was parsed from
/// bytes the file no longer holds.
final class TIFFBytes {
    /// Bytes read from a file at a time (aligned), and the size above which a value is read on its own.
    static let defaultBlockSize = 1 << 16

    private enum Source {
        case memory([UInt8])
        case file(FileDescriptor)
    }

    private let source: Source
    /// This reader's block size (tests make it small, so that values straddle blocks).
    private let blockSize: Int
    /// The number of bytes: the array's, or the file's size when it was opened.
    let count: Int
    /// The file's blocks read so far, by block index.
    private var blocks: [Int: [UInt8]] = [:]
    /// The last block used, so that consecutive small reads skip the dictionary.
    private var current: (index: Int, bytes: [UInt8]) = (-1, [])
    /// Set when a read of the file came back short or failed (the bytes it should have given read as zeros).
    private(set) var isIncomplete = false

    /// The bytes of `array`.
    init(_ array: [UInt8]) {
        source = .memory(array)
        count = array.count
        blockSize = Self.defaultBlockSize
    }

    /// The first `size` bytes of the open file `fd` (which the caller keeps open while this is used), read
    /// `blockSize` bytes at a time.
    init(file fd: FileDescriptor, size: Int, blockSize: Int = defaultBlockSize) {
        precondition(blockSize > 0, "TIFFBytes: an empty block size")
        source = .file(fd)
        count = size
        self.blockSize = blockSize
    }

    /// The byte at `offset` (inside `0..<count`).
    func byte(_ offset: Int) -> UInt8 {
        switch source {
        case .memory(let array):
            return array[offset]
        case .file(let fd):
            let index = offset / blockSize
            if current.index != index { current = (index, block(index, fd: fd)) }
            return current.bytes[offset - index * blockSize]
        }
    }

    /// A copy of the bytes in `range` (inside `0..<count`).
    func copy(_ range: Range<Int>) -> [UInt8] {
        switch source {
        case .memory(let array):
            return Array(array[range])
        case .file(let fd):
            if range.count > blockSize { return read(range, fd: fd) }
            var result: [UInt8] = []
            result.reserveCapacity(range.count)
            var offset = range.lowerBound
            while offset < range.upperBound {
                let index = offset / blockSize, start = index * blockSize
                if current.index != index { current = (index, block(index, fd: fd)) }
                let end = min(range.upperBound, start + blockSize)
                result.append(contentsOf: current.bytes[(offset - start)..<(end - start)])
                offset = end
            }
            return result
        }
    }

    /// Block `index` of the file, read now or earlier.
    private func block(_ index: Int, fd: FileDescriptor) -> [UInt8] {
        if let cached = blocks[index] { return cached }
        let start = index * blockSize
        let bytes = read(start..<min(count, start + blockSize), fd: fd)
        blocks[index] = bytes
        return bytes
    }

    /// The bytes in `range` read from the file; a short or failed read leaves zeros and sets ``isIncomplete``.
    private func read(_ range: Range<Int>, fd: FileDescriptor) -> [UInt8] {
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: range.count) { buffer, initialized in
            var done = 0
            while done < range.count {
                let n: Int
                do {
                    n = try fd.read(fromAbsoluteOffset: Int64(range.lowerBound + done),
                                    into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[done...]))
                } catch { n = 0 }
                if n <= 0 { break }
                done += n
            }
            if done < range.count {
                complete = false
                (buffer.baseAddress! + done).initialize(repeating: 0, count: range.count - done)
            }
            initialized = range.count
        }
        if !complete { isIncomplete = true }
        return bytes
    }
}

extension TIFFStructure.ByteOrder {
    /// The 16-bit value at `offset` of `bytes` (the caller checks bounds).
    func uint16(_ bytes: TIFFBytes, at offset: Int) -> UInt16 {
        let a = UInt16(bytes.byte(offset)), b = UInt16(bytes.byte(offset + 1))
        return self == .littleEndian ? a | b << 8 : a << 8 | b
    }

    /// The 32-bit value at `offset` of `bytes` (the caller checks bounds).
    func uint32(_ bytes: TIFFBytes, at offset: Int) -> UInt32 {
        let a = UInt32(uint16(bytes, at: offset)), b = UInt32(uint16(bytes, at: offset + 2))
        return self == .littleEndian ? a | b << 16 : a << 16 | b
    }
}
