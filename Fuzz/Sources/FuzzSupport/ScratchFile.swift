import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One file per process that fuzz inputs are written to, for readers that take a path (LibRaw, libpng, libtiff).
/// In /dev/shm when it exists, so an input costs no disk I/O.
public final class ScratchFile: @unchecked Sendable { // one per process; libFuzzer calls the target on one thread
    /// The path.
    public let path: String

    /// A scratch file whose name ends with `suffix` (readers that look at extensions get one they know).
    public init(suffix: String) {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        path = (folder as NSString).appendingPathComponent("rawburst-fuzz-\(getpid())\(suffix)")
    }

    deinit { unlink(path) }

    /// Replaces the file's contents with `bytes`.
    public func write(_ bytes: [UInt8]) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "cannot create \(path)")
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            precondition(n > 0, "cannot write \(path)")
            done += n
        }
    }
}
