import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An executable found on `PATH`, and a way to run it with captured output and a timeout.
///
/// Output is captured through temporary files rather than pipes, so a tool that writes megabytes to both
/// stdout and stderr can never deadlock against a reader, and a grandchild that keeps a descriptor open
/// cannot keep a run from finishing. Each tool leads its own process group: a run that exceeds its timeout
/// has SIGTERM sent to the group, then SIGKILL 2 s later, so nothing it started outlives it.
///
/// ```swift
/// let result = try ExternalTool("exiftool").run(["-ver"])
/// #expect(result.succeeded)
/// ```
///
/// Many raw tools exit 0 on files they reject: helpers built on this type parse the output instead of
/// trusting `exitStatus` (see ``ExifTool``, ``RawIdentify``, ``DCRaw``).
public struct ExternalTool: Sendable, CustomStringConvertible {
    /// The name it was looked up by, e.g. `"exiftool"`.
    public let name: String
    /// The executable's location.
    public let url: URL

    /// Finds `name` on `PATH` (or takes it as a path when it contains a `/`).
    /// - Throws: ``ExternalToolError/notFound(_:)`` when there is no such executable.
    public init(_ name: String) throws {
        guard let url = ExternalTool.locate(name) else { throw ExternalToolError.notFound(name) }
        self.name = name
        self.url = url
    }

    /// The executable `name` on `PATH`, or nil. A name containing `/` is checked as a path.
    public static func locate(_ name: String) -> URL? {
        let fileManager = FileManager.default
        if name.contains("/") {
            return fileManager.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               fileManager.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        return nil
    }

    public var description: String { url.path }

    /// Runs the tool and waits for it (blocking the calling thread).
    ///
    /// - Parameters:
    ///   - arguments: Arguments, not interpreted by a shell.
    ///   - timeout: Seconds before the tool is killed and ``ExternalToolError/timedOut(command:seconds:standardOutput:standardError:)`` is thrown.
    ///   - currentDirectory: Working directory (default: this process's).
    ///   - environment: Variables added to (or replacing) this process's environment.
    ///   - input: Bytes fed to the tool's stdin (default: `/dev/null`).
    ///   - standardOutputFile: When given, stdout goes to this file (created or truncated) instead of
    ///     ``ProcessResult/standardOutput``: for tools that write images to stdout (`dcraw -c`).
    /// - Returns: Exit status and captured output; a non-zero exit status is not an error here.
    public func run(_ arguments: [String] = [], timeout: Double = 60, currentDirectory: URL? = nil,
                    environment: [String: String] = [:], input: Data? = nil,
                    standardOutputFile: URL? = nil) throws -> ProcessResult {
        try ProcessRunner.run(executable: url, arguments: arguments, timeout: timeout,
                              currentDirectory: currentDirectory, environment: environment, input: input,
                              standardOutputFile: standardOutputFile)
    }

    /// Runs the tool on a dedicated thread and suspends until it finishes, so that waiting never blocks
    /// a thread of Swift's cooperative pool. Same parameters and result as the synchronous `run`.
    public func run(_ arguments: [String] = [], timeout: Double = 60, currentDirectory: URL? = nil,
                    environment: [String: String] = [:], input: Data? = nil,
                    standardOutputFile: URL? = nil) async throws -> ProcessResult {
        let url = self.url
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result {
                    try ProcessRunner.run(executable: url, arguments: arguments, timeout: timeout,
                                          currentDirectory: currentDirectory, environment: environment,
                                          input: input, standardOutputFile: standardOutputFile)
                })
            }
            thread.name = "ExternalTool \(url.lastPathComponent)"
            thread.start()
        }
    }

    /// Locates `name` and runs it: shorthand for `try ExternalTool(name).run(arguments, ...)`.
    public static func run(_ name: String, _ arguments: [String] = [], timeout: Double = 60,
                           currentDirectory: URL? = nil, environment: [String: String] = [:],
                           input: Data? = nil, standardOutputFile: URL? = nil) throws -> ProcessResult {
        try ExternalTool(name).run(arguments, timeout: timeout, currentDirectory: currentDirectory,
                                   environment: environment, input: input, standardOutputFile: standardOutputFile)
    }
}

