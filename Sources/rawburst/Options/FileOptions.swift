import ArgumentParser
import Foundation
import RawBurst

/// The raw files a batch command reads: the same argument and flag in `convert`, `develop` and `analyze`.
struct InputOptions: ParsableArguments {
    @Argument(help: "Raw files or directories (none with --manifest).")
    var inputs: [String] = []

    @Flag(name: .shortAndLong, help: "Search input directories recursively.")
    var recursive = false

    @Flag(name: .customLong("all-files"),
          help: "In input directories, try every file, not only known raw file extensions: LibRaw decides by content, and a file it cannot read is reported as failed.")
    var allFiles = false
}

/// Where a batch command writes: the same flags in `convert` and `develop`.
struct OutputOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "Output file (one input) or existing directory (not with --manifest: each job names its output).")
    var output: String?

    @Flag(help: "Replace existing output files (never an input or another output, whatever path names it: compared by device and inode).")
    var overwrite = false

    /// An empty -o names no file.
    func validate() throws {
        if let output, output.isEmpty { throw BadValue("-o: the output path is empty") }
    }

    /// The output path; without one, a refusal naming -o.
    func required() throws -> String {
        guard let output else { throw BadValue("-o is needed: the output file or directory (or --manifest, whose jobs name theirs)") }
        return output
    }

    /// As a worker: -o is the folder of the files' jobs, and has no place beside a manifest, whose jobs name theirs.
    func checkWorkerMode(manifest: String?) throws {
        if manifest == nil {
            _ = try required()
        } else if output != nil {
            throw BadValue("-o: with --manifest each job names its output")
        }
    }

    /// The conversion plan of `input` into this output (files named with `outputExtension`), its directories
    /// created; a refusal is one line, exit status 2.
    func plan(_ input: InputOptions, outputExtension: String = "dng") throws -> ConversionPlan {
        let output = try required()
        do {
            let plan = try ConversionPlan(inputs: input.inputs, output: output, recursive: input.recursive, overwrite: overwrite,
                                          outputExtension: outputExtension, allFiles: input.allFiles)
            for directory in plan.outputDirectories where !FileManager.default.fileExists(atPath: directory) {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            return plan
        } catch let error as ConversionPlanError {
            throw BadValue(error.message)
        } catch {
            throw BadValue("cannot create output directories: \(error.localizedDescription)")
        }
    }
}

/// How a batch command reports: the same flags in `convert`, `develop` and `analyze`.
struct ReportOptions: ParsableArguments {
    @Flag(help: "Print a JSON report on standard output instead of text.")
    var json = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    /// Whether a progress bar is drawn (standard error is a terminal, and the output is for a person).
    var showsProgress: Bool { Terminal.stderrIsTerminal && !json && !quiet }
}
