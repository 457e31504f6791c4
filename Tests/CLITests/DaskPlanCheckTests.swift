import Foundation
import Glibc
import Testing
import TestSupport

/// `python -m rawburst_dask` (issue #22 review): the whole plan checked by `rawburst --manifest M --check` before any
/// chunk, manifests split on "\n" only, names that are not UTF-8, --redo, the report's mode and one line per failed
/// attempt instead of distributed's tracebacks. Each test starts one or two LocalClusters of 2 workers.
@Suite(.serialized) struct DaskPlanCheckTests {
    static func run(_ arguments: [String], rawburst: String = CLI.executable.path) throws -> ProcessResult {
        try DaskCommandLineTests.rawburstDask(arguments, rawburst: rawburst)
    }

    static func reportLines(_ url: URL) throws -> [[String: JSONValue]] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { try JSONValue(parsing: Data($0.utf8)).object ?? [:] }
    }

    @Test func aBadManifestLineRefusesTheRunNamingTheUsersLine() throws {
        let tmp = try TemporaryDirectory(prefix: "rawburst-dask-check")
        let raws = try tmp.subdirectory("raws")
        let sample = try #require(TestPaths.sharedSample("kodak-dc120-jpeg.kdc"))
        // U+2028 and U+0085 are inside a JSON string: a line of the manifest, not line ends.
        let odd = "b\u{2028}c\u{85}d"
        for name in ["a.kdc", odd + ".kdc"] { try FileManager.default.copyItem(at: sample, to: raws.appendingPathComponent(name)) }
        let out = tmp.file("out")
        func job(_ name: String, to output: String? = nil, _ extra: String = "") -> String {
            "{\"input\": \"\(raws.path)/\(name).kdc\", \"output\": \"\(out.path)/\(output ?? name).png\"\(extra)}"
        }
        let good = [job("a"), "", job(odd) + "\r"]
        let manifest = tmp.file("jobs.jsonl")
        try Data((good + [job("a", to: "a2", ", \"options\": {\"wb\": \"sunny\"}")]).joined(separator: "\n").utf8).write(to: manifest)
        // Line 4's option does not parse: one line naming the user's file and line, exit 2, nothing run.
        let refused = try Self.run(["develop", manifest.path, out.path, "--", "--size", "160"])
        DaskCommandLineTests.expectRefused(refused, naming: "jobs.jsonl line 4")
        #expect(refused.stderr.contains("sunny") && !refused.stderr.contains(".rawburst-dask"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("a.png").path))
        try Data((good.joined(separator: "\n") + "\n").utf8).write(to: manifest)
        let ran = try Self.run(["develop", manifest.path, out.path, "--json", "--", "--size", "160"])
        #expect(ran.exitStatus == 0, "\(ran.stderr)")
        #expect(try JSONValue(parsing: Data(ran.stdout.utf8)).object?["ok"]?.int == 2, "\(ran.stdout)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(odd + ".png").path))
    }

    /// Issue #33: a job whose output is another job's input through a linked folder passes the planner's own path
    /// check, and is refused by rawburst's `--check` (device and inode), naming the user's lines and both paths.
    @Test func anOutputThatIsAnotherJobsInputThroughALinkIsRefusedByTheCheck() throws {
        let tmp = try TemporaryDirectory(prefix: "rawburst-dask-identity")
        let raws = try tmp.subdirectory("raws")
        try FileManager.default.copyItem(at: try #require(TestPaths.sharedSample("kodak-dc120-jpeg.kdc")),
                                         to: raws.appendingPathComponent("a.kdc"))
        try FileManager.default.copyItem(atPath: try TinyCamera.dng(in: tmp.url), toPath: raws.path + "/b.dng")
        let before = try WorkerSupport.sha256sum(raws.path + "/b.dng")
        try FileManager.default.createSymbolicLink(atPath: tmp.path + "/link", withDestinationPath: raws.path)
        let out = tmp.file("out")
        let manifest = tmp.file("jobs.jsonl")
        try WorkerSupport.manifest([["input": raws.path + "/a.kdc", "output": tmp.path + "/link/b.dng"],
                                    ["input": raws.path + "/b.dng", "output": out.path + "/b.dng"]], at: manifest)
        let refused = try Self.run(["convert", manifest.path, out.path])
        DaskCommandLineTests.expectRefused(refused, naming: "jobs.jsonl line 2: the input \(raws.path)/b.dng is the output of line 1")
        #expect(refused.stderr.contains(tmp.path + "/link/b.dng"), "\(refused.stderr)")
        #expect(try WorkerSupport.sha256sum(raws.path + "/b.dng") == before)
        #expect(!FileManager.default.fileExists(atPath: out.path + "/b.dng"))
    }

    @Test func aNameThatIsNotUTF8FailsAloneAndRedoReplacesEveryOutput() throws {
        let tmp = try TemporaryDirectory(prefix: "rawburst-dask-badname")
        let raws = try tmp.subdirectory("raws")
        let sample = try #require(TestPaths.sharedSample("kodak-dc120-jpeg.kdc"))
        try FileManager.default.copyItem(at: sample, to: raws.appendingPathComponent("good.kdc"))
        let copied = try ExternalTool(Python.executableName).run(["-c", "import os, shutil, sys; shutil.copy(sys.argv[1], "
                                                                  + "os.fsencode(sys.argv[2]) + b'/x\\xff.kdc')", sample.path, raws.path])
        #expect(copied.succeeded, "\(copied.stderr)")
        let out = tmp.file("out")
        let report = out.appendingPathComponent("rawburst-report.jsonl")
        let first = try Self.run(["convert", raws.path, out.path, "--json"])
        #expect(first.exitStatus == 1, "a file failed: \(first.stderr)")
        let summary = try JSONValue(parsing: Data(first.stdout.utf8)).object ?? [:]
        #expect(summary["ok"]?.int == 1 && summary["failed"]?.int == 1, "\(summary)")
        #expect(summary["failuresByKind"]?.object?["bad-name"]?.int == 1, "\(summary)")
        let bad = try Self.reportLines(report).first { $0["status"]?.string == "failed" } ?? [:]
        #expect(bad["input"]?.string == raws.path + "/x\\xff.kdc", "\(bad)")
        #expect(bad["error"]?.object?["message"]?.string?.contains("x\\xff.kdc") ?? false, "\(bad)")
        // The report is an ordinary file: 0644 less the umask, not mkstemp's 0600.
        let mask = umask(0o022)
        umask(mask)
        let mode = try FileManager.default.attributesOfItem(atPath: report.path)[.posixPermissions] as? Int
        #expect(mode == 0o644 & ~Int(mask), "mode \(String(mode ?? 0, radix: 8))")
        // --redo: converted again (not kept), and the chunk's results hold this run's line only.
        let redo = try Self.run(["convert", raws.path, out.path, "--json", "--redo"])
        #expect(redo.exitStatus == 1, "\(redo.stderr)")
        let again = try JSONValue(parsing: Data(redo.stdout.utf8)).object ?? [:]
        #expect(again["ok"]?.int == 1 && again["kept"]?.int == 0, "\(again)")
        let results = try Self.reportLines(out.appendingPathComponent(".rawburst-dask/convert-chunk-0000.results.jsonl"))
        #expect(results.count == 1 && results[0]["action"]?.string == "converted", "\(results)")
    }

    @Test func aFailedChunkAttemptIsOneLineWithoutATraceback() throws {
        let tmp = try TemporaryDirectory(prefix: "rawburst-dask-quiet")
        let raws = try tmp.subdirectory("raws")
        try FileManager.default.copyItem(at: try #require(TestPaths.sharedSample("kodak-dc120-jpeg.kdc")),
                                         to: raws.appendingPathComponent("a.kdc"))
        // A rawburst whose worker mode cannot run (exit 3); the check before the chunks is the real one.
        let failing = tmp.file("failing-rawburst")
        try Data("#!/bin/sh\nfor a in \"$@\"; do [ \"$a\" = --check ] && exec '\(CLI.executable.path)' \"$@\"; done\necho 'error: boom' >&2\nexit 3\n".utf8)
            .write(to: failing)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: failing.path)
        let result = try Self.run(["convert", raws.path, tmp.file("out").path, "--retries", "1", "--quiet"], rawburst: failing.path)
        #expect(result.exitStatus == 1, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(!result.stderr.contains("Traceback") && lines.count <= 2, "stderr: \(result.stderr)")
        #expect(lines.allSatisfy { $0.contains("attempt failed") && $0.contains("boom") }, "stderr: \(result.stderr)")
    }
}
