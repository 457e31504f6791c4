import Foundation
import RawBurst
import TestSupport
import Testing

/// `rawburst capture` and `rawburst sensors` end to end: files, tags read back by exiftool and LibRaw, the
/// colour chart's measuring file, and bad settings refused before anything is written.
@Suite("rawburst capture")
struct CaptureCLITests {
    /// Decodes the `--json` report of a command.
    static func report(_ result: ProcessResult) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(result.stdout.utf8))
    }

    @Test("every setting given: DNGs whose tags say exactly what was asked, valid for exiftool and LibRaw",
          .enabled(if: ToolAvailability.has("exiftool", "raw-identify")))
    func manualCapture() throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst").path
        let result = try CLI.run(["capture", "--sensor", "phone-front", "--scene", "colorchart", "--iso", "100",
                                  "--shutter", "1/100", "--aperture", "2.2", "--focus", "1.5m", "--wb", "daylight",
                                  "--ev", "-0.7", "--seed", "7", "--frames", "2", "-o", out, "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(files == ["journal.jsonl", "manifest.json", "phone-front-0000.dng", "phone-front-0001.dng",
                          "phone-front-colorchart.json"])
        let report = try Self.report(result)
        #expect(report["frames"]?.array?.count == 2)
        #expect(report["frames"]?[0]?["settings"]?["automatic"]?.array?.isEmpty == true)
        #expect(report["frames"]?[1]?["sequenceNumber"]?.double == 1)

        for name in files where name.hasSuffix(".dng") {
            let path = (out as NSString).appendingPathComponent(name)
            #expect(try ExifTool.validate(path) == [], "\(name)")
            // Tag names without their group ("ExifIFD:ISO" → "ISO"); the raw image's (SubIFD) values win over
            // the thumbnail's (IFD0).
            var tags: [String: JSONValue] = [:]
            for (key, value) in try ExifTool.tags(of: path) {
                let name = String(key.split(separator: ":").last ?? "")
                if tags[name] == nil || key.hasPrefix("SubIFD:") { tags[name] = value }
            }
            #expect(tags["Model"]?.string == "Simulated phone-front")
            #expect(tags["ImageWidth"]?.double == 3088 && tags["ImageHeight"]?.double == 2320)
            #expect(tags["CFAPattern2"]?.string == "1 2 0 1") // GBRG
            #expect(tags["BlackLevel"]?.string == "64 64 64 64" && tags["WhiteLevel"]?.double == 1023)
            #expect(tags["ISO"]?.double == 100)
            #expect(tags["ExposureTime"]?.double == 0.01)
            #expect(tags["FNumber"]?.double == 2.2)
            #expect(tags["SubjectDistance"]?.double == 1.5)
            #expect(tags["ExposureCompensation"]?.double == -0.7)
            #expect(tags["ExposureProgram"]?.double == 1) // manual
            #expect(tags["WhiteBalance"]?.double == 1) // manual
            #expect(tags["CalibrationIlluminant1"]?.double == 17 && tags["CalibrationIlluminant2"]?.double == 21)
            for matrix in ["ColorMatrix1", "ColorMatrix2", "ForwardMatrix1", "ForwardMatrix2"] {
                #expect(tags[matrix]?.string?.split(separator: " ").count == 9, "\(matrix)")
            }
            #expect(tags["ColorMatrix1"] != tags["ColorMatrix2"])
            #expect(tags["AsShotNeutral"]?.string?.split(separator: " ").count == 3)
            let libraw = try RawIdentify.identify(path)
            #expect(libraw.output.contains("Simulated phone-front"), "\(libraw.output)")
        }
        // The chart file: 24 patches, all inside this camera's frame, with reference values.
        let chartData = try Data(contentsOf: URL(fileURLWithPath: (out as NSString).appendingPathComponent("phone-front-colorchart.json")))
        let chart = try JSONDecoder().decode(JSONValue.self, from: chartData)
        let patches = try #require(chart["patches"]?.array)
        #expect(patches.count == 24)
        #expect(patches.allSatisfy { $0["rect"]?["x0"]?.double != nil && $0["labD50"]?["L"]?.double != nil })
        #expect(chart["camera"]?.string == "phone-front front")
    }

    @Test("no settings: auto exposure, autofocus and auto white balance resolve every control")
    func automaticCapture() throws {
        let tmp = try TemporaryDirectory()
        let result = try CLI.run(["capture", "--sensor", "phone-front", "--scene", "depth", "-o", tmp.url.path, "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let settings = try #require(try Self.report(result)["frames"]?[0]?["settings"])
        #expect(Set(settings["automatic"]?.array?.compactMap(\.string) ?? []) == ["focus", "iso", "shutter", "white balance"])
        #expect(settings["meteredEV100"]?.double != nil)
        #expect((settings["focus"]?.double ?? 0) > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.url.path).sorted()
                == ["journal.jsonl", "manifest.json", "phone-front-0000.dng"])
    }

    @Test("impossible settings: one line naming the setting, exit status 2, nothing created",
          arguments: [
            (["--iso", "10"], "ISO: 10 is outside 50...6400"),
            (["--iso", "1e20"], "ISO: 1e+20 is outside 50...6400"),
            (["--shutter", "1e20"], "shutter: 1e+20 s is outside"),
            (["--shutter", "1/9000"], "shutter: 1/9000 s is outside"),
            (["--shutter", "fast"], "--shutter: 'fast' is not an exposure time"),
            (["--ev", "0.25"], "0.1 EV steps"),
            (["--ev", "4"], "exposure compensation"),
            (["--aperture", "1.2"], "aperture: f/1.2 is outside"),
            (["--focus", "0.01m"], "focus"),
            (["--wb", "900K"], "white balance: 900 K is outside 2000...12000 K"),
            (["--wb", "purple"], "--wb: 'purple' is not auto"),
            (["--metering", "zone:9"], "zone"),
            (["--sensor", "phone-back"], "unknown sensor 'phone-back'"),
            (["--scene", "moon"], "moon"),
            (["--scene", "image:/nonexistent.png"], "/nonexistent.png"),
            (["--lens", "fisheye"], "fisheye"),
            (["--preset", "dusk"], "unknown lighting preset 'dusk'"),
            (["--frames", "0"], "--frames must be within 1...1000000"),
          ])
    func impossibleSettings(_ arguments: [String], _ message: String) throws {
        try Self.expectRefusedBeforeCapture(arguments, message)
    }

    /// `capture ARGUMENTS` is refused up front: exit status 2, one stderr line holding `message`, no output folder.
    static func expectRefusedBeforeCapture(_ arguments: [String], _ message: String) throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("never").path
        let result = try CLI.run(["capture"] + arguments + ["-o", out])
        #expect(result.exitStatus == 2, "\(arguments): \(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("files already there are kept: refused before capturing without --overwrite, replaced with it")
    func existingFilesAreKept() throws {
        let tmp = try TemporaryDirectory()
        let dng = tmp.url.appendingPathComponent("phone-front-0001.dng")
        try Data("keep me".utf8).write(to: dng)
        let refused = try CLI.run(["capture", "--sensor", "phone-front", "--scene", "grey-ramp", "--frames", "2",
                                   "-o", tmp.url.path])
        #expect(refused.exitStatus == 2)
        #expect(refused.stderr.contains("phone-front-0001.dng: already exists (use --overwrite to replace it)"))
        #expect(try Data(contentsOf: dng) == Data("keep me".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.url.path).sorted() == ["phone-front-0001.dng"])
        let replaced = try CLI.run(["capture", "--sensor", "phone-front", "--scene", "grey-ramp", "--frames", "2",
                                    "-o", tmp.url.path, "--overwrite"])
        #expect(replaced.exitStatus == 0, "\(replaced)")
        #expect(try Data(contentsOf: dng).count > 1_000_000)
    }

    @Test("a lighting preset sets ISO, bias, white balance and metering; explicit options win; user presets load")
    func presets() throws {
        let tmp = try TemporaryDirectory()
        let floodlight = try CLI.run(["capture", "--sensor", "phone-front", "--preset", "floodlight", "--wb", "5000K",
                                      "-o", tmp.url.appendingPathComponent("a").path, "--json"])
        #expect(floodlight.exitStatus == 0, "\(floodlight)")
        let s = try #require(try Self.report(floodlight)["frames"]?[0]?["settings"])
        #expect(s["iso"]?.double == 800 && s["exposureCompensation"]?.double == -0.7)
        #expect(s["metering"]?.string == "centre-weighted" && s["whiteBalance"]?.string == "5000K")
        let file = tmp.url.appendingPathComponent("mine.json")
        try Data(#"[{"name": "dusk", "iso": 1600, "evBias": 0.3, "whiteBalance": "tungsten", "metering": "zone:4"}]"#.utf8)
            .write(to: file)
        let dusk = try CLI.run(["capture", "--sensor", "phone-front", "--presets", file.path, "--preset", "dusk",
                                "-o", tmp.url.appendingPathComponent("b").path, "--json"])
        #expect(dusk.exitStatus == 0, "\(dusk)")
        let d = try #require(try Self.report(dusk)["frames"]?[0]?["settings"])
        #expect(d["iso"]?.double == 1600 && d["exposureCompensation"]?.double == 0.3)
        #expect(d["metering"]?.string == "zone:4" && d["whiteBalance"]?.string == "tungsten")
    }

    @Test("--profile FILE: a profile of your own is used; a bad one is refused naming the field")
    func profileFile() throws {
        let tmp = try TemporaryDirectory()
        let builtIn = try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("profiles/phone-wide.json"))
        var text = String(decoding: builtIn, as: UTF8.self)
        text = text.replacingOccurrences(of: #""name" : "phone-wide""#, with: #""name" : "my-cam""#)
            .replacingOccurrences(of: #""width" : 4032"#, with: #""width" : 800"#)
            .replacingOccurrences(of: #""height" : 3024"#, with: #""height" : 600"#)
        let good = tmp.url.appendingPathComponent("my-cam.json")
        try Data(text.utf8).write(to: good)
        let out = tmp.url.appendingPathComponent("out")
        let result = try CLI.run(["capture", "--profile", good.path, "--scene", "grey-ramp", "-o", out.path])
        #expect(result.exitStatus == 0, "\(result)")
        let dng = out.appendingPathComponent("my-cam-0000.dng")
        #expect(FileManager.default.fileExists(atPath: dng.path))
        let bad = tmp.url.appendingPathComponent("bad.json")
        try Data(text.replacingOccurrences(of: #""readNoiseElectrons" : 2,"#, with: #""readNoiseElectrons" : -2,"#).utf8)
            .write(to: bad)
        let refused = try CLI.run(["capture", "--profile", bad.path, "-o", tmp.url.appendingPathComponent("never").path])
        #expect(refused.exitStatus == 2)
        #expect(refused.stderr.contains("bad.json: invalid profile my-cam: readNoiseElectrons"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.url.appendingPathComponent("never").path))
    }

    @Test("--replay: raw files replayed as the sensor at --fps, written as DNGs with the same raw data")
    func replay() throws {
        let source = try #require(TestPaths.sharedSample("canon-powershot-g2.crw"))
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("replay")
        let result = try CLI.run(["capture", "--replay", source.path, "--frames", "3", "--fps", "4", "--late", "wait", "-o", out.path, "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let report = try Self.report(result)
        #expect(report["replayedFiles"]?.int == 1 && report["sensors"]?[0]?.string == "replay")
        let frames = try #require(report["frames"]?.array)
        #expect(frames.map { $0["sequenceNumber"]?.int } == [0, 1, 2])
        let stamps = frames.compactMap { $0["monotonicNanoseconds"]?.double }
        // Start to start, 250 ms apart: frame n is never early, and when it is late its lateness says so.
        let lateness = frames.compactMap { $0["latenessMilliseconds"]?.double }
        #expect(stamps.count == 3 && lateness.count == 3)
        for n in 1..<min(stamps.count, lateness.count) {
            let due = stamps[0] + Double(n) * 250e6
            #expect(stamps[n] >= due - 1e6, "frame \(n) early: \(stamps)")
            #expect(abs((stamps[n] - due) / 1e6 - lateness[n]) < 2, "frame \(n): \(stamps), lateness \(lateness)")
        }
        let original = try RawFileReader().read(path: source.path).frame.activeSamples()
        for n in 0..<3 {
            let dng = out.appendingPathComponent(String(format: "replay-%04d.dng", n))
            #expect(try RawFileReader().read(path: dng.path).frame.activeSamples() == original, "frame \(n)")
        }
        let refused = try CLI.run(["capture", "--replay", source.path, "--iso", "800", "-o", tmp.url.appendingPathComponent("no").path])
        #expect(refused.exitStatus == 2)
        #expect(refused.stderr.contains("a replay cannot change ISO (asked for ISO 800; the files were taken at ISO 50)"))
    }

    @Test("two sensors at once: triggered together, each its own files, pairs with one timestamp and capture time",
          .enabled(if: ToolAvailability.has("exiftool")))
    func twoSensors() throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("pair")
        let result = try CLI.run(["capture", "--sensor", "phone-wide", "--sensor", "phone-front", "--frames", "2",
                                  "--fps", "4", "--late", "wait", "--scene", "depth", "-o", out.path, "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let report = try Self.report(result)
        #expect(report["sensors"]?.array?.compactMap(\.string) == ["phone-wide", "phone-front"])
        let frames = try #require(report["frames"]?.array)
        try #require(frames.map { "\($0["sensor"]?.string ?? "")-\($0["sequenceNumber"]?.int ?? -1)" }
                     == ["phone-wide-0", "phone-front-0", "phone-wide-1", "phone-front-1"])
        for pair in [0, 2] {
            #expect(frames[pair]["monotonicNanoseconds"] == frames[pair + 1]["monotonicNanoseconds"])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
                == ["journal.jsonl", "manifest.json", "phone-front-0000.dng", "phone-front-0001.dng",
                    "phone-wide-0000.dng", "phone-wide-0001.dng"])
        // One ledger per sensor in the account: each produced and wrote its two frames.
        #expect(report["burst"]?["produced"]?.int == 4 && report["burst"]?["written"]?.int == 4)
        func captureTime(_ name: String) throws -> String? {
            let tags = try ExifTool.tags(of: out.appendingPathComponent(name).path)
            return tags.first { $0.key.hasSuffix(":SubSecDateTimeOriginal") }?.value.string
        }
        let wide = try captureTime("phone-wide-0001.dng"), front = try captureTime("phone-front-0001.dng")
        #expect(wide != nil && wide == front, "\(String(describing: wide)) vs \(String(describing: front))")
        let tooMany = try CLI.run(["capture", "--sensor", "phone-wide", "--sensor", "phone-front", "--sensor", "phone-tele",
                                   "-o", tmp.url.appendingPathComponent("no").path])
        #expect(tooMany.exitStatus == 2 && tooMany.stderr.contains("at most two sensors at once (3 given)"))
        let iso = try CLI.run(["capture", "--sensor", "phone-wide", "--sensor", "phone-front", "--iso", "6400",
                               "-o", tmp.url.appendingPathComponent("no").path])
        #expect(iso.exitStatus == 2 && iso.stderr.contains("phone-front ISO: 6400 is outside 50...3200"), "\(iso.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.url.appendingPathComponent("no").path))
    }

    @Test("the burst engine: a slow disk with drop-newest drops frames, counts each one, exit status 3")
    func burstDropsOnASlowDisk() throws {
        // The disk is slow (20 MB/s) and answers nothing for the first 8 s, so the three slots are full before any
        // write ends however slowly the debug build renders frames on a loaded machine (a bandwidth limit alone
        // raced the renderer: on 2 busy cores it produced frames no faster than the disk took them).
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--sensor", "phone-front", "--scene", "grey-ramp", "--frames", "8", "--fps", "30", "--late", "wait",
                                  "--iso", "100", "--shutter", "1/100", "--focus", "1m",
                                  "--memory-budget", "148MiB", "--overflow", "drop-newest", "--writers", "1",
                                  "--simulate-disk", "20MB/s,stall:8s@0s", "-o", out.path, "--json"])
        #expect(result.exitStatus == 3, "\(result)")
        let burst = try #require(try Self.report(result)["burst"])
        #expect(burst["slots"]?.int == 3 && burst["highWater"]?.int == 3 && burst["writers"]?.int == 1)
        #expect(burst["problems"]?.array?.isEmpty == true)
        let dropped = try #require(burst["dropped"]?.array)
        #expect(!dropped.isEmpty && dropped.allSatisfy { $0["reason"]?.string == "pool-full" })
        #expect(burst["produced"]?.int == 8 && (burst["written"]?.int ?? 0) + dropped.count == 8)
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".dng") }
        #expect(files.count == burst["written"]?.int)
        // The manifest beside the files holds the same account.
        let manifest = try JSONValue(parsing: try Data(contentsOf: out.appendingPathComponent("manifest.json")))
        #expect(manifest["burst"]?["dropped"] == burst["dropped"] && manifest["burst"]?["written"] == burst["written"])
        #expect(manifest["frames"]?.array?.count == files.count)
        #expect(Set(manifest["frames"]?.array?.compactMap { $0["path"]?.string.map { ($0 as NSString).lastPathComponent } } ?? [])
                == Set(files))
        for drop in dropped {
            let n = try #require(drop["sequenceNumber"]?.int)
            #expect(!files.contains(String(format: "phone-front-%04d.dng", n)), "dropped frame \(n) has a file")
        }
    }

    @Test("the burst engine: default folder burst-YYYYmmdd-HHMMSS, name templates, bad burst options refused")
    func burstNamesAndOptions() throws {
        let tmp = try TemporaryDirectory()
        let result = try CLI.run(["capture", "--sensor", "phone-front", "--scene", "grey-ramp", "--frames", "3",
                                  "--writers", "1", "--name", "shot_%2n_q%q"], in: tmp.url)
        #expect(result.exitStatus == 0, "\(result)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: tmp.url.path)
        #expect(folders.count == 1 && folders[0].range(of: #"^burst-\d{8}-\d{6}$"#, options: .regularExpression) != nil,
                "\(folders)")
        let names = try FileManager.default.contentsOfDirectory(atPath: tmp.url.appendingPathComponent(folders[0]).path)
        // One writer: the counter follows the sequence numbers.
        #expect(Set(names.filter { $0.hasSuffix(".dng") }) == ["shot_01_q0.dng", "shot_02_q1.dng", "shot_03_q2.dng"],
                "\(names)")
        for (options, message) in [(["--memory-budget", "lots"], "--memory-budget: 'lots' is not a size"),
                                   (["--memory-budget", "10MiB"], "holds 0 frame slots of 13.7 MiB"),
                                   (["--overflow", "sometimes"], "--overflow: 'sometimes' is not block"),
                                   (["--writers", "0"], "--writers must be within 1...64"),
                                   (["--name", "../%q"], "--name: may not contain '/'"),
                                   (["--simulate-disk", "fast"], "--simulate-disk: 'fast' is not a rate")] {
            let refused = try CLI.run(["capture", "--sensor", "phone-front"] + options + ["-o", tmp.url.appendingPathComponent("no").path])
            #expect(refused.exitStatus == 2, "\(options): \(refused)")
            #expect(refused.stderr.contains(message), "\(options): \(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: tmp.url.appendingPathComponent("no").path))
    }

    @Test("--bracket: each frame takes its step; a plan the sensor cannot do is refused before anything is made")
    func bracketing() throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("bracket")
        let result = try CLI.run(["capture", "--sensor", "phone-front", "--scene", "grey-ramp", "--focus", "1m",
                                  "--bracket", "ev:-1,0,+1", "--name", "%s-%q-b%b", "-o", out.path, "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let report = try Self.report(result)
        let frames = try #require(report["frames"]?.array)
        #expect(frames.compactMap { $0["settings"]?["exposureCompensation"]?.double } == [-1, 0, 1])
        #expect(frames.compactMap { $0["bracketIndex"]?.int } == [0, 1, 2])
        #expect(report["burst"]?["bracketPlan"]?.string == "ev:-1,0,+1")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".dng") }.sorted()
        #expect(names == ["phone-front-0-b0.dng", "phone-front-1-b1.dng", "phone-front-2-b2.dng"])
        let file = tmp.url.appendingPathComponent("plan.json")
        try Data(#"{"plan": "iso:100,6400", "comment": "too much for the front camera"}"#.utf8).write(to: file)
        for options in [["--bracket", "iso:100,6400"], ["--bracket-file", file.path]] {
            let refused = try CLI.run(["capture", "--sensor", "phone-front"] + options + ["-o", tmp.url.appendingPathComponent("no").path])
            #expect(refused.exitStatus == 2, "\(options): \(refused)")
            #expect(refused.stderr.contains("step 2 of 2: ISO: 6400 is outside 50...3200 for phone-front"), "\(refused.stderr)")
        }
        let bad = try CLI.run(["capture", "--bracket", "ev:-1,0 wb:3200K", "-o", tmp.url.appendingPathComponent("no").path])
        #expect(bad.exitStatus == 2 && bad.stderr.contains("--bracket: wb:3200K: axes are joined by ' x '"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.url.appendingPathComponent("no").path))
    }

    @Test("timelapse: --interval and --duration give the frame count and a start-to-start schedule")
    func timelapse() throws {
        let tmp = try TemporaryDirectory()
        let result = try CLI.run(["capture", "--sensor", "phone-front", "--scene", "grey-ramp", "--focus", "1m",
                                  "--interval", "250ms", "--late", "wait", "--no-governor", "--duration", "1s", "-o",
                                  tmp.url.appendingPathComponent("tl").path, "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let report = try Self.report(result)
        #expect(report["fps"]?.double == 4 && report["burst"]?["produced"]?.int == 4)
        let frames = try #require(report["frames"]?.array)
        let stamps = frames.compactMap { $0["monotonicNanoseconds"]?.double }
        let lateness = frames.compactMap { $0["latenessMilliseconds"]?.double }
        #expect(stamps.count == 4 && lateness.count == 4)
        for n in 1..<min(stamps.count, lateness.count) {
            // Behind frame 0's start by more than n intervals; frame 0 itself may have started a little after its tick
            // (its own lateness), which every later frame's lateness counts from the schedule, not from frame 0.
            let behind = (stamps[n] - stamps[0]) / 1e6 - Double(n) * 250
            #expect(behind + lateness[0] >= -0.1, "frame \(n) early: \(stamps)")
            #expect(abs(max(behind + lateness[0], 0) - lateness[n]) < 0.2,
                    "frame \(n): \(behind) ms behind frame 0 (late \(lateness[0]) ms), lateness \(lateness[n])")
        }
        #expect(report["burst"]?["statistics"]?["lateFrames"]?.int == lateness.filter { $0 > 1 }.count)
        for (options, message) in [(["--duration", "2s"], "--duration needs --fps or --interval"),
                                   (["--interval", "2s", "--fps", "3"], "give --fps or --interval, not both"),
                                   (["--interval", "soon"], "--interval: 'soon' is not a time"),
                                   (["--duration", "inf", "--fps", "10"], "--duration: 'inf' is not a duration"),
                                   (["--duration", "1s", "--fps", "2", "--frames", "3"], "give --frames or --duration")] {
            let refused = try CLI.run(["capture"] + options + ["-o", tmp.url.appendingPathComponent("no").path])
            #expect(refused.exitStatus == 2 && refused.stderr.contains(message), "\(options): \(refused.stderr)")
        }
    }

    @Test("--sidecar: a JSON file beside each DNG with preset, bracket step and the settings used")
    func sidecars() throws {
        let tmp = try TemporaryDirectory()
        let result = try CLI.run(["capture", "--sensor", "phone-front", "--scene", "grey-ramp", "--focus", "2m",
                                  "--preset", "sunny", "--bracket", "ev:-1,0", "--sidecar", "-o", tmp.url.path])
        #expect(result.exitStatus == 0, "\(result)")
        for (n, ev) in [(0, -1.0), (1, 0.0)] {
            let url = tmp.url.appendingPathComponent(String(format: "phone-front-%04d.json", n))
            let sidecar = try JSONValue(parsing: try Data(contentsOf: url))
            #expect(sidecar["file"]?.string == String(format: "phone-front-%04d.dng", n))
            #expect(sidecar["sequenceNumber"]?.int == n && sidecar["bracketIndex"]?.int == n)
            #expect(sidecar["preset"]?.string == "sunny")
            #expect(sidecar["settings"]?["exposureCompensation"]?.double == ev)
            #expect(sidecar["settings"]?["iso"]?.double == 100 && sidecar["settings"]?["whiteBalance"]?.string == "daylight")
            #expect(sidecar["settings"]?["metering"]?.string == "matrix" && sidecar["settings"]?["lens"]?.string == "front")
            #expect(sidecar["captureTime"]?.string?.count ?? 0 >= 23)
        }
        let again = try CLI.run(["capture", "--sensor", "phone-front", "--scene", "grey-ramp", "--sidecar", "--frames", "1",
                                 "--name", "other-%q", "-o", tmp.url.path])
        // One burst per folder: its manifest and journal are in the way of a second one.
        #expect(again.exitStatus == 2 && again.stderr.contains("manifest.json: already exists"), "\(again)")
    }

    @Test("sensors --json lists the six profiles with ranges, CFA and lenses")
    func sensorsJSON() throws {
        let result = try CLI.run(["sensors", "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let list = try #require(try Self.report(result).array)
        let names = list.compactMap { $0["profile"]?["name"]?.string }
        #expect(names == ["phone-wide", "phone-ultrawide", "phone-tele", "phone-front", "mirrorless-24", "mono-vision"])
        // The four Bayer phases and the monochrome sensor.
        #expect(Set(list.compactMap { $0["profile"]?["cfa"]?.string }) == ["RGGB", "GRBG", "GBRG", "BGGR", "mono"])
        #expect(list.allSatisfy { ($0["profile"]?["lenses"]?.array?.count ?? 0) >= 1 })
        #expect(list.allSatisfy { $0["colorMatrix2"]?.array?.count == 9 })
        let plain = try CLI.run(["sensors"])
        #expect(plain.exitStatus == 0 && plain.stdout.contains("mirrorless-24"))
    }
}
