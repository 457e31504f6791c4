import Foundation
import TestSupport
import Testing

/// The worker mode's edges found in review (issue #22): settings that changed are redone, --check, per-job options
/// held to the worker's refusals, a results file that fills up, closed standard descriptors, file names after --.
@Suite("worker mode: settings, --check, refusals per job, a full results disk")
struct WorkerEdgesCLITests {
    @Test("--resume redoes an output whose settings changed, and keeps it when they did not")
    func settingsChangeRedoes() throws {
        let tmp = try TemporaryDirectory()
        let kdc = try WorkerCLITests.sample("kodak-dc120.kdc")
        let manifest = tmp.file("jobs.jsonl")
        try WorkerSupport.manifest([["input": kdc, "output": "out/a.dng"]], at: manifest)
        func run(_ extra: [String]) throws -> [String: Any] {
            let result = try CLI.run(["convert", "--manifest", manifest.path, "--results", "r.jsonl", "--resume", "--json"] + extra, in: tmp.url)
            #expect(result.exitStatus == 0, "\(result)")
            return try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        }
        #expect(try run([])["done"] as? Int == 1)
        #expect(try run([])["kept"] as? Int == 1, "same settings: kept")
        #expect(try run(["--compression", "none"])["done"] as? Int == 1, "other compression: redone")
        let lines = try WorkerSupport.results(tmp.file("r.jsonl"))
        #expect(lines.map { $0["settings"] as? String } == ["compression=lj92 preview=1024", "compression=none preview=1024"])
        let tags = try ExifTool.tags(of: tmp.file("out/a.dng").path, extraArguments: ["-n"])
        #expect(tags["SubIFD:Compression"]?.int == 1, "the output is the new settings' (uncompressed)")
        #expect(try run(["--compression", "none"])["kept"] as? Int == 1)
    }

    @Test("--check reads and checks every job and runs none")
    func checkOnly() throws {
        let tmp = try TemporaryDirectory()
        let kdc = try WorkerCLITests.sample("kodak-dc120.kdc")
        let manifest = tmp.file("jobs.jsonl")
        try WorkerSupport.manifest([["input": kdc, "output": "out/a.jpg"], ["input": kdc, "output": "out/b.png", "options": ["size": 64]]],
                                   at: manifest)
        let good = try CLI.run(["develop", "--manifest", manifest.path, "--check", "--results", "r.jsonl"], in: tmp.url)
        #expect(good.exitStatus == 0 && good.stdout.contains("2 jobs checked"), "\(good)")
        let json = try CLI.run(["develop", "--manifest", manifest.path, "--check", "--json"], in: tmp.url)
        #expect((try JSONSerialization.jsonObject(with: json.standardOutput) as? [String: Int]) == ["jobs": 2])
        #expect(!FileManager.default.fileExists(atPath: tmp.file("out").path) && !FileManager.default.fileExists(atPath: tmp.file("r.jsonl").path))
        try WorkerSupport.manifest([["input": kdc, "output": "out/a.jpg"], ["input": kdc, "output": "out/b.png", "options": ["wb": "sunny"]]],
                                   at: manifest)
        let withOutput = try CLI.run(["develop", "--manifest", manifest.path, "--check", "-o", "out"], in: tmp.url)
        #expect(withOutput.exitStatus == 2 && withOutput.stderr.contains("-o: with --manifest each job names its output"), "\(withOutput)")
        let bad = try CLI.run(["develop", "--manifest", manifest.path, "--check"], in: tmp.url)
        #expect(bad.exitStatus == 2 && bad.stderr.contains("jobs.jsonl line 2:") && bad.stderr.split(separator: "\n").count == 1, "\(bad)")
    }

    @Test("a job's own options meet the worker's refusals (analyze --png/--best, develop --composite); values may start with -")
    func perJobRefusals() throws {
        let tmp = try TemporaryDirectory()
        let kdc = try WorkerCLITests.sample("kodak-dc120.kdc")
        let manifest = tmp.file("jobs.jsonl")
        for (command, options, expected) in [("analyze", ["png": "pics"], "--png"), ("analyze", ["best": 1], "--best"),
                                             ("develop", ["composite": "stacked"], "--composite")] as [(String, [String: Any], String)] {
            try WorkerSupport.manifest([["input": kdc, "output": "o/a.json", "options": options]], at: manifest)
            let run = try CLI.run([command, "--manifest", manifest.path, "--results", "r.jsonl"], in: tmp.url)
            #expect(run.exitStatus == 2 && run.stderr.contains("line 1: \(expected)"), "\(command) \(options): \(run)")
        }
        try WorkerSupport.manifest([["input": kdc, "output": "o/a.jpg", "options": ["exposure": "-1", "size": 32]]], at: manifest)
        let dashed = try CLI.run(["develop", "--manifest", manifest.path, "--results", "r.jsonl"], in: tmp.url)
        #expect(dashed.exitStatus == 0, "a value that starts with -: \(dashed)")
    }

