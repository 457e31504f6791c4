import Foundation
import RawCore
import RawDigest
import Synchronization

/// The worker mode: runs jobs in sandbox processes, `slots` at a time, each sandbox a long-lived child process that
/// takes one job after another (no start-up per file). A job past its time or memory limit, or one that crashes its
/// sandbox, is recorded as failed with its kind and the sandbox is started again for the next job. Every job run
/// is appended to the results log as it ends; with `resume`, a job whose output is on disk exactly as an earlier
/// `ok` line records it (size and SHA-256) is kept and not run again.
public struct JobSupervisor: Sendable {
    /// How the worker runs its jobs.
    public struct Configuration: Sendable {
        /// The sandbox program and its arguments (argv[0] included): it reads ``SandboxRequest`` lines on standard
        /// input and answers each with a ``JobOutcome`` line.
        public var sandbox: [String]
        /// Sandboxes at once.
        public var slots = 1
        /// Limits of jobs that set none of their own.
        public var limits = JobLimits()
        /// Replace existing outputs.
        public var overwrite = false
        /// Keep outputs that an earlier `ok` line records and that are still as it says; redo the others.
        public var resume = false
        /// The `run` of every line.
        public var runID: String

        /// A configuration.
        public init(sandbox: [String], runID: String) {
            self.sandbox = sandbox
            self.runID = runID
        }
    }

    /// What became of one job.
    public enum Event: Sendable {
        /// Run, and recorded in the log.
        case recorded(JobRecord)
        /// Kept from an earlier run (nothing run, nothing appended).
        case kept(WorkerJob)
        /// Run, but its line could not be appended (the message); the jobs not started by then are abandoned.
        case unrecorded(JobRecord, String)
        /// Not run: an earlier job's line could not be appended, and work nobody can see is not done.
        case abandoned(WorkerJob)
    }

    public let configuration: Configuration

    /// A supervisor.
    public init(configuration: Configuration) { self.configuration = configuration }

    /// Runs `jobs`, appending to `log` (when there is one); `previous` are the log's earlier records (for `resume`: an
    /// output is kept when its last line is `ok` with the job's settings and the file is as the line says). `progress`
    /// is called after each job, never concurrently. Once a line cannot be appended, the jobs not yet started are
    /// abandoned.
    public func run(_ jobs: [WorkerJob], log: ResultsLog?, previous: [JobRecord],
                    progress: @escaping @Sendable (Event, _ done: Int, _ total: Int) -> Void = { _, _, _ in }) -> [Event] {
        let recorded = configuration.resume ? Self.lastRecords(previous) : [:]
        let logFailed = AppendFailure()
        return BatchRunner.run(jobs, parallelism: configuration.slots, threadState: { nil as SandboxProcess? }, work: { sandbox, job in
            if logFailed.happened { return .abandoned(job) }
            if configuration.resume, let record = recorded[Self.key(job.input, job.output)], record.settings == job.settings,
               Self.isIntact(record) {
                return .kept(job)
            }
            let record = JobRecord(job: job, outcome: run(job, sandbox: &sandbox), run: configuration.runID)
            do throws(ResultsLogError) { try log?.append(record) } catch {
                logFailed.record()
                return .unrecorded(record, error.message)
            }
            return .recorded(record)
        }, progress: progress)
    }

