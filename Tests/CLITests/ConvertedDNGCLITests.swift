import Foundation
import RawBurst
import Testing
import TestSupport

/// Issue #20 item 4: what Adobe's DNG SDK expects of a converted DNG — a crop margin inside the active area and an
/// AsShotNeutral always — checked on every real sample, and a source developing as its DNG does.
@Suite("converted DNGs as Adobe's SDK expects them (issue #20)", .serialized)
struct ConvertedDNGCLITests {
    /// The samples LibRaw 0.20 decodes (the GoPro's VC-5 is refused, and so writes no DNG).
    static let samples = ["canon-550d-magiclantern.dng", "canon-powershot-g2.crw", "kodak-dc120.kdc", "kodak-dc120-jpeg.kdc"]

    /// The warnings and errors Adobe's DNG SDK (dngpy) prints while it reads `path`, works out its colour and saves it.
    static func adobeWarnings(_ path: String, _ scratch: String) throws -> [String] {
        let result = try Python.run(script: "import sys, dngpy\nd = dngpy.Dng(sys.argv[1])\nd.color_info\nd.save(sys.argv[2])",
                                    arguments: [path, scratch])
        #expect(result.succeeded, "\(result)")
        return result.stderr.split(separator: "\n").map(String.init).filter { $0.contains("Warning") || $0.contains("Error") }
    }

