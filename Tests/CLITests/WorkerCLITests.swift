import Foundation
import TestSupport
import Testing

/// The worker mode (issue #22): manifests in, one JSON results line per job out, shards, resume.
@Suite("worker mode: manifests, results, shards, resume")
struct WorkerCLITests {
    static func sample(_ name: String) throws -> String { try #require(TestPaths.sharedSample(name), "missing sample \(name)").path }

    @Test("a manifest's jobs: one results line each, with digests exiftool and sha256sum agree with, the job's own options applied",
          .enabled(if: ToolAvailability.has("exiftool") && ToolAvailability.hasPythonModules("rawpy", "numpy")))
    func manifestRun() throws {
        let tmp = try TemporaryDirectory()
        let tiny = try TinyCamera.dng(in: tmp.url)
        let kdc = try Self.sample("kodak-dc120.kdc")
        let manifest = tmp.file("jobs.jsonl")
        try WorkerSupport.manifest([
            ["input": kdc, "output": "out/a.dng"],
            ["input": try Self.sample("canon-powershot-g2.crw"), "output": "out/sub/b.dng", "options": ["compression": "packed"]],
            ["input": tmp.file("missing.cr2").path, "output": "out/c.dng"],
            ["input": tiny, "output": "out/d.dng", "options": ["preview": 0]],
        ], at: manifest)
        let run = try CLI.run(["convert", "--manifest", manifest.path, "--results", "r.jsonl", "--run-id", "node-7", "--json"], in: tmp.url)
        #expect(run.exitStatus == 1, "one job fails: \(run)")
        let summary = try #require(try JSONSerialization.jsonObject(with: run.standardOutput) as? [String: Any])
        #expect(summary["jobs"] as? Int == 4 && summary["done"] as? Int == 3 && summary["failed"] as? Int == 1)
        #expect((summary["failuresByKind"] as? [String: Int]) == ["file-not-found": 1])
        #expect(run.stderr.contains("missing.cr2") && run.stderr.contains("[file-not-found]"))

        let lines = try WorkerSupport.results(tmp.file("r.jsonl"))
        try #require(lines.count == 4)
        #expect(Set(lines.compactMap { $0["job"] as? Int }) == [0, 1, 2, 3])
        for line in lines {
            #expect(line["run"] as? String == "node-7")
            for key in ["input", "output", "status", "action", "bytes", "seconds", "peakMemory", "digestKind", "digest", "sha256",
                        "error", "warnings", "job", "run", "finished"] {
                #expect(line.keys.contains(key), "every key is written: \(key)")
            }
            let output = tmp.file(try #require(line["output"] as? String))
            if line["job"] as? Int == 2 {
                #expect(line["status"] as? String == "failed")
                #expect((line["error"] as? [String: Any])?["kind"] as? String == "file-not-found")
                #expect(line["sha256"] is NSNull && line["bytes"] is NSNull)
                #expect(!FileManager.default.fileExists(atPath: output.path))
                continue
            }
            #expect(line["status"] as? String == "ok" && line["action"] as? String == "converted")
            #expect(line["digestKind"] as? String == "NewRawImageDigest")
            let tags = try ExifTool.tags(of: output.path)
            #expect((line["digest"] as? String)?.uppercased() == tags["IFD0:NewRawImageDigest"]?.string?.uppercased(), "\(output.path)")
            #expect(line["sha256"] as? String == (try WorkerSupport.sha256sum(output.path)))
            let size = try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int
            #expect(line["bytes"] as? Int == size)
            #expect((line["peakMemory"] as? Int ?? 0) > 4 << 20, "the sandbox's peak resident memory")
        }
        // The job's own options: b is packed (uncompressed strips), a is lossless JPEG, d has no preview.
        #expect(try ExifTool.tags(of: tmp.file("out/sub/b.dng").path, extraArguments: ["-n"])["SubIFD:Compression"]?.int == 1)
        #expect(try ExifTool.tags(of: tmp.file("out/a.dng").path, extraArguments: ["-n"])["SubIFD:Compression"]?.int == 7)
        #expect(try ExifTool.tags(of: tmp.file("out/d.dng").path)["SubIFD1:ImageWidth"] == nil, "no preview SubIFD")
        // The converted samples are the source's.
        #expect(try LibRawView(path: kdc, scratch: tmp.url).pixels == LibRawView(path: tmp.file("out/a.dng").path, scratch: tmp.url).pixels)
    }

    @Test("a bad manifest is one line naming its line; nothing runs, nothing is written",
          arguments: [
            ("{\"input\": \"IN\", \"output\": \"o/a.dng\"}\n\n{not json", "line 3: not a JSON object"),
            ("{\"input\": \"IN\", \"ouput\": \"o/a.dng\"}", "line 1: unknown key \"ouput\""),
            ("{\"input\": \"IN\"}", "line 1: \"output\" must be a path"),
            ("{\"input\": \"IN\", \"output\": \"o/a.dng\"}\n{\"input\": \"IN\", \"output\": \"o/b.dng\", \"options\": {\"wb\": \"daylight\"}}",
             "line 2: Unknown option '--wb"),
            ("{\"input\": \"IN\", \"output\": \"o/a.dng\", \"options\": {\"compression\": \"zip\"}}", "line 1: --compression"),
            ("{\"input\": \"IN\", \"output\": \"o/a.dng\", \"options\": {\"jobs\": 4}}", "line 1: --jobs belongs to the whole run"),
            ("{\"input\": \"IN\", \"output\": \"o/a.dng\"}\n{\"input\": \"IN\", \"output\": \"o/./a.dng\"}", "line 2: o/./a.dng is also the output of line 1"),
            ("{\"input\": \"IN\", \"output\": \"o/a.dng\", \"timeout\": -3}", "line 1: \"timeout\" must be at least 0.01 seconds"),
            ("{\"input\": \"IN\", \"output\": \"o/a.dng\"}\n{\"input\": \"o/a.dng\", \"output\": \"o/b.dng\"}",
             "line 2: the input o/a.dng is the output of line 1"),
            ("{\"input\": \"IN\", \"output\": \"o/a.dng\", \"memoryLimit\": \"lots\"}", "line 1: \"memoryLimit\" must be a size"),
            ("\n\n", "the manifest has no jobs"),
          ])
    func badManifest(text: String, expected: String) throws {
        let tmp = try TemporaryDirectory()
        let manifest = tmp.file("jobs.jsonl")
        try text.replacingOccurrences(of: "IN", with: try Self.sample("kodak-dc120.kdc")).write(to: manifest, atomically: true, encoding: .utf8)
        let run = try CLI.run(["convert", "--manifest", manifest.path, "--results", "r.jsonl"], in: tmp.url)
        #expect(run.exitStatus == 2, "\(run)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(expected), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.file("r.jsonl").path), "no results file")
        #expect(!FileManager.default.fileExists(atPath: tmp.file("o").path), "nothing written")
    }

    @Test("--shard K/N: disjoint shares (job i in shard i % N + 1) that together are the whole manifest")
    func shards() throws {
        let tmp = try TemporaryDirectory()
        let tiny = try TinyCamera.dng(in: tmp.url)
        let manifest = tmp.file("jobs.jsonl")
        try WorkerSupport.manifest((0..<7).map { ["input": tiny, "output": "out/\($0).dng", "options": ["preview": 0]] }, at: manifest)
        var seen: [Int: Int] = [:]
        for k in 1...3 {
            let run = try CLI.run(["convert", "--manifest", manifest.path, "--results", "r\(k).jsonl", "--shard", "\(k)/3", "-j", "1"],
                                  in: tmp.url)
            #expect(run.exitStatus == 0, "\(run)")
            for line in try WorkerSupport.results(tmp.file("r\(k).jsonl")) {
                let job = try #require(line["job"] as? Int)
                #expect(job % 3 == k - 1, "job \(job) in shard \(k)/3")
                #expect(line["output"] as? String == "out/\(job).dng")
                seen[job, default: 0] += 1
            }
        }
        #expect(seen == Dictionary(uniqueKeysWithValues: (0..<7).map { ($0, 1) }))
        for bad in ["0/3", "4/3", "1/0", "x", "1/3/2"] {
            let run = try CLI.run(["convert", "--manifest", manifest.path, "--shard", bad], in: tmp.url)
            #expect(run.exitStatus == 2 && run.stderr.contains("--shard must be K/N"), "\(bad): \(run)")
        }
    }

    @Test("--resume keeps outputs as recorded and redoes the missing, damaged and unrecorded ones; without it nothing is replaced")
    func resume() throws {
        let tmp = try TemporaryDirectory()
        let raws = try tmp.subdirectory("raws/day")
        let tiny = try TinyCamera.dng(in: tmp.url)
        for (name, source) in [("a.kdc", try Self.sample("kodak-dc120.kdc")), ("b.kdc", try Self.sample("kodak-dc120-jpeg.kdc")),
                               ("c.dng", tiny), ("d.crw", try Self.sample("canon-powershot-g2.crw"))] {
            try FileManager.default.copyItem(atPath: source, toPath: raws.appendingPathComponent(name).path)
        }
        let out = try tmp.subdirectory("out")
        let first = try CLI.run(["convert", "raws", "-r", "-o", "out", "--results", "r.jsonl", "--preview", "0"], in: tmp.url)
        #expect(first.exitStatus == 0, "\(first)")
        let recorded = try WorkerSupport.results(tmp.file("r.jsonl"))
        #expect(recorded.count == 4 && recorded.allSatisfy { $0["status"] as? String == "ok" })
        #expect(Set(recorded.compactMap { $0["output"] as? String }) == Set(["a", "b", "c", "d"].map { "out/day/\($0).dng" }),
                "folders are mirrored")

        // a damaged, c's line lost (its output is there but unrecorded), b deleted (after the run without --resume), d untouched.
        let a = out.appendingPathComponent("day/a.dng")
        var bytes = try [UInt8](Data(contentsOf: a))
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: a)
        let kept = recorded.filter { $0["output"] as? String != "out/day/c.dng" }
        try (kept.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }.joined(separator: "\n") + "\n")
            .write(to: tmp.file("r.jsonl"), atomically: true, encoding: .utf8)
        let d = out.appendingPathComponent("day/d.dng").path
        let dInode = try FileManager.default.attributesOfItem(atPath: d)[.systemFileNumber] as? Int

