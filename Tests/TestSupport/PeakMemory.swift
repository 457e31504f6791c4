import Foundation

extension ExternalTool {
    /// Runs the tool under GNU time (`/usr/bin/time`, Debian package `time`, installed by `make deps`) and returns
    /// its result with ``ProcessResult/maximumResidentBytes`` set to the tool's own peak resident set size.
    ///
    /// Why not `wait4`'s `ru_maxrss`: Linux starts a spawned child's high-water mark at its parent's (the child
    /// shares or copies the parent's memory until `exec`), so a test process of 400 MiB would see every tool it
    /// runs at 400 MiB. GNU time is a small process that forks and waits for the tool itself; what it reports is
    /// the larger of its own few MiB and the tool's peak. A tool ended by a signal is reported as such (time exits
    /// with 128 + the signal).
    public func runMeasuringPeakMemory(_ arguments: [String] = [], timeout: Double = 60, currentDirectory: URL? = nil,
                                       environment: [String: String] = [:]) throws -> ProcessResult {
        let time = try ExternalTool("/usr/bin/time")
        let scratch = try TemporaryDirectory(prefix: "rawburst-time", removeOnDeinit: true)
        defer { withExtendedLifetime(scratch) {} } // keep the report until it has been read
        let report = scratch.url.appendingPathComponent("time")
        let timed = try time.run(["-o", report.path, "-f", "peak %M KiB", url.path] + arguments, timeout: timeout,
                                 currentDirectory: currentDirectory, environment: environment)
        let lines = (try String(contentsOf: report, encoding: .utf8)).split(separator: "\n")
        guard let last = lines.last, last.hasPrefix("peak "), let kiB = Int(last.split(separator: " ")[1]) else {
            throw ExternalToolError.unexpectedOutput(tool: "time", reason: "no peak memory in its report",
                                                     output: lines.joined(separator: "\n"))
        }
        // "Command terminated by signal N" when the tool was killed.
        let signal = lines.first { $0.hasPrefix("Command terminated by signal ") }
            .flatMap { Int32($0.split(separator: " ").last ?? "") }
        return ProcessResult(command: [url.path] + arguments, exitStatus: signal ?? timed.exitStatus,
                             terminatedBySignal: signal != nil || timed.terminatedBySignal,
                             standardOutput: timed.standardOutput, standardError: timed.standardError,
                             duration: timed.duration, maximumResidentBytes: kiB * 1024)
    }
}
