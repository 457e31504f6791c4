import Foundation
import RawCore
import Synchronization

/// One sandbox: a child process of the worker that runs one job at a time, so that a job that hangs, grows without
/// bound or crashes a decoder costs its own process, never the worker. The parent writes a request line to the
/// child's standard input and waits for one answer line on its standard output, watching the clock and the child's
/// resident memory; past a limit it kills the child (SIGKILL). The child's standard error is the worker's.
/// Owner: one worker job thread (not shared).
final class SandboxProcess {
    /// How the wait for an answer ended.
    enum Answer {
        /// The answer line.
        case line([UInt8])
        /// The time limit passed; the child was killed.
        case timedOut
        /// The child's resident memory passed the limit (the size seen); the child was killed.
        case overMemory(Int)
        /// The child ended without answering: killed by this signal, or exited with this status.
        case died(signal: Int32?, status: Int32?)
    }

    let pid: pid_t
    private let toChild: Int32
    private let fromChild: Int32
    private var lines = PipeLines()
    private var reaped = false

    /// Starts `executable` with `arguments` (argv[0] included), its standard input and output piped to this process.
    init(executable: String, arguments: [String]) throws(SandboxError) {
        // One spawn at a time: a pipe is close-on-exec only from fcntl on, and a child started by another thread in
        // between would hold its ends open (and a dead sandbox's output would never end).
        let (child, toChild, fromChild) = try Self.spawning.withLock { _ throws(SandboxError) in
            try Self.spawn(executable: executable, arguments: arguments)
        }
        pid = child
        self.toChild = toChild
        self.fromChild = fromChild
    }

    private static let spawning = Mutex(())

    /// Starts the child with two new pipes; its pid, the pipe to its standard input and the one from its output.
    private static func spawn(executable: String, arguments: [String]) throws(SandboxError) -> (pid_t, Int32, Int32) {
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1]
        guard pipe(&input) == 0 else { throw SandboxError("cannot create a pipe: \(FileError.errnoText())") }
        guard pipe(&output) == 0 else {
            close(input[0]); close(input[1])
            throw SandboxError("cannot create a pipe: \(FileError.errnoText())")
        }
        for fd in input + output { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        var child: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawn(&child, executable, &actions, nil, argv, environ)
        close(input[0])
        close(output[1])
        guard status == 0 else {
            close(input[1]); close(output[0])
            throw SandboxError("cannot start \(executable): \(String(cString: strerror(status)))")
        }
        return (child, input[1], output[0])
    }

    deinit {
        close(toChild)
        close(fromChild)
        if !reaped { kill(pid, SIGKILL); reap() }
    }

    /// Waits (up to `seconds`) for the child's ready line; nil when it came, else how the child ended (it is killed
    /// when it is still running), so a job's clock never counts a sandbox's start-up.
    func waitUntilReady(seconds: Double = 120) -> Answer? {
        let answer = self.answer(within: JobLimits(seconds: seconds))
        if case .line(let line) = answer, line == SandboxRequest.readyLine { return nil }
        stop()
        return answer
    }

    /// Sends one request line (the line feed is added); false when the child is gone.
    func send(_ line: [UInt8]) -> Bool { PipeLines.write(line, to: toChild) }

    /// Waits for the answer line, killing the child past `limits` (checked every 10 ms).
    func answer(within limits: JobLimits) -> Answer {
        let start = MonotonicClock.nanoseconds()
        while true {
            if let line = lines.next() { return .line(line) }
            if let seconds = limits.seconds, Double(MonotonicClock.nanoseconds() - start) / 1e9 > seconds {
                stop()
                return .timedOut
            }
            if let limit = limits.memoryBytes, let resident = ProcessMemory.resident(of: pid), resident > limit {
                stop()
                return .overMemory(resident)
            }
            var poller = pollfd(fd: fromChild, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 10)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            if lines.receive(from: fromChild) { continue }
            return reap()
        }
    }

    /// The end of a child that a request could not be sent to: it died (how), or it is killed after a second.
    func answerAfterFailedSend() -> Answer {
        for _ in 0..<100 {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                reaped = true
                return Self.ending(status)
            }
            usleep(10_000)
        }
        stop()
        return .died(signal: nil, status: nil)
    }

    /// Kills the child and waits for it.
    func stop() {
        guard !reaped else { return }
        kill(pid, SIGKILL)
        reap()
    }

    /// Waits for the child to end: how it ended.
    @discardableResult
    private func reap() -> Answer {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
        return Self.ending(status)
    }

    /// A wait status as the signal that ended the child, or its exit status.
    private static func ending(_ status: Int32) -> Answer {
        let signal = status & 0x7f
        return signal == 0 ? .died(signal: nil, status: (status >> 8) & 0xff) : .died(signal: signal, status: nil)
    }
}

/// The domain of `SandboxError`.
public enum SandboxErrorDomain {}

/// A sandbox process that cannot be started, in one line.
public typealias SandboxError = MessageError<SandboxErrorDomain>
