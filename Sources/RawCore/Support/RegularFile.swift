#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// Reads small files the package keeps itself (a burst's journal, its manifest) from folders it does not control:
/// only a regular file, not through a symbolic link, and no larger than the caller's limit. A FIFO would block the
/// reader forever and a link to `/dev/zero` would fill memory, so both are refused before anything is read.
public enum RegularFile {
    /// What is at `path` when it is not a regular file (`"a FIFO"`, `"a symbolic link"` ...), from `lstat`'s mode;
    /// nil for a regular file.
    public static func kind(mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }

    /// The bytes of the regular file at `path`, or nil when nothing is there. Throws a one-line error naming `path`
    /// when it is anything but a regular file (a symbolic link included), holds more than `maximumBytes`, or cannot
    /// be read.
    public static func contents(atPath path: String, maximumBytes: Int) throws(FileError) -> [UInt8]? {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return nil }
            throw FileError(path: path, "cannot be read: \(FileError.errnoText())")
        }
        if let kind = kind(mode: st.st_mode) { throw FileError(path: path, "is \(kind), not a regular file") }
        try checkSize(Int(st.st_size), of: path, maximumBytes: maximumBytes)
        // O_NOFOLLOW and O_NONBLOCK: a link or FIFO put in its place since lstat neither is followed nor blocks.
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, .readOnly, options: [.noFollow, .nonBlocking, .closeOnExec]) } catch {
            throw FileError(path: path, "cannot be read: \(FileError.reason(error))")
        }
        defer { try? fd.close() }
        guard fstat(fd.rawValue, &st) == 0 else { throw FileError(path: path, "cannot be read: \(FileError.errnoText())") }
        if let kind = kind(mode: st.st_mode) { throw FileError(path: path, "is \(kind), not a regular file") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n: Int
            do { n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) } } catch {
                throw FileError(path: path, "cannot be read: \(FileError.reason(error))")
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
            try checkSize(bytes.count, of: path, maximumBytes: maximumBytes) // it may grow while it is read
        }
    }

    private static func checkSize(_ bytes: Int, of path: String, maximumBytes: Int) throws(FileError) {
        guard bytes > maximumBytes else { return }
        throw FileError(path: path, "is larger than \(maximumBytes >> 20) MiB, the most it may hold; not read")
    }
}
