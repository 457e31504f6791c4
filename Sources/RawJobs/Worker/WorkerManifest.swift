import Foundation
import RawCapture
import RawCore

/// A worker-mode manifest: JSON lines, one job each (blank lines are skipped):
///
///     {"input": "raws/a.CR2", "output": "out/a.dng"}
///     {"input": "raws/b.NEF", "output": "out/b.jpg", "options": {"wb": "daylight", "size": 1024}, "timeout": 30, "memoryLimit": "2G"}
///
/// `options` are the command's own options by their long names (true for a flag, a number or a string for a
/// value, an array for an option given several times); `timeout` (seconds, or "90s", "2m") and `memoryLimit`
/// (bytes, or "512M", "2GiB") override the command line's limits for that job. Anything else is an error naming
/// its line.
public enum WorkerManifest {
    /// The shortest time limit (10 ms) and the smallest memory limit (16 MiB) a job may have, as on the command line.
    public static let minimumTimeout = 0.01
    public static let minimumMemoryLimit = 16 << 20

    /// Options a job cannot set for itself: they belong to the whole run.
    public static let runOptions: Set<String> = [
        "manifest", "results", "resume", "shard", "jobs", "j", "output", "o", "overwrite", "timeout-per-file",
        "memory-limit-per-file", "run-id", "json", "quiet", "q", "worker-child", "recursive", "r", "all-files", "help", "h",
        "check", "version", "exit-with-parent",
    ]

