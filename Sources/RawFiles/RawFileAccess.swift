import Glibc

/// Checks, before any decoder sees a path, that it names a regular file this process can open.
enum RawFileAccess {
    /// The size in bytes of the regular file at `path`, or the error that stops it from being read.
    static func readableFileSize(_ path: String) throws(RawReadError) -> Int {
        guard !path.isEmpty else { throw RawReadError(path: path, kind: .fileNotFound, detail: "empty path") }
        var info = stat()
        if stat(path, &info) != 0 {
            let code = errno
            let kind: RawReadError.Kind = code == ENOENT || code == ENOTDIR ? .fileNotFound : .notReadable
            throw RawReadError(path: path, kind: kind, detail: kind == .fileNotFound ? "no such file" : reason(code))
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR { throw RawReadError(path: path, kind: .notReadable, detail: "is a directory") }
        guard type == S_IFREG else { throw RawReadError(path: path, kind: .notReadable, detail: "not a regular file") }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw RawReadError(path: path, kind: .notReadable, detail: reason(errno)) }
        close(fd)
        let size = Int(info.st_size)
        guard size > 0 else { throw RawReadError(path: path, kind: .notARaw, detail: "empty file (0 bytes)") }
        return size
    }

    /// The size in bytes of the file at `path`, or nil when it cannot be examined.
    static func size(of path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    /// Reads up to `count` bytes at `offset` of the file at `path` (fewer when the file is shorter).
    static func bytes(of path: String, at offset: Int = 0, count: Int) -> [UInt8] {
        guard offset >= 0, count > 0 else { return [] }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, count - filled, off_t(offset + filled)) }
            if n <= 0 { break }
            filled += n
        }
        return Array(bytes.prefix(filled))
    }

    /// True when `head` (the first bytes of a file) starts like a raw format: TIFF-based raws (DNG, NEF, CR2,
    /// ORF, RW2, ...), Canon CRW and CR3, Fujifilm RAF, Minolta MRW or Sigma X3F.
    static func hasRawSignature(_ head: [UInt8]) -> Bool {
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let bytes = Array(text.utf8)
            return head.count >= offset + bytes.count && Array(head[offset..<(offset + bytes.count)]) == bytes
        }
        return starts("II") || starts("MM") || starts("FUJIFILM") || starts("\u{0}MRM") || starts("FOVb")
            || starts("HEAPCCDR", at: 6) || starts("ftypcrx", at: 4)
    }

    /// The reason for an `errno` value, in words.
    static func reason(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: "permission denied"
        case ELOOP: "too many symbolic links"
        case ENAMETOOLONG: "path too long"
        case EIO: "input/output error"
        default: "cannot be opened (errno \(code))"
        }
    }
}
