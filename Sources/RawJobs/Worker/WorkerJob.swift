/// One job of the worker mode: a file to read, the file to write, its own options and limits.
public struct WorkerJob: Sendable, Hashable, Codable {
    /// The job's number in its manifest or folder (0-based, before sharding): what `--shard` divides.
    public let number: Int
    /// The manifest line it came from (1-based), or nil for a folder's file.
    public let line: Int?
    /// The file to read.
    public let input: String
    /// The file to write.
    public let output: String
    /// The job's own options, as command-line arguments added after the command line's (`["--wb", "daylight"]`).
    public let arguments: [String]
    /// The job's own limits (nil: the command line's).
    public let limits: JobLimits
    /// What decides the output's bytes, in words (`compression=lj92 preview=1024`): recorded in its results line, and
    /// `--resume` keeps an output only when the line's settings are the job's.
    public var settings: String = ""

    /// Creates a job.
    public init(number: Int, line: Int? = nil, input: String, output: String, arguments: [String] = [],
                limits: JobLimits = JobLimits()) {
        self.number = number
        self.line = line
        self.input = input
        self.output = output
        self.arguments = arguments
        self.limits = limits
    }
}

/// How long a job may run and how much memory its process may hold; nil is no limit.
public struct JobLimits: Sendable, Hashable, Codable {
    /// Wall-clock seconds.
    public var seconds: Double?
    /// Resident set size in bytes.
    public var memoryBytes: Int?

    /// Limits.
    public init(seconds: Double? = nil, memoryBytes: Int? = nil) {
        self.seconds = seconds
        self.memoryBytes = memoryBytes
    }

    /// These limits, each taken from `defaults` where this one is nil.
    public func over(_ defaults: JobLimits) -> JobLimits {
        JobLimits(seconds: seconds ?? defaults.seconds, memoryBytes: memoryBytes ?? defaults.memoryBytes)
    }
}

/// A deterministic share of a job list: `--shard K/N` takes job number i when i % N == K - 1, so the N shards of
/// one manifest or folder are disjoint and together are all of it, whatever machine computes them.
public struct WorkerShard: Sendable, Hashable, CustomStringConvertible {
    /// K, 1-based.
    public let index: Int
    /// N.
    public let count: Int

    /// Parses "K/N" with 1 ≤ K ≤ N; nil otherwise.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else { return nil }
        index = k
        count = n
    }

    /// Whether job number `number` is in this shard.
    public func contains(_ number: Int) -> Bool { number % count == index - 1 }

    public var description: String { "\(index)/\(count)" }
}
