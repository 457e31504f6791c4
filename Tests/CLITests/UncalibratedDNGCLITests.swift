import Foundation
import TestSupport
import Testing

/// A real camera's or stream's DNG without `--profile`: the stand-in matrix marked "Uncalibrated: no camera profile",
/// said by inspect, the capture's summary and manifest, and develop — and still read by LibRaw, dcraw, exiftool and
/// Adobe's DNG SDK without a warning.
@Suite(.serialized, .enabled(if: ToolAvailability.has("exiftool"), "exiftool is needed"))
struct UncalibratedDNGCLITests {
    /// XYZ → linear sRGB (D65), the stand-in.
    static let standIn = [3.2404542, -1.5371385, -0.4985314, -0.9692660, 1.8760108, 0.0415560, 0.0556434, -0.2040259, 1.0572252]

    /// Expects `tags` to be those of an uncalibrated DNG.
    /// `neutral`: the AsShotNeutral the frames' white balance gives (none known: 1 1 1, the samples as they came).
    static func expectUncalibrated(_ tags: [String: JSONValue], _ label: String, neutral: [Double] = [1, 1, 1]) {
        #expect(tags["IFD0:ProfileName"]?.string == "Uncalibrated: no camera profile", "\(label)")
        #expect(CameraProfileCLITests.close(tags["IFD0:ColorMatrix1"]?.numbers, standIn), "\(label)")
        #expect(tags["IFD0:CalibrationIlluminant1"]?.int == 21, "\(label)")
        #expect(tags["IFD0:ColorMatrix2"] == nil && tags["IFD0:ForwardMatrix1"] == nil, "\(label)")
        #expect(tags["IFD0:AsShotNeutral"]?.numbers == neutral, "\(label)")
    }

