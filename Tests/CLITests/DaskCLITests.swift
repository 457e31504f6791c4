import Foundation
import Testing
import TestSupport

/// rawburst on Dask (issue #22): `python -m rawburst_dask convert` from the checkout (python/) against a
/// distributed.LocalCluster of 2 worker processes over TCP on 127.0.0.1 that Tests/Dask/dask_check.py starts and
/// stops, with the built `rawburst` as every worker's binary. The inputs are 300 small raws in a nested tree: DNGs of
/// three simulated sensors x three scenes at a small size and the two Kodak DC120 raws of the shared samples, copied
/// under distinct names; chunks of 50, so 6 tasks. The script reports what it measured; the assertions are here.
@Suite(.serialized) struct DaskCLITests {
    static let script = TestPaths.packageRoot.appendingPathComponent("Tests/Dask/dask_check.py")

    /// Runs one scenario of the script (convert, kill or resume) in a fresh folder and returns its facts.
    static func scenario(_ name: String) throws -> [String: JSONValue] {
        #expect(Python.hasModule("distributed"), "dask distributed is missing: run make deps")
        #expect(Python.hasModule("fsspec"), "fsspec is missing: run make deps")
        let tmp = try TemporaryDirectory(prefix: "rawburst-dask-\(name)")
        let facts = try Python.json(scriptFile: script,
                                    arguments: [CLI.executable.path, TestPaths.sharedSamples.path, tmp.path, name],
                                    timeout: 400)
        return facts.object ?? [:]
    }

    /// What every scenario ends with: the report has each of the 300 inputs exactly once, all ok with their digests;
    /// every output is where the tree's mirror puts it, is the bytes its line's sha256 names, and holds the same raw
    /// samples as its source (rawpy); nothing else is under OUT under a final name; no process is left.
    static func expectComplete(_ facts: [String: JSONValue]) {
        #expect(facts["exitCode"]?.int == 0, "stderr: \(facts["stderr"]?.string ?? "")")
        #expect(facts["files"]?.int == 300)
        #expect((facts["sources"]?.int ?? 0) >= 10, "the inputs come from several different raws")
        #expect(facts["reportLines"]?.int == 300)
        #expect(facts["distinctInputs"]?.int == 300)
        #expect(facts["inputsMatchPlan"] == .bool(true))
        #expect(facts["statusOk"]?.int == 300)
        #expect(facts["withDigests"]?.int == 300)
        #expect(facts["sha256Matches"]?.int == 300)
        #expect(facts["rawSamplesEqual"]?.int == 300)
        #expect(facts["errors"]?.array?.isEmpty ?? false, "\(String(describing: facts["errors"]))")
        #expect(facts["unexpectedFiles"]?.array?.isEmpty ?? false, "\(String(describing: facts["unexpectedFiles"]))")
        #expect(facts["leftoverProcesses"]?.array?.isEmpty ?? false, "\(String(describing: facts["leftoverProcesses"]))")
        let summary = facts["summary"]?.object ?? [:]
        #expect(summary["files"]?.int == 300)
        #expect(summary["failed"]?.int == 0)
        #expect(summary["chunks"]?.int == 6)
    }

    @Test func threeHundredRawsAcrossTwoWorkers() throws {
        let facts = try Self.scenario("convert")
        Self.expectComplete(facts)
        let summary = facts["summary"]?.object ?? [:]
        #expect(summary["ok"]?.int == 300)
        #expect(summary["kept"]?.int == 0)
        #expect(summary["chunksRetried"]?.array?.isEmpty ?? false)
        #expect(facts["temporaryFiles"]?.int == 0)
    }

