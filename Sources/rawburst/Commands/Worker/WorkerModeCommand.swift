import ArgumentParser
import Foundation
import RawBurst

/// A batch command that also runs as a worker (`convert`, `develop`, `analyze`): its files become jobs that sandbox
/// processes of the same command run one at a time (docs/worker.md).
protocol WorkerModeCommand: ParsableCommand {
    /// The worker mode's options.
    var worker: WorkerOptions { get }
    /// The inputs, for a run over files and folders instead of a manifest.
    var input: InputOptions { get }
    /// How it reports.
    var reporting: ReportOptions { get }
    /// Sandboxes at once (the command's -j).
    var workerSlots: Int { get }
    /// Where jobs planned from files and folders write (nil when the command plans only from manifests).
    var folderPlanOutput: (directory: String, extension: String)? { get }
    /// Whether existing outputs may be replaced (--overwrite).
    var replacesOutputs: Bool { get }
    /// Refuses, in one line, what the command cannot do as a worker.
    func checkWorkerMode() throws
    /// Refuses, in one line, settings that cannot work for a job writing `output`.
    func checkJob(output: String) throws
    /// What decides the bytes of `output` with these options, in words (recorded per job; `--resume` keeps an output
    /// only when it was made with the same).
    func outputSettings(output: String) -> String
    /// Runs one job in this process (a sandbox) with `threads` threads; never throws.
    func runJob(_ request: SandboxRequest, threads: Int) -> JobOutcome
}

extension WorkerModeCommand {
    /// This command's arguments as given (after `rawburst COMMAND`), the base of every job's own.
    static var givenArguments: [String] {
        let all = CommandLine.arguments
        guard let at = all.dropFirst().firstIndex(of: configuration.commandName ?? _commandName) else { return Array(all.dropFirst()) }
        return Array(all[(at + 1)...])
    }

    /// The command's options with a job's own added, parsed and checked as a command line (and as a worker's); a
    /// refusal is one line.
    static func parse(job arguments: [String], output: String) throws -> Self {
        let command: Self
        do { command = try parse(givenArguments.filter { $0 != "--worker-child" } + arguments) } catch {
            throw BadValue(RawburstCommand.refusal(of: error) ?? "\(error)")
        }
        try command.checkWorkerMode()
        try command.checkJob(output: output)
        return command
    }
}