    /// Runs one job in `sandbox` (started when there is none; dropped after a kill or a crash).
    private func run(_ job: WorkerJob, sandbox: inout SandboxProcess?) -> JobOutcome {
        var start = MonotonicClock.nanoseconds()
        func elapsed() -> Double { Double(MonotonicClock.nanoseconds() - start) / 1e9 }
        var st = stat()
        let exists = lstat(job.output, &st) == 0
        if exists && !configuration.overwrite && !configuration.resume {
            return .failure(.exists, "\(job.output): already exists (use --overwrite to replace it, or --resume)", seconds: 0)
        }
        // Under --resume the outputs are the worker's own: a temporary file beside this one was left by a run that was
        // killed while writing it (its sandbox ended with its worker), and goes now.
        if configuration.resume { Self.removeTemporaries(of: job.output) }
        do {
            try FileManager.default.createDirectory(atPath: AtomicFile.directory(of: job.output), withIntermediateDirectories: true)
        } catch {
            return .failure(.writeFailed, "\(job.output): cannot create its directory (\(error.localizedDescription))", seconds: 0)
        }
        let request = SandboxRequest(input: job.input, output: job.output, arguments: job.arguments,
                                     overwrite: configuration.overwrite || configuration.resume)
        guard let line = try? JSONEncoder().encode(request) else {
            return .failure(.crashed, "\(job.input): the job cannot be encoded", seconds: 0)
        }
        let process: SandboxProcess
        if let running = sandbox {
            process = running
        } else {
            do throws(SandboxError) { process = try SandboxProcess(executable: configuration.sandbox[0], arguments: configuration.sandbox) } catch {
                return .failure(.crashed, "\(job.input): \(error.message)", seconds: elapsed())
            }
            if let ended = process.waitUntilReady() {
                let why = Self.failure(ended, job: job, limits: JobLimits(seconds: 120), seconds: 0).error?.message ?? ""
                return .failure(.crashed, "the worker's sandbox did not start: \(why)", seconds: elapsed())
            }
            sandbox = process
            start = MonotonicClock.nanoseconds()   // the job's clock starts when its sandbox is ready
        }
        let limits = job.limits.over(configuration.limits)
        let answer: SandboxProcess.Answer = process.send(Array(line)) ? process.answer(within: limits) : process.answerAfterFailedSend()
        if case .line(let bytes) = answer, let outcome = try? JSONDecoder().decode(JobOutcome.self, from: Data(bytes)) {
            return outcome
        }
        process.stop()
        sandbox = nil
        Self.removeTemporaries(of: job.output)
        return Self.failure(answer, job: job, limits: limits, seconds: elapsed())
    }

    /// The failure of a job whose sandbox gave no answer.
    private static func failure(_ answer: SandboxProcess.Answer, job: WorkerJob, limits: JobLimits, seconds: Double) -> JobOutcome {
        switch answer {
        case .timedOut:
            return .failure(.timeout, "\(job.input): still running after \(SettingText.number(limits.seconds ?? 0)) s; stopped",
                            seconds: seconds)
        case .overMemory(let resident):
            return .failure(.memoryLimit, "\(job.input): used \(resident / 1_048_576) MiB, over the limit of "
                            + "\(((limits.memoryBytes ?? 0) + 524_288) / 1_048_576) MiB; stopped", seconds: seconds, peakMemory: resident)
        case .died(let signal?, _):
            let hint = signal == SIGKILL ? "; the kernel's out-of-memory killer sends this" : ""
            return .failure(.crashed, "\(job.input): the worker process died of signal \(signal) "
                            + "(\(String(cString: strsignal(signal)))\(hint))", seconds: seconds)
        case .died(nil, let status):
            return .failure(.crashed, "\(job.input): the worker process exited (status \(status ?? -1)) without an answer", seconds: seconds)
        case .line:
            return .failure(.crashed, "\(job.input): the worker process answered something that is not a result", seconds: seconds)
        }
    }

    /// The last record of each (input, output) in `records`, leaving out `exists` refusals: a run that did not touch an
    /// output says nothing about it.
    static func lastRecords(_ records: [JobRecord]) -> [String: JobRecord] {
        var last: [String: JobRecord] = [:]
        for record in records where record.outcome.error?.kind != .exists { last[key(record.input, record.output)] = record }
        return last
    }

    private static func key(_ input: String, _ output: String) -> String {
        URL(fileURLWithPath: input).standardizedFileURL.path + "\u{0}" + URL(fileURLWithPath: output).standardizedFileURL.path
    }

    /// Whether `record` is an `ok` line whose output is on disk with its size and SHA-256.
    static func isIntact(_ record: JobRecord) -> Bool {
        guard record.outcome.status == .ok, let bytes = record.outcome.bytes, let sha = record.outcome.sha256 else { return false }
        var st = stat()
        guard stat(record.output, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) == bytes else { return false }
        return FileSHA256.hex(ofFileAt: record.output) == sha
    }

    /// Removes the temporary files a killed sandbox may have left beside `output` (`.NAME.XXXXXX.tmp`, as
    /// ``AtomicFile`` names them); the final name is never touched.
    static func removeTemporaries(of output: String) {
        let directory = AtomicFile.directory(of: output)
        let name = (output as NSString).lastPathComponent
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for entry in entries where entry.hasPrefix(".\(name).") && entry.hasSuffix(".tmp") && entry.count == name.count + 12 {
            unlink((directory as NSString).appendingPathComponent(entry))
        }
    }
}

/// Whether a results line could not be appended (the jobs not yet started are then abandoned). Owner: the job threads
/// of one ``JobSupervisor/run(_:log:previous:progress:)``, through the mutex.
private final class AppendFailure: Sendable {
    private let flag = Mutex(false)
    var happened: Bool { flag.withLock { $0 } }
    func record() { flag.withLock { $0 = true } }
}
