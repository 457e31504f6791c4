import Foundation
import TestSupport
import Testing

/// Issue #33 item 4: no output replaces an input or another output, whatever path names it — a symbolic link to a
/// folder, a hard link, `..` — in `convert`, `develop`, `analyze --png` and the worker mode (manifests, folders,
/// --resume, --check). Each refusal is one line naming both paths, exit status 2, nothing written, every input's
/// bytes as they were.
@Suite("outputs never replace inputs, by identity (issue #33)")
struct OutputIdentityCLITests {
    /// `raws/a.dng` and `raws/b.dng` (a tiny camera's DNGs), `link` → `raws`, and the inputs' SHA-256s.
    struct Tree {
        let tmp: TemporaryDirectory
        let digests: [String: String]
        var path: String { tmp.path }

        init() throws {
            tmp = try TemporaryDirectory()
            let tiny = try TinyCamera.dng(in: tmp.url)
            try FileManager.default.createDirectory(atPath: tmp.path + "/raws/day", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: tmp.path + "/out", withIntermediateDirectories: true)
            for name in ["a.dng", "b.dng"] { try FileManager.default.copyItem(atPath: tiny, toPath: tmp.path + "/raws/" + name) }
            try FileManager.default.createSymbolicLink(atPath: tmp.path + "/link", withDestinationPath: tmp.path + "/raws")
            try FileManager.default.createSymbolicLink(atPath: tmp.path + "/dayLink", withDestinationPath: tmp.path + "/raws/day")
            digests = try Self.digests(of: tmp.path + "/raws")
        }

        /// SHA-256 (coreutils) of every file in `folder`.
        static func digests(of folder: String) throws -> [String: String] {
            var out: [String: String] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue
                else { continue }
                out[name] = try WorkerSupport.sha256sum(folder + "/" + name)
            }
            return out
        }

        /// Expects `result` refused in one line naming `paths`, exit status 2, and the raws as they were (no other file).
        func expectRefused(_ result: ProcessResult, naming paths: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(result.exitStatus == 2, "\(result)", sourceLocation: sourceLocation)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
            for path in paths {
                #expect(result.stderr.contains(path), "\(path) not named: \(result.stderr)", sourceLocation: sourceLocation)
            }
            #expect(try Self.digests(of: path + "/raws") == digests, "an input changed", sourceLocation: sourceLocation)
            #expect(try FileManager.default.contentsOfDirectory(atPath: path + "/out").isEmpty, sourceLocation: sourceLocation)
        }
    }

    @Test("convert --overwrite through a linked folder, a hard link and .. refuses to replace the input raw")
    func convertThroughOtherPaths() throws {
        let tree = try Tree()
        let p = tree.path
        try tree.expectRefused(try CLI.run(["convert", "raws/a.dng", "-o", "link/a.dng", "--overwrite"], in: tree.tmp.url),
                               naming: ["raws/a.dng", "link/a.dng"])
        try tree.expectRefused(try CLI.run(["convert", "raws", "-o", "link", "--overwrite", "--preview", "0"], in: tree.tmp.url),
                               naming: ["raws/a.dng", "link/a.dng"])
        try tree.expectRefused(try CLI.run(["convert", p + "/raws/a.dng", "-o", "dayLink/../a.dng", "--overwrite"], in: tree.tmp.url),
                               naming: [p + "/raws/a.dng", "dayLink/../a.dng"])
        // A hard link of the input under the output's name: the same inode, another name.
        try FileManager.default.linkItem(atPath: p + "/raws/a.dng", toPath: p + "/hard.dng")
        let hard = try CLI.run(["convert", "raws/a.dng", "-o", "hard.dng", "--overwrite"], in: tree.tmp.url)
        try tree.expectRefused(hard, naming: ["raws/a.dng", "hard.dng"])
        #expect(try WorkerSupport.sha256sum(p + "/hard.dng") == tree.digests["a.dng"])
        // The same command into a folder of its own converts (the check refuses clashes only).
        let fine = try CLI.run(["convert", "raws/a.dng", "-o", "out/a.dng", "--preview", "0"], in: tree.tmp.url)
        #expect(fine.exitStatus == 0, "\(fine)")
    }

    @Test("develop: a composite's second frame is an input too; analyze --png: a picture that is a raw")
    func developAndAnalyze() throws {
        let tree = try Tree()
        let composite = try CLI.run(["develop", "--composite", "stacked", "raws/a.dng", "raws/b.dng", "-o", "link/b.dng",
                                     "--format", "jpg", "--overwrite"], in: tree.tmp.url)
        try tree.expectRefused(composite, naming: ["raws/b.dng", "link/b.dng"])
        let develop = try CLI.run(["develop", "raws/a.dng", "-o", "dayLink/../a.dng", "--format", "jpg", "--overwrite"],
                                  in: tree.tmp.url)
        try tree.expectRefused(develop, naming: ["raws/a.dng", "dayLink/../a.dng"])
        // With --all-files every file is an input, so a picture's name in the folder is one too.
        try FileManager.default.copyItem(atPath: tree.path + "/raws/a.dng", toPath: tree.path + "/raws/a-histogram.png")
        let before = try Tree.digests(of: tree.path + "/raws")
        let analyze = try CLI.run(["analyze", "--all-files", "raws", "--png", "link", "--overwrite"], in: tree.tmp.url)
        #expect(analyze.exitStatus == 2 && analyze.stderr.split(separator: "\n").count == 1, "\(analyze)")
        #expect(analyze.stderr.contains("link/a-histogram.png") && analyze.stderr.contains("raws/a-histogram.png"), "\(analyze.stderr)")
        #expect(try Tree.digests(of: tree.path + "/raws") == before)
    }

    @Test("a manifest: job 1 writing job 2's input by another path, two outputs that are one file; --check refuses the same")
    func manifests() throws {
        let tree = try Tree()
        let manifest = tree.tmp.file("jobs.jsonl")
        try WorkerSupport.manifest([["input": "raws/a.dng", "output": "link/b.dng"], ["input": "raws/b.dng", "output": "out/b.dng"]],
                                   at: manifest)
        for extra in [["--results", "r.jsonl", "--overwrite"], ["--check"]] {
            let run = try CLI.run(["convert", "--manifest", manifest.path] + extra, in: tree.tmp.url)
            try tree.expectRefused(run, naming: ["line 2", "raws/b.dng", "line 1", "link/b.dng"])
            #expect(!FileManager.default.fileExists(atPath: tree.tmp.file("r.jsonl").path), "no results file")
        }
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/outLink", withDestinationPath: "out")
        try WorkerSupport.manifest([["input": "raws/a.dng", "output": "out/new/x.dng"], ["input": "raws/b.dng", "output": "outLink/new/x.dng"]],
                                   at: manifest)
        let twice = try CLI.run(["convert", "--manifest", manifest.path, "--results", "r.jsonl"], in: tree.tmp.url)
        try tree.expectRefused(twice, naming: ["line 2", "outLink/new/x.dng", "line 1", "out/new/x.dng"])
    }

    @Test("--resume into a linked folder of the inputs refuses before it runs")
    func resume() throws {
        let tree = try Tree()
        try Data().write(to: tree.tmp.file("r.jsonl"))
        let run = try CLI.run(["convert", "raws", "-o", "link", "--results", "r.jsonl", "--resume", "--preview", "0"], in: tree.tmp.url)
        try tree.expectRefused(run, naming: ["raws/a.dng", "link/a.dng"])
        #expect(try Data(contentsOf: tree.tmp.file("r.jsonl")).isEmpty, "nothing recorded")
    }
}
