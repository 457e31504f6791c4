import ArgumentParser
import Foundation
import RawBurst

/// The worker mode's options, the same in `convert`, `develop` and `analyze`: any of them runs the command's files
/// as jobs in sandbox processes, one JSON line of results per job (docs/worker.md).
struct WorkerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Run the jobs of this JSON-lines manifest (worker mode): one {\"input\": ..., \"output\": ..., "
                               + "\"options\": {...}, \"timeout\": s, \"memoryLimit\": size} per line.", valueName: "file"))
    var manifest: String?

    @Option(help: ArgumentHelp("Append one JSON line per job run to this file (worker mode): status, bytes, seconds, peak "
                               + "memory, the output's digest and SHA-256, the error's kind and message. Fsync'd per line.",
                               valueName: "file"))
    var results: String?

    @Flag(help: ArgumentHelp("Keep outputs that an ok line of --results records and that are still as it says (size and "
                             + "SHA-256); run the rest, replacing outputs that are unrecorded or damaged."))
    var resume = false

    @Option(help: ArgumentHelp("Take the K-th of N deterministic shares of the jobs: job i (0-based, manifest or folder "
                               + "order) when i % N == K-1.", valueName: "K/N"),
            transform: { text in
                guard let shard = WorkerShard(text) else { throw BadValue("--shard must be K/N with 1 ≤ K ≤ N, not '\(text)'") }
                return shard
            })
    var shard: WorkerShard?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop a file's job after this long (30, 90s, 2m) and record it as "
                                                        + "a timeout; the other files go on.", valueName: "time"),
            transform: { text in
                guard let span = TimeSpan(argument: text), span.seconds >= 0.01 else {
                    throw BadValue("--timeout-per-file must be a time of at least 10ms such as 30, 90s or 2m, not '\(text)'")
                }
                return span
            })
    var timeoutPerFile: TimeSpan?

    @Option(help: ArgumentHelp("Stop a file's job when its process holds more than this much memory (512MiB, 2GiB) and "
                               + "record it as memory-limit; the other files go on.", valueName: "size"),
            transform: { text in
                guard let size = ByteSize(argument: text), size.bytes >= 16 << 20 else {
                    throw BadValue("--memory-limit-per-file must be a size of at least 16MiB such as 512MiB or 2GiB, not '\(text)'")
                }
                return size
            })
    var memoryLimitPerFile: ByteSize?

    @Option(help: ArgumentHelp("The \"run\" written in every results line (default: host:pid).", valueName: "text"))
    var runID: String?

    @Flag(help: ArgumentHelp("Read and check every job as a run would (JSON, options, values, outputs), then exit: 0 with "
                             + "the number of jobs, or 2 with the line that is wrong. Nothing is run or written."))
    var check = false

    @Option(help: ArgumentHelp("End with the process that starts this worker, which passes its own pid (os.getpid() in "
                               + "Python): Linux sends the worker SIGKILL when the thread that started it ends (prctl "
                               + "PR_SET_PDEATHSIG; start it from a thread that waits for it) and its sandboxes follow "
                               + "within 100 ms; a worker whose parent is not <pid> (it ended before the worker could ask) "
                               + "exits at once with status 2.", valueName: "pid"),
            transform: { text in
                guard let pid = Int32(text), pid > 0 else {
                    throw BadValue("--exit-with-parent must be the pid of the process that starts rawburst, not '\(text)'")
                }
                return pid
            })
    var exitWithParent: Int32?

    /// Set on the worker's own sandbox processes: read job requests on standard input, answer each on standard output.
    @Flag(help: .private)
    var workerChild = false

    /// Whether the command runs as a worker.
    var isActive: Bool {
        manifest != nil || results != nil || shard != nil || resume || timeoutPerFile != nil || memoryLimitPerFile != nil || check
    }

    func validate() throws {
        if resume && results == nil { throw BadValue("--resume needs --results: the results say which outputs are done") }
        if let manifest, manifest.isEmpty { throw BadValue("--manifest: the path is empty") }
        if let results, results.isEmpty { throw BadValue("--results: the path is empty") }
        if exitWithParent != nil && !isActive && !workerChild {
            throw BadValue("--exit-with-parent applies to the worker mode (--manifest, --results, --shard, --check ...)")
        }
    }

    /// The limits every job has unless its manifest line sets its own.
    var limits: JobLimits { JobLimits(seconds: timeoutPerFile?.seconds, memoryBytes: memoryLimitPerFile?.bytes) }
}
