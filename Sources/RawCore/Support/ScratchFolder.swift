#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A fresh private folder under the system's temporary directory (`mkdtemp`: mode 0700, a name nobody else has).
public enum ScratchFolder {
    /// Makes `TMPDIR/PREFIX-XXXXXX` and returns its path, or nil when it cannot be made.
    public static func make(prefix: String) -> String? {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("\(prefix)-XXXXXX").utf8CString)
        // mkdtemp fills in the X's in place: the name is read from the buffer once the call is over (the pointer it
        // returns points into a buffer that only lives for the call).
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) != nil }) else { return nil }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
