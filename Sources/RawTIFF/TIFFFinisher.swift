#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The package's one exact-rational pass: corrections applied to a TIFF (a DNG or a developed TIFF) after
/// libtiff has closed it, in place and without changing its layout:
///
/// - libtiff writes the IFD0 `SubIFDs` entry with field type IFD (13); TIFF/EP, DNG readers and
///   `exiftool -validate` expect LONG (4). Both hold 4-byte offsets, so only the type code changes.
/// - libtiff converts most rational tags through `float`; every RATIONAL/SRATIONAL value the writer set is
///   rewritten as the exact fraction of the value it meant (`ExactRational`), e.g. ExposureTime 1/250.
/// - libtiff refuses some integer values it considers invalid: a TileWidth or TileLength that is not a multiple of 16
///   (TIFF 6.0 asks for one; a Blackmagic camera's DNG tiles are 1032 wide). The writer gives libtiff a stand-in that
///   makes the same grid of tiles, and the exact value (`exactIntegers`) is written over it here.
///
/// Classic TIFF and BigTIFF (little-endian, as `TIFFWriteHandle` writes them) are both understood.
package struct TIFFFinisher {
    /// The tags set in one directory, found at `offset` (nil: IFD0, from the header).
    package struct Directory {
        var offset: UInt64?
        var tags: [TagAssignment]

        /// The directory at `offset` (nil: IFD0) with the tags set in it.
        package init(offset: UInt64?, tags: [TagAssignment]) {
            self.offset = offset
            self.tags = tags
        }
    }

    let path: String

    /// A finisher for the closed file at `path`.
    package init(path: String) { self.path = path }

    /// Applies the corrections. `subIFDs` are the SubIFDs' tags in order; `custom` are EXIF/GPS directories
    /// at known offsets; `ifd0Integers` and `subIFDIntegers` the exact values of single SHORT or LONG entries that
    /// libtiff was given a stand-in for.
    package func finish(ifd0: [TagAssignment], subIFDs: [[TagAssignment]], custom: [Directory],
                        ifd0Integers: [UInt16: UInt32] = [:], subIFDIntegers: [[UInt16: UInt32]] = []) throws(TIFFWriteError) {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw failure("cannot reopen to finish the file") }
        defer { close(fd) }
        guard let io = FileIO(fd: fd), let ifd0Offset = io.firstIFD else {
            throw TIFFWriteError(path: path, "libtiff wrote an unexpected header")
        }
        var subOffsets: [UInt64] = []
        if let (entry, count) = io.find(tag: TIFFTag.subIFDs, inIFDAt: ifd0Offset) {
            if !io.big, io.u16(entry + 2) == 13, !io.put16(4, at: entry + 2) { throw failure("cannot finish the file") }
            if let valueAt = io.valueOffset(entry: entry, count: count, size: io.wordSize) {
                subOffsets = (0..<UInt64(count)).compactMap { io.word(valueAt + $0 * UInt64(io.wordSize)) }
            }
        }
        var directories = [Directory(offset: ifd0Offset, tags: ifd0)]
        for (i, tags) in subIFDs.enumerated() where i < subOffsets.count {
            directories.append(Directory(offset: subOffsets[i], tags: tags))
        }
        directories += custom
        for directory in directories {
            guard let offset = directory.offset else { continue }
            try rewriteRationals(directory.tags, inIFDAt: offset, io: io)
        }
        try rewriteIntegers(ifd0Integers, inIFDAt: ifd0Offset, io: io)
        for (i, integers) in subIFDIntegers.enumerated() where i < subOffsets.count {
            try rewriteIntegers(integers, inIFDAt: subOffsets[i], io: io)
        }
    }

    /// Writes each value of `integers` over its tag's single SHORT or LONG value in the IFD at `offset`.
    private func rewriteIntegers(_ integers: [UInt16: UInt32], inIFDAt offset: UInt64, io: FileIO) throws(TIFFWriteError) {
        for (tag, value) in integers.sorted(by: { $0.key < $1.key }) {
            guard let (entry, count) = io.find(tag: tag, inIFDAt: offset), count == 1, let type = io.u16(entry + 2),
                  type == 3 && value <= 0xFFFF || type == 4,
                  let valueAt = io.valueOffset(entry: entry, count: 1, size: type == 3 ? 2 : 4) else {
                throw TIFFWriteError(path: path, "cannot write \(TIFFTag.name(for: tag)) \(value) over libtiff's value")
            }
            let bytes = type == 3 ? withUnsafeBytes(of: UInt16(value).littleEndian, Array.init)
                : withUnsafeBytes(of: value.littleEndian, Array.init)
            guard io.put(bytes, at: valueAt) else { throw failure("cannot finish the file") }
        }
    }

    private func rewriteRationals(_ tags: [TagAssignment], inIFDAt offset: UInt64, io: FileIO) throws(TIFFWriteError) {
        guard io.entryCount(at: offset) != nil else {
            throw TIFFWriteError(path: path, "cannot read back a TIFF directory to finish the file")
        }
        for assignment in tags {
            guard case .numbers(let values) = assignment.value, assignment.tag <= 0xFFFF,
                  let (entry, count) = io.find(tag: UInt16(assignment.tag), inIFDAt: offset),
                  count == values.count, let type = io.u16(entry + 2), type == 5 || type == 10,
                  let valueAt = io.valueOffset(entry: entry, count: count, size: 8) else { continue }
            var bytes: [UInt8] = []
            for v in values {
                let r = ExactRational.make(v, signed: type == 10)
                withUnsafeBytes(of: UInt32(truncatingIfNeeded: r.numerator).littleEndian) { bytes += $0 }
                withUnsafeBytes(of: UInt32(truncatingIfNeeded: r.denominator).littleEndian) { bytes += $0 }
            }
            guard io.put(bytes, at: valueAt) else { throw failure("cannot finish the file") }
        }
    }

    private func failure(_ what: String) -> TIFFWriteError {
        TIFFWriteError(path: path, "\(what): \(String(cString: strerror(errno)))")
    }
}

