import Foundation
import RawCore

/// Measures a folder's sustained write bandwidth the way a burst writes: whole files of a frame's size, each
/// written, flushed (`fsync`), renamed into place and its folder flushed (as `AtomicFile` publishes a DNG), one after
/// the other, after a warm-up file that is not counted (it pays
/// for allocating the first extents and waking the device). The files are removed afterwards.
public struct StorageProbe: Sendable, Hashable, Codable {
    /// The folder measured.
    public let directory: String
    /// Bytes of each file, files counted (after the warm-up), and the seconds they took.
    public let fileBytes: Int
    public let files: Int
    public let seconds: Double
    /// Write+fsync bandwidth in MB/s (10^6 bytes), and the slowest file's.
    public let megabytesPerSecond: Double
    public let slowestMegabytesPerSecond: Double

    /// The domain of `StorageProbeError`.
    public enum ErrorDomain {}
    /// The folder could not be measured (not writable, full ...), in one line.
    public typealias Failure = MessageError<ErrorDomain>

    /// Writes files of `fileBytes` into `directory` until `seconds` have passed or `maximumFiles` were counted
    /// (at least `minimumFiles`), after one warm-up file. `progress` hears the fraction of the time done after each file.
    public static func measure(directory: String, fileBytes: Int, seconds: Double, minimumFiles: Int = 2,
                               maximumFiles: Int = 1000, progress: ((Double) -> Void)? = nil) throws(Failure) -> StorageProbe {
        let bytes = max(4096, fileBytes)
        // Camera-like, incompressible bytes (a file system that compresses must not flatter the figure).
        var buffer = [UInt8](repeating: 0, count: bytes)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        buffer.withUnsafeMutableBytes { raw in
            for i in 0..<(bytes / 8) {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                raw.storeBytes(of: state, toByteOffset: i * 8, as: UInt64.self)
            }
        }
        let path = (directory as NSString).appendingPathComponent(".rawburst-storage-probe-\(getpid())")
        defer { unlink(path) }
        try writeFile(path, buffer)
        var count = 0, slowest = Double.infinity
        let start = MonotonicClock.nanoseconds()
        var elapsed = 0.0
        while count < maximumFiles && (count < minimumFiles || elapsed < seconds) {
            let t0 = MonotonicClock.nanoseconds()
            try writeFile(path, buffer)
            let t = Double(MonotonicClock.nanoseconds() - t0) / 1e9
            slowest = min(slowest, Double(bytes) / max(t, 1e-9) / 1e6)
            count += 1
            elapsed = Double(MonotonicClock.nanoseconds() - start) / 1e9
            progress?(min(1, elapsed / max(seconds, 1e-9)))
        }
        let rate = Double(bytes * count) / max(elapsed, 1e-9) / 1e6
        return StorageProbe(directory: directory, fileBytes: bytes, files: count, seconds: (elapsed * 1000).rounded() / 1000,
                            megabytesPerSecond: (rate * 10).rounded() / 10,
                            slowestMegabytesPerSecond: (slowest * 10).rounded() / 10)
    }

    /// Writes `bytes` to `path` as a burst writes each DNG (`AtomicFile`: a temporary file, written, flushed, renamed
    /// over `path`, and the folder flushed), so the figure is the one a burst can measure of its own files.
    private static func writeFile(_ path: String, _ bytes: [UInt8]) throws(Failure) {
        do {
            _ = try AtomicFile.write(bytes, to: path, overwrite: true)
        } catch {
            throw Failure("\(path): cannot write: \(error.message)")
        }
    }
}
