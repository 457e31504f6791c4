import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue #17 items 11 and 14 (recover and capture's exit statuses): `recover` touches only a burst's own files,
/// and says so with an exit status when it cannot keep its books; `capture` refuses a folder it cannot write.
@Suite("recover and capture keep the books (issue #17)")
struct RecoverBooksCLITests {
    /// A finished two-frame burst with sidecars in `directory`.
    static func burst(in directory: URL) throws {
        let result = try CLI.run(["capture", "--sensor", "phone-front", "--scene", "grey-ramp", "--iso", "100", "--shutter", "1/100",
                                  "--focus", "1m", "--frames", "2", "--sidecar", "-o", directory.path])
        try #require(result.exitStatus == 0, "\(result)")
    }

    /// The journal without its end line: a burst that did not finish.
    static func cutJournalEnd(in directory: URL) throws {
        let journal = directory.appendingPathComponent("journal.jsonl")
        let lines = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n").filter { !$0.contains(#""event":"end""#) }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: journal)
    }

    /// Every file of `directory` with its bytes.
    static func contents(of directory: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            out[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return out
    }

    @Test("item 11: a folder without a journal is refused, one line, exit 2, and nothing in it is touched; --force recovers it")
    func aFolderThatIsNotABurstIsRefused() throws {
        let tmp = try TemporaryDirectory()
        let folder = tmp.url
        try Data(#"{"mine":true}"#.utf8).write(to: folder.appendingPathComponent("manifest.json"))
        try Data("draft".utf8).write(to: folder.appendingPathComponent(".holiday.jpg.AbCdEf.tmp"))
        try Data("notes".utf8).write(to: folder.appendingPathComponent(".notes.tmp"))
        let before = try Self.contents(of: folder)
        let result = try CLI.run(["recover", folder.path])
        #expect(result.exitStatus == 2, "\(result)")
        #expect(result.stderr.split(separator: "\n") == ["rawburst recover: \(folder.path): has no journal.jsonl, so it is not a burst "
                                                            + "folder (--force recovers it anyway)"], "\(result.stderr)")
        #expect(try Self.contents(of: folder) == before)
        // Forced, it still removes only temporary names a burst makes (the default names here) and keeps the manifest.
        let forced = try CLI.run(["recover", folder.path, "--force", "--json"])
        #expect(forced.exitStatus == 0, "\(forced)")
        // --force also replaces the manifest recover did not write: it is recover's own now.
        let manifest = try JSONValue(parsing: String(decoding: try Data(contentsOf: folder.appendingPathComponent("manifest.json")),
                                                     as: UTF8.self))
        #expect(manifest["recovered"]?["journal"]?.bool == false && manifest["mine"] == nil)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".holiday.jpg.AbCdEf.tmp").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".notes.tmp").path))
    }

    @Test("item 11: in a burst folder, recover removes its own temporary names and no one else's")
    func onlyTheBurstsOwnTemporaryFiles() throws {
        let tmp = try TemporaryDirectory()
        let folder = tmp.url.appendingPathComponent("burst")
        try Self.burst(in: folder)
        let own = [".phone-front-0009.dng.Ab12Cd.tmp", ".phone-front-0009.json.xY34zW.tmp", ".manifest.json.Q1w2E3.tmp"]
        let foreign = [".vacation-0001.jpg.Ab12Cd.tmp", ".phone-front-0009.dng.tmp", ".phone-front-0009.txt.Ab12Cd.tmp",
                       ".phone-front-0009.dng.Ab1.tmp", ".bashrc.Ab12Cd.tmp"]
        for name in own + foreign { try Data("x".utf8).write(to: folder.appendingPathComponent(name)) }
        let result = try CLI.run(["recover", folder.path, "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let report = try JSONValue(parsing: result.stdout)
        #expect(Set(report["recovered"]?["removedTemporaryFiles"]?.array?.compactMap(\.string) ?? []) == Set(own))
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(left.isDisjoint(with: own) && Set(foreign).isSubset(of: left), "\(left.sorted())")
    }

    @Test("item 11: a manifest.json recover did not write is not replaced without --force (exit 2, nothing changed)")
    func aForeignManifestIsKept() throws {
        let tmp = try TemporaryDirectory()
        let folder = tmp.url.appendingPathComponent("burst")
        try Self.burst(in: folder)
        try Self.cutJournalEnd(in: folder)
        try Data("x".utf8).write(to: folder.appendingPathComponent(".phone-front-0009.dng.Ab12Cd.tmp"))
        let before = try Self.contents(of: folder)
        let result = try CLI.run(["recover", folder.path])
        #expect(result.exitStatus == 2, "\(result)")
        let manifest = folder.appendingPathComponent("manifest.json").path
        #expect(result.stderr.split(separator: "\n") == ["rawburst recover: \(manifest): exists and was not written by recover "
                                                            + "(--force replaces it)"], "\(result.stderr)")
        #expect(try Self.contents(of: folder) == before)
        let forced = try CLI.run(["recover", folder.path, "--force"])
        #expect(forced.exitStatus == 0, "\(forced)")
        let written = try JSONValue(parsing: String(decoding: try Data(contentsOf: URL(fileURLWithPath: manifest)), as: UTF8.self))
        #expect(written["recovered"]?["frames"]?.array?.count == 2)
        // Now the manifest is recover's own: a second recover may rewrite it without --force.
        #expect(try CLI.run(["recover", folder.path]).exitStatus == 0)
    }