        let refused = try CLI.run(["convert", "raws", "-r", "-o", "out", "--results", "other.jsonl", "--preview", "0", "--json"], in: tmp.url)
        #expect(refused.exitStatus == 1, "existing outputs fail their jobs without --resume: \(refused)")
        #expect((try JSONSerialization.jsonObject(with: refused.standardOutput) as? [String: Any])?["failuresByKind"] as? [String: Int]
                == ["exists": 4])
        #expect(try WorkerSupport.results(tmp.file("other.jsonl")).filter {
            ($0["error"] as? [String: Any])?["kind"] as? String == "exists" }.count == 4)
        #expect(try Data(contentsOf: a) == Data(bytes), "nothing replaced")
        try FileManager.default.removeItem(at: out.appendingPathComponent("day/b.dng"))

        let second = try CLI.run(["convert", "raws", "-r", "-o", "out", "--results", "r.jsonl", "--preview", "0", "--resume", "--json"],
                                 in: tmp.url)
        #expect(second.exitStatus == 0, "\(second)")
        let summary = try #require(try JSONSerialization.jsonObject(with: second.standardOutput) as? [String: Any])
        #expect(summary["kept"] as? Int == 1 && summary["done"] as? Int == 3, "\(summary)")
        let after = try WorkerSupport.results(tmp.file("r.jsonl"))
        #expect(after.count == kept.count + 3)
        #expect(Set(after.suffix(3).compactMap { $0["output"] as? String }) == ["out/day/a.dng", "out/day/b.dng", "out/day/c.dng"])
        for line in after.suffix(3) {
            let path = tmp.file(try #require(line["output"] as? String)).path
            #expect(line["sha256"] as? String == (try WorkerSupport.sha256sum(path)), "\(path) is whole again")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: d)[.systemFileNumber] as? Int == dInode, "d was kept, not rewritten")
        #expect(WorkerSupport.temporaries(in: out.appendingPathComponent("day")).isEmpty)
    }
}
