import ArgumentParser
import Foundation
import RawBurst

/// The worker mode of `convert`, `develop` and `analyze`: jobs from a manifest (or the command's files and
/// folders), a shard of them, run in sandbox processes with limits, one results line each (docs/worker.md).
enum WorkerMode {
    /// Runs `command` as a worker (or, with --worker-child, as one of a worker's sandboxes); exit status 0 when every
    /// job is done or kept, 1 when some failed, 2 when nothing could start.
    static func run<Command: WorkerModeCommand>(_ command: Command) throws {
        if command.worker.workerChild { SandboxLoop.serve(command) }
        if let parent = command.worker.exitWithParent { try exitWithParent(parent) }
        try command.checkWorkerMode()
        signal(SIGPIPE, SIG_IGN)   // a sandbox that died is seen as such, not as the end of the worker
        keepStandardDescriptors()
        var jobs = try plan(command)
        if let shard = command.worker.shard { jobs = jobs.filter { shard.contains($0.number) } }
        if command.worker.check {
            if command.reporting.json {
                Terminal.printJSON(["jobs": jobs.count])
            } else if !command.reporting.quiet {
                print("\(command.worker.manifest ?? "inputs"): \(jobs.count) job\(jobs.count == 1 ? "" : "s") checked")
            }
            return
        }
        let log: ResultsLog?
        var previous: [JobRecord] = []
        if let path = command.worker.results {
            do throws(ResultsLogError) {
                log = try ResultsLog(path: path)
                if command.worker.resume { previous = try ResultsLog.records(at: path).records }
            } catch {
                throw BadValue(error.message)
            }
        } else {
            log = nil
        }
        var configuration = JobSupervisor.Configuration(sandbox: sandboxArguments(Command.self),
                                                        runID: command.worker.runID ?? defaultRunID())
        configuration.slots = command.workerSlots
        configuration.limits = command.worker.limits
        configuration.overwrite = command.replacesOutputs
        configuration.resume = command.worker.resume
        let started = Date()
        let events = supervise(jobs, configuration: configuration, log: log, previous: previous, reporting: command.reporting)
        let summary = WorkerSummary(events: events, seconds: Date().timeIntervalSince(started), shard: command.worker.shard,
                                    results: command.worker.results)
        if command.reporting.json {
            Terminal.printJSON(summary)
        } else if !command.reporting.quiet {
            print(summary.line)
        }
        if summary.failed > 0 || summary.unrecorded > 0 { throw ExitCode(1) }
    }

    /// --exit-with-parent: asks Linux for SIGKILL when the thread that started this process ends, then refuses to
    /// go on when `parent` is no longer this process's parent (it ended before the request, which then never comes).
    /// SIGKILL rather than SIGTERM: it cannot be ignored or blocked (a SIGTERM ignored or blocked by whatever started
    /// the worker stays so across `exec`), and a killed worker loses nothing (outputs renamed when complete, results
    /// lines fsync'd one by one, the results file's lock released by the kernel, --resume for the rest).
    private static func exitWithParent(_ parent: pid_t) throws {
        do { try signalOnParentDeath(SIGKILL) } catch {
            throw BadValue("--exit-with-parent: the system refused PR_SET_PDEATHSIG (\(FileError.reason(error)))")
        }
        let actual = getppid()
        guard actual == parent else {
            throw BadValue("--exit-with-parent \(parent): that process is not this worker's parent (\(actual) is): it has ended "
                           + "already, or it is not the one that started rawburst")
        }
    }

    /// The jobs: the manifest's, or one per file of the inputs (folders searched, -r mirrored) into the output folder.
    private static func plan<Command: WorkerModeCommand>(_ command: Command) throws -> [WorkerJob] {
        if let manifest = command.worker.manifest {
            guard command.input.inputs.isEmpty else {
                throw BadValue("--manifest names the jobs: give no input files with it (\(command.input.inputs[0]))")
            }
            // Jobs with the same options and output extension parse alike: each such pair is parsed once.
            var checked: [[String]: String] = [:]
            do {
                return try WorkerManifest.read(path: manifest) { job in
                    let key = job.arguments + [(job.output as NSString).pathExtension.lowercased()]
                    if let settings = checked[key] { return settings }
                    let settings = try Command.parse(job: job.arguments, output: job.output).outputSettings(output: job.output)
                    checked[key] = settings
                    return settings
                }
            } catch {
                throw BadValue(error.message)
            }
        }
        guard let target = command.folderPlanOutput else {
            throw BadValue("as a worker, \(Command._commandName) takes its jobs from --manifest")
        }
        do {
            let plan = try ConversionPlan(inputs: command.input.inputs, output: target.directory, recursive: command.input.recursive,
                                          overwrite: true, outputExtension: target.extension, allFiles: command.input.allFiles)
            let settings = try plan.jobs.first.map { try Command.parse(job: [], output: $0.output).outputSettings(output: $0.output) } ?? ""
            return plan.jobs.enumerated().map {
                var job = WorkerJob(number: $0.offset, input: $0.element.input, output: $0.element.output)
                job.settings = settings
                return job
            }
        } catch let error as ConversionPlanError {
            throw BadValue(error.message)
        }
    }

    /// Runs the jobs with a progress bar; each failure is one line on standard error as it happens.
    private static func supervise(_ jobs: [WorkerJob], configuration: JobSupervisor.Configuration, log: ResultsLog?,
                                  previous: [JobRecord], reporting: ReportOptions) -> [JobSupervisor.Event] {
        let bar = ProgressBar(total: jobs.count, enabled: reporting.showsProgress)
        let failures = FailureCounter()
        defer { bar.finish() }
        return JobSupervisor(configuration: configuration).run(jobs, log: log, previous: previous) { event, done, _ in
            let label: String
            switch event {
            case .kept(let job), .abandoned(let job):
                label = job.input
            case .recorded(let record), .unrecorded(let record, _):
                label = record.input
                if let error = record.outcome.error {
                    failures.increment()
                    bar.finish()
                    Terminal.error("error: \(error.message) [\(error.kind.rawValue)]")
                }
                if case .unrecorded(_, let why) = event { bar.finish(); Terminal.error("error: \(why)") }
            }
            bar.update(done: done, label: URL(fileURLWithPath: label).lastPathComponent, failed: failures.value)
        }
    }

    /// The sandbox command line: this program, this command, --worker-child, and the arguments as given.
    private static func sandboxArguments<Command: WorkerModeCommand>(_: Command.Type) -> [String] {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return [executable, Command.configuration.commandName ?? Command._commandName, "--worker-child"] + Command.givenArguments
    }

    /// Opens /dev/null on standard input, output or error when one is closed, so that no file this process opens
    /// (the results file) takes its number and receives what is printed there.
    private static func keepStandardDescriptors() {
        for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 {
            let opened = open("/dev/null", O_RDWR)
            if opened >= 0 && opened != fd { dup2(opened, fd); close(opened) }
        }
    }

    /// host:pid.
    private static func defaultRunID() -> String {
        var name = [CChar](repeating: 0, count: 256)
        let host = gethostname(&name, name.count) == 0
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "localhost"
        return "\(host):\(getpid())"
    }
}
