import Foundation
@testable import RawJobs
import TestSupport
import Testing

/// Issue #33 item 4: the one check that no output of a batch is an input or another output, by what the paths name.
@Suite("output clash check: identity, not spelling")
struct OutputClashCheckTests {
    /// `raws/a.dng` (and `raws/day/`), `link` → `raws`, `dayLink` → `raws/day`, `out/`, `outLink` → `out`.
    static func tree() throws -> TemporaryDirectory {
        let tmp = try TemporaryDirectory()
        let fm = FileManager.default
        try fm.createDirectory(atPath: tmp.path + "/raws/day", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: tmp.path + "/out", withIntermediateDirectories: true)
        try Data("raw".utf8).write(to: tmp.url.appendingPathComponent("raws/a.dng"))
        try fm.createSymbolicLink(atPath: tmp.path + "/link", withDestinationPath: tmp.path + "/raws")
        try fm.createSymbolicLink(atPath: tmp.path + "/dayLink", withDestinationPath: tmp.path + "/raws/day")
        try fm.createSymbolicLink(atPath: tmp.path + "/outLink", withDestinationPath: "out")
        return tmp
    }

    @Test("an output that is an input through a linked folder, a hard link or .. is found; distinct files are not")
    func replacesInput() throws {
        let tmp = try Self.tree()
        let p = tmp.path
        try FileManager.default.linkItem(atPath: p + "/raws/a.dng", toPath: p + "/out/hard.dng")
        for output in [p + "/link/a.dng", p + "/out/hard.dng", p + "/dayLink/../a.dng", p + "/raws/./a.dng", p + "/raws//a.dng"] {
            let clash = OutputClashCheck.firstClash(in: [JobPaths(inputs: [p + "/raws/a.dng"], outputs: [output])])
            #expect(clash?.kind == .replacesInput && clash?.output == output && clash?.other == p + "/raws/a.dng", "\(output)")
            #expect(clash?.description.contains(output) == true && clash?.description.contains(p + "/raws/a.dng") == true)
        }
        // Another job's input, and one that does not exist yet (a job reading what an earlier one writes).
        let chained = OutputClashCheck.firstClash(in: [JobPaths(inputs: [p + "/raws/a.dng"], outputs: [p + "/out/new/b.dng"]),
                                                       JobPaths(inputs: [p + "/outLink/new/./b.dng"], outputs: [p + "/out/c.dng"])])
        #expect(chained == OutputClash(kind: .replacesInput, output: p + "/out/new/b.dng", outputJob: 0,
                                       other: p + "/outLink/new/./b.dng", otherJob: 1))
        #expect(OutputClashCheck.firstClash(in: [JobPaths(inputs: [p + "/raws/a.dng"], outputs: [p + "/out/a.dng"]),
                                                 JobPaths(inputs: [p + "/raws/a.dng"], outputs: [p + "/out/b.dng"])]) == nil)
    }

    @Test("two outputs that are one file: a linked folder, a folder still to be made, the same existing file")
    func sameOutput() throws {
        let tmp = try Self.tree()
        let p = tmp.path
        for (first, second) in [("out/x.dng", "outLink/x.dng"), ("out/sub/deeper/x.dng", "outLink/sub/deeper/../deeper/x.dng"),
                                ("raws/day/../../out/y.dng", "out/y.dng")] {
            let clash = OutputClashCheck.firstClash(in: [JobPaths(inputs: [p + "/raws/a.dng"], outputs: [p + "/" + first]),
                                                         JobPaths(inputs: [p + "/raws/a.dng"], outputs: [p + "/" + second])])
            #expect(clash == OutputClash(kind: .sameOutput, output: p + "/" + second, outputJob: 1, other: p + "/" + first,
                                         otherJob: 0), "\(first) / \(second)")
        }
        try Data("old".utf8).write(to: tmp.url.appendingPathComponent("out/z.dng"))
        try FileManager.default.linkItem(atPath: p + "/out/z.dng", toPath: p + "/out/z2.dng")
        #expect(OutputClashCheck.firstClash(in: [JobPaths(inputs: [], outputs: [p + "/out/z.dng", p + "/out/z2.dng"])])?.kind
                == .sameOutput)
    }
}
