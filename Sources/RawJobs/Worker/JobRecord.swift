import Foundation
import RawDigest
import RawFiles

/// Whether a job's output was written.
public enum JobStatus: String, Sendable, Codable, Hashable {
    case ok
    case failed
}

/// Why a job failed, as the worker mode's results name it (`error.kind`).
public enum JobFailureKind: String, Sendable, Codable, Hashable, CaseIterable {
    /// The reader's kinds (`RawReadError/Kind`).
    case fileNotFound = "file-not-found"
    case notReadable = "not-readable"
    case notARaw = "not-a-raw"
    case unsupported
    case truncated
    case corrupt
    case invalidValue = "invalid-value"
    /// The output exists and neither `--overwrite` nor `--resume` allows replacing it.
    case exists
    /// The output could not be written (or, for pictures, encoded).
    case writeFailed = "write-failed"
    /// The job ran longer than its time limit; its process was killed.
    case timeout
    /// The job's process grew beyond its memory limit and was killed.
    case memoryLimit = "memory-limit"
    /// The job's process died by a signal nobody sent it (a crash in a decoder), or exited without an answer.
    case crashed
}

/// A failed job's kind and its one-line message.
public struct JobError: Sendable, Codable, Hashable {
    public var kind: JobFailureKind
    public var message: String

    public init(kind: JobFailureKind, message: String) {
        self.kind = kind
        self.message = message
    }
}

/// How `digest` was computed.
public enum OutputDigestKind: String, Sendable, Codable, Hashable {
    /// The DNG's NewRawImageDigest tag (MD5 of its raw samples, as Adobe's DNG SDK checks it).
    case newRawImageDigest = "NewRawImageDigest"
    /// SHA-256 of the whole file (pictures, analyses, and DNGs copied as they are).
    case sha256 = "SHA-256"
}

/// What one job did, as the process that ran it reports it (the worker mode's sandbox answers with this).
public struct JobOutcome: Sendable, Codable, Hashable {
    public var status: JobStatus
    /// converted, copied-as-is, developed or analyzed (nil when the job failed).
    public var action: String?
    /// Bytes written.
    public var bytes: Int?
    /// Wall-clock seconds of the job.
    public var seconds: Double
    /// The peak resident set size of the process during the job, in bytes.
    public var peakMemory: Int?
    public var digestKind: OutputDigestKind?
    /// The output's digest as hex (see `digestKind`).
    public var digest: String?
    /// SHA-256 of the whole output file as hex.
    public var sha256: String?
    public var error: JobError?
    public var warnings: [String]

    /// A failure without output.
    public static func failure(_ kind: JobFailureKind, _ message: String, seconds: Double, peakMemory: Int? = nil) -> JobOutcome {
        JobOutcome(status: .failed, action: nil, bytes: nil, seconds: seconds, peakMemory: peakMemory, digestKind: nil,
                   digest: nil, sha256: nil, error: JobError(kind: kind, message: message), warnings: [])
    }

    /// A success: the output's size and SHA-256 are read back from disk (`digest` nil: the SHA-256 is the digest).
    public static func success(action: String, output: String, seconds: Double, digest: (OutputDigestKind, String)? = nil,
                               warnings: [String]) -> JobOutcome {
        guard let sha = FileSHA256.hex(ofFileAt: output) else {
            return failure(.writeFailed, "\(output): written, but cannot be read back", seconds: seconds)
        }
        var st = stat()
        let size = stat(output, &st) == 0 ? Int(st.st_size) : nil
        let (kind, value) = digest ?? (.sha256, sha)
        return JobOutcome(status: .ok, action: action, bytes: size, seconds: seconds, peakMemory: nil, digestKind: kind,
                          digest: value, sha256: sha, error: nil, warnings: warnings)
    }
}

/// One line of the worker mode's results (`--results FILE`, JSON lines): a job, what it did, and which run did it.
/// Every field is written, `null` when it does not apply.
public struct JobRecord: Sendable, Codable, Hashable {
    public var input: String
    public var output: String
    /// The job's number in its manifest or folder (0-based, before sharding).
    public var job: Int
    /// Who ran it: `--run-id`, or host:pid.
    public var run: String
    /// When it finished (ISO 8601, UTC).
    public var finished: String
    /// What decided the output's bytes (``WorkerJob/settings``); empty in lines written before it was recorded.
    public var settings: String
    public var outcome: JobOutcome

    public init(job: WorkerJob, outcome: JobOutcome, run: String, finished: Date = Date()) {
        input = job.input
        output = job.output
        self.job = job.number
        self.run = run
        self.finished = JobRecord.timestamp(finished)
        settings = job.settings
        self.outcome = outcome
    }

    private enum Keys: String, CodingKey {
        case input, output, job, run, finished, settings, status, action, bytes, seconds, peakMemory, digestKind, digest, sha256, error,
             warnings
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        input = try c.decode(String.self, forKey: .input)
        output = try c.decode(String.self, forKey: .output)
        job = try c.decode(Int.self, forKey: .job)
        run = try c.decode(String.self, forKey: .run)
        finished = try c.decode(String.self, forKey: .finished)
        settings = try c.decodeIfPresent(String.self, forKey: .settings) ?? ""
        outcome = try JobOutcome(from: decoder)
    }

    /// Every key, `null` for what does not apply, so a reader never has to guess whether a key is missing.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(input, forKey: .input)
        try c.encode(output, forKey: .output)
        try c.encode(job, forKey: .job)
        try c.encode(run, forKey: .run)
        try c.encode(finished, forKey: .finished)
        try c.encode(settings, forKey: .settings)
        try c.encode(outcome.status, forKey: .status)
        try c.encode(outcome.action, forKey: .action)
        try c.encode(outcome.bytes, forKey: .bytes)
        try c.encode((outcome.seconds * 1000).rounded() / 1000, forKey: .seconds)
        try c.encode(outcome.peakMemory, forKey: .peakMemory)
        try c.encode(outcome.digestKind, forKey: .digestKind)
        try c.encode(outcome.digest, forKey: .digest)
        try c.encode(outcome.sha256, forKey: .sha256)
        try c.encode(outcome.error, forKey: .error)
        try c.encode(outcome.warnings, forKey: .warnings)
    }

    /// `date` as 2026-11-26T18:02:03.123Z.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}

extension JobFailureKind {
    /// The reader's kind of problem.
    public init(_ kind: RawReadError.Kind) {
        switch kind {
        case .fileNotFound: self = .fileNotFound
        case .notReadable: self = .notReadable
        case .notARaw: self = .notARaw
        case .unsupported: self = .unsupported
        case .truncated: self = .truncated
        case .corrupt: self = .corrupt
        case .invalidValue: self = .invalidValue
        }
    }
}
