import Foundation
import Testing
import TestSupport

/// `python -m rawburst_dask` on its own LocalCluster (no --scheduler, so the default path is the one tested): refusals,
/// files that fail, develop and analyze, an output folder inside the input, and an input on other storage (fsspec).
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
        // Run-wide rawburst options after -- are the package's own business (rawburst would take them otherwise).
        for (option, naming) in [("--resume", "--resume"), ("--jobs=3", "use -j"), ("-j4", "-j4"), ("--overwrite", "use --redo"),
                                 ("--manifest=x.jsonl", "--manifest"), ("-q", "use --quiet"), ("--check", "--check")] {
            Self.expectRefused(try Self.rawburstDask(["convert", raws.path, out, "--", "--compression", "packed", option]), naming: naming)
        }
        // The report's path is checked before any work: a folder, a missing folder.
        Self.expectRefused(try Self.rawburstDask(["convert", raws.path, out, "--results", tmp.path]), naming: "is a folder")
        Self.expectRefused(try Self.rawburstDask(["convert", raws.path, out, "--results", tmp.file("no/r.jsonl").path]),
                           naming: "no such folder")
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
