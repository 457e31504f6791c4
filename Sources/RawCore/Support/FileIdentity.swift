#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a path names on this machine: its device and inode (`st_dev`, `st_ino`). Every path that reaches one
/// file — through a symbolic link, a hard link, `..` or `.` — gives the same identity, which two path strings cannot
/// tell.
public struct FileIdentity: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The device the file lives on (`st_dev`).
    public let device: UInt64
    /// Its inode number on that device (`st_ino`).
    public let inode: UInt64

    /// An identity from its two numbers (as a journal records them).
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The identity of what `path` names, symbolic links followed (`stat`); nil when nothing is there.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// What a directory entry is: its identity, whether it is a regular file, its size.
    public struct Entry: Sendable, Hashable {
        /// Its device and inode.
        public let identity: FileIdentity
        /// True for a regular file (not a link, folder, FIFO, device or socket).
        public let isRegularFile: Bool
        /// Its size in bytes (`st_size`).
        public let bytes: Int

        fileprivate init(_ info: stat) {
            identity = FileIdentity(info)
            isRegularFile = info.st_mode & S_IFMT == S_IFREG
            bytes = Int(info.st_size)
        }
    }

    /// What `path` itself is, a symbolic link not followed (`lstat`); nil when nothing is there.
    public static func entry(at path: String) -> Entry? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Entry(info)
    }

    /// What the open file `descriptor` is (`fstat`); nil when it cannot be read.
    public static func entry(descriptor: Int32) -> Entry? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return Entry(info)
    }

    /// The identity of the open file `descriptor` (`fstat`); nil when it cannot be read.
    public init?(descriptor: Int32) {
        guard let entry = Self.entry(descriptor: descriptor) else { return nil }
        self = entry.identity
    }

    fileprivate init(_ info: stat) {
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }

    /// `device:inode`, e.g. `2049:1835041`.
    public var description: String { "\(device):\(inode)" }
}