/// What a finished run of an external tool produced.
public struct ProcessResult: Sendable, CustomStringConvertible {
    /// Executable path followed by the arguments.
    public let command: [String]
    /// The exit status, or the signal number when ``terminatedBySignal`` is true.
    public let exitStatus: Int32
    /// True when the tool was ended by a signal (a crash) rather than exiting.
    public let terminatedBySignal: Bool
    /// Everything written to stdout (empty when it was sent to a file).
    public let standardOutput: Data
    /// Everything written to stderr.
    public let standardError: Data
    /// Wall-clock seconds from launch to exit.
    public let duration: Double
    /// The tool's peak resident set size in bytes, when the run measured it
    /// (``ExternalTool/runMeasuringPeakMemory(_:timeout:currentDirectory:environment:)``), else nil.
    public let maximumResidentBytes: Int?

    /// Creates a result (normally done by ``ExternalTool/run(_:timeout:currentDirectory:environment:input:standardOutputFile:)``).
    public init(command: [String], exitStatus: Int32, terminatedBySignal: Bool, standardOutput: Data,
                standardError: Data, duration: Double, maximumResidentBytes: Int? = nil) {
        self.command = command
        self.exitStatus = exitStatus
        self.terminatedBySignal = terminatedBySignal
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.duration = duration
        self.maximumResidentBytes = maximumResidentBytes
    }

    /// stdout as UTF-8 text (invalid bytes replaced).
    public var stdout: String { String(decoding: standardOutput, as: UTF8.self) }
    /// stderr as UTF-8 text (invalid bytes replaced).
    public var stderr: String { String(decoding: standardError, as: UTF8.self) }
    /// True when the tool exited normally with status 0 (which, for many raw tools, proves little).
    public var succeeded: Bool { !terminatedBySignal && exitStatus == 0 }

    /// The command as one shell-like line, for messages.
    public var commandLine: String { command.map(shellQuoted).joined(separator: " ") }

    public var description: String {
        let how = terminatedBySignal ? "killed by signal \(exitStatus)" : "exit status \(exitStatus)"
        return "\(commandLine): \(how) after \(String(format: "%.2f", duration)) s"
            + (standardError.isEmpty ? "" : "; stderr: \(excerpt(stderr))")
    }

    /// Throws ``ExternalToolError/failed(_:)`` unless the tool exited with status 0; returns self.
    @discardableResult
    public func requireSuccess() throws -> ProcessResult {
        guard succeeded else { throw ExternalToolError.failed(self) }
        return self
    }
}

/// Why an external tool could not be used.
public enum ExternalToolError: Error, Sendable, CustomStringConvertible {
    /// No executable of that name on `PATH` (install it with `make deps`).
    case notFound(String)
    /// The executable exists but could not be started.
    case launchFailed(command: [String], reason: String)
    /// The tool ran longer than allowed and was killed; what it wrote so far is attached.
    case timedOut(command: [String], seconds: Double, standardOutput: String, standardError: String)
    /// The tool exited with a non-zero status (or a signal) where success was required.
    case failed(ProcessResult)
    /// The tool ran but its output says it rejected the input, or cannot be parsed.
    case unexpectedOutput(tool: String, reason: String, output: String)
    /// A helper was called with arguments it cannot use.
    case invalidArgument(String)

    public var description: String {
        switch self {
        case .notFound(let name):
            return "\(name) is not installed (not found on PATH); run `make deps`"
        case .launchFailed(let command, let reason):
            return "could not start \(command.map(shellQuoted).joined(separator: " ")): \(reason)"
        case .timedOut(let command, let seconds, let out, let err):
            return "\(command.map(shellQuoted).joined(separator: " ")) did not finish within \(seconds) s and was killed"
                + (out.isEmpty ? "" : "; stdout: \(excerpt(out))") + (err.isEmpty ? "" : "; stderr: \(excerpt(err))")
        case .failed(let result):
            return "failed: \(result)" + (result.standardOutput.isEmpty ? "" : "; stdout: \(excerpt(result.stdout))")
        case .unexpectedOutput(let tool, let reason, let output):
            return "\(tool): \(reason)" + (output.isEmpty ? "" : "; output: \(excerpt(output))")
        case .invalidArgument(let reason):
            return "invalid argument: \(reason)"
        }
    }
}

/// The first and last part of a long text, for error messages.
func excerpt(_ text: String, limit: Int = 2000) -> String {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard trimmed.count > limit else { return trimmed }
    return String(trimmed.prefix(limit / 2)) + " [...] " + String(trimmed.suffix(limit / 2))
}