    @Test("item 14: recover exits 1 with one line when it cannot write manifest.json")
    func recoverCannotWriteItsManifest() throws {
        let tmp = try TemporaryDirectory()
        let folder = tmp.url.appendingPathComponent("burst")
        try Self.burst(in: folder)
        try Self.cutJournalEnd(in: folder)
        let manifest = folder.appendingPathComponent("manifest.json")
        try FileManager.default.removeItem(at: manifest)
        try FileManager.default.createDirectory(at: manifest, withIntermediateDirectories: false)
        let result = try CLI.run(["recover", folder.path])
        #expect(result.exitStatus == 1, "\(result)")
        #expect(result.stderr.split(separator: "\n") == ["rawburst recover: \(manifest.path): is a directory; only regular files are replaced"], "\(result.stderr)")
        #expect(result.stdout.hasPrefix("2 frames exist: 0-1 (the burst did not finish)"), "\(result.stdout)")
    }

    @Test("issue #33: recover exits 1 when a frame was lost in flight; 0 when every frame is written or dropped with its reason")
    func aFrameLostInFlightIsExitStatusOne() throws {
        let tmp = try TemporaryDirectory()
        let folder = tmp.url.appendingPathComponent("burst")
        let arguments = TinyCamera.quickCapture.map { $0 == "1" ? "3" : $0 }
        let capture = try CLI.run(["capture", "--profile", try TinyCamera.writeProfile(in: tmp.url), "-o", folder.path] + arguments)
        try #require(capture.exitStatus == 0, "\(capture)")
        let whole = try CLI.run(["recover", folder.path])
        #expect(whole.exitStatus == 0, "\(whole)")
        #expect(whole.stdout.hasPrefix("3 frames exist: 0-2 (the burst finished)") && !whole.stdout.contains("lost"), "\(whole.stdout)")

        // A crash before the end: frame 3 produced, frame 4 produced and dropped (pool-full), frame 3 never settled.
        try Self.cutJournalEnd(in: folder)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("manifest.json"))
        let journal = try FileHandle(forWritingTo: folder.appendingPathComponent("journal.jsonl"))
        try journal.seekToEnd()
        for line in [#"{"event":"produced","sequenceNumber":4,"sensor":"phone-front"}"#,
                     #"{"event":"dropped","reason":"pool-full","sensor":"phone-front","sequenceNumber":4}"#] {
            try journal.write(contentsOf: Data((line + "\n").utf8))
        }
        try journal.close()
        let dropped = try CLI.run(["recover", folder.path])
        #expect(dropped.exitStatus == 0, "a frame dropped with its reason is accounted for: \(dropped)")
        #expect(dropped.stdout.contains("1 dropped during the burst: 4") && !dropped.stdout.contains("lost"), "\(dropped.stdout)")

        let again = try FileHandle(forWritingTo: folder.appendingPathComponent("journal.jsonl"))
        try again.seekToEnd()
        try again.write(contentsOf: Data((#"{"event":"produced","sequenceNumber":3,"sensor":"phone-front"}"# + "\n").utf8))
        try again.close()
        let lost = try CLI.run(["recover", folder.path, "--json"])
        #expect(lost.exitStatus == 1, "\(lost)")
        let report = try JSONValue(parsing: lost.stdout)
        #expect(report["recovered"]?["lostInFlight"]?.array?.compactMap { $0["sequenceNumber"]?.int } == [3])
        #expect(report["recovered"]?["frames"]?.array?.count == 3)
        let text = try CLI.run(["recover", folder.path])
        #expect(text.exitStatus == 1 && text.stdout.contains("1 lost in flight: 3"), "\(text)")
    }

    @Test("item 14: capture into a folder it cannot write exits 2 with one line and creates nothing")
    func captureIntoAReadOnlyFolder() throws {
        let tmp = try TemporaryDirectory()
        let folder = tmp.url.appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        var mounted = false
        if getuid() == 0 {
            // Root writes into any mode: a read-only tmpfs is what stops it.
            mounted = BurstFaultTestsMount.mount(["-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", folder.path])
            guard mounted else {
                withKnownIssue("cannot mount a read-only tmpfs here") { Issue.record("mount failed") }
                return
            }
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        }
        defer {
            if mounted { _ = BurstFaultTestsMount.mount(["-l", folder.path], tool: "umount") }
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        }
        let result = try CLI.run(["capture", "--sensor", "phone-front", "--frames", "2", "-o", folder.path])
        #expect(result.exitStatus == 2, "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("cannot create a file in \(folder.path)"),
                "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }
}

/// `mount` and `umount` for the read-only folder.
enum BurstFaultTestsMount {
    static func mount(_ arguments: [String], tool: String = "mount") -> Bool {
        guard let path = ["/usr/bin/\(tool)", "/bin/\(tool)"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }),
              let result = try? ExternalTool(path).run(arguments, timeout: 30) else { return false }
        return result.exitStatus == 0
    }
}
