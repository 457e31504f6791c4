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
        subcommands: [ConvertCommand.self, DevelopCommand.self, AnalyzeCommand.self, InspectCommand.self, CaptureCommand.self, RecoverCommand.self, StressCommand.self, SensorsCommand.self]
    )

    /// Parses, validates and runs the command. A `BadValue` (an option's value or combination refused) is one line,
    /// `rawburst COMMAND: MESSAGE`, and exit status 2; everything else is argument-parser's (64 for a malformed
    /// command line).
    static func main() {
        var command: ParsableCommand
        do { command = try parseAsRoot() } catch { fail(error, command: nil) }
        do { try command.run() } catch { fail(error, command: type(of: command)._commandName) }
        exit()
    }

    private static func fail(_ error: Error, command: String?) -> Never {
        guard let (bad, found) = BadValue.unwrap(error) else { exit(withError: error) }
        let name = found ?? command
        Terminal.error("rawburst" + (name.map { " \($0)" } ?? "") + ": \(bad.message)")
        Foundation.exit(2)
    }
}
