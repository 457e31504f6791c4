import ArgumentParser
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
}
