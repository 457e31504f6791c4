import Foundation
import TestSupport
import Testing

/// The worker mode's bounds (issue #22): a job past its time or memory, or one that kills its sandbox, is recorded and
/// the rest go on; a worker killed by its engine leaves no process and no file under a final name. Develop and
/// analyze as workers.
@Suite("worker mode: limits, crashes, develop and analyze")
struct WorkerLimitsCLITests {
    @Test("a job past its time or memory limit is killed and recorded with its kind; the next job runs in a new sandbox")
    func limits() throws {
        let tmp = try TemporaryDirectory()
        let tiny = try TinyCamera.dng(in: tmp.url)
        let big = try WorkerSupport.bigDNG(in: tmp.url)
        let manifest = tmp.file("jobs.jsonl")
        try WorkerSupport.manifest([
            ["input": tiny, "output": "out/a.png", "options": ["size": 64]],
            ["input": big, "output": "out/b.jpg", "timeout": 0.3],
            ["input": big, "output": "out/c.jpg", "memoryLimit": "100MiB"],
            ["input": tiny, "output": "out/d.png"],
        ], at: manifest)
        let run = try CLI.run(["develop", "--manifest", manifest.path, "--results", "r.jsonl", "-j", "1", "--json"], in: tmp.url)
        #expect(run.exitStatus == 1, "\(run)")
        let lines = try WorkerSupport.results(tmp.file("r.jsonl"))
        try #require(lines.count == 4)
        let byOutput = Dictionary(uniqueKeysWithValues: lines.map { ($0["output"] as? String ?? "", $0) })
        func kind(_ output: String) -> String? { (byOutput[output]?["error"] as? [String: Any])?["kind"] as? String }
        #expect(kind("out/b.jpg") == "timeout")
        #expect((byOutput["out/b.jpg"]?["seconds"] as? Double ?? 0) < 3, "stopped soon after 0.3 s")
        #expect(kind("out/c.jpg") == "memory-limit")
        #expect((byOutput["out/c.jpg"]?["peakMemory"] as? Int ?? 0) > 100 << 20, "the size that broke the limit is recorded")
        for ok in ["out/a.png", "out/d.png"] {
            #expect(byOutput[ok]?["status"] as? String == "ok" && byOutput[ok]?["digestKind"] as? String == "SHA-256")
            #expect(byOutput[ok]?["digest"] as? String == (try WorkerSupport.sha256sum(tmp.file(ok).path)))
        }
        #expect(!FileManager.default.fileExists(atPath: tmp.file("out/b.jpg").path))
        #expect(!FileManager.default.fileExists(atPath: tmp.file("out/c.jpg").path))
        #expect(WorkerSupport.temporaries(in: tmp.file("out")).isEmpty, "a killed job's temporary file is removed")
        // The job's own option: a 64-px PNG.
        let png = try [UInt8](Data(contentsOf: tmp.file("out/a.png")))
        let width = png[16...19].reduce(0) { $0 << 8 | Int($1) }, height = png[20...23].reduce(0) { $0 << 8 | Int($1) }
        #expect(max(width, height) == 64)
    }

    @Test("--timeout-per-file and --memory-limit-per-file apply to every job without its own")
    func commandLineLimits() throws {
        let tmp = try TemporaryDirectory()
        let big = try WorkerSupport.bigDNG(in: tmp.url)
        let tiny = try TinyCamera.dng(in: tmp.url)
        let manifest = tmp.file("jobs.jsonl")
        try WorkerSupport.manifest([["input": big, "output": "b.jpg"], ["input": tiny, "output": "t.jpg", "timeout": 120]], at: manifest)
        let run = try CLI.run(["develop", "--manifest", manifest.path, "--results", "r.jsonl", "--timeout-per-file", "200ms"], in: tmp.url)
        #expect(run.exitStatus == 1)
        let lines = try WorkerSupport.results(tmp.file("r.jsonl"))
        #expect(lines.map { ($0["error"] as? [String: Any])?["kind"] as? String } == ["timeout", nil])
        for bad in [["--timeout-per-file", "0"], ["--timeout-per-file", "1ms"], ["--memory-limit-per-file", "1MiB"],
                    ["--memory-limit-per-file", "lots"], ["--resume"]] {
            let refused = try CLI.run(["develop", "--manifest", manifest.path] + bad, in: tmp.url)
            #expect(refused.exitStatus == 2 && refused.stderr.split(separator: "\n").count == 1, "\(bad): \(refused)")
        }
    }