    @Test("every DNG convert writes from the samples, in each compression: no warning from exiftool -validate or Adobe's SDK; margin and AsShotNeutral present",
          .enabled(if: ToolAvailability.has("exiftool") && ToolAvailability.hasPythonModules("dngpy")))
    func everySampleEveryCompression() throws {
        let tmp = try TemporaryDirectory()
        var checked = 0
        for name in Self.samples {
            guard let source = TestPaths.sharedSample(name) else { continue }
            for compression in ["lj92", "packed", "none"] {
                let out = tmp.file("\(name)-\(compression).dng").path
                let result = try CLI.run(["convert", source.path, "-o", out, "--compression", compression, "-q"])
                #expect(result.exitStatus == 0, "\(name) \(compression): \(result)")
                let problems = try ExifTool.validate(out)
                #expect(problems.isEmpty, "\(name) \(compression): \(problems)")
                let adobe = try Self.adobeWarnings(out, tmp.file("adobe.dng").path)
                #expect(adobe.isEmpty, "\(name) \(compression): \(adobe)")
                // The values behind the silence: a crop at least 2 px inside the active area on every side, the full
                // active area kept, and a white balance.
                let tags = try ExifTool.tags(of: out, extraArguments: ["-n"])
                let origin = try #require(tags["SubIFD:DefaultCropOrigin"]?.numbers, "\(name)")
                let size = try #require(tags["SubIFD:DefaultCropSize"]?.numbers, "\(name)")
                let area = try #require(tags["SubIFD:ActiveArea"]?.numbers, "\(name)")   // top, left, bottom, right
                #expect(origin.allSatisfy { $0 >= 2 }, "\(name): \(origin)")
                #expect(origin[0] + size[0] <= area[3] - area[1] - 2 && origin[1] + size[1] <= area[2] - area[0] - 2,
                        "\(name): \(origin) \(size) in \(area)")
                #expect(tags["IFD0:AsShotNeutral"]?.numbers?.count == 3, "\(name)")
                checked += 1
            }
        }
        #expect(checked == 12 || TestPaths.sharedSample(Self.samples[0]) == nil, "\(checked) files checked")
    }

    /// Develops `input` into a 16-bit TIFF `output` with `arguments`.
    static func develop(_ input: String, _ output: String, _ arguments: [String] = []) throws {
        let result = try CLI.run(["develop", input, "-o", output, "--format", "tiff", "--bits", "16", "-q", "--overwrite"] + arguments)
        #expect(result.exitStatus == 0, "\(input): \(result)")
    }

    /// The largest difference between the two 16-bit pictures, after taking `inset` pixels off each edge of the first;
    /// -1 when their sizes differ.
    static func largestDifference(_ a: String, _ b: String, inset: Int = 0) throws -> Int {
        let answer = try Python.json(script: """
            import sys, json, numpy as np, tifffile
            a = tifffile.imread(sys.argv[1]).astype(np.int64); b = tifffile.imread(sys.argv[2]).astype(np.int64)
            k = int(sys.argv[3])
            if k: a = a[k:-k, k:-k]
            print(json.dumps(int(np.abs(a - b).max()) if a.shape == b.shape else -1))
            """, arguments: [a, b, String(inset)])
        return try #require(answer.int)
    }

    /// The same picture, pixel for pixel: the DNG holds the source's samples, levels, matrices and (always) the white
    /// balance the source was developed with, and the crop the source's reading gives. Nothing is allowed to differ:
    /// both paths run the same developer on the same numbers, so any difference is a value that did not survive.
    @Test("develop SOURCE and develop convert(SOURCE) give the same 16-bit picture for every sample",
          .enabled(if: ToolAvailability.hasPythonModules("numpy", "tifffile")))
    func sourceDevelopsAsItsDNG() throws {
        let tmp = try TemporaryDirectory()
        for name in Self.samples {
            guard let source = TestPaths.sharedSample(name) else { continue }
            let dng = tmp.file("\(name).dng").path
            #expect(try CLI.run(["convert", source.path, "-o", dng, "-q"]).exitStatus == 0)
            let a = tmp.file("\(name)-source.tiff").path, b = tmp.file("\(name)-dng.tiff").path
            try Self.develop(source.path, a)
            try Self.develop(dng, b)
            if name.hasSuffix(".dng") {
                // A DNG source keeps its own crop when read; its DefaultCrop (the whole active area) had no margin, so
                // the converted DNG's is 2 px inside it: the source's picture without its outer 2 px.
                #expect(try Self.largestDifference(a, b, inset: DNGCropMargin.minimum) == 0, "\(name)")
                try Self.develop(source.path, a, ["--crop", "none"])
                try Self.develop(dng, b, ["--crop", "none"])
            }
            #expect(try Self.largestDifference(a, b) == 0, "\(name)")
        }
    }

    @Test("a source without a white balance: the DNG carries the one the source develops with, and inspect says where it came from")
    func whiteBalanceWithoutTheCamera() throws {
        let tmp = try TemporaryDirectory()
        // A DNG with a colour matrix and no AsShotNeutral: LibRaw gives no camera multipliers for it.
        let frame = try SyntheticRaw.frame(width: 320, height: 240)
        let matrix = try ColorMatrix([0.9, -0.3, -0.1], [-0.4, 1.2, 0.2], [-0.1, 0.2, 0.6])
        let calibration = try ColorCalibration(colorMatrix1: matrix, illuminant1: .d65)
        let source = tmp.file("no-wb.dng").path
        try DNGWriter().write(RawImage(frame: frame, metadata: try FrameMetadata(), calibration: calibration), to: source)
        #expect(try ExifTool.tags(of: source)["IFD0:AsShotNeutral"] == nil)
        let dng = tmp.file("converted.dng").path
        #expect(try CLI.run(["convert", source, "-o", dng, "-q"]).exitStatus == 0)
        let converted = try ExifTool.tags(of: dng, extraArguments: ["-n"])
        let neutral = try #require(converted["IFD0:AsShotNeutral"]?.numbers)
        let inspect = try JSONValue(parsing: Data(try CLI.run(["inspect", "--json", source]).stdout.utf8))
        let origin = try #require(inspect["colour"]?["asShotNeutralOrigin"]?.string)
        #expect(["preMultipliers", "colorMatrix"].contains(origin), "\(origin)")
        // The neutral written is the one the source is read with.
        let fromSource = (inspect["colour"]?["asShotNeutral"]?.array ?? []).compactMap { $0.double }
        #expect(fromSource.count == 3)
        #expect(zip(fromSource, neutral).allSatisfy { abs($0 - $1) < 1e-6 }, "\(fromSource) \(neutral)")
        // The matrix's D65 neutral: the camera's response to D65 through ColorMatrix1, green 1.
        let d65 = [0.95047, 1.0, 1.08883]
        let response = (0..<3).map { r in (0..<3).reduce(0.0) { $0 + matrix.values[r * 3 + $1] * d65[$1] } }
        #expect((0..<3).allSatisfy { abs(neutral[$0] - response[$0] / response[1]) < 1e-3 }, "\(neutral) vs \(response)")
        let a = tmp.file("source.tiff").path, b = tmp.file("dng.tiff").path
        try Self.develop(source, a, ["--crop", "none"])
        try Self.develop(dng, b, ["--crop", "none"])
        if ToolAvailability.hasPythonModules("numpy", "tifffile") {
            #expect(try Self.largestDifference(a, b) == 0)
        }
    }

    @Test("inspect says where the as-shot neutral comes from: the camera, LibRaw's pre-multipliers, the DNG's tag")
    func inspectSaysTheOrigin() throws {
        for (name, origin, words) in [("canon-powershot-g2.crw", "cameraMultipliers", "(the camera's white balance)"),
                                      ("kodak-dc120.kdc", "preMultipliers", "LibRaw's daylight pre-multipliers)"),
                                      ("canon-550d-magiclantern.dng", "file", "(the file's AsShotNeutral)")] {
            guard let source = TestPaths.sharedSample(name) else { continue }
            let json = try JSONValue(parsing: Data(try CLI.run(["inspect", "--json", source.path]).stdout.utf8))
            #expect(json["colour"]?["asShotNeutralOrigin"]?.string == origin, "\(name)")
            let text = try CLI.run(["inspect", source.path]).stdout
            #expect(text.split(separator: "\n").contains { $0.hasPrefix("As-shot neutral") && $0.hasSuffix(words) }, "\(name): \(text)")
        }
    }
}