    @Test("a results file that cannot take a line stops the run: one job unrecorded, the rest not run")
    func fullResultsDisk() throws {
        let tmp = try TemporaryDirectory()
        let tiny = try TinyCamera.dng(in: tmp.url)
        let manifest = tmp.file("jobs.jsonl")
        try WorkerSupport.manifest((0..<4).map { ["input": tiny, "output": "out/\($0).dng"] }, at: manifest)
        let run = try CLI.run(["convert", "--manifest", manifest.path, "--results", "/dev/full", "-j", "1", "--json"], in: tmp.url)
        #expect(run.exitStatus == 1, "\(run)")
        let summary = try #require(try JSONSerialization.jsonObject(with: run.standardOutput) as? [String: Any])
        #expect(summary["unrecorded"] as? Int == 1 && summary["abandoned"] as? Int == 3, "\(summary)")
        #expect(run.stderr.contains("cannot append a result"))
    }

    @Test("closed standard error never lands in the results file; a file named like an option after -- is a job")
    func descriptorsAndDashes() throws {
        let tmp = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: try WorkerCLITests.sample("kodak-dc120.kdc"), toPath: tmp.file("-dash.kdc").path)
        try Data(repeating: 0x5A, count: 4096).write(to: tmp.file("junk.kdc"))   // fails, and says so on standard error
        try FileManager.default.createDirectory(at: tmp.file("out"), withIntermediateDirectories: true)
        let script = "exec 2>&-; \"$0\" convert --results r.jsonl -o out -j 1 -- -dash.kdc junk.kdc"
        _ = try ExternalTool("/bin/sh").run(["-c", script, CLI.executable.path], currentDirectory: tmp.url)
        let text = try String(contentsOf: tmp.file("r.jsonl"), encoding: .utf8)
        #expect(!text.contains("error:"), "nothing printed to a closed standard error reaches the results: \(text)")
        let lines = try WorkerSupport.results(tmp.file("r.jsonl"))
        #expect(lines.map { $0["output"] as? String } == ["out/-dash.dng", "out/junk.dng"])
        #expect(lines.map { $0["status"] as? String } == ["ok", "failed"], "\(lines)")
    }

    @Test("a folder holding a file name that is not UTF-8 is refused, naming it, instead of leaving the file out")
    func undecodableName() throws {
        let tmp = try TemporaryDirectory()
        let raws = try tmp.subdirectory("raws")
        try FileManager.default.copyItem(atPath: try WorkerCLITests.sample("kodak-dc120.kdc"), toPath: raws.appendingPathComponent("a.kdc").path)
        let name = Array(raws.path.utf8) + Array("/x".utf8) + [0xFF] + Array(".kdc".utf8) + [0]
        let fd = name.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) } }
        try #require(fd >= 0)
        close(fd)
        for arguments in [["convert", "raws", "-o", "out"], ["convert", "raws", "-o", "out", "--results", "r.jsonl"]] {
            try FileManager.default.createDirectory(at: tmp.file("out"), withIntermediateDirectories: true)
            let run = try CLI.run(arguments, in: tmp.url)
            #expect(run.exitStatus == 2 && run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run)")
            #expect(run.stderr.contains("x\\xff.kdc") && run.stderr.contains("not UTF-8"), "\(run.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.file("out").path).isEmpty, "nothing converted")
        }
        // Beside a raw, a file that is not one may have any name.
        let other = try tmp.subdirectory("other")
        try FileManager.default.copyItem(atPath: try WorkerCLITests.sample("kodak-dc120.kdc"), toPath: other.appendingPathComponent("a.kdc").path)
        let path = Array(other.path.utf8) + Array("/notes-".utf8) + [0xFE] + Array(".txt".utf8) + [0]
        let notesFD = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) } }
        try #require(notesFD >= 0)
        close(notesFD)
        let run = try CLI.run(["convert", "other", "-o", "out"], in: tmp.url)
        #expect(run.exitStatus == 0 && FileManager.default.fileExists(atPath: tmp.file("out/a.dng").path), "\(run)")
        for bytes in [name, path] {   // names Foundation cannot remove with the folder
            _ = bytes.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { unlink($0.baseAddress!) } }
        }
    }
}
