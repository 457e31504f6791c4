import Foundation

/// Dave Coffin's `dcraw` (9.28 in Debian 12): identification and decoding, as an independent second reader.
public enum DCRaw {
    /// The executable's name.
    public static let executableName = "dcraw"

    /// Runs `dcraw -i -v FILE` and parses what it prints.
    ///
    /// dcraw exits 1 when it does not recognise a file as a raw it can decode.
    /// - Throws: ``ExternalToolError/unexpectedOutput(tool:reason:output:)`` in that case (the message holds
    ///   dcraw's stderr and what it printed before giving up).
    public static func identify(_ path: String, timeout: Double = 60) throws -> IdentifyReport {
        let result = try ExternalTool(executableName).run(["-i", "-v", path], timeout: timeout)
        guard result.succeeded else {
            let reason = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            throw ExternalToolError.unexpectedOutput(tool: executableName,
                reason: "cannot decode \(path) (exit status \(result.exitStatus))" + (reason.isEmpty ? "" : ": \(reason)"),
                output: result.stdout)
        }
        return IdentifyReport(tool: executableName, output: result.stdout)
    }

    /// Runs `dcraw -i -v` on `url` (see ``identify(_:timeout:)``).
    public static func identify(_ url: URL, timeout: Double = 60) throws -> IdentifyReport {
        try identify(url.path, timeout: timeout)
    }

    /// How to decode.
    public enum Mode: Sendable, Hashable {
        /// `-T`: a developed 8-bit RGB TIFF (demosaiced, white-balanced with dcraw's defaults, sRGB).
        case developed
        /// `-4 -D -T`: the raw mosaic as a 16-bit grey TIFF, unscaled and without black subtraction
        /// (dcraw's "document mode"), for bit-exact comparisons.
        case rawMosaic16

        var arguments: [String] {
            switch self {
            case .developed: ["-T"]
            case .rawMosaic16: ["-4", "-D", "-T"]
            }
        }
    }

    /// The outcome of a decode.
    public struct DecodeResult: Sendable {
        /// The TIFF dcraw wrote.
        public let output: URL
        /// Its size in bytes (0 when it was not written).
        public let outputSize: Int
        /// dcraw's exit status and stderr.
        public let process: ProcessResult

        /// True when dcraw exited 0 and wrote a non-empty file. dcraw also exits 0 on many damaged files
        /// (zero-filling what is missing): compare pixels to know more.
        public var succeeded: Bool { process.succeeded && outputSize > 0 }
        /// dcraw's messages (warnings such as `Unexpected end of file` appear here even on success).
        public var messages: String { process.stderr }
    }

    /// Decodes `path` with `dcraw -c` in `mode` into the TIFF file `output` (created or replaced).
    /// Check ``DecodeResult/succeeded``; this throws only when dcraw cannot be run or times out.
    public static func decode(_ path: String, mode: Mode = .developed, to output: URL,
                              extraArguments: [String] = [], timeout: Double = 120) throws -> DecodeResult {
        let result = try ExternalTool(executableName)
            .run(mode.arguments + extraArguments + ["-c", path], timeout: timeout, standardOutputFile: output)
        let size = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? NSNumber)?.intValue ?? 0
        return DecodeResult(output: output, outputSize: size, process: result)
    }

    /// Decodes `url` (see ``decode(_:mode:to:extraArguments:timeout:)``).
    public static func decode(_ url: URL, mode: Mode = .developed, to output: URL,
                              extraArguments: [String] = [], timeout: Double = 120) throws -> DecodeResult {
        try decode(url.path, mode: mode, to: output, extraArguments: extraArguments, timeout: timeout)
    }
}
