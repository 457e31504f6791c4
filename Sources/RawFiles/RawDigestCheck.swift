import Foundation
import RawCore
import RawDNG
import Synchronization

/// The check of a DNG's `NewRawImageDigest` against the samples read, running on a thread of its own while the
/// caller goes on with the frame (a converter renders the preview and writes the DNG meanwhile).
///
/// The reader starts it (``RawFileReader``'s `read(path:digestCheck:)`); whoever uses the frame must call
/// ``wait()`` before anything built from the samples counts as done — a converter before its output file takes its
/// final name — because until then the samples may be damaged. The frame's storage is only read by the check.
package final class RawDigestCheck: Sendable {
    /// The digest the file carries: the digest of the samples once ``wait()`` has returned.
    package let stored: [UInt8]
    /// Bytes per sample the digest hashes (1 for a raw image stored in 8 bits or fewer, else 2; ``NewRawImageDigest``).
    package let sampleBytes: Int
    private let path: String
    /// The digest computed (nil when the reader gave up before all rows were there), set once by the checking thread
    /// before it signals `finished`. Owner: the checking thread writes it, ``wait()`` reads it after the signal.
    private let computed = Mutex<[UInt8]?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts hashing `height` rows of `width` samples of `storage` (tight rows) on a new thread, with `threads`
    /// threads for the digest's cells. With `progress`, the rows are hashed as the reader writes them (the reader
    /// publishes them there); otherwise `storage` must be complete already.
    init(stored: [UInt8], storage: PixelStorage, width: Int, height: Int, threads: Int, path: String,
         sampleBytes: Int = 2, progress: RowProgress? = nil) {
        self.stored = stored
        self.sampleBytes = sampleBytes
        self.path = path
        let thread = Thread { [self] in
            let digest: [UInt8]?
            if let progress {
                digest = NewRawImageDigest.digest(samples: storage.baseAddress, width: width, height: height, rowStride: width,
                                                  threads: threads, sampleBytes: sampleBytes, rowsWritten: { progress.wait(forRows: $0) })
            } else {
                digest = NewRawImageDigest.digest(samples: storage.baseAddress, width: width, height: height, rowStride: width,
                                                  threads: threads, sampleBytes: sampleBytes)
            }
            computed.withLock { $0 = digest }
            finished.signal()
        }
        thread.start()
    }

    /// Waits for the check and returns the samples' digest (the stored one), or throws `.corrupt` when the samples
    /// do not match it: they are damaged. May be called more than once.
    @discardableResult
    package func wait() throws(RawReadError) -> [UInt8] {
        finished.wait()
        finished.signal()   // a later wait() returns at once
        guard computed.withLock({ $0 }) == stored else {
            throw RawReadError(path: path, kind: .corrupt,
                               detail: "the raw data does not match the file's NewRawImageDigest: it is damaged")
        }
        return stored
    }
}