    @Test("--camera without a profile: marked uncalibrated in the DNG, the manifest, the summary and inspect; ISO by the dB rule")
    func fakeCameraWithoutProfile() throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CameraProfileCLITests.capture(out, ["--iso", "200"])
        #expect(result.exitStatus == 0, "\(result)")
        #expect(result.stdout.contains("colour calibration: none (stand-in matrix"), "\(result.stdout)")
        let dng = out.appendingPathComponent("camera-0000.dng")
        let tags = try ExifTool.tags(of: dng)
        // The fake camera's BalanceRatio (R 2, G 1, B 1.25) is not applied to its Bayer data: the stand-in carries it as
        // AsShotNeutral 1/2, 1, 1/1.25.
        Self.expectUncalibrated(tags, "camera", neutral: [0.5, 1, 0.8])
        // Without a table: ISO 200 is 20·log10(2) = 6.02 dB, which GainRaw (integers) takes as 6: ISO 100 × 10^0.3 = 199.5.
        #expect(tags["ExifIFD:ISO"]?.int == 200 || tags["ExifIFD:ISO"]?.int == 199, "\(String(describing: tags["ExifIFD:ISO"]))")
        #expect(try ExifTool.validate(dng.path).isEmpty)
        let manifest = try JSONValue(parsing: Data(contentsOf: out.appendingPathComponent("manifest.json")))
        #expect(manifest["colorCalibration"]?["calibrated"]?.bool == false)
        #expect(manifest["colorCalibration"]?["profileName"]?.string == "Uncalibrated: no camera profile")
        let inspect = try CLI.run(["inspect", dng.path])
        #expect(inspect.exitStatus == 0 && inspect.stdout.split(separator: "\n").contains {
            $0.hasPrefix("Colour calibration") && $0.hasSuffix("  none (stand-in matrix)")
        }, "\(inspect.stdout)")
        let json = try JSONValue(parsing: Data(try CLI.run(["inspect", "--json", dng.path]).stdout.utf8))
        #expect(json["colour"]?["calibrated"]?.bool == false && json["colour"]?["profileName"]?.string == "Uncalibrated: no camera profile")
        // develop renders it, and says its matrix is a stand-in.
        try FileManager.default.createDirectory(at: tmp.url.appendingPathComponent("dev"), withIntermediateDirectories: true)
        let developed = try CLI.run(["develop", dng.path, "-o", tmp.url.appendingPathComponent("dev").path])
        #expect(developed.exitStatus == 0, "\(developed)")
        #expect(developed.stderr.contains("no colour calibration (its matrix is a stand-in)"), "\(developed.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.url.appendingPathComponent("dev").path).count == 1)
        // A calibrated file says so: the simulator's DNG (no ProfileName; its derived matrices).
        let simulated = tmp.url.appendingPathComponent("sim")
        #expect(try CLI.run(["capture", "--sensor", "phone-front", "--frames", "1", "-o", simulated.path]).exitStatus == 0)
        let sim = try JSONValue(parsing: Data(try CLI.run(["inspect", "--json", simulated.appendingPathComponent("phone-front-0000.dng").path])
            .stdout.utf8))
        #expect(sim["colour"]?["calibrated"]?.bool == true && sim["colour"]?["profileName"] == nil)
        #expect(try ExifTool.tags(of: simulated.appendingPathComponent("phone-front-0000.dng"))["IFD0:ProfileName"] == nil)
    }

    @Test("a stream without a profile: marked uncalibrated; converting that DNG keeps the mark")
    func streamWithoutProfile() throws {
        let tmp = try TemporaryDirectory()
        let input = try CameraProfileCLITests.streamInput(frames: 1, in: tmp)
        let out = tmp.url.appendingPathComponent("out")
        let result = try StreamCLITests.capture(input, ["--format", "SRGGB12_CSI2P", "--size", "64x48", "-o", out.path, "--json",
                                                        "--late", "wait", "--memory-budget", "64MiB"])
        #expect(result.exitStatus == 0, "\(result)")
        let dng = out.appendingPathComponent("stream-0000.dng")
        Self.expectUncalibrated(try ExifTool.tags(of: dng), "stream")
        #expect(try StreamCLITests.manifest(out)["colorCalibration"]?["calibrated"]?.bool == false)
        let converted = tmp.url.appendingPathComponent("converted.dng")
        #expect(try CLI.run(["convert", dng.path, "-o", converted.path]).exitStatus == 0)
        Self.expectUncalibrated(try ExifTool.tags(of: converted), "converted")
    }

    @Test("the uncalibrated DNG is read by LibRaw (rawpy), dcraw and Adobe's DNG SDK (dngpy) without a warning",
          .enabled(if: ToolAvailability.hasPythonModules("rawpy", "numpy", "dngpy") && ToolAvailability.has("dcraw")))
    func readers() throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        #expect(try CameraProfileCLITests.capture(out, []).exitStatus == 0)
        let dng = out.appendingPathComponent("camera-0000.dng").path
        let libraw = try Python.json(script: """
            import json, sys, rawpy
            with rawpy.imread(sys.argv[1]) as r:
                rgb = r.postprocess()
                print(json.dumps({'shape': list(rgb.shape), 'matrix': r.color_matrix[:, :3].flatten().tolist()}))
            """, arguments: [dng])
        #expect(libraw["shape"]?.array?.compactMap(\.int) == [384, 512, 3])
        // LibRaw's camera → sRGB matrix, worked out from ColorMatrix1: the identity, as the stand-in means.
        #expect(CameraProfileCLITests.close(libraw["matrix"]?.array?.compactMap(\.double), [1, 0, 0, 0, 1, 0, 0, 0, 1]),
                "\(String(describing: libraw["matrix"]))")
        let decoded = try DCRaw.decode(dng, to: tmp.url.appendingPathComponent("dcraw.tiff"))
        #expect(decoded.succeeded && decoded.messages.isEmpty, "\(decoded.messages)")
        let saved = try Python.run(script: "import sys, dngpy\nd = dngpy.Dng(sys.argv[1])\nd.color_info\nd.save(sys.argv[2])",
                                   arguments: [dng, tmp.url.appendingPathComponent("adobe.dng").path])
        // The only warnings are about the edges: the camera's frame has no margin around its default crop, as every
        // frame of the fake camera and the simulator (StandInCalibrationTests checks a frame with one: no warning).
        let warnings = saved.stderr.split(separator: "\n").filter { $0.contains("Warning") || $0.contains("Error") }
        #expect(saved.succeeded && warnings.allSatisfy { $0.contains("Too little padding") }, "\(saved)")
        #expect(try ExifTool.tags(of: tmp.url.appendingPathComponent("adobe.dng"))["IFD0:ProfileName"]?.string
                    == "Uncalibrated: no camera profile")
    }
}
