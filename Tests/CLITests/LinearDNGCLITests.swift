import Foundation
import RawBurst
import TestSupport
import Testing

/// LinearRaw DNGs (three samples per pixel, no CFA) on the command line: `inspect` describes them and `--validate`
/// passes a sound one and fails a broken one; `develop` renders them; `analyze` gives RGB histograms, peaking and
/// zebra; `convert` copies them as they are and says so; a JPEG XL one is refused in one line with nothing written.
@Suite("LinearRaw DNGs on the command line")
struct LinearDNGCLITests {
    /// 120 x 80 pixels, LinearRaw, written by rawburst's `LinearDNGWriter`: the left half clipped (every channel at
    /// white), the right half a dark grey; a vertical edge between them; stand-in calibration.
    static func dng(in tmp: TemporaryDirectory, storage: LinearDNGWriter.Storage = .losslessJPEG) throws -> URL {
        let width = 120, height = 80
        let storage3 = PixelStorage(count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<3 { storage3.baseAddress[(y * width + x) * 3 + c] = x < width / 2 ? 4000 : 600 }
            }
        }
        let frame = try LinearRawFrame(width: width, height: height, storage: storage3, blackLevels: [64, 64, 64],
                                       whiteLevels: [4000, 4000, 4000])
        let image = LinearRawImage(frame: frame, metadata: try FrameMetadata(make: "rawburst", model: "Linear test"),
                                   calibration: .standIn)
        let url = tmp.url.appendingPathComponent("linear-\(storage.rawValue).dng")
        try LinearDNGWriter(storage: storage).write(image, to: url.path)
        return url
    }

    @Test("inspect describes a linear DNG and --validate exits 0; a truncated copy exits non-zero")
    func inspect() throws {
        let tmp = try TemporaryDirectory()
        let dng = try Self.dng(in: tmp)
        let result = try CLI.run(["inspect", dng.path, "--validate"])
        #expect(result.exitStatus == 0, "\(result)")
        #expect(result.stdout.contains("LinearRaw (34892), 3 samples per pixel, no CFA"))
        #expect(result.stdout.contains("lossless JPEG (Compression 7)"))
        let json = try JSONValue(parsing: try CLI.run(["inspect", dng.path, "--json"]).stdout)
        #expect(json["readable"]?.bool == true)
        #expect(json["frame"]?["photometricInterpretation"]?.string == "LinearRaw")
        #expect(json["frame"]?["samplesPerPixel"]?.int == 3)
        #expect(json["frame"]?["whiteLevels"]?.array?.compactMap(\.int) == [4000, 4000, 4000])
        #expect(json["rawData"]?["compression"]?.int == 7)
        #expect(json["colour"]?["asShotNeutralOrigin"]?.string == "file")
        let bytes = try Data(contentsOf: dng)
        let cut = tmp.url.appendingPathComponent("cut.dng")
        try bytes.prefix(bytes.count - 500).write(to: cut)
        let broken = try CLI.run(["inspect", cut.path, "--validate"])
        #expect(broken.exitStatus != 0, "\(broken)")
        // Never a bare "OK" beside an unreadable image: a structural problem, or the image's own error.
        let verdict = broken.stdout.split(separator: "\n").first { $0.hasPrefix("Validation") }.map(String.init) ?? ""
        #expect(verdict.contains("problem(s)") || verdict.hasSuffix("structure OK, but the image cannot be read"), "\(broken)")
    }

    @Test("develop renders a linear DNG: left half white, right half dark grey")
    func develop() throws {
        let tmp = try TemporaryDirectory()
        let dng = try Self.dng(in: tmp, storage: .uncompressed)
        let out = tmp.url.appendingPathComponent("out.png")
        let result = try CLI.run(["develop", dng.path, "-o", out.path, "--tone", "linear"])
        #expect(result.exitStatus == 0, "\(result)")
        let decoded = try ImageFileReader.read(path: out.path)
        #expect(decoded.width == 120 && decoded.height == 80)
        let left = decoded.pixel(x: 10, y: 40), right = decoded.pixel(x: 100, y: 40)
        #expect(left.red >= 65000 && left.green >= 65000 && left.blue >= 65000, "\(left)")
        // (600 - 64) / (4000 - 64) = 0.136 linear → sRGB 0.405.
        for v in [right.red, right.green, right.blue] { #expect(abs(Double(v) / 65535 - 0.405) < 0.02, "\(right)") }
    }

    @Test("analyze gives RGB histograms, a peaking mask along the edge and a zebra over the clipped half")
    func analyze() throws {
        let tmp = try TemporaryDirectory()
        let dng = try Self.dng(in: tmp)
        let result = try CLI.run(["analyze", dng.path, "--histogram", "--peaking", "--zebra", "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let report = try JSONValue(parsing: result.stdout)
        let file = try #require(report["files"]?[0])
        #expect(file["ok"]?.bool == true)
        let channels = file["analysis"]?["channels"]?.array ?? []
        #expect(channels.compactMap { $0["color"]?.string } == ["R", "G", "B"])
        #expect(channels.allSatisfy { $0["clippedFraction"]?.double == 0.5 })
        let marked = file["analysis"]?["peaking"]?["markedFraction"]?.double ?? 0
        #expect(marked > 0 && marked < 0.1, "\(marked)")
        let zebra = file["zebra"]?["markedFraction"]?.double ?? 0
        // The clipped half is marked (the stripes are only how the picture shows it).
        #expect(abs(zebra - 0.5) < 0.03, "\(zebra)")
    }

    @Test("convert copies a linear DNG as it is and says so; the copy holds the same samples (tifffile)")
    func convert() throws {
        let tmp = try TemporaryDirectory()
        let dng = try Self.dng(in: tmp)
        let out = tmp.url.appendingPathComponent("copy.dng")
        let result = try CLI.run(["convert", dng.path, "-o", out.path])
        #expect(result.exitStatus == 0, "\(result)")
        #expect(result.stdout.contains("copied as is: already a LinearRaw DNG"), "\(result.stdout)")
        #expect(try Data(contentsOf: out) == (try Data(contentsOf: dng)))
        let json = try JSONValue(parsing: try CLI.run(["convert", dng.path, "-o", tmp.url.appendingPathComponent("j.dng").path,
                                                       "--json"]).stdout)
        #expect(json["files"]?[0]?["action"]?.string == "copied-as-is")
        if ToolAvailability.hasPythonModules("tifffile", "imagecodecs", "numpy") {
            let info = try Python.json(script: """
                import sys, json, tifffile, numpy as np
                a, b = (tifffile.TiffFile(p).pages[0].asarray() for p in sys.argv[1:3])
                print(json.dumps({'equal': bool((a == b).all()), 'shape': list(b.shape)}))
                """, arguments: [dng.path, out.path])
            #expect(info["equal"]?.bool == true && info["shape"]?.array?.compactMap(\.int) == [80, 120, 3])
        }
    }

    /// Issue #33 section 4: what `convert` copies as it is passes every check `inspect --validate` makes first. A linear
    /// DNG whose DNGVersion bytes are zeroed was copied with exit 0 into a file LibRaw cannot decode.
    @Test("convert refuses to copy a linear DNG that inspect --validate fails (zeroed DNGVersion, no UniqueCameraModel): exit 1, one line, nothing written")
    func copyValidated() throws {
        let tmp = try TemporaryDirectory()
        let soundURL = try Self.dng(in: tmp)
        let sound = try Data(contentsOf: soundURL)
        let structure = try TIFFStructure(data: sound)
        let version = try #require(structure.mainDirectory[TIFFTag.dngVersion])
        let model = try #require(structure.mainDirectory[TIFFTag.uniqueCameraModel])
        var zeroed = [UInt8](sound)
        for k in 0..<4 { zeroed[version.position + 8 + k] = 0 }
        var unnamed = [UInt8](sound)
        unnamed[model.position] = 0xFE   // tag 50708 becomes 50942 (ProfileCopyright): no UniqueCameraModel
        for (name, bytes, problem) in [("zeroed", zeroed, "DNGVersion 0.0.0.0 is not a DNG version"),
                                       ("unnamed", unnamed, "UniqueCameraModel (50708) is missing")] {
            let source = tmp.file("\(name).dng").path
            try Data(bytes).write(to: URL(fileURLWithPath: source))
            let inspect = try CLI.run(["inspect", "--validate", source])
            #expect(inspect.exitStatus == 3, "\(name): \(inspect)")
            let out = tmp.file("\(name)-copy.dng").path
            let result = try CLI.run(["convert", source, "-o", out, "--json"])
            #expect(result.exitStatus == 1, "\(name): \(result)")
            let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
            #expect(lines.count == 1 && lines[0].contains("not copied, not a valid DNG") && lines[0].contains(problem),
                    "\(name): \(result.stderr)")
            let json = try JSONValue(parsing: result.stdout)
            #expect(json["files"]?[0]?["ok"]?.bool == false && json["converted"]?.int == 0, "\(name): \(result.stdout)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(name)")
        }
        // The sound file is still copied.
        let copy = tmp.file("sound-copy.dng").path
        let result = try CLI.run(["convert", soundURL.path, "-o", copy, "-q"])
        #expect(result.exitStatus == 0 && FileManager.default.fileExists(atPath: copy), "\(result)")
    }

    @Test("a JPEG XL linear DNG: develop, convert and analyze fail in one line naming the compression; nothing written",
          .enabled(if: ToolAvailability.hasPythonModules("pidng", "numpy")))
    func jpegXL() throws {
        let tmp = try TemporaryDirectory()
        let fixture = try LinearPiDNG.make(in: tmp.url, kind: "jxl")
        for command in ["develop", "convert"] {
            let out = tmp.url.appendingPathComponent("out-\(command).\(command == "develop" ? "jpg" : "dng")")
            let result = try CLI.run([command, fixture.dng.path, "-o", out.path])
            #expect(result.exitStatus != 0, "\(command): \(result)")
            let lines = result.stderr.split(separator: "\n").filter { $0.contains("52546") }
            #expect(lines.count == 1 && lines[0].contains("JPEG XL"), "\(command): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }

    @Test("PiDNG's linear DNG (uncompressed, orientation 6) develops upright at its turned size")
    func pidngDevelop() throws {
        guard ToolAvailability.hasPythonModules("pidng", "numpy") else { return }
        let tmp = try TemporaryDirectory()
        let fixture = try LinearPiDNG.make(in: tmp.url, kind: "uncompressed")
        let out = tmp.url.appendingPathComponent("p.tiff")
        let result = try CLI.run(["develop", fixture.dng.path, "-o", out.path, "--tone", "linear"])
        #expect(result.exitStatus == 0, "\(result)")
        let decoded = try ImageFileReader.read(path: out.path)
        #expect(decoded.width == 48 && decoded.height == 64)
    }
}
