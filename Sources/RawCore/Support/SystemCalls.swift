#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

// POSIX file I/O goes through apple/swift-system: `FileDescriptor.open`, `read(into:)` and `write(_:)` retry
// interrupted calls themselves; `writeEvery(_:)` below is the package's one write-all-bytes loop. The calls swift-system does not wrap (fsync, fdatasync) are here, with the
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

/// Why `writeEvery(_:)` stopped short.
package enum WriteShortfall: Error, CustomStringConvertible {
    /// The system refused the write (disk full, I/O error ...).
    case system(Errno)
    /// A write call wrote nothing and reported no error (swift-system's `writeAll` would try again forever).
    case wroteNothing

    /// The one-line reason: `strerror`'s text, or "the system wrote nothing".
    package var description: String {
        switch self {
        case .system(let code): code.description
        case .wroteNothing: "the system wrote nothing"
        }
    }
}

extension FileDescriptor {
    /// Writes all of `bytes` at the file position: the package's one write-all-bytes loop (interrupted calls are
    /// retried by swift-system; a call that writes nothing ends the loop with `.wroteNothing`).
    package func writeEvery(_ bytes: [UInt8]) throws(WriteShortfall) {
        let shortfall: WriteShortfall? = bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n: Int
                do { n = try write(UnsafeRawBufferPointer(rebasing: raw[done...])) } catch {
                    return .system(error as? Errno ?? .ioError)
                }
                if n == 0 { return .wroteNothing }
                done += n
            }
            return nil
        }
        if let shortfall { throw shortfall }
    }

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
        (error as? Errno)?.description ?? (error as? WriteShortfall)?.description ?? "\(error)"
    }
}
