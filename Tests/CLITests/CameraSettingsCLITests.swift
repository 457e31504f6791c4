import Foundation
import TestSupport
import Testing

/// `capture --camera aravis:Fake_1` with trigger modes, binning, white balance, bracketing, pre-record, `--develop`
/// and `--analyze`, against the in-process fake described by `samples/genicam/rawburst-fake-camera.xml` (TriggerSource
/// Line1 pulsed at 25 Hz, Software, Line2 never pulsed; binning 1...4; BalanceRatio R 2.0, G 1.0, B 1.25, not applied
/// to its pixels). Small regions keep each burst well under a second of frames.
@Suite(.serialized, .enabled(if: Python.hasModule("rawpy") && Python.hasModule("numpy") && Python.hasModule("PIL")
                              && ToolAvailability.has(ExifTool.executableName), "rawpy, numpy, Pillow and exiftool are needed"))
struct CameraSettingsCLITests {
    static let camera = ["capture", "--camera", "aravis:Fake_1", "--pixel-format", "BayerRG12", "--crop", "640x384+0+0"]

    /// Runs `capture` on the fake with `arguments` into a new folder; returns the result, the folder and the manifest
    /// (nil when none was written).
    static func capture(_ arguments: [String], in tmp: TemporaryDirectory,
                        xml: String = FakeCameraCLITests.xml) throws -> (ProcessResult, URL, JSONValue?) {
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(camera + arguments + ["-o", out.path, "--json"], timeout: 300,
                                 environment: ["RAWBURST_FAKE_CAMERA_XML": xml])
        let manifest = try? JSONValue(parsing: Data(contentsOf: out.appendingPathComponent("manifest.json")))
        return (result, out, manifest)
    }

    /// The manifest's frames as (sequence number, camera frame id), in sequence order.
    static func frameIDs(_ manifest: JSONValue?) -> [(Int, Int)] {
        (manifest?["frames"]?.array ?? []).compactMap { frame -> (Int, Int)? in
            guard let n = frame["sequenceNumber"]?.int, let id = frame["cameraFrameID"]?.int else { return nil }
            return (n, id)
        }.sorted { $0.0 < $1.0 }
    }

    /// Expects frame ids unique, increasing, and one apart per sequence number (the fake's ids wrap 65535 → 1).
    static func expectConsecutive(_ frames: [(Int, Int)], _ label: String) {
        #expect(Set(frames.map(\.1)).count == frames.count, "\(label): \(frames)")
        for (a, b) in zip(frames, frames.dropFirst()) {
            #expect((a.1 - 1 + (b.0 - a.0)) % 65535 + 1 == b.1, "\(label): \(a) then \(b)")
        }
    }

    /// Expects a refusal before the burst: exit 2, one line containing `text`, no output folder.
    static func expectRefused(_ arguments: [String], _ text: String, xml: String = FakeCameraCLITests.xml) throws {
        let tmp = try TemporaryDirectory()
        let (result, out, _) = try capture(arguments, in: tmp, xml: xml)
        #expect(result.exitStatus == 2, "\(arguments): \(result)")
        #expect(result.stderr.contains(text) && result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "\(arguments)")
    }

    @Test("--bracket over shutter: software trigger chosen and said; ExposureTime follows the plan frame by frame")
    func exposureBracket() throws {
        let tmp = try TemporaryDirectory()
        let plan = [1.0 / 1000, 1.0 / 250, 1.0 / 60]
        let (result, out, manifest) = try Self.capture(["--bracket", "shutter:1/1000,1/250,1/60", "--frames", "6"], in: tmp)
        #expect(result.exitStatus == 0, "\(result)")
        #expect(result.stderr.contains("using --trigger software"), "\(result.stderr)")
        for n in 0..<6 {
            let tags = try ExifTool.tags(of: out.appendingPathComponent(String(format: "camera-%04d.dng", n)).path)
            let exposure = tags["ExifIFD:ExposureTime"]?.double ?? 0
            #expect(abs(exposure - plan[n % 3]) < 1e-6, "frame \(n): ExposureTime \(exposure), plan \(plan[n % 3])")
        }
        #expect(manifest?["camera"]?["trigger"]?.string == "software")
        // One frame made per trigger: the fake completed exactly the six buffers rawburst triggered.
        #expect(manifest?["camera"]?["aravis"]?["completedBuffers"]?.int == 6)
        let frames = Self.frameIDs(manifest)
        #expect(frames.map(\.0) == Array(0..<6))
        Self.expectConsecutive(frames, "bracket")
    }

