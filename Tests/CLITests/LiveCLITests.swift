import Foundation
import Testing
import TestSupport

/// `capture --live` and `rawburst live` through HTTP and raw sockets (Tests/Live/live_http_check.py drives them):
/// refusals, the token, a viewer that never reads, the previews' latencies in the manifest, and the settings kept
/// between runs. The browser itself is LiveBrowserRealTimeTests.
@Suite(.serialized) struct LiveCLITests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Live/live_http_check.py")

    /// A fresh folder with the small sensor profile, and the configuration folder runs share.
    static func workspace(_ name: String) throws -> (folder: URL, profile: String, config: String) {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("rawburst-live-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder, try LiveBrowserRealTimeTests.smallProfile(in: folder), folder.appendingPathComponent("config").path)
    }

    /// Runs `rawburst ARGS` under the driver with `steps`, its configuration in `config`.
    static func drive(_ steps: [[String: Any]], _ arguments: [String], config: String) throws -> [String: JSONValue] {
        let actions = String(decoding: try JSONSerialization.data(withJSONObject: steps), as: UTF8.self)
        let env = ["XDG_CONFIG_HOME": config, "XDG_CACHE_HOME": CLI.cacheHome]
        let wrapper = "import os, runpy, sys; os.environ.update(\(Self.pythonDict(env))); sys.argv = sys.argv[1:]; "
            + "runpy.run_path(sys.argv[0], run_name='__main__')"
        let result = try Python.run(script: wrapper, arguments: [Self.script.path, actions, CLI.executable.path] + arguments,
                                    timeout: 300)
        try result.requireSuccess()
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(result.stdout.utf8))
        return json.object ?? [:]
    }

    static func pythonDict(_ d: [String: String]) -> String {
        "{" + d.map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", ") + "}"
    }

    @Test func badViewfinderOptionsAreRefusedInOneLineBeforeAnythingIsCreated() throws {
        let (folder, profile, _) = try Self.workspace("bad")
        let out = folder.appendingPathComponent("out").path
        let quick = ["capture", "--profile", profile, "--frames", "1", "-o", out]
        for (arguments, words) in [(["--live", "abc"], "is not a port"), (["--live", "127.0.0.1:70000"], "is not a port"),
                                   (["--live", "999.1.1.1:8180"], "is not an IP address"),
                                   (["--live", "--live-token", "short"], "--live-token must be"),
                                   (["--live-token", "0123456789abcdef0123"], "need --live")] {
            let r = try CLI.run(quick + arguments)
            #expect(r.exitStatus == 2, "\(arguments): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(words), "\(arguments): \(r.stderr)")
        }
        // A port another program holds: one line naming it, exit 2, no output folder made.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        #expect(listen(fd, 1) == 0)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let r = try CLI.run(quick + ["--live", "127.0.0.1:\(port)"])
        #expect(r.exitStatus == 2, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("127.0.0.1:\(port)"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func aBurstUnderTheViewfinderLosesNoFrameToAViewerThatNeverReads() throws {
        let (folder, profile, config) = try Self.workspace("stall")
        let out = folder.appendingPathComponent("out").path
        // The address is printed before the burst starts (the time plan may first measure the disk): wait for frames.
        let r = try Self.drive([["wait_status": "s['burst']['produced'] > 0", "seconds": 60], ["stall": true], ["watch": 2.0],
                                ["frame": true], ["get": "/status"]],
                               ["capture", "--profile", profile, "--scene", "siemens-star", "--fps", "10", "--frames", "40",
                                "--live", "127.0.0.1:0", "--live-size", "320", "-o", out, "--json"], config: config)
        #expect(r["exitCode"]?.int == 0, "\(r["stderr"]?.string ?? "")")
        let all = r["steps"]?.array ?? []
        #expect(all.first?["ok"] == .bool(true))
        let steps = Array(all.dropFirst())
        #expect(steps.first?["upgrade"]?.string?.contains("101") ?? false)
        // A reading viewer alongside got previews (at most the burst's 10 fps for 2 s; a debug build makes fewer) and the
        // status.
        #expect((steps[safe: 1]?["binary"]?.int ?? 0) >= 6, "\(String(describing: steps[safe: 1]))")
        #expect((steps[safe: 1]?["text"]?.int ?? 0) >= 2)
        #expect(steps[safe: 2]?["jpeg"] == .bool(true))
        #expect(steps[safe: 3]?["json"]?["source"]?["sensors"]?[0]?.string == "live-test")
        let report = try JSONDecoder().decode(JSONValue.self, from: Data((r["stdout"]?.string ?? "").utf8))
        #expect(report["burst"]?["written"]?.int == 40)
        #expect(report["burst"]?["dropped"]?.array?.isEmpty ?? false)
        // Every previewed frame's capture-to-socket time is in the manifest.
        let frames = report["viewfinder"]?["frames"]?.array ?? []
        #expect(frames.count >= 6)
        for frame in frames {
            let ms = frame["milliseconds"]?.double ?? -1
            #expect(ms >= 0 && ms < 5000)
        }
        let manifest = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json")))
        #expect(manifest["viewfinder"]?["frames"]?.array?.count == frames.count)
    }

    /// Issue #33: while frames are only shown nothing is recording and no drop is counted (the frames let go are not a
    /// recording's); once recording, its own drops only. `/files` of the take lists and serves what the recording
    /// wrote (matched with its journal by device and inode), never a hard or symbolic link placed in the folder.
    @Test func whileOnlyLookingNoDropsAreCountedAndTheTakesFilesAreItsOwn() throws {
        let (folder, profile, config) = try Self.workspace("looking")
        let out = folder.appendingPathComponent("out").path, take = out + "/take-001"
        let outside = folder.appendingPathComponent("outside-secret.txt").path
        try Data("outside secret".utf8).write(to: URL(fileURLWithPath: outside))
        let r = try Self.drive([["wait_status": "s['burst']['produced'] >= 15", "seconds": 60], ["get": "/status"],
                                ["post": ["cmd": "trigger"]], ["wait_status": "s['burst']['written'] >= 3", "seconds": 60],
                                ["get": "/status"], ["hardlink": [outside, take + "/hard-0001.dng"]],
                                ["symlink": [outside, take + "/soft-0001.dng"]], ["get": "/files"], ["get": "/files/hard-0001.dng"],
                                ["get": "/files/soft-0001.dng"], ["post": ["cmd": "quit"]]],
                               ["live", "--profile", profile, "--fps", "10", "--live", "127.0.0.1:0", "--live-size", "160",
                                "-o", out], config: config)
        #expect(r["exitCode"]?.int == 0, "\(r["stderr"]?.string ?? "")")
        let steps = r["steps"]?.array ?? []
        #expect(steps[safe: 0]?["ok"] == .bool(true))
        let looking = steps[safe: 1]?["json"]?["burst"]
        #expect(looking?["state"]?.string == "waiting" && looking?["recording"] == .bool(false), "\(String(describing: looking))")
        #expect((looking?["produced"]?.int ?? 0) >= 15 && (looking?["fps"]?.double ?? 0) > 0)
        #expect(looking?["dropped"]?.int == 0 && looking?["droppedByReason"]?.object?.isEmpty == true, "\(String(describing: looking))")
        let recording = steps[safe: 4]?["json"]?["burst"]
        #expect(recording?["recording"] == .bool(true) && recording?["state"]?.string == "recording", "\(String(describing: recording))")
        #expect(recording?["droppedByReason"]?["outside-pre-record"] == nil, "\(String(describing: recording))")
        let listed = (steps[safe: 7]?["json"]?.array ?? []).compactMap { $0["name"]?.string }
        #expect(listed.contains("journal.jsonl") && listed.filter { $0.hasSuffix(".dng") }.count >= 3, "\(listed)")
        #expect(!listed.contains("hard-0001.dng") && !listed.contains("soft-0001.dng"), "\(listed)")
        #expect(steps[safe: 8]?["status"]?.int == 404 && steps[safe: 9]?["status"]?.int == 404)
        // The take's manifest still counts every frame let go while only shown (nothing lost unsaid).
        let manifest = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: take + "/manifest.json")))
        let shown = (manifest["burst"]?["dropped"]?.array ?? []).filter { $0["reason"]?.string == "outside-pre-record" }
        #expect(shown.count >= 10, "\(shown.count) frames shown before Record")
        // The journal identifies each DNG and, once written, the manifest by device and inode.
        let lines = try String(contentsOfFile: take + "/journal.jsonl", encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
        let identified = lines.filter { ["committed", "file"].contains($0["event"]?.string ?? "") }
        #expect(identified.contains { $0["file"]?.string == "manifest.json" })
        for line in identified {
            let name = try #require(line["file"]?.string)
            let attributes = try FileManager.default.attributesOfItem(atPath: take + "/" + name)
            #expect(line["inode"]?.int.map { UInt64($0) } == (attributes[.systemFileNumber] as? NSNumber)?.uint64Value, "\(name)")
            #expect(line["device"]?.int.map { UInt64($0) } == (attributes[.systemNumber] as? NSNumber)?.uint64Value, "\(name)")
        }
    }

    @Test func aTokenGuardsEveryRequestAndQuitEndsLiveCleanly() throws {
        let (folder, profile, config) = try Self.workspace("token")
        let token = "abcdefghijklmnop0123456789"
        let r = try Self.drive([["get": "/", "token": false], ["get": "/status", "token": "wrong"], ["get": "/", "token": true],
                                ["post": ["cmd": "set", "iso": 12800]], ["post": ["cmd": "set", "iso": 800]],
                                ["wait_status": "s['controls']['settings'].get('iso') == 800", "seconds": 20],
                                ["post": ["cmd": "quit"], "token": false], ["post": ["cmd": "quit"]]],
                               ["live", "--profile", profile, "--live", "127.0.0.1:0", "--live-token", token,
                                "-o", folder.appendingPathComponent("out").path], config: config)
        let steps = r["steps"]?.array ?? []
        #expect(r["url"]?.string?.hasSuffix("?token=\(token)") ?? false)
        #expect(steps[safe: 0]?["status"]?.int == 401)
        #expect(steps[safe: 1]?["status"]?.int == 401)
        #expect(steps[safe: 2]?["status"]?.int == 200)
        #expect(steps[safe: 3]?["json"]?["ok"] == .bool(false))
        #expect(steps[safe: 3]?["json"]?["reason"]?.string?.contains("12800 is outside 50...6400") ?? false)
        #expect(steps[safe: 4]?["json"]?["ok"] == .bool(true))
        #expect(steps[safe: 5]?["ok"] == .bool(true))
        #expect(steps[safe: 6]?["status"]?.int == 401)
        #expect(r["exitCode"]?.int == 0, "\(r["stderr"]?.string ?? "")")
    }

    @Test func recordingsFollowOneAnotherAndRecordPressedWhileOneIsEndingStartsTheNext() throws {
        let (folder, profile, config) = try Self.workspace("takes")
        let out = folder.appendingPathComponent("out").path
        let r = try Self.drive([["wait_status": "s['burst']['produced'] > 0", "seconds": 60], ["post": ["cmd": "trigger"]],
                                ["wait_status": "s['burst']['written'] >= 3", "seconds": 60],
                                // Stop, then Record at once, while the first recording is still being written.
                                ["post": ["cmd": "stop"]], ["post": ["cmd": "trigger"]],
                                ["wait_status": "s['burst']['take'] == 2 and s['burst']['written'] >= 3", "seconds": 60],
                                ["post": ["cmd": "quit"]]],
                               ["live", "--profile", profile, "--fps", "10", "--live", "127.0.0.1:0", "--live-size", "160",
                                "-o", out], config: config)
        #expect(r["exitCode"]?.int == 0, "\(r["stderr"]?.string ?? "")")
        let steps = r["steps"]?.array ?? []
        #expect(steps[safe: 2]?["ok"] == .bool(true))
        #expect(steps[safe: 4]?["json"]?["message"]?.string.map { ["triggered", "recording starts with the next burst"].contains($0) } ?? false)
        #expect(steps[safe: 5]?["ok"] == .bool(true), "the second recording started by itself")
        for take in ["take-001", "take-002"] {
            let manifest = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: "\(out)/\(take)/manifest.json")))
            let written = manifest["burst"]?["written"]?.int ?? 0
            #expect(written >= 3, "\(take): \(written) written")
            let dngs = try FileManager.default.contentsOfDirectory(atPath: "\(out)/\(take)").filter { $0.hasSuffix(".dng") }
            #expect(dngs.count == written)
        }
        #expect(!FileManager.default.fileExists(atPath: "\(out)/take-003/manifest.json"))
        // A second run into the same folder adds take-003 and leaves the first run's takes as they were.
        let before = try Data(contentsOf: URL(fileURLWithPath: "\(out)/take-001/manifest.json"))
        let again = try Self.drive([["post": ["cmd": "quit"]]],
                                   ["live", "--profile", profile, "--live", "127.0.0.1:0", "--live-size", "160", "-o", out],
                                   config: config)
        #expect(again["exitCode"]?.int == 0, "\(again["stderr"]?.string ?? "")")
        #expect(FileManager.default.fileExists(atPath: "\(out)/take-003/manifest.json"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(out)/take-001/manifest.json")) == before)
    }

    @Test func aBracketingPlanKeepsItsSettingsAndThePageIsToldWhy() throws {
        let (folder, profile, config) = try Self.workspace("plan")
        let r = try Self.drive([["post": ["cmd": "set", "iso": 800]], ["get": "/status"]],
                               ["capture", "--profile", profile, "--bracket", "iso:100,200", "--frames", "40", "--fps", "10",
                                "--live", "127.0.0.1:0", "--live-size", "160", "-o", folder.appendingPathComponent("out").path, "--json"],
                               config: config)
        #expect(r["exitCode"]?.int == 0, "\(r["stderr"]?.string ?? "")")
        let reply = r["steps"]?[0]?["json"]
        #expect(reply?["ok"] == .bool(false))
        #expect(reply?["reason"]?.string?.contains("the bracketing plan sets the settings") ?? false, "\(String(describing: reply))")
        #expect(r["steps"]?[1]?["json"]?["source"]?["adjustable"] == .bool(false))
        let report = try JSONDecoder().decode(JSONValue.self, from: Data((r["stdout"]?.string ?? "").utf8))
        let isos = Set(report["frames"]?.array?.compactMap { $0["settings"]?["iso"]?.double } ?? [])
        #expect(isos == [100, 200])
        #expect(!FileManager.default.fileExists(atPath: config + "/rawburst/live.json"), "a refused change is not saved")
    }

    @Test func theLastSettingsAreUsedAtTheNextStartUnlessTheCommandLineSaysOtherwise() throws {
        let (folder, profile, config) = try Self.workspace("persist")
        let base = ["live", "--profile", profile, "--live", "127.0.0.1:0"]
        func run(_ extra: [String], _ steps: [[String: Any]]) throws -> [String: JSONValue] {
            try Self.drive(steps, base + ["-o", folder.appendingPathComponent("out-\(UUID().uuidString)").path] + extra, config: config)
        }
        let quit: [String: Any] = ["post": ["cmd": "quit"]]
        let first = try run([], [["post": ["cmd": "set", "iso": 640]], ["post": ["cmd": "set", "wb": "4300K+5"]], quit])
        #expect(first["exitCode"]?.int == 0, "\(first["stderr"]?.string ?? "")")
        let saved = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: config + "/rawburst/live.json")))
        #expect(saved["settings"]?["iso"]?.double == 640)
        #expect(saved["mode"]?.string == "manual")
        let status: [String: Any] = ["get": "/status"]
        let again = try run([], [status, quit])
        #expect(again["steps"]?[0]?["json"]?["controls"]?["settings"]?["iso"]?.double == 640)
        #expect(again["steps"]?[0]?["json"]?["controls"]?["mode"]?.string == "manual")
        let told = try run(["--iso", "200"], [status, quit])
        #expect(told["steps"]?[0]?["json"]?["controls"]?["settings"]?["iso"]?.double == 200)
        let fresh = try run(["--ignore-saved-settings"], [status, quit])
        #expect(fresh["steps"]?[0]?["json"]?["controls"]?["settings"]?["iso"] == nil)
        // A damaged file is named, and the run starts from automatic.
        try "{".write(toFile: config + "/rawburst/live.json", atomically: true, encoding: .utf8)
        let damaged = try run([], [status, quit])
        #expect(damaged["exitCode"]?.int == 0)
        #expect(damaged["stderr"]?.string?.contains("live.json") ?? false)
        #expect(damaged["steps"]?[0]?["json"]?["controls"]?["settings"]?["iso"] == nil)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

