/// What the worker mode sends its sandbox process for one job (one JSON line on the sandbox's standard input); the
/// sandbox answers with one ``JobOutcome`` line.
public struct SandboxRequest: Sendable, Codable, Hashable {
    /// The file to read.
    public var input: String
    /// The file to write.
    public var output: String
    /// The job's own options, added after the command line's.
    public var arguments: [String]
    /// Whether an existing output may be replaced.
    public var overwrite: Bool

    /// The line a sandbox writes once it is ready for its first request (its start-up is not a job's time).
    public static let readyLine = Array("ready".utf8)

    /// A request.
    public init(input: String, output: String, arguments: [String], overwrite: Bool) {
        self.input = input
        self.output = output
        self.arguments = arguments
        self.overwrite = overwrite
    }
}
