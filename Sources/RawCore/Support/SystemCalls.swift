#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

// POSIX file I/O goes through apple/swift-system: `FileDescriptor.open`, `read(into:)` and `writeAll(_:)`
// retry interrupted calls themselves. The calls swift-system does not wrap (fsync, fdatasync) are here, with the
// same retry. `Errno.description` is the C library's `strerror` text, so messages read as they always did.

/// Calls `call` until it does not fail with `EINTR`; returns its result, or throws the `Errno` of a failure
/// (a result of -1).
package func retryingInterrupts<Result: FixedWidthInteger>(_ call: () -> Result) throws(Errno) -> Result {
    while true {
        let result = call()
        if result != -1 { return result }
        let code = Errno(rawValue: errno)
        if code != .interrupted { throw code }
    }
}

extension FileDescriptor {
    /// Flushes the file's data and metadata to disk (`fsync`), retrying an interrupted call.
    package func sync() throws(Errno) {
        _ = try retryingInterrupts { fsync(rawValue) }
    }

    /// Flushes the file's data to disk (`fdatasync`, `fsync` where it is missing), retrying an interrupted call.
    package func syncData() throws(Errno) {
        #if canImport(Glibc)
        _ = try retryingInterrupts { fdatasync(rawValue) }
        #else
        _ = try retryingInterrupts { fsync(rawValue) }
        #endif
    }
}

extension FileError {
    /// The system's one-line reason for `error`: the `strerror` text of an `Errno`, the description otherwise.
    package static func reason(_ error: any Error) -> String {
        (error as? Errno)?.description ?? "\(error)"
    }
}