/// Every source the burst takes shows in the viewfinder: replayed raw files and two sensors (stacked, or side by side
/// as the composite options say). Cameras and raw streams are checked by hand (docs/live.md).
@Suite(.serialized) struct LiveSourcesCLITests {
    static func watch(_ arguments: [String], name: String) throws -> [String: JSONValue] {
        let (_, _, config) = try LiveCLITests.workspace(name)
        let r = try LiveCLITests.drive([["wait_status": "s['burst']['produced'] > 0", "seconds": 60], ["watch": 2.0],
                                        ["get": "/status"]], arguments, config: config)
        #expect(r["exitCode"]?.int == 0, "\(r["stderr"]?.string ?? "")")
        return r
    }

    @Test func replayedRawFilesAreShownAndTheirSettingsCannotChange() throws {
        let (folder, _, _) = try LiveCLITests.workspace("replay")
        let raw = try #require(TestPaths.sharedSample("canon-powershot-g2.crw")).path
        let r = try Self.watch(["capture", "--replay", raw, "--fps", "5", "--frames", "20", "--live", "127.0.0.1:0",
                                "--live-size", "320", "-o", folder.appendingPathComponent("out").path], name: "replay-run")
        let watched = r["steps"]?[1]?.object ?? [:]
        #expect((watched["binary"]?.int ?? 0) >= 1)
        #expect(watched["width"]?.int == 320, "the G2's 2272 px long edge binned to 320: \(String(describing: watched["width"]))")
        #expect(watched["lastMeta"]?["sensors"]?[0]?["name"]?.string == "replay")
        #expect(r["steps"]?[2]?["json"]?["source"]?["adjustable"] == .bool(false))
    }

