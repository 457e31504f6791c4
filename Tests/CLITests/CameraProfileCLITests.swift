import Foundation
import TestSupport
import Testing

/// `--profile FILE` with a camera profile, through the real CLI: Aravis's in-process fake camera and a raw stream on
/// standard input; the DNG tags read back with exiftool.
@Suite(.serialized, .enabled(if: ToolAvailability.has("exiftool"), "exiftool is needed"))
struct CameraProfileCLITests {
    static let sample = TestPaths.samples.appendingPathComponent("genicam/rawburst-fake-camera-profile.json")
    static var environment: [String: String] { FakeCameraCLITests.environment }

    /// The sample profile's fields, read independently of the package.
    static func sampleFields() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: sample)) as? [String: Any])
    }

    /// A 2-frame capture from the fake camera (BayerRG12, 512x384) with `extra` arguments.
    static func capture(_ out: URL, _ extra: [String]) throws -> ProcessResult {
        try CLI.run(["capture", "--camera", "aravis:Fake_1", "--pixel-format", "BayerRG12", "--crop", "512x384+0+0", "--frames", "2",
                     "--late", "wait", "-o", out.path] + extra, timeout: 300, environment: environment)
    }

    /// A file of `frames` 64x48 SRGGB12_CSI2P frames in `tmp`, for `--source`.
    static func streamInput(frames: Int, in tmp: TemporaryDirectory) throws -> URL {
        let (bytes, _) = StreamCLITests.Packer.stream(format: "SRGGB12_CSI2P", width: 64, height: 48, stride: nil, count: frames)
        let input = tmp.url.appendingPathComponent("stream.raw")
        try bytes.write(to: input)
        return input
    }

    static func numbers(_ value: Any?) -> [Double] { (value as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue } }

    /// exiftool writes SRATIONALs to about 6 significant digits.
    static func close(_ a: [Double]?, _ b: [Double]) -> Bool {
        guard let a, a.count == b.count else { return false }
        return zip(a, b).allSatisfy { abs($0 - $1) < 1e-5 }
    }

    @Test("--camera with the sample profile: its matrices, illuminants, ProfileName, levels and ISO 500 from GainRaw 7")
    func fakeCameraWithProfile() throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let result = try Self.capture(out, ["--iso", "500", "--profile", Self.sample.path, "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let fields = try Self.sampleFields()
        for name in ["camera-0000.dng", "camera-0001.dng"] {
            let tags = try ExifTool.tags(of: out.appendingPathComponent(name))
            #expect(Self.close(tags["IFD0:ColorMatrix1"]?.numbers, Self.numbers(fields["colorMatrix1"])), "\(name)")
            #expect(Self.close(tags["IFD0:ColorMatrix2"]?.numbers, Self.numbers(fields["colorMatrix2"])), "\(name)")
            #expect(Self.close(tags["IFD0:ForwardMatrix1"]?.numbers, Self.numbers(fields["forwardMatrix1"])), "\(name)")
            #expect(Self.close(tags["IFD0:ForwardMatrix2"]?.numbers, Self.numbers(fields["forwardMatrix2"])), "\(name)")
            #expect(tags["IFD0:CalibrationIlluminant1"]?.int == 17 && tags["IFD0:CalibrationIlluminant2"]?.int == 21, "\(name)")
            #expect(tags["IFD0:ProfileName"]?.string == "fake-camera", "\(name)")
            // GainRaw 7 on the table (0, 100), (4, 200), (10, 800): 200 + 600 × 3/6 = 500.
            #expect(tags["ExifIFD:ISO"]?.int == 500, "\(name)")
            #expect(tags["SubIFD:BlackLevel"]?.numbers == [64] || tags["SubIFD:BlackLevel"]?.double == 64, "\(name)")
            #expect(tags["SubIFD:WhiteLevel"]?.int == 4095, "\(name)")
            // Make and Model are the camera's (the profile names none).
            #expect(tags["IFD0:Make"]?.string == "Aravis" && tags["IFD0:Model"]?.string == "Fake", "\(name): \(tags["IFD0:Make"] ?? nil)")
        }
        let report = try JSONValue(parsing: Data(result.stdout.utf8))
        #expect(report["colorCalibration"]?["calibrated"]?.bool == true)
        #expect(report["colorCalibration"]?["profileName"]?.string == "fake-camera")
        #expect(report["frames"]?.array?.compactMap { $0["settings"]?["iso"]?.double } == [500, 500])
    }

    @Test("a profile's make and model replace the camera's; its levels scale to 16-bit frames; ISO 150 is GainRaw 2")
    func overridesAndLevels() throws {
        let tmp = try TemporaryDirectory()
        var fields = try Self.sampleFields()
        fields["make"] = "Bench"
        fields["model"] = "Mono Rig 1"
        let profile = tmp.url.appendingPathComponent("bench.json")
        try JSONSerialization.data(withJSONObject: fields).write(to: profile)
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--camera", "aravis:Fake_1", "--pixel-format", "BayerRG16", "--crop", "512x384+0+0",
                                  "--frames", "1", "--iso", "150", "--profile", profile.path, "-o", out.path],
                                 timeout: 300, environment: Self.environment)
        #expect(result.exitStatus == 0, "\(result)")
        #expect(result.stdout.contains("colour calibration: \(profile.path) (fake-camera)"), "\(result.stdout)")
        let tags = try ExifTool.tags(of: out.appendingPathComponent("camera-0000.dng"))
        #expect(tags["IFD0:Make"]?.string == "Bench" && tags["IFD0:Model"]?.string == "Mono Rig 1")
        #expect(tags["IFD0:UniqueCameraModel"]?.string == "Bench Mono Rig 1")
        // 64 and 4095 at 12 bits are 64 × 16 = 1024 and 4095 × 16 = 65520 at 16.
        #expect(tags["SubIFD:BlackLevel"]?.numbers == [1024] || tags["SubIFD:BlackLevel"]?.double == 1024)
        #expect(tags["SubIFD:WhiteLevel"]?.int == 65520)
        // GainRaw 2: 100 + (200 − 100) × 2/4 = 150.
        #expect(tags["ExifIFD:ISO"]?.int == 150)
    }

    @Test("--iso outside the profile's gain table is refused before the burst, in one line naming Gain (exit 2)",
          arguments: ["1600", "50"])
    func isoOutsideTable(iso: String) throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let result = try Self.capture(out, ["--iso", iso, "--profile", Self.sample.path])
        #expect(result.exitStatus == 2, "\(result)")
        #expect(result.stderr.contains("Gain") && result.stderr.contains("gain table"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("a stream with a camera profile: its name, matrix, ProfileName, levels, and ISO from AnalogueGain through the dB rule")
    func streamWithProfile() throws {
        let tmp = try TemporaryDirectory()
        let input = try Self.streamInput(frames: 2, in: tmp)
        let meta = tmp.url.appendingPathComponent("meta.json")
        try Data("[{\"ExposureTime\": 10000, \"AnalogueGain\": 2.0}, {\"ExposureTime\": 10000, \"AnalogueGain\": 4.0}]".utf8).write(to: meta)
        let profile = tmp.url.appendingPathComponent("bench.json")
        try Data("""
            {"name": "bench", "model": "Pi HQ", "colorMatrix1": [0.9, -0.3, -0.1, -0.4, 1.2, 0.2, -0.1, 0.2, 0.6],
             "illuminant1": "D65", "blackLevel": 200, "whiteLevel": 4000, "gain": {"unit": "dB", "baseISO": 160}}
            """.utf8).write(to: profile)
        let out = tmp.url.appendingPathComponent("out")
        let result = try StreamCLITests.capture(input, ["--format", "SRGGB12_CSI2P", "--size", "64x48", "--metadata", meta.path,
                                                        "--profile", profile.path, "-o", out.path, "--json", "--late", "wait",
                                                        "--memory-budget", "64MiB"])
        #expect(result.exitStatus == 0, "\(result)")
        let first = try ExifTool.tags(of: out.appendingPathComponent("bench-0000.dng"))
        #expect(Self.close(first["IFD0:ColorMatrix1"]?.numbers, [0.9, -0.3, -0.1, -0.4, 1.2, 0.2, -0.1, 0.2, 0.6]))
        #expect(first["IFD0:CalibrationIlluminant1"]?.int == 21 && first["IFD0:ColorMatrix2"] == nil)
        #expect(first["IFD0:ProfileName"]?.string == "bench" && first["IFD0:Model"]?.string == "Pi HQ")
        #expect(first["SubIFD:BlackLevel"]?.numbers == [200] || first["SubIFD:BlackLevel"]?.double == 200)
        #expect(first["SubIFD:WhiteLevel"]?.int == 4000)
        // AnalogueGain 2 is 20·log10(2) dB: 160 × 10^(log10(2)) = 320; AnalogueGain 4: 640.
        #expect(first["ExifIFD:ISO"]?.int == 320)
        #expect(try ExifTool.tags(of: out.appendingPathComponent("bench-0001.dng"))["ExifIFD:ISO"]?.int == 640)
        let manifest = try StreamCLITests.manifest(out)
        #expect(manifest["colorCalibration"]?["calibrated"]?.bool == true && manifest["stream"]?["baseISO"]?.double == 160)
    }

    @Test("profiles that cannot be used are refused in one line naming the problem, exit 2, nothing written")
    func refusedProfiles() throws {
        let tmp = try TemporaryDirectory()
        func file(_ name: String, _ text: String) throws -> String {
            let url = tmp.url.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url.path
        }
        let matrix = "[0.9, -0.3, -0.1, -0.4, 1.2, 0.2, -0.1, 0.2, 0.6]"
        let short = try file("short.json", "{\"colorMatrix1\": [1, 0, 0, 0, 1, 0, 0, 0], \"illuminant1\": \"D65\"}")
        let both = try file("both.json", "{\"colorMatrix1\": \(matrix), \"illuminant1\": 21, \"sensitivity\": {}}")
        let neither = try file("neither.json", "{\"name\": \"x\"}")
        let raw = try file("raw.json", "{\"colorMatrix1\": \(matrix), \"illuminant1\": 21, "
                           + "\"gain\": {\"unit\": \"raw\", \"points\": [{\"gain\": 0, \"iso\": 100}, {\"gain\": 10, \"iso\": 800}]}}")
        let stream = ["--source", "-", "--format", "SRGGB12_CSI2P", "--size", "64x48"]
        try CaptureCLITests.expectRefusedBeforeCapture(stream + ["--profile", short],
                                                       "\(short): invalid colorMatrix1: needs 9 numbers (3x3, row by row), not 8")
        try CaptureCLITests.expectRefusedBeforeCapture(stream + ["--profile", both], "has both 'sensitivity'")
        try CaptureCLITests.expectRefusedBeforeCapture(stream + ["--profile", neither], "not a sensor profile (no 'sensitivity'")
        try CaptureCLITests.expectRefusedBeforeCapture(stream + ["--profile", raw], "invalid gain.unit: a raw stream gives its gain as a factor")
        // The simulator needs spectral data.
        try CaptureCLITests.expectRefusedBeforeCapture(["--profile", Self.sample.path, "--frames", "1"], "is a camera profile")
        let sim = try CLI.run(["stress", "--profile", Self.sample.path, "--quick"])
        #expect(sim.exitStatus == 2 && sim.stderr.contains("is a camera profile"), "\(sim)")
    }
}
