import Foundation
import RawCore
import Synchronization

/// The worker mode's results file: JSON lines, one ``JobRecord`` per job run, each appended with one `write` and
/// made durable with `fsync` before the next job's line. The file is locked (`flock`, exclusive) while a worker
/// uses it, so two workers — a run whose engine was killed and the engine's retry — never interleave in one file.
/// Owner: the `descriptor` mutex serialises the appends of the worker's job threads.
public final class ResultsLog: Sendable {
    /// The file's path.
    public let path: String
    private let descriptor: Mutex<Int32>

    /// Opens (creating) `path` for appending and locks it, waiting up to `lockWait` seconds for another worker to
    /// let it go. A last line without its line feed (torn by a crash) is ended, so the next record is a line of its own.
    public init(path: String, lockWait: Double = 10) throws(ResultsLogError) {
        self.path = path
        let fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ResultsLogError("\(path): cannot open the results file (\(FileError.errnoText()))") }
        let deadline = MonotonicClock.nanoseconds() + UInt64(max(0, lockWait) * 1e9)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, MonotonicClock.nanoseconds() < deadline else {
                let busy = errno == EWOULDBLOCK
                close(fd)
                throw ResultsLogError(busy ? "\(path): another rawburst worker is using this results file"
                                           : "\(path): cannot lock the results file (\(FileError.errnoText()))")
            }
            usleep(50_000)
        }
        // A line torn by a crash stays on its own line: the next record starts on a new one.
        var last: UInt8 = 0
        let size = lseek(fd, 0, SEEK_END)
        if size > 0, pread(fd, &last, 1, size - 1) == 1, last != UInt8(ascii: "\n") {
            _ = write(fd, "\n", 1)
        }
        descriptor = Mutex(fd)
    }

    deinit { descriptor.withLock { fd in _ = close(fd) } }

    /// Appends `record` as one line and flushes it to the disk; a line that cannot be written whole is cut off again.
    public func append(_ record: JobRecord) throws(ResultsLogError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(record) else { throw ResultsLogError("\(path): cannot encode a result") }
        line.append(UInt8(ascii: "\n"))
        let failure: String? = descriptor.withLock { fd in
            let end = lseek(fd, 0, SEEK_END)
            let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == line.count else {
                let why = written < 0 ? FileError.errnoText() : "short write"
                if end >= 0 { _ = ftruncate(fd, end) }   // no fragment for the next line to be glued to
                return why
            }
            return fsync(fd) == 0 ? nil : FileError.errnoText()
        }
        if let failure { throw ResultsLogError("\(path): cannot append a result (\(failure))") }
    }

    /// The records in the file at `path` (none when it does not exist); lines that do not decode — a line torn by a
    /// crash — are counted, not returned.
    public static func records(at path: String) throws(ResultsLogError) -> (records: [JobRecord], unreadable: Int) {
        guard FileManager.default.fileExists(atPath: path) else { return ([], 0) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ResultsLogError("\(path): cannot read the results file")
        }
        let decoder = JSONDecoder()
        var records: [JobRecord] = []
        var unreadable = 0
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.allSatisfy({ $0 == 32 || $0 == 13 }) {
            if let record = try? decoder.decode(JobRecord.self, from: Data(line)) { records.append(record) } else { unreadable += 1 }
        }
        return (records, unreadable)
    }
}

/// The domain of `ResultsLogError`.
public enum ResultsLogErrorDomain {}

/// A results file that cannot be opened, locked, read or appended to, in one line.
public typealias ResultsLogError = MessageError<ResultsLogErrorDomain>