    @Test func twoSensorsAreStackedOrSideBySide() throws {
        let (folder, profile, _) = try LiveCLITests.workspace("pair")
        // A second sensor: the same design under another name.
        let data = try Data(contentsOf: URL(fileURLWithPath: profile))
        var second = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        second["name"] = "live-test-2"
        let secondPath = folder.appendingPathComponent("second.json")
        try JSONSerialization.data(withJSONObject: second).write(to: secondPath)
        for (stack, size) in [("vertical", (320, 480)), ("horizontal", (640, 240))] {
            let r = try Self.watch(["capture", "--profile", profile, "--profile", secondPath.path, "--scene", "siemens-star",
                                    "--fps", "5", "--frames", "15", "--composite-stack", stack, "--live", "127.0.0.1:0",
                                    "--live-size", "320", "-o", folder.appendingPathComponent("out-\(stack)").path], name: "pair-run")
            let watched = r["steps"]?[1]?.object ?? [:]
            #expect(watched["width"]?.int == size.0 && watched["height"]?.int == size.1, "\(stack): \(watched)")
            let panes = watched["lastMeta"]?["panes"]?.array ?? []
            #expect(panes.count == 2)
            #expect(watched["lastMeta"]?["sensors"]?.array?.compactMap { $0["name"]?.string } == ["live-test", "live-test-2"])
        }
    }
}
