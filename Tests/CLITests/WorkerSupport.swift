import Foundation
import RawBurst
import TestSupport
import Testing

/// Helpers of the worker-mode tests: manifests, results files, independent digests, processes in the background.
enum WorkerSupport {
    /// Writes `jobs` as a JSON-lines manifest (each a JSON object) at `url`; `raw` lines are written as they are.
    static func manifest(_ jobs: [[String: Any]], at url: URL) throws {
        let lines = try jobs.map { String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self) }
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    }

    /// The results file's lines as dictionaries.
    static func results(_ url: URL) throws -> [[String: Any]] {
        let text = try String(contentsOf: url, encoding: .utf8)
        return try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// SHA-256 of a file as coreutils' sha256sum computes it.
    static func sha256sum(_ path: String) throws -> String {
        let result = try ExternalTool("sha256sum").run([path])
        return String(result.stdout.prefix { $0 != " " })
    }

    /// A 24-megapixel uncompressed DNG in `directory` (48 MB; developing it takes seconds and over 500 MB in a debug
    /// build): the job that outlasts a time limit or outgrows a memory limit.
    static func bigDNG(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("big-24mp.dng").path
        var options = DNGWriter.Options()
        options.compression = .none
        options.previewLongEdge = nil
        try DNGWriter(options: options).write(try SyntheticRaw.image(cfa: .rggb, bits: 12, width: 6000, height: 4000), to: path)
        return path
    }

    /// The pids of the processes whose parent is `pid` (from /proc).
    static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { candidate in
            guard let stat = try? String(contentsOfFile: "/proc/\(candidate)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && Int32(fields[1]) == pid
        }
    }

    /// The sandbox `worker` started (waiting up to 30 s for it), 300 ms into its first job; nil if none appeared.
    static func busySandbox(of worker: Process) -> Int32? {
        var sandbox: Int32?
        _ = BurstCLITests.wait(30) {
            sandbox = children(of: worker.processIdentifier).first
            return sandbox != nil
        }
        usleep(300_000)
        return sandbox
    }

    /// Whether process `pid` is gone (or a zombie nobody reaped yet).
    static func isGone(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return true }
        return status.contains("State:\tZ")
    }

    /// Starts `rawburst ARGS` in the background (standard output and error to files in `directory`).
    static func start(_ arguments: [String], in directory: URL) throws -> Process {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": CLI.cacheHome]) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: touch(directory.appendingPathComponent("stdout.txt")))
        process.standardError = try FileHandle(forWritingTo: touch(directory.appendingPathComponent("stderr.txt")))
        try process.run()
        return process
    }

    /// Files in `directory` whose names look like AtomicFile's temporaries.
    static func temporaries(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasPrefix(".") && $0.hasSuffix(".tmp") }
    }

    private static func touch(_ url: URL) -> URL {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        return url
    }
}