    /// The jobs of the manifest at `path`, in order; `check` is called with each job and throws when its options do
    /// not parse (its error's description is the message); it returns the job's settings (``WorkerJob/settings``).
    /// Two jobs writing one output, or an output that is a job's input (its own or another's), are refused by what the
    /// paths name (``OutputClashCheck``), once every line has been read.
    public static func read(path: String, check: (WorkerJob) throws -> String) throws(WorkerManifestError) -> [WorkerJob] {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw WorkerManifestError("\(path): cannot read the manifest (\(FileError.errnoText()))")
        }
        var jobs: [WorkerJob] = []
        var lineNumber = 0
        for rawLine in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let text = String(decoding: rawLine, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty { continue }
            func fail(_ message: String) -> WorkerManifestError { WorkerManifestError("\(path) line \(lineNumber): \(message)") }
            var job: WorkerJob
            do throws(WorkerManifestError) {
                job = try parse(line: Data(rawLine), number: jobs.count, lineNumber: lineNumber)
            } catch {
                throw fail(error.message)
            }
            do { job.settings = try check(job) } catch { throw fail("\(error)") }
            jobs.append(job)
        }
        guard !jobs.isEmpty else { throw WorkerManifestError("\(path): the manifest has no jobs") }
        if let clash = OutputClashCheck.firstClash(in: jobs.map { JobPaths(inputs: [$0.input], outputs: [$0.output]) }) {
            throw WorkerManifestError(describe(clash, jobs: jobs, manifest: path))
        }
        return jobs
    }

    /// A clash in one line naming the manifest, the line it is found on, both paths and the other line.
    static func describe(_ clash: OutputClash, jobs: [WorkerJob], manifest: String) -> String {
        let (output, other) = (jobs[clash.outputJob].line ?? clash.outputJob + 1, jobs[clash.otherJob].line ?? clash.otherJob + 1)
        let samePath = clash.output == clash.other
        switch clash.kind {
        case .sameOutput:
            return "\(manifest) line \(output): \(clash.output) is also the output of line \(other)"
                + (samePath ? "" : " (as \(clash.other): one file)")
        case .replacesInput where clash.outputJob == clash.otherJob:
            return "\(manifest) line \(output): the output would replace its own input"
                + (samePath ? "" : " (\(clash.output) is \(clash.other))")
        case .replacesInput where clash.otherJob > clash.outputJob:
            return "\(manifest) line \(other): the input \(clash.other) is the output of line \(output)"
                + (samePath ? "" : " (as \(clash.output): one file)")
        case .replacesInput:
            return "\(manifest) line \(output): the output \(clash.output) is the input of line \(other)"
                + (samePath ? "" : " (as \(clash.other): one file)")
        }
    }

    /// One line's job (the message names what is wrong, without the line).
    static func parse(line: Data, number: Int, lineNumber: Int) throws(WorkerManifestError) -> WorkerJob {
        guard case .object(let fields)? = try? JSONDecoder().decode(AnyJSON.self, from: line) else {
            throw WorkerManifestError("not a JSON object")
        }
        let known: Set<String> = ["input", "output", "options", "timeout", "memoryLimit"]
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw WorkerManifestError("unknown key \"\(unknown)\" (a job has input, output, options, timeout, memoryLimit)")
        }
        guard case .string(let input)? = fields["input"], !input.isEmpty, !input.contains("\u{0}") else {
            throw WorkerManifestError("\"input\" must be a path (without NUL)")
        }
        guard case .string(let output)? = fields["output"], !output.isEmpty, !output.contains("\u{0}") else {
            throw WorkerManifestError("\"output\" must be a path (without NUL)")
        }
        var limits = JobLimits()
        switch fields["timeout"] {
        case nil: break
        case .number(let seconds)? where seconds >= minimumTimeout && seconds.isFinite: limits.seconds = seconds
        case .string(let text)?:
            if let seconds = BurstOptionError.seconds(text), seconds >= minimumTimeout { limits.seconds = seconds } else { fallthrough }
        default: throw WorkerManifestError("\"timeout\" must be at least 0.01 seconds (30, \"90s\", \"2m\")")
        }
        switch fields["memoryLimit"] {
        case nil: break
        case .number(let bytes)? where bytes >= Double(minimumMemoryLimit) && bytes < 1e15: limits.memoryBytes = Int(bytes)
        case .string(let text)?:
            if let bytes = BurstOptionError.bytes(text), bytes >= minimumMemoryLimit { limits.memoryBytes = bytes } else { fallthrough }
        default: throw WorkerManifestError("\"memoryLimit\" must be a size of at least 16MiB (\"512M\", \"2GiB\", or bytes)")
        }
        var arguments: [String] = []
        switch fields["options"] {
        case nil: break
        case .object(let options)?: arguments = try self.arguments(options)
        default: throw WorkerManifestError("\"options\" must be an object")
        }
        return WorkerJob(number: number, line: lineNumber, input: input, output: output, arguments: arguments, limits: limits)
    }

    /// `options` as command-line arguments, keys sorted.
    static func arguments(_ options: [String: AnyJSON]) throws(WorkerManifestError) -> [String] {
        var arguments: [String] = []
        for key in options.keys.sorted() {
            let name = key.hasPrefix("--") ? String(key.dropFirst(2)) : key
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) else {
                throw WorkerManifestError("option \"\(key)\" is not an option name (lower-case, like \"wb\" or \"no-rotate\")")
            }
            guard !runOptions.contains(name) else {
                throw WorkerManifestError("--\(name) belongs to the whole run and cannot be set for one job")
            }
            let values: [AnyJSON]
            if case .array(let many)? = options[key] { values = many } else { values = [options[key]!] }
            for value in values {
                switch value {
                case .bool(true): arguments.append("--\(name)")
                case .bool(false): throw WorkerManifestError("--\(name): a flag is set with true; leave it out to unset it")
                case .string(let text): arguments.append("--\(name)=\(text)")
                case .number(let n): arguments.append("--\(name)=" + (n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)))
                case .array, .object, .null: throw WorkerManifestError("--\(name): a value must be true, a number or a string")
                }
            }
        }
        return arguments
    }
}

/// The domain of `WorkerManifestError`.
public enum WorkerManifestErrorDomain {}

/// A manifest that cannot be run, in one line naming the file and line.
public typealias WorkerManifestError = MessageError<WorkerManifestErrorDomain>
