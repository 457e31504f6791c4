import Foundation
import RawCore
import RawDNG

/// Converts camera raws to DNG: LibRaw reads the mosaic bit-exactly, `DNGWriter` writes it with its
/// levels, colour calibration and metadata.
public struct RawConverter: Sendable {
    /// The outcome of one job.
    public struct Result: Sendable {
        public let job: ConversionJob
        /// Bytes written, or nil when the job failed.
        public let bytes: Int?
        /// Wall-clock seconds for read + write.
        public let seconds: Double
        /// Notes the user should see (e.g. a generic colour matrix was used).
        public let warnings: [String]
        /// The one-line error, or nil on success.
        public let error: String?

        public var succeeded: Bool { error == nil }
    }

    public let reader: RawFileReader
    public let writer: DNGWriter

    /// Creates a converter with writer options (overwrite, preview).
    public init(writerOptions: DNGWriter.Options = DNGWriter.Options()) {
        reader = RawFileReader()
        writer = DNGWriter(options: writerOptions)
    }

    /// Converts one file. Never throws: failures are results.
    public func convert(_ job: ConversionJob) -> Result {
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        do {
            let image = try reader.read(path: job.input)
            let report = try writer.write(image, to: job.output)
            return Result(job: job, bytes: report.bytes, seconds: elapsed(), warnings: report.warnings, error: nil)
        } catch let error as RawReadError {
            return Result(job: job, bytes: nil, seconds: elapsed(), warnings: [], error: error.description)
        } catch {
            return Result(job: job, bytes: nil, seconds: elapsed(), warnings: [], error: "\(error)")
        }
    }

    /// Runs `jobs` on `parallelism` dedicated threads (blocking file I/O stays off Swift's cooperative pool)
    /// and calls `progress` (serially, from the worker threads) after each job. Results keep the jobs' order.
    public func convert(_ jobs: [ConversionJob], parallelism: Int,
                        progress: @escaping @Sendable (Result, _ done: Int, _ total: Int) -> Void = { _, _, _ in }) -> [Result] {
        BatchRunner.run(jobs, parallelism: parallelism, work: { self.convert($0) }, progress: progress)
    }
}

/// Runs independent jobs on dedicated threads, keeping results in the jobs' order (conversions, developments).
enum BatchRunner {
    static func run<Job: Sendable, Result: Sendable>(_ jobs: [Job], parallelism: Int, work: @escaping @Sendable (Job) -> Result,
                                                     progress: @escaping @Sendable (Result, Int, Int) -> Void) -> [Result] {
        let state = BatchState<Result>(count: jobs.count)
        let workers = max(1, min(parallelism, jobs.count))
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            let thread = Thread {
                while let index = state.nextIndex() {
                    let result = work(jobs[index])
                    let done = state.store(result, at: index)
                    state.withReportLock { progress(result, done, jobs.count) }
                }
                group.leave()
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        group.wait()
        return state.results()
    }
}

/// Work distribution and result collection shared by the batch threads.
private final class BatchState<Result>: @unchecked Sendable {
    private let lock = NSLock()
    private let reportLock = NSLock()
    private var next = 0
    private var done = 0
    private var stored: [Result?]

    init(count: Int) { stored = Array(repeating: nil, count: count) }

    func nextIndex() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard next < stored.count else { return nil }
        next += 1
        return next - 1
    }

    func store(_ result: Result, at index: Int) -> Int {
        lock.lock(); defer { lock.unlock() }
        stored[index] = result
        done += 1
        return done
    }

    func withReportLock(_ body: () -> Void) {
        reportLock.lock(); defer { reportLock.unlock() }
        body()
    }

    func results() -> [Result] {
        lock.lock(); defer { lock.unlock() }
        return stored.map { $0! }
    }
}
