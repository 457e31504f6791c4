#if canImport(Glibc)
import Glibc
#endif

/// libtiff writes the IFD0 `SubIFDs` entry with field type IFD (13); TIFF/EP and DNG readers and
/// `exiftool -validate` expect LONG (4). Both are 4 bytes per value in classic TIFF, so the type code is
/// changed in place after libtiff has finished the file.
enum SubIFDTypeFixer {
    /// Rewrites the type of the `SubIFDs` entry of IFD0 in the little-endian classic TIFF at `path`.
    static func fix(path: String) throws(DNGWriteError) {
        let fd = open(path, O_RDWR)
        guard fd >= 0 else { throw DNGWriteError(path: path, "cannot reopen to finish the file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        func read<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T? {
            var value: T = 0
            let n = withUnsafeMutableBytes(of: &value) { pread(fd, $0.baseAddress, MemoryLayout<T>.size, off_t(offset)) }
            return n == MemoryLayout<T>.size ? T(littleEndian: value) : nil
        }
        guard read(UInt16.self, at: 0) == 0x4949, read(UInt16.self, at: 2) == 42,
              let ifd0 = read(UInt32.self, at: 4), let count = read(UInt16.self, at: Int(ifd0)) else {
            throw DNGWriteError(path: path, "libtiff wrote an unexpected header")
        }
        for i in 0..<Int(count) {
            let entry = Int(ifd0) + 2 + i * 12
            guard read(UInt16.self, at: entry) == 330 else { continue }
            if read(UInt16.self, at: entry + 2) == 13 {
                var long = UInt16(4).littleEndian
                let n = withUnsafeBytes(of: &long) { pwrite(fd, $0.baseAddress, 2, off_t(entry + 2)) }
                guard n == 2 else { throw DNGWriteError(path: path, "cannot finish the file: \(String(cString: strerror(errno)))") }
            }
            return
        }
    }
}
