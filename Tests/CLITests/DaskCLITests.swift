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
