#if canImport(Glibc)
import Glibc
#endif

/// Corrections applied to a DNG after libtiff has closed it, in place and without changing its layout:
///
/// - libtiff writes the IFD0 `SubIFDs` entry with field type IFD (13); TIFF/EP, DNG readers and
///   `exiftool -validate` expect LONG (4). Both hold 4-byte offsets, so only the type code changes.
/// - libtiff converts most rational tags through `float`; every RATIONAL/SRATIONAL value the writer set is
///   rewritten as the exact fraction of the value it meant (`ExactRational`), e.g. ExposureTime 1/250.
package struct TIFFFinisher {
    /// The tags set in one directory, found at `offset` (0: IFD0, from the header).
    package struct Directory {
        var offset: UInt32?
        var tags: [TagAssignment]

        /// The directory at `offset` (nil: IFD0) with the tags set in it.
        package init(offset: UInt32?, tags: [TagAssignment]) {
            self.offset = offset
            self.tags = tags
        }
    }

    let path: String

    /// A finisher for the closed file at `path`.
    package init(path: String) { self.path = path }

    /// Applies both corrections. `subIFDs` are the SubIFDs' tags in order; `custom` are EXIF/GPS directories
    /// at known offsets.
    package func finish(ifd0: [TagAssignment], subIFDs: [[TagAssignment]], custom: [Directory]) throws(TIFFWriteError) {
        let fd = open(path, O_RDWR)
        guard fd >= 0 else { throw failure("cannot reopen to finish the file") }
        defer { close(fd) }
        let io = FileIO(fd: fd)
        guard io.u16(0) == 0x4949, io.u16(2) == 42, let ifd0Offset = io.u32(4) else {
            throw TIFFWriteError(path: path, "libtiff wrote an unexpected header")
        }
        var subOffsets: [UInt32] = []
        if let (entry, count) = io.find(tag: 330, inIFDAt: ifd0Offset) {
            if io.u16(entry + 2) == 13, !io.put16(4, at: entry + 2) { throw failure("cannot finish the file") }
            let valueAt = count == 1 ? entry + 8 : io.u32(entry + 8) ?? 0
            subOffsets = (0..<count).compactMap { io.u32(valueAt + UInt32($0) * 4) }
        }
        var directories = [Directory(offset: ifd0Offset, tags: ifd0)]
        for (i, tags) in subIFDs.enumerated() where i < subOffsets.count {
            directories.append(Directory(offset: subOffsets[i], tags: tags))
        }
        directories += custom
        for directory in directories {
            guard let offset = directory.offset else { continue }
            for assignment in directory.tags {
                guard case .numbers(let values) = assignment.value, assignment.tag <= 0xFFFF,
                      let (entry, count) = io.find(tag: UInt16(assignment.tag), inIFDAt: offset),
                      count == values.count, let type = io.u16(entry + 2), type == 5 || type == 10,
                      let valueAt = io.u32(entry + 8) else { continue }
                var bytes: [UInt8] = []
                for v in values {
                    let r = ExactRational.make(v, signed: type == 10)
                    withUnsafeBytes(of: UInt32(truncatingIfNeeded: r.numerator).littleEndian) { bytes += $0 }
                    withUnsafeBytes(of: UInt32(truncatingIfNeeded: r.denominator).littleEndian) { bytes += $0 }
                }
                guard io.put(bytes, at: valueAt) else { throw failure("cannot finish the file") }
            }
        }
    }

    private func failure(_ what: String) -> TIFFWriteError {
        TIFFWriteError(path: path, "\(what): \(String(cString: strerror(errno)))")
    }
}

/// Little-endian positioned reads and writes on a file descriptor.
private struct FileIO {
    let fd: Int32

    func u16(_ at: UInt32) -> UInt16? { read(at) }
    func u32(_ at: UInt32) -> UInt32? { read(at) }

    private func read<T: FixedWidthInteger>(_ at: UInt32) -> T? {
        var value: T = 0
        let n = withUnsafeMutableBytes(of: &value) { pread(fd, $0.baseAddress, MemoryLayout<T>.size, off_t(at)) }
        return n == MemoryLayout<T>.size ? T(littleEndian: value) : nil
    }

    func put16(_ value: UInt16, at: UInt32) -> Bool {
        withUnsafeBytes(of: value.littleEndian) { put(Array($0), at: at) }
    }

    func put(_ bytes: [UInt8], at: UInt32) -> Bool {
        bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, bytes.count, off_t(at)) } == bytes.count
    }

    /// The position of the entry for `tag` in the IFD at `offset` and its value count.
    func find(tag: UInt16, inIFDAt offset: UInt32) -> (entry: UInt32, count: Int)? {
        guard let n = u16(offset), n < 4096 else { return nil }
        for i in 0..<UInt32(n) {
            let entry = offset + 2 + i * 12
            if u16(entry) == tag, let count = u32(entry + 4) { return (entry, Int(count)) }
        }
        return nil
    }
}
