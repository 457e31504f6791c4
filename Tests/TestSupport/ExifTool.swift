import Foundation

/// Reads tags and runs the validator of Phil Harvey's ExifTool (`exiftool`, Debian `libimage-exiftool-perl`).
public enum ExifTool {
    /// The executable's name.
    public static let executableName = "exiftool"

    /// Every tag of `path`, from `exiftool -j -n -a -G1 -s FILE`: keys are qualified by their group,
    /// e.g. `"IFD0:Make"`, `"ExifIFD:ExposureTime"`, `"SubIFD:BlackLevel"`, `"GPS:GPSLatitude"`;
    /// values are numeric where ExifTool can give a number (`-n`), and multi-value tags are strings of
    /// numbers (read them with ``JSONValue/numbers``). With `-a`, a tag present twice in one group keeps the
    /// last value; pass `extraArguments` (e.g. `["-G1:2"]`) for more detail.
    ///
    /// - Throws: ``ExternalToolError/unexpectedOutput(tool:reason:output:)`` when ExifTool reports an error
    ///   for the file (missing, unreadable, unknown format) or prints something that is not its JSON.
    public static func tags(of path: String, extraArguments: [String] = [],
                            timeout: Double = 60) throws -> [String: JSONValue] {
        let result = try ExternalTool(executableName)
            .run(["-j", "-n", "-a", "-G1", "-s"] + extraArguments + ["--", path], timeout: timeout)
        let text = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            throw ExternalToolError.unexpectedOutput(tool: executableName,
                reason: "no tags for \(path) (exit status \(result.exitStatus))", output: result.stderr)
        }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: text)
        } catch {
            throw ExternalToolError.unexpectedOutput(tool: executableName, reason: "output is not JSON: \(error)",
                                                     output: text)
        }
        guard let object = document[0]?.object else {
            throw ExternalToolError.unexpectedOutput(tool: executableName, reason: "expected an array of one object",
                                                     output: text)
        }
        if let error = object["ExifTool:Error"]?.string {
            throw ExternalToolError.unexpectedOutput(tool: executableName, reason: "\(path): \(error)", output: result.stderr)
        }
        return object
    }

    /// Every tag of `url` (see ``tags(of:extraArguments:timeout:)``).
    public static func tags(of url: URL, extraArguments: [String] = [], timeout: Double = 60) throws -> [String: JSONValue] {
        try tags(of: url.path, extraArguments: extraArguments, timeout: timeout)
    }

    /// The problems `exiftool -validate -warning -error -a -s FILE` finds, one string per problem such as
    /// `"Warning: [minor] Invalid date/time format for EXIF:ModifyDate"`; empty when it prints `Validate : OK`.
    ///
    /// ExifTool exits 0 whatever it finds, so this reads its output.
    /// - Throws: ``ExternalToolError/unexpectedOutput(tool:reason:output:)`` when there is no `Validate`
    ///   line at all (the file is missing or not readable).
    public static func validate(_ path: String, timeout: Double = 60) throws -> [String] {
        let result = try ExternalTool(executableName)
            .run(["-validate", "-warning", "-error", "-a", "-s", "--", path], timeout: timeout)
        var verdict: String?
        var problems: [String] = []
        for line in result.stdout.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "Validate" {
                verdict = value
            } else if name.hasPrefix("Warning") || name.hasPrefix("Error") {
                problems.append("\(name): \(value)")
            }
        }
        guard let verdict else {
            throw ExternalToolError.unexpectedOutput(tool: executableName,
                reason: "no Validate line for \(path)", output: result.stdout + result.stderr)
        }
        if verdict != "OK" && problems.isEmpty {
            problems.append("Validate: \(verdict)") // a verdict without detail lines is still a finding
        }
        return problems
    }

    /// The problems ExifTool's validator finds in `url` (see ``validate(_:timeout:)``).
    public static func validate(_ url: URL, timeout: Double = 60) throws -> [String] {
        try validate(url.path, timeout: timeout)
    }

    /// The installed ExifTool version, e.g. `"12.57"`.
    public static func version() throws -> String {
        try ExternalTool(executableName).run(["-ver"]).requireSuccess().stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