    @Test("a bracket with --trigger free-running or line:NAME is refused (frames could precede their settings)",
          arguments: ["free-running", "line:Line1"])
    func bracketNeedsSoftwareTrigger(trigger: String) throws {
        try Self.expectRefused(["--bracket", "shutter:1/1000,1/250", "--trigger", trigger], "use --trigger software")
    }

    @Test("--pre-record with the software trigger: the 5 frames before the trigger and 3 after, ids consecutive")
    func preRecord() throws {
        let tmp = try TemporaryDirectory()
        let (result, _, manifest) = try Self.capture(["--trigger", "software", "--fps", "25", "--pre-record", "0.2s",
                                                      "--trigger-after", "1s", "--frames", "3"], in: tmp)
        #expect(result.exitStatus == 0, "\(result)")
        let books = try CameraCLITests.books(result.stdout)
        let trigger = try #require(manifest?["burst"]?["triggeredAtSequenceNumber"]?.int)
        #expect(trigger >= 5, "triggered at \(trigger)")
        #expect(books.written == Array((trigger - 5)...(trigger + 2)), "\(books.written)")
        #expect(books.drops.allSatisfy { $0.1 == "outside-pre-record" } && books.drops.map(\.0) == Array(0..<(trigger - 5)))
        #expect(books.produced == books.written.count + books.drops.count)
        let frames = Self.frameIDs(manifest)
        #expect(frames.map(\.0) == books.written)
        Self.expectConsecutive(frames, "pre-record")
        #expect(manifest?["camera"]?["aravis"]?["completedBuffers"]?.int == books.produced)
    }

    @Test("--develop jpg --analyze: a JPEG beside each DNG, balanced by the camera's BalanceRatio; each frame analysed")
    func developAndAnalyze() throws {
        let tmp = try TemporaryDirectory()
        let (result, out, manifest) = try Self.capture(["--frames", "3", "--fps", "25", "--develop", "jpg", "--analyze"], in: tmp)
        #expect(result.exitStatus == 0, "\(result)")
        #expect(manifest?["development"]?["developed"]?.array?.count == 3)
        let means = try Python.json(script: """
            import json, sys, os, numpy as np
            from PIL import Image
            out = []
            for n in range(3):
                with Image.open(os.path.join(sys.argv[1], 'camera-%04d.jpg' % n)) as im:
                    out.append({'size': list(im.size), 'mean': np.asarray(im.convert('RGB')).reshape(-1, 3).mean(axis=0).tolist()})
            print(json.dumps(out))
            """, arguments: [out.path], timeout: 120)
        for picture in means.array ?? [] {
            #expect(picture["size"]?.array?.compactMap(\.int) == [640, 384])
            // The pattern's channels have equal means; AsShotNeutral 0.5, 1, 0.8 lifts red most, then blue.
            let rgb = picture["mean"]?.array?.compactMap(\.double) ?? []
            #expect(rgb.count == 3 && rgb[0] > rgb[2] + 3 && rgb[2] > rgb[1] + 3, "means \(rgb)")
        }
        let frames = manifest?["frames"]?.array ?? []
        #expect(frames.count == 3)
        for frame in frames {
            let channels = frame["analysis"]?["channels"]?.array ?? []
            let totals = channels.map { ($0["color"]?.string ?? "", ($0["counts"]?.array ?? []).compactMap(\.int).reduce(0, +)) }
            // Every sample counted once: a quarter of 640x384 red, a half green, a quarter blue.
            #expect(totals.filter { $0.0 == "R" }.map(\.1) == [61_440], "\(totals)")
            #expect(totals.filter { $0.0 == "B" }.map(\.1) == [61_440], "\(totals)")
            #expect(totals.filter { $0.0 == "G" }.map(\.1).reduce(0, +) == 122_880, "\(totals)")
        }
    }

    @Test("BalanceRatio goes into AsShotNeutral (0.5, 1, 0.8), or 1, 1, 1 when the camera applies it; --wb is refused")
    func whiteBalance() throws {
        for (handling, neutral) in [("as-shot-neutral", [0.5, 1, 0.8]), ("applied", [1.0, 1, 1])] {
            let tmp = try TemporaryDirectory()
            let (result, out, manifest) = try Self.capture(["--frames", "1", "--balance-ratio", handling], in: tmp)
            #expect(result.exitStatus == 0, "\(result)")
            let tags = try ExifTool.tags(of: out.appendingPathComponent("camera-0000.dng").path)
            #expect(tags["IFD0:AsShotNeutral"]?.numbers == neutral, "\(handling)")
            #expect(manifest?["camera"]?["whiteBalance"]?["ratios"]?.numbers == [2, 1, 1.25])
            #expect(manifest?["camera"]?["whiteBalance"]?["handling"]?.string == handling)
        }
        try Self.expectRefused(["--wb", "daylight"], "BalanceRatio")
        try Self.expectRefused(["--bracket", "wb:3200K,5600K"], "BalanceRatio")
    }

