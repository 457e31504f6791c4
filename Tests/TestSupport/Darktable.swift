import Foundation

/// darktable's headless exporter, `darktable-cli`: the strictest raw/DNG decoder available here (it rejects
/// files the other tools accept, and exits 1 when it does).
public enum Darktable {
    /// The executable's name.
    public static let executableName = "darktable-cli"

    /// The outcome of an export.
    public struct ExportResult: Sendable {
        /// The file darktable was asked to write.
        public let output: URL
        /// Its size in bytes (0 when it was not written).
        public let outputSize: Int
        /// darktable-cli's exit status and log.
        public let process: ProcessResult

        /// True only when darktable-cli exited 0 and the output exists with a non-zero size.
        public var succeeded: Bool { process.succeeded && outputSize > 0 }
        /// Everything darktable printed (stdout then stderr).
        public var log: String { process.stdout + process.stderr }
    }

    /// Develops `input` with darktable's defaults and exports it to `output` (format from its extension,
    /// e.g. `.jpg`), running `darktable-cli IN OUT --core --configdir DIR --cachedir DIR --tmpdir DIR` with
    /// fresh, private directories, so concurrent exports never share darktable's library database.
    ///
    /// - Parameter timeout: darktable is slow to start (several seconds); the default is 120 s.
    /// - Throws: ``ExternalToolError/invalidArgument(_:)`` when `output` already exists (darktable would
    ///   write a renamed file beside it); otherwise only when it cannot run or times out. Check
    ///   ``ExportResult/succeeded``.
    /// - Parameter coreArguments: darktable options placed after `--core`, e.g.
    ///   `["--conf", "plugins/imageio/format/tiff/bpp=32"]` for a float TIFF.
    public static func export(_ input: String, to output: URL, extraArguments: [String] = [],
                              coreArguments: [String] = [], timeout: Double = 120) throws -> ExportResult {
        guard !FileManager.default.fileExists(atPath: output.path) else {
            throw ExternalToolError.invalidArgument("\(output.path) already exists; darktable-cli would not replace it")
        }
        let state = try TemporaryDirectory(prefix: "rawburst-darktable", removeOnDeinit: true)
        defer { withExtendedLifetime(state) {} }
        let arguments = [input, output.path] + extraArguments + [
            "--core",
            "--configdir", try state.subdirectory("config").path,
            "--cachedir", try state.subdirectory("cache").path,
            "--tmpdir", try state.subdirectory("tmp").path,
        ] + coreArguments
        let result = try ExternalTool(executableName).run(arguments, timeout: timeout,
                                                          environment: ["HOME": state.path])
        let size = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? NSNumber)?.intValue ?? 0
        return ExportResult(output: output, outputSize: size, process: result)
    }

    /// Exports `input` (see ``export(_:to:extraArguments:timeout:)``).
    public static func export(_ input: URL, to output: URL, extraArguments: [String] = [],
                              timeout: Double = 120) throws -> ExportResult {
        try export(input.path, to: output, extraArguments: extraArguments, timeout: timeout)
    }
}