    /// SIGKILL from outside, as the kernel's out-of-memory killer sends it (an external SIGSEGV is caught and ignored by
    /// Swift's backtracer, so it cannot stand in for a decoder's crash).
    @Test("a sandbox killed by a signal the worker did not send is recorded as crashed, and the next job runs")
    func crash() throws {
        let tmp = try TemporaryDirectory()
        let big = try WorkerSupport.bigDNG(in: tmp.url)
        let tiny = try TinyCamera.dng(in: tmp.url)
        let manifest = tmp.file("jobs.jsonl")
        try WorkerSupport.manifest([["input": big, "output": "b.jpg"], ["input": tiny, "output": "t.jpg"]], at: manifest)
        let worker = try WorkerSupport.start(["develop", "--manifest", manifest.path, "--results", "r.jsonl"], in: tmp.url)
        let sandbox = WorkerSupport.busySandbox(of: worker)
        kill(try #require(sandbox, "the worker started a sandbox"), SIGKILL)
        worker.waitUntilExit()
        #expect(worker.terminationStatus == 1)
        let lines = try WorkerSupport.results(tmp.file("r.jsonl"))
        try #require(lines.count == 2)
        let error = try #require(lines[0]["error"] as? [String: Any])
        #expect(error["kind"] as? String == "crashed" && (error["message"] as? String ?? "").contains("signal 9"), "\(error)")
        #expect(lines[1]["status"] as? String == "ok")
    }

    @Test("a worker killed with SIGKILL leaves no sandbox running and no file under a final name")
    func killedWorker() throws {
        let tmp = try TemporaryDirectory()
        let big = try WorkerSupport.bigDNG(in: tmp.url)
        let manifest = tmp.file("jobs.jsonl")
        try WorkerSupport.manifest([["input": big, "output": "out/b.tiff"]], at: manifest)
        let worker = try WorkerSupport.start(["develop", "--manifest", manifest.path, "--results", "r.jsonl"], in: tmp.url)
        let sandbox = WorkerSupport.busySandbox(of: worker)
        kill(worker.processIdentifier, SIGKILL)
        worker.waitUntilExit()
        let child = try #require(sandbox, "the worker started a sandbox")
        #expect(BurstCLITests.wait(2) { WorkerSupport.isGone(child) }, "the sandbox ends with its worker")
        #expect(!FileManager.default.fileExists(atPath: tmp.file("out/b.tiff").path))
        #expect(try WorkerSupport.results(tmp.file("r.jsonl")).isEmpty, "no line for a job that did not end")
        // The engine's retry (--resume) finishes the job and leaves no temporary file of the killed one.
        try Data(#"{"input": "\#(big)", "output": "out/b.tiff", "options": {"size": 256}}"#.utf8 + [10]).write(to: manifest)
        let retry = try CLI.run(["develop", "--manifest", manifest.path, "--results", "r.jsonl", "--resume"], in: tmp.url)
        #expect(retry.exitStatus == 0, "\(retry)")
        #expect(FileManager.default.fileExists(atPath: tmp.file("out/b.tiff").path))
        #expect(WorkerSupport.temporaries(in: tmp.file("out")).isEmpty, "the killed run's temporary file is gone")
    }

    @Test("analyze as a worker writes each file's analysis as JSON; --png and --best are refused there")
    func analyzeWorker() throws {
        let tmp = try TemporaryDirectory()
        let kdc = try WorkerCLITests.sample("kodak-dc120.kdc")
        let manifest = tmp.file("jobs.jsonl")
        try WorkerSupport.manifest([["input": kdc, "output": "a/kdc.json"], ["input": tmp.file("none.kdc").path, "output": "a/none.json"]],
                                   at: manifest)
        let run = try CLI.run(["analyze", "--manifest", manifest.path, "--results", "r.jsonl", "--histogram"], in: tmp.url)
        #expect(run.exitStatus == 1, "\(run)")
        let lines = try WorkerSupport.results(tmp.file("r.jsonl"))
        #expect(lines.map { $0["status"] as? String } == ["ok", "failed"])
        #expect(lines[0]["action"] as? String == "analyzed" && lines[0]["digestKind"] as? String == "SHA-256")
        #expect(lines[0]["sha256"] as? String == (try WorkerSupport.sha256sum(tmp.file("a/kdc.json").path)))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: tmp.file("a/kdc.json"))) as? [String: Any])
        #expect(report["path"] as? String == kdc && report["ok"] as? Bool == true)
        let direct = try CLI.run(["analyze", kdc, "--histogram", "--json"])
        let files = try #require((try JSONSerialization.jsonObject(with: direct.standardOutput) as? [String: Any])?["files"] as? [[String: Any]])
        let canonical = { (object: Any) in try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) }
        #expect(try canonical(report) == canonical(files[0]), "the same analysis as analyze --json gives")
        for bad in [["--png", "pics"], ["--best", "1"]] {
            let refused = try CLI.run(["analyze", "--manifest", manifest.path] + bad, in: tmp.url)
            #expect(refused.exitStatus == 2 && refused.stderr.split(separator: "\n").count == 1, "\(refused)")
        }
    }
}
