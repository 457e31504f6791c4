import ArgumentParser
import Foundation
import RawBurst

/// The `rawburst` command line tool.
@main
struct RawburstCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rawburst",
        abstract: "Raw photography on Linux: capture bursts, convert camera raws to DNG, develop them, inspect raw files.",
        discussion: """
        Every command accepts --help. Output files are written atomically and never replace an existing
        file unless --overwrite is given. Commands that report accept --json for scripts.
        """,
        version: RawBurstVersion.string,
        subcommands: [ConvertCommand.self, DevelopCommand.self, AnalyzeCommand.self, InspectCommand.self, CaptureCommand.self, LiveViewCommand.self, RecoverCommand.self, StressCommand.self, SensorsCommand.self, StorageCommand.self, CamerasCommand.self]
    )

    /// Parses, validates and runs the command. Every refusal of the command line — a `BadValue` (an option's value
    /// or combination refused) or argument-parser's own (an unknown option, a missing or malformed value) — is one
    /// line, `rawburst COMMAND: MESSAGE`, and exit status 2; help, version and the commands' own exit statuses are
    /// argument-parser's.
    static func main() {
        StartupClock.mark(.main)
        var command: ParsableCommand
        do { command = try parseAsRoot(LiveOptions.normalised(Array(CommandLine.arguments.dropFirst()))) } catch { fail(error, command: nil) }
        do { try command.run() } catch { fail(error, command: type(of: command)._commandName) }
        exit()
    }

    private static func fail(_ error: Error, command: String?) -> Never {
        guard let message = refusal(of: error) else { exit(withError: error) }
        refuse(message, command: BadValue.unwrap(error)?.command ?? BadValue.commandName(in: error) ?? command)
    }

    /// The one line that names what is wrong with a command line — a `BadValue`, or argument-parser's refusal —
    /// or nil for an error that is not a refusal (help, version, an exit status).
    static func refusal(of error: Error) -> String? {
        if let (bad, _) = BadValue.unwrap(error) { return bad.message }
        guard exitCode(for: error) == .validationFailure else { return nil }
        // argument-parser's message may add lines of help and usage: the first line names the problem.
        let message = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
        return message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
    }

    private static func refuse(_ message: String, command: String?) -> Never {
        let name = command == configuration.commandName ? nil : command
        Terminal.error("rawburst" + (name.map { " \($0)" } ?? "") + ": \(message.oneLine)")
        Foundation.exit(2)
    }
}