/// Little-endian positioned reads and writes on a classic TIFF or BigTIFF file.
private struct FileIO {
    let fd: Int32
    /// True for BigTIFF (8-byte offsets and counts, 20-byte entries); set once, from the header.
    private(set) var big = false

    /// Reads the header; nil when it is not a little-endian TIFF or BigTIFF.
    init?(fd: Int32) {
        self.fd = fd
        guard u16(0) == 0x4949, let version = u16(2), version == 42 || version == 43 else { return nil }
        big = version == 43
    }

    /// Bytes of an offset or count.
    var wordSize: Int { big ? 8 : 4 }

    /// The offset of IFD0, from the header.
    var firstIFD: UInt64? { word(big ? 8 : 4) }

    func u16(_ at: UInt64) -> UInt16? { read(at) }

    /// An offset or count (4 bytes in classic TIFF, 8 in BigTIFF).
    func word(_ at: UInt64) -> UInt64? {
        big ? read(at) : (read(at) as UInt32?).map(UInt64.init)
    }

    private func read<T: FixedWidthInteger>(_ at: UInt64) -> T? {
        var value: T = 0
        let n = withUnsafeMutableBytes(of: &value) { pread(fd, $0.baseAddress, MemoryLayout<T>.size, off_t(at)) }
        return n == MemoryLayout<T>.size ? T(littleEndian: value) : nil
    }

    func put16(_ value: UInt16, at: UInt64) -> Bool {
        withUnsafeBytes(of: value.littleEndian) { put(Array($0), at: at) }
    }

    func put(_ bytes: [UInt8], at: UInt64) -> Bool {
        bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, bytes.count, off_t(at)) } == bytes.count
    }

    /// Where the values of the entry at `entry` are: inside the entry when `count` values of `size` bytes fit
    /// in its value field, else at the offset it holds.
    func valueOffset(entry: UInt64, count: Int, size: Int) -> UInt64? {
        let field: UInt64 = big ? 12 : 8
        return count * size <= wordSize ? entry + field : word(entry + field)
    }

    /// The number of entries of the IFD at `offset`, nil when it cannot be read or is implausible (4096 or more).
    func entryCount(at offset: UInt64) -> UInt64? {
        guard let n = big ? word(offset) : u16(offset).map(UInt64.init), n < 4096 else { return nil }
        return n
    }

    /// The position of the entry for `tag` in the IFD at `offset` and its value count.
    func find(tag: UInt16, inIFDAt offset: UInt64) -> (entry: UInt64, count: Int)? {
        guard let n = entryCount(at: offset) else { return nil }
        let first = offset + (big ? 8 : 2)
        let entrySize: UInt64 = big ? 20 : 12
        for i in 0..<n {
            let entry = first + i * entrySize
            if u16(entry) == tag, let count = word(entry + 4) { return (entry, Int(count)) }
        }
        return nil
    }
}
