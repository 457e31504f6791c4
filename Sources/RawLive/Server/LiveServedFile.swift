#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore

/// One file of the take being sent to a page: its open descriptor (closed when the last response holding it is gone)
/// and its size when it was opened. Immutable; reads are positioned (`pread`), so any thread may read.
final class LiveServedFile: Sendable {
    let descriptor: Int32
    let bytes: Int

    init(descriptor: Int32, bytes: Int) {
        self.descriptor = descriptor
        self.bytes = bytes
    }

    deinit { close(descriptor) }

    /// Why a read stopped.
    struct ReadFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Up to `count` bytes from `offset` (fewer only at the end of the file), a blocking read: run it off the event loop.
    func read(at offset: Int, count: Int) throws(ReadFailure) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        var failure: ReadFailure?
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { space in
            var done = 0
            while done < count {
                let n = pread(descriptor, space.baseAddress! + done, count - done, off_t(offset + done))
                if n > 0 { done += n; continue }
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failure = ReadFailure(description: String(cString: strerror(errno))) }
                break
            }
            return done
        }
        if let failure { throw failure }
        return buffer
    }
}
