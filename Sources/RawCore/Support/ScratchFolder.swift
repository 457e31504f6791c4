#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A fresh private folder under the system's temporary directory (`mkdtemp`: mode 0700, a name nobody else has).
public enum ScratchFolder {
    /// Makes `TMPDIR/PREFIX-XXXXXX` and returns its path, or nil when it cannot be made. `inMemory`: under
    /// `/dev/shm` when it is a writable folder (files there never wait for a disk: `fsync` returns at once), else
    /// under `TMPDIR`.
    public static func make(prefix: String, inMemory: Bool = false) -> String? {
        let parent = inMemory && access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : NSTemporaryDirectory()
        var template = Array((parent as NSString).appendingPathComponent("\(prefix)-XXXXXX").utf8CString)
        // mkdtemp fills in the X's in place: the name is read from the buffer once the call is over (the pointer it
        // returns points into a buffer that only lives for the call).
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) != nil }) else { return nil }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