/// Quotes a word for display the way a POSIX shell would need it.
func shellQuoted(_ word: String) -> String {
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%")
    if !word.isEmpty, word.allSatisfy({ safe.contains($0) }) { return word }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// Runs one process with output captured through temporary files.
///
/// Built on `posix_spawn` rather than Foundation's `Process` so that the tool leads a new process group
/// (a timeout kills the tool and everything it started) and so that waiting depends only on the tool's own
/// exit (`waitpid`), never on descriptors a grandchild may keep open.
enum ProcessRunner {
    static func run(executable: URL, arguments: [String], timeout: Double, currentDirectory: URL?,
                    environment: [String: String], input: Data?, standardOutputFile: URL?) throws -> ProcessResult {
        let command = [executable.path] + arguments
        guard timeout > 0, timeout.isFinite else {
            throw ExternalToolError.invalidArgument("timeout \(timeout) s must be a positive number")
        }
        let scratch = try TemporaryDirectory(prefix: "rawburst-run", removeOnDeinit: true)
        defer { withExtendedLifetime(scratch) {} } // keep the files until they have been read
        let outURL = standardOutputFile ?? scratch.url.appendingPathComponent("stdout")
        let errURL = scratch.url.appendingPathComponent("stderr")
        var inPath = "/dev/null"
        if let input {
            let inURL = scratch.url.appendingPathComponent("stdin")
            try input.write(to: inURL)
            inPath = inURL.path
        }

        var argv = command
        if let currentDirectory, Spawn.addChdir == nil {
            // Without posix_spawn_file_actions_addchdir_np, let a shell change directory and exec the tool.
            argv = ["/bin/sh", "-c", "cd -- \"$0\" && exec \"$@\"", currentDirectory.path] + command
        }
        let env = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
            .map { "\($0.key)=\($0.value)" }

        let start = DispatchTime.now()
        let pid = try Spawn.spawn(path: argv[0], arguments: argv, environment: env, stdin: inPath,
                                  stdout: outURL.path, stderr: errURL.path,
                                  directory: Spawn.addChdir == nil ? nil : currentDirectory?.path)

        // A dedicated thread waits for the exit, so the caller can wait with a timeout.
        let status = Mutex<Int32?>(nil)
        let exited = DispatchSemaphore(value: 0)
        let waiter = Thread {
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
            status.withLock { $0 = raw }
            exited.signal()
        }
        waiter.name = "ExternalTool wait \(executable.lastPathComponent)"
        waiter.start()

        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(-pid, SIGTERM) // the whole process group
            if exited.wait(timeout: .now() + 2) == .timedOut {
                kill(-pid, SIGKILL)
                exited.wait()
            }
            kill(-pid, SIGKILL) // whatever the tool started and left behind
        }
        let duration = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let raw = status.withLock { $0 } ?? 0

        let standardOutput = standardOutputFile == nil ? ((try? Data(contentsOf: outURL)) ?? Data()) : Data()
        let standardError = (try? Data(contentsOf: errURL)) ?? Data()
        if timedOut {
            throw ExternalToolError.timedOut(command: command, seconds: timeout,
                                             standardOutput: String(decoding: standardOutput, as: UTF8.self),
                                             standardError: String(decoding: standardError, as: UTF8.self))
        }
        // Decode the wait status (the W* macros do not import into Swift).
        let signal = raw & 0x7f
        return ProcessResult(command: command, exitStatus: signal == 0 ? (raw >> 8) & 0xff : signal,
                             terminatedBySignal: signal != 0, standardOutput: standardOutput,
                             standardError: standardError, duration: duration)
    }
}

/// Thin wrapper over `posix_spawn`.
enum Spawn {
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    // GNU extensions (glibc 2.29 and 2.34) that Swift's Glibc module does not declare: looked up at run time.
    static let addChdir: AddChdir? = symbol("posix_spawn_file_actions_addchdir_np")
    static let addClosefrom: AddClosefrom? = symbol("posix_spawn_file_actions_addclosefrom_np")

    private static func symbol<T>(_ name: String) -> T? {
        guard let handle = dlopen(nil, RTLD_NOW), let pointer = dlsym(handle, name) else { return nil }
        return unsafeBitCast(pointer, to: T.self)
    }

    /// Starts `path` with `arguments` (argv[0] included) as the leader of a new process group, with
    /// stdin/stdout/stderr opened on the given files, default signal handling, and no other descriptors.
    static func spawn(path: String, arguments: [String], environment: [String], stdin: String, stdout: String,
                      stderr: String, directory: String?) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = addClosefrom?(&actions, 3)
        if let directory, let addChdir {
            _ = addChdir(&actions, directory)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2] {
            sigaddset(&defaults, sig)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard rc == 0 else {
            throw ExternalToolError.launchFailed(command: arguments, reason: String(cString: strerror(rc)))
        }
        return pid
    }
}
