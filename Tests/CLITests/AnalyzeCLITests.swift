import Foundation
import RawBurst
import TestSupport
import Testing

/// `rawburst analyze` and `capture --analyze` end to end.
@Suite("rawburst analyze")
struct AnalyzeCLITests {
    /// A 960-px-wide simulated DNG of the Siemens star (2 m away) focused at `focus` metres.
    static func dng(in tmp: TemporaryDirectory, name: String, focus: Double, profile: String = "phone-wide") throws -> URL {
        var sensorProfile = SensorProfile.builtIn(named: profile)!.resized(toWidth: 960)
        sensorProfile.name = profile
        let sensor = try SimulatedSensor(profile: sensorProfile, scene: SiemensStarScene(), seed: 5)
        try sensor.configure(CaptureSettings(iso: 100, shutter: 1.0 / 60, focus: .metres(focus)))
        let url = tmp.url.appendingPathComponent(name)
        try DNGWriter().write(try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame)).image, to: url.path)
        return url
    }

    @Test("--best picks the frames nearest focus; the JSON report carries histograms, exposure, sharpness and metering")
    func bestPicksNearestFocus() throws {
        let tmp = try TemporaryDirectory()
        let folder = tmp.url.appendingPathComponent("burst")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The star is at 2 m; focus errors in dioptres 0, 0.1, 0.3, 0.6, 1.0 (files named so their order is not the answer).
        let focus = ["c.dng": 2.0, "a.dng": 1.0 / 0.6, "e.dng": 1.0 / 0.8, "b.dng": 1.0 / 1.1, "d.dng": 1.0 / 1.5]
        for (name, f) in focus { _ = try Self.dng(in: tmp, name: "burst/\(name)", focus: f) }
        let result = try CLI.run(["analyze", folder.path, "--best", "2", "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let report = try JSONValue(parsing: Data(result.stdout.utf8))
        #expect(report["analysed"]?.int == 5 && report["failed"]?.int == 0)
        let best = report["best"]?.array?.compactMap { $0.string.map { ($0 as NSString).lastPathComponent } }
        #expect(best == ["c.dng", "a.dng"], "\(String(describing: best))")
        let files = try #require(report["files"]?.array)
        let scores = Dictionary(uniqueKeysWithValues: files.compactMap { f -> (String, Double)? in
            guard let p = f["path"]?.string, let s = f["analysis"]?["sharpness"]?["score"]?.double else { return nil }
            return ((p as NSString).lastPathComponent, s)
        })
        let ordered = ["c.dng", "a.dng", "e.dng", "b.dng", "d.dng"].map { scores[$0] ?? 0 }
        #expect(zip(ordered, ordered.dropFirst()).allSatisfy { $0 > $1 }, "\(ordered)")
        let first = try #require(files.first?["analysis"])
        #expect(first["channels"]?.array?.map { $0["color"]?.string } == ["R", "G", "B"])
        #expect(first["channels"]?[0]?["counts"]?.array?.count == 256)
        #expect(first["metering"]?["zones"]?.array?.count == 9 && first["sharpness"]?["zones"]?.array?.count == 9)
        #expect((first["exposure"]?["meanEV"]?.double ?? 0) < 0)
    }

    @Test("--png writes the histograms, peaking and zebra overlays and a contact sheet; Pillow reads them",
          .enabled(if: ToolAvailability.hasPythonModules("PIL")))
    func pictures() throws {
        let tmp = try TemporaryDirectory()
        let a = try Self.dng(in: tmp, name: "sharp.dng", focus: 2), b = try Self.dng(in: tmp, name: "soft.dng", focus: 0.5)
        let out = tmp.url.appendingPathComponent("pictures")
        let result = try CLI.run(["analyze", a.path, b.path, "--histogram", "--peaking", "--zebra", "--best", "1", "--png", out.path,
                                  "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(names == ["contact-sheet.png", "sharp-histogram.png", "sharp-peaking.png", "sharp-rgb-histogram.png", "sharp-zebra.png",
                          "soft-histogram.png", "soft-peaking.png", "soft-rgb-histogram.png", "soft-zebra.png"], "\(names)")
        let sizes = try Python.json(script: """
            import json, sys, os
            from PIL import Image
            out = {}
            for name in sorted(os.listdir(sys.argv[1])):
                im = Image.open(os.path.join(sys.argv[1], name))
                im.load()
                out[name] = [im.size[0], im.size[1], im.mode]
            print(json.dumps(out))
            """, arguments: [out.path])
        #expect(sizes["sharp-peaking.png"]?.array?.compactMap(\.int) == [960, 720])
        #expect(sizes["sharp-zebra.png"]?.array?.compactMap(\.int) == [960, 720])
        #expect(sizes["sharp-histogram.png"]?.array?.compactMap(\.int) == [600, 252])
        #expect(sizes["contact-sheet.png"]?[2]?.string == "RGB")
        let report = try JSONValue(parsing: Data(result.stdout.utf8))
        #expect(report["best"]?.array?.compactMap(\.string) == [a.path])
        // The default rule is the absolute medium level: the star in focus is marked along its edges.
        let peaking = report["files"]?[0]?["analysis"]?["peaking"]
        #expect(peaking?["rule"]?.string == "medium" && peaking?["thresholds"]?[0]?.double == 0.4)
        #expect((peaking?["markedFraction"]?.double ?? 0) > 0.01 && peaking?["gridWidth"]?.int == 480, "\(String(describing: peaking))")
        #expect((peaking?["noise"]?["slope"]?.double ?? 0) > 0)
        // A fraction rule marks that fraction.
        let byFraction = try CLI.run(["analyze", a.path, "--peaking", "--peaking-threshold", "4%", "--json"])
        let fraction = try JSONValue(parsing: Data(byFraction.stdout.utf8))["files"]?[0]?["analysis"]?["peaking"]
        #expect(abs((fraction?["markedFraction"]?.double ?? 0) - 0.04) < 0.002 && fraction?["rule"]?.string == "4.0%")
        #expect(report["files"]?[0]?["zebra"]?["threshold"]?.double == 0.95)
        // Existing pictures are kept unless --overwrite.
        let again = try CLI.run(["analyze", a.path, "--histogram", "--png", out.path])
        #expect(again.exitStatus == 1 && again.stderr.contains("exists"), "\(again)")
        #expect(try CLI.run(["analyze", a.path, "--histogram", "--png", out.path, "--overwrite"]).exitStatus == 0)
    }

    @Test("files with one name in two folders get pictures of their own (-2 added), none replaced")
    func sameNamesInTwoFolders() throws {
        let tmp = try TemporaryDirectory()
        for folder in ["a", "b"] {
            try FileManager.default.createDirectory(at: tmp.url.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        _ = try Self.dng(in: tmp, name: "a/IMG.dng", focus: 2)
        _ = try Self.dng(in: tmp, name: "b/IMG.dng", focus: 0.5)
        let out = tmp.url.appendingPathComponent("pictures")
        let result = try CLI.run(["analyze", tmp.url.path, "-r", "--histogram", "--png", out.path, "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(names == ["IMG-2-histogram.png", "IMG-2-rgb-histogram.png", "IMG-histogram.png", "IMG-rgb-histogram.png",
                          "contact-sheet.png"], "\(names)")
        let report = try JSONValue(parsing: Data(result.stdout.utf8))
        #expect(report["files"]?[1]?["pictures"]?.array?.count == 2)
    }

    @Test("bad input: missing files and bad options exit 2, a corrupt raw exits 1 naming it, the others still analysed")
    func badInput() throws {
        let tmp = try TemporaryDirectory()
        let good = try Self.dng(in: tmp, name: "good.dng", focus: 2)
        let missing = try CLI.run(["analyze", tmp.url.appendingPathComponent("none.dng").path])
        #expect(missing.exitStatus == 2 && missing.stderr.contains("none.dng: no such file or directory"), "\(missing)")
        for (arguments, message) in [(["--best", "0"], "--best"), (["--peaking-threshold", "200%"], "--peaking-threshold"),
                                     (["--peaking-threshold", "contrast:0"], "--peaking-threshold"),
                                     (["--peaking-threshold", "sharpest"], "--peaking-threshold"),
                                     (["--zebra-threshold", "20"], "--zebra-threshold"), (["--spot", "2,0"], "--spot"),
                                     (["--scale", "cubic"], "--scale")] {
            let r = try CLI.run(["analyze", good.path] + arguments)
            #expect(r.exitStatus == 2 && r.stderr.contains(message), "\(arguments): \(r)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(arguments): one line: \(r.stderr)")
        }
        let corrupt = tmp.url.appendingPathComponent("cut.dng")
        try Data(try Data(contentsOf: good).prefix(5000)).write(to: corrupt)
        let r = try CLI.run(["analyze", good.path, corrupt.path, "--json"])
        #expect(r.exitStatus == 1, "\(r)")
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("cut.dng") }
        #expect(lines.count == 1, "\(r.stderr)")
        let report = try JSONValue(parsing: Data(r.stdout.utf8))
        #expect(report["analysed"]?.int == 1 && report["failed"]?.int == 1)
        let file = tmp.url.appendingPathComponent("plain")
        try Data("x".utf8).write(to: file)
        let notDirectory = try CLI.run(["analyze", good.path, "--png", file.path])
        #expect(notDirectory.exitStatus == 2 && notDirectory.stderr.contains("is a file, not a directory"), "\(notDirectory)")
    }

    @Test("capture --analyze puts each written frame's analysis in the manifest, and drops nothing for it")
    func captureAnalyze() throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--sensor", "phone-front", "--scene", "depth", "--frames", "3", "--analyze",
                                  "--writers", "1", "-o", out.path, "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let manifest = try JSONValue(parsing: Data(contentsOf: out.appendingPathComponent("manifest.json")))
        #expect(manifest["burst"]?["analysis"]?["analysed"]?.int == 3 && manifest["burst"]?["analysis"]?["skipped"]?.int == 0)
        #expect(manifest["burst"]?["dropped"]?.array?.isEmpty == true)
        let frames = try #require(manifest["frames"]?.array)
        #expect(frames.count == 3)
        for frame in frames {
            let a = try #require(frame["analysis"])
            #expect(a["channels"]?.array?.count == 3 && a["channels"]?[1]?["counts"]?.array?.count == 64)
            #expect((a["sharpness"]?["score"]?.double ?? 0) > 0 && a["metering"]?["zones"]?.array?.count == 9)
            // The histogram counts every active sample of the frame it describes.
            let total = a["channels"]?.array?.compactMap { $0["counts"]?.array?.compactMap(\.int).reduce(0, +) }.reduce(0, +)
            let path = try #require(frame["path"]?.string)
            let image = try RawFileReader().read(path: path)
            #expect(total == image.frame.activeArea.width * image.frame.activeArea.height)
        }
        // Without the flag, no analysis anywhere.
        let plain = try CLI.run(["capture", "--sensor", "phone-front", "--scene", "depth", "--frames", "1", "-o",
                                 tmp.url.appendingPathComponent("plain").path, "--json"])
        let report = try JSONValue(parsing: Data(plain.stdout.utf8))
        #expect(report["burst"]?["analysis"] == nil || report["burst"]?["analysis"]?.isNull == true)
        #expect(report["frames"]?[0]?["analysis"] == nil || report["frames"]?[0]?["analysis"]?.isNull == true)
    }
}