    @Test func aWorkerKilledMidChunkLosesAndRepeatsNothing() throws {
        let facts = try Self.scenario("kill")
        Self.expectComplete(facts)
        let chunk = try #require(facts["killedChunk"]?.string, "no chunk was caught running")
        // The worker's rawburst died with it (PR_SET_PDEATHSIG), and its sandbox children with that.
        #expect((facts["rawburstChildren"]?.int ?? 0) >= 1)
        #expect(facts["childrenAliveAfterKill"]?.array?.isEmpty ?? false)
        // The chunk ran again, and the report says so and where.
        #expect((facts["killedChunkAttempts"]?.int ?? 0) >= 2)
        let retried = facts["summary"]?.object?["chunksRetried"]?.array ?? []
        let entry = retried.compactMap(\.object).first { $0["chunk"]?.string == chunk }
        #expect((entry?["attempts"]?.int ?? 0) >= 2 && (entry?["workers"]?.array?.count ?? 0) >= 2,
                "retried: \(retried)")
        // What the killed attempt had finished was verified and kept, not converted again.
        let finished = facts["finishedByKilledAttempt"]?.int ?? 0
        #expect(finished >= 5)
        #expect(facts["killedAttemptLinesKept"]?.int == finished)
    }

    @Test func resumeRedoesOnlyTheMissingTheDamagedAndTheUnfinished() throws {
        let facts = try Self.scenario("resume")
        #expect(facts["firstExitCode"]?.int == 0, "first run: \(facts["firstStderr"]?.string ?? "")")
        Self.expectComplete(facts)
        let summary = facts["summary"]?.object ?? [:]
        // 150 run before; one of them damaged, one deleted: 148 kept, 2 + 150 converted.
        #expect(summary["kept"]?.int == 148)
        #expect(summary["ok"]?.int == 152)
        #expect(facts["redoneAsExpected"] == .bool(true))
        #expect(facts["untouchedFirstHalf"]?.int == 148, "kept outputs keep their inode and modification time")
        // One file added in front of the 300 shifts one file of each chunk into the next (7 chunks now): the six
        // moved files' results come along, and only the new file is converted.
        #expect(facts["addedExitCode"]?.int == 0, "\(facts["addedStderr"]?.string ?? "")")
        let added = facts["addedSummary"]?.object ?? [:]
        #expect(added["files"]?.int == 301 && added["ok"]?.int == 1 && added["kept"]?.int == 300, "\(added)")
        #expect(added["carriedOver"]?.int == 6)
        #expect(facts["addedLineKept"] == .bool(false))
    }
}

/// `python -m rawburst_dask` on its own LocalCluster (no --scheduler): refusals and files that fail.
@Suite(.serialized) struct DaskCommandLineTests {
    /// Runs `python -m rawburst_dask ARGUMENTS` from the checkout with the built rawburst.
    static func rawburstDask(_ arguments: [String], rawburst: String = CLI.executable.path) throws -> ProcessResult {
        try ExternalTool(Python.executableName).run(["-m", "rawburst_dask"] + arguments, timeout: 300, environment: [
            "PYTHONPATH": TestPaths.packageRoot.appendingPathComponent("python").path, "RAWBURST": rawburst,
            "PYTHONDONTWRITEBYTECODE": "1", "XDG_CACHE_HOME": CLI.cacheHome])
    }

