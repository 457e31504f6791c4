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
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let ready = SandboxRequest.readyLine + [UInt8(ascii: "\n")]
        guard ready.withUnsafeBytes({ write(answers, $0.baseAddress, $0.count) }) == ready.count else { exit(0) }
        while true {
            guard let end = pending.firstIndex(of: UInt8(ascii: "\n")) else {
                let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { exit(0) }
                pending += chunk.prefix(n)
                continue
            }
            let line = Data(pending[..<end])
            pending.removeSubrange(...end)
            let outcome: JobOutcome
            if let request = try? decoder.decode(SandboxRequest.self, from: line) {
                outcome = run(request, as: Command.self, threads: threads)
            } else {
                outcome = .failure(.crashed, "the worker's sandbox received a request it cannot read", seconds: 0)
            }
            guard var answer = try? encoder.encode(outcome) else { exit(3) }
            answer.append(UInt8(ascii: "\n"))
            guard answer.withUnsafeBytes({ write(answers, $0.baseAddress, $0.count) }) == answer.count else { exit(0) }
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