    @Test("--binning 2: DNGs of the binned region, every sample the camera's; the manifest says 2x2")
    func binning() throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--camera", "aravis:Fake_1", "--pixel-format", "BayerRG12", "--binning", "2",
                                  "--crop", "768x256+1248+1256", "--frames", "2", "-o", out.path, "--json"], timeout: 300,
                                 environment: FakeCameraCLITests.environment)
        #expect(result.exitStatus == 0, "\(result)")
        let checked = try FakeCameraCLITests.check(out, numbers: [0, 1], bits: 12, region: (1248, 1256, 768, 256))
        FakeCameraCLITests.expectExact(checked.frames, "binned 2x2")
        #expect(checked.shape == [256, 768] && checked.pattern == [[0, 1], [3, 2]])
        let manifest = try JSONValue(parsing: Data(contentsOf: out.appendingPathComponent("manifest.json")))
        #expect(manifest["camera"]?["binning"]?.string == "2x2" && manifest["camera"]?["width"]?.int == 768)
    }

    @Test("binning the camera cannot do is refused naming the feature: beyond its range, beyond the binned sensor, none")
    func binningRefused() throws {
        try Self.expectRefused(["--binning", "5"], "BinningHorizontal 1...4")
        try Self.expectRefused(["--binning", "2", "--crop", "2048x256+0+0"], "2016x1512 sensor (binned 2x2)")
        let tmp = try TemporaryDirectory()
        let plain = tmp.url.appendingPathComponent("no-binning.xml")
        let xml = try String(contentsOfFile: FakeCameraCLITests.xml, encoding: .utf8)
            .replacingOccurrences(of: "Name=\"BinningHorizontal\"", with: "Name=\"VendorBinningH\"")
            .replacingOccurrences(of: "<pFeature>BinningHorizontal</pFeature>", with: "")
            .replacingOccurrences(of: ">BinningHorizontal</pVariable>", with: ">VendorBinningH</pVariable>")
        try xml.write(to: plain, atomically: true, encoding: .utf8)
        try Self.expectRefused(["--binning", "2"], "no BinningHorizontal", xml: plain.path)
        // A camera whose pixel format changes when it bins (here BinningHorizontal shares PixelFormat's register, as
        // if binning switched the camera to another format): refused, the mosaic would not be the one described.
        let mixing = tmp.url.appendingPathComponent("binning-changes-format.xml")
        let shared = try String(contentsOfFile: FakeCameraCLITests.xml, encoding: .utf8)
            .replacingOccurrences(of: "<Address>0x108</Address>", with: "<Address>0x128</Address>")
        try shared.write(to: mixing, atomically: true, encoding: .utf8)
        try Self.expectRefused(["--binning", "2x1"], "does not keep the Bayer mosaic", xml: mixing.path)
    }

    @Test("line:Line1's pulses give frames; line:Line2 stalls after --trigger-timeout naming it; Line9 is refused")
    func lineTriggers() throws {
        let tmp = try TemporaryDirectory()
        let (pulsed, _, manifest) = try Self.capture(["--trigger", "line:Line1", "--frames", "4"], in: tmp)
        #expect(pulsed.exitStatus == 0, "\(pulsed)")
        #expect(manifest?["camera"]?["trigger"]?.string == "line:Line1")
        Self.expectConsecutive(Self.frameIDs(manifest), "Line1")
        let other = try TemporaryDirectory()
        let started = Date()
        let (silent, _, _) = try Self.capture(["--trigger", "line:Line2", "--trigger-timeout", "1s", "--frames", "2"], in: other)
        #expect(silent.exitStatus == 1 && silent.stderr.contains("no trigger came on Line2"), "\(silent)")
        #expect(Date().timeIntervalSince(started) >= 1)
        try Self.expectRefused(["--trigger", "line:Line9"], "TriggerSource offers Line1, Software, Line2, not Line9")
        try Self.expectRefused(["--trigger", "hardware"], "--trigger must be free-running, software or line:NAME")
    }
}