    /// Exit status 2 and exactly one line on stderr that contains `naming`.
    static func expectRefused(_ result: ProcessResult, naming: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = result.stderr.split(separator: "\n")
        #expect(result.exitStatus == 2, "status \(result.exitStatus): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(lines.count == 1 && lines[0].hasPrefix("error: ") && result.stderr.contains(naming),
                "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    }

    @Test func badArgumentsAreOneLineAndStatus2() throws {
        let tmp = try TemporaryDirectory(prefix: "rawburst-dask-refusals")
        let out = tmp.file("out").path
        Self.expectRefused(try Self.rawburstDask(["convert", tmp.file("missing").path, out]), naming: "missing: no such folder")
        Self.expectRefused(try Self.rawburstDask(["convert", tmp.path, "s3://bucket/out"]), naming: "OUT must be a local path")
        Self.expectRefused(try Self.rawburstDask(["convert", "nosuchprotocol://x/raws", out]), naming: "nosuchprotocol")
        Self.expectRefused(try Self.rawburstDask(["convert", tmp.path, out, "--chunk-size", "0"]), naming: "--chunk-size")
        Self.expectRefused(try Self.rawburstDask(["convert", tmp.path, out, "--format", "png"]), naming: "--format")
        Self.expectRefused(try Self.rawburstDask(["develop", tmp.path, out, "--format", "gif"]), naming: "'gif'")
        let manifest = tmp.file("jobs.jsonl")
        try Data("{\"input\": \"a.CR2\", \"output\": \"a.dng\"}\n\n{\"input\": 3, \"output\": \"b.dng\"}\n".utf8).write(to: manifest)
        Self.expectRefused(try Self.rawburstDask(["convert", manifest.path, out]), naming: "jobs.jsonl line 3")
        let raws = try tmp.subdirectory("raws")
        try FileManager.default.copyItem(at: try #require(TestPaths.sharedSample("kodak-dc120-jpeg.kdc")),
                                         to: raws.appendingPathComponent("a.kdc"))
        Self.expectRefused(try Self.rawburstDask(["convert", raws.path, out, "--scheduler", "no-port"]), naming: "no-port")
        try FileManager.default.copyItem(at: raws.appendingPathComponent("a.kdc"), to: raws.appendingPathComponent("a.KDC"))
        Self.expectRefused(try Self.rawburstDask(["convert", raws.path, out]), naming: "would both be written to")
        try FileManager.default.removeItem(at: raws.appendingPathComponent("a.KDC"))
        Self.expectRefused(try Self.rawburstDask(["convert", raws.path, out], rawburst: tmp.file("nowhere").path),
                           naming: "RAWBURST=")
        // An option rawburst refuses stops the run before any chunk, with rawburst's own line.
        Self.expectRefused(try Self.rawburstDask(["convert", raws.path, out, "--", "--no-such-option"]),
                           naming: "--no-such-option")
        #expect(!FileManager.default.fileExists(atPath: out + "/a.dng"))
    }

    @Test func filesThatFailAreRecordedOnceEachWithTheirKind() throws {
        let tmp = try TemporaryDirectory(prefix: "rawburst-dask-failures")
        let raws = try tmp.subdirectory("raws/nested")
        let inputs = ["kodak-dc120-jpeg.kdc": "good-1.kdc", "kodak-dc120.kdc": "good-2.kdc", "gopro-hero7.gpr": "vc5.gpr",
                      "stubs/header-only.raf": "header.raf", "stubs/truncated-nikon-d70.nef": "cut.nef"]
        for (sample, name) in inputs {
            try FileManager.default.copyItem(at: try #require(TestPaths.sharedSample(sample)), to: raws.appendingPathComponent(name))
        }
        let out = tmp.file("out")
        let result = try Self.rawburstDask(["convert", tmp.file("raws").path, out.path, "--chunk-size", "2", "--json"])
        #expect(result.exitStatus == 1, "stderr: \(result.stderr)")
        let summary = try JSONValue(parsing: Data(result.stdout.utf8)).object ?? [:]
        #expect(summary["files"]?.int == 5 && summary["ok"]?.int == 2 && summary["failed"]?.int == 3, "\(summary)")
        #expect(summary["chunks"]?.int == 3)
        #expect(summary["chunksRetried"]?.array?.isEmpty ?? false, "a failed file is a result, not a retry")
        let kinds = summary["failuresByKind"]?.object ?? [:]
        #expect(kinds.values.compactMap(\.int).reduce(0, +) == 3)
        let report = try String(contentsOf: out.appendingPathComponent("rawburst-report.jsonl"), encoding: .utf8)
        let lines = try report.split(separator: "\n").map { try JSONValue(parsing: Data($0.utf8)).object ?? [:] }
        #expect(Set(lines.compactMap { $0["input"]?.string }) == Set(inputs.values.map { raws.appendingPathComponent($0).path }))
        #expect(lines.count == 5)
        let contractKinds: Set<String> = ["file-not-found", "not-readable", "not-a-raw", "unsupported", "truncated",
                                          "corrupt", "invalid-value", "crashed"]
        for line in lines where line["status"]?.string == "failed" {
            let kind = line["error"]?.object?["kind"]?.string ?? ""
            #expect(contractKinds.contains(kind), "\(line)")
            #expect(line["chunk"]?.string?.hasPrefix("convert-chunk-") ?? false)
        }
        for line in lines where line["status"]?.string == "ok" {
            #expect(FileManager.default.fileExists(atPath: line["output"]?.string ?? "/nonexistent"))
        }
        let failedOutputs = lines.filter { $0["status"]?.string == "failed" }.compactMap { $0["output"]?.string }
        #expect(failedOutputs.count == 3 && failedOutputs.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
    }
}

extension DaskCommandLineTests {
    @Test func developAndAnalyzeMirrorTheTreeWithTheirExtensions() throws {
        let tmp = try TemporaryDirectory(prefix: "rawburst-dask-develop")
        let sample = try #require(TestPaths.sharedSample("kodak-dc120-jpeg.kdc"))
        let names = ["a/one.kdc", "a/b/two.KDC", "three.kdc"]
        for name in names {
            let path = tmp.url.appendingPathComponent("raws/" + name)
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: sample, to: path)
        }
        let developed = tmp.file("developed")
        let develop = try Self.rawburstDask(["develop", tmp.file("raws").path, developed.path, "--format", "png",
                                             "--chunk-size", "2", "--quiet", "--", "--size", "200"])
        #expect(develop.exitStatus == 0, "\(develop.stderr)")
        for name in ["a/one.png", "a/b/two.png", "three.png"] {
            let data = try Data(contentsOf: developed.appendingPathComponent(name))
            #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(name) is a PNG")
        }
        let analyzed = tmp.file("analyzed")
        let analyze = try Self.rawburstDask(["analyze", tmp.file("raws").path, analyzed.path, "--json"])
        #expect(analyze.exitStatus == 0, "\(analyze.stderr)")
        #expect(try JSONValue(parsing: Data(analyze.stdout.utf8)).object?["ok"]?.int == 3)
        for name in ["a/one.json", "a/b/two.json", "three.json"] {
            let value = try JSONValue(parsing: Data(contentsOf: analyzed.appendingPathComponent(name)))
            #expect(value.object != nil, "\(name) holds a JSON object")
        }
        let report = try String(contentsOf: analyzed.appendingPathComponent("rawburst-report.jsonl"), encoding: .utf8)
        let lines = try report.split(separator: "\n").map { try JSONValue(parsing: Data($0.utf8)).object ?? [:] }
        #expect(lines.map { $0["action"]?.string } == ["analyzed", "analyzed", "analyzed"])
        #expect(lines.allSatisfy { $0["digestKind"]?.string == "SHA-256" })
    }
}

extension DaskCommandLineTests {
    @Test func anOutputFolderInsideTheInputIsNotWalkedAndASecondRunKeepsEverything() throws {
        let tmp = try TemporaryDirectory(prefix: "rawburst-dask-inside")
        let sample = try #require(TestPaths.sharedSample("kodak-dc120-jpeg.kdc"))
        let raws = try tmp.subdirectory("raws/day-1")
        for name in ["one.kdc", "two.kdc"] { try FileManager.default.copyItem(at: sample, to: raws.appendingPathComponent(name)) }
        let root = tmp.file("raws").path
        let out = root + "/dng"
        let first = try Self.rawburstDask(["convert", root, out, "--json"])
        #expect(first.exitStatus == 0, "\(first.stderr)")
        let second = try Self.rawburstDask(["convert", root, out, "--json"])
        #expect(second.exitStatus == 0, "\(second.stderr)")
        let summary = try JSONValue(parsing: Data(second.stdout.utf8)).object ?? [:]
        // The DNGs written under raws/dng are not inputs of the second run; both raws are verified and kept.
        #expect(summary["files"]?.int == 2 && summary["kept"]?.int == 2 && summary["ok"]?.int == 0, "\(summary)")
        #expect(FileManager.default.fileExists(atPath: out + "/day-1/one.dng"))
    }
}

extension DaskCommandLineTests {
    @Test func anInputOnOtherStorageIsStagedOnTheWorkers() throws {
        // fsspec's zip file system stands for remote storage: every worker lists and downloads through fsspec.
        let tmp = try TemporaryDirectory(prefix: "rawburst-dask-staged")
        let raws = try tmp.subdirectory("raws/day-1")
        let sample = try #require(TestPaths.sharedSample("kodak-dc120-jpeg.kdc"))
        for name in ["staged-one.kdc", "staged-two.KDC", ".staged-hidden.kdc"] {
            try FileManager.default.copyItem(at: sample, to: raws.appendingPathComponent(name))
        }
        try FileManager.default.copyItem(at: try #require(TestPaths.sharedSample("kodak-dc120.kdc")),
                                         to: tmp.url.appendingPathComponent("raws/staged-three.kdc"))
        try Data("not a raw".utf8).write(to: raws.appendingPathComponent("notes.txt"))
        let zip = tmp.file("raws.zip")
        let zipped = try ExternalTool(Python.executableName).run(["-m", "zipfile", "-c", zip.path, tmp.file("raws").path])
        #expect(zipped.succeeded, "\(zipped.stderr)")
        let url = "zip://raws::file://" + zip.path
        let out = tmp.file("out")
        let first = try Self.rawburstDask(["convert", url, out.path, "--chunk-size", "2", "--json"])
        #expect(first.exitStatus == 0, "\(first.stderr)")
        #expect(try JSONValue(parsing: Data(first.stdout.utf8)).object?["ok"]?.int == 3, "\(first.stdout)")
        let report = try String(contentsOf: out.appendingPathComponent("rawburst-report.jsonl"), encoding: .utf8)
        let lines = try report.split(separator: "\n").map { try JSONValue(parsing: Data($0.utf8)).object ?? [:] }
        #expect(lines.compactMap { $0["input"]?.string } == ["zip://raws/day-1/staged-one.kdc", "zip://raws/day-1/staged-two.KDC",
                                                           "zip://raws/staged-three.kdc"])
        // The DNG holds the source's raw samples (rawpy), mirrored from the archive's tree.
        let converted = try LibRawView(path: out.appendingPathComponent("day-1/staged-two.dng").path, scratch: tmp.url)
        let original = try LibRawView(path: sample.path, scratch: tmp.url)
        #expect(!original.pixels.isEmpty && converted.pixels == original.pixels, "raw samples differ")
        // The staged copies are gone; a second run keeps all three (the same staged paths, so the same jobs).
        let stage = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("rawburst-dask-stage").path
        let left = (FileManager.default.enumerator(atPath: stage)?.allObjects as? [String] ?? []).filter { $0.contains("staged-") }
        #expect(left.isEmpty, "staged files left: \(left)")
        let second = try Self.rawburstDask(["convert", url, out.path, "--chunk-size", "2", "--json"])
        #expect(second.exitStatus == 0, "\(second.stderr)")
        #expect(try JSONValue(parsing: Data(second.stdout.utf8)).object?["kept"]?.int == 3, "\(second.stdout)")
    }
}
