import Foundation
import RawBurst

/// A worker's sandbox process (`rawburst COMMAND ... --worker-child`): reads one ``SandboxRequest`` line at a time on
/// standard input, runs it with the command's options and the job's own, and answers one ``JobOutcome`` line. It
/// exits at the end of its input, and at once when the worker that started it is gone (so a worker killed by its
/// engine leaves no process writing behind it).
enum SandboxLoop {
    static func serve<Command: WorkerModeCommand>(_ command: Command) -> Never {
        // Answers go to a private copy of standard output; anything a library prints goes to standard error.
        let answers = dup(1)
        dup2(2, 1)
        watchParent()
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let threads = max(1, cores / max(1, command.workerSlots))
        let decoder = JSONDecoder()
        let encoder = JSONEncoder()
        var requests = PipeLines()
        guard PipeLines.write(SandboxRequest.readyLine, to: answers) else { exit(0) }
        while true {
            guard let line = requests.next() else {
                guard requests.receive(from: 0) else { exit(0) }
                continue
            }
            let outcome: JobOutcome
            if let request = try? decoder.decode(SandboxRequest.self, from: Data(line)) {
                outcome = run(request, as: Command.self, threads: threads)
            } else {
                outcome = .failure(.crashed, "the worker's sandbox received a request it cannot read", seconds: 0)
            }
            guard let answer = try? encoder.encode(outcome) else { exit(3) }
            guard PipeLines.write(Array(answer), to: answers) else { exit(0) }
        }
    }

    /// One job: its options parsed, its peak memory measured.
    private static func run<Command: WorkerModeCommand>(_ request: SandboxRequest, as _: Command.Type, threads: Int) -> JobOutcome {
        let command: Command
        do { command = try Command.parse(job: request.arguments, output: request.output) } catch {
            return .failure(.invalidValue, "\(request.input): \(error)", seconds: 0)
        }
        ProcessMemory.resetPeak()
        var outcome = command.runJob(request, threads: threads)
        outcome.peakMemory = ProcessMemory.peak()
        return outcome
    }

    /// Ends this process within 100 ms of its parent's end (it is then adopted by another process).
    private static func watchParent() {
        let parent = getppid()
        let thread = Thread {
            while getppid() == parent { usleep(100_000) }
            _exit(4)
        }
        thread.stackSize = 64 << 10
        thread.start()
    }
}
