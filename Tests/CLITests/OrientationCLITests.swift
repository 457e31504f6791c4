import Foundation
import RawBurst
import RawImageIO
import TestSupport
import Testing

/// `capture --orientation` and `--mirror` (issue #33), end to end on a scene whose top-left quarter is red: the DNG's
/// Orientation (exiftool), where that corner shows in dcraw's rendering of the DNG and in rawburst's developed picture,
/// the mirrored front sensor in its picture and its composite share (never in its DNG), what the pictures and the
/// manifest say, and the refusals.
@Suite("capture --orientation and --mirror")
struct OrientationCLITests {
    /// A 400x300 PNG, grey with its top-left quarter red, and 256x192 profiles named `back` (phone-wide) and `front`
    /// (phone-front), in `tmp`.
    struct Fixture {
        let scene: String
        let back: String
        let front: String

        init(in tmp: TemporaryDirectory) throws {
            let (width, height) = (400, 300)
            var pixels = [UInt8](repeating: 128, count: width * height * 3)
            for y in 0..<(height / 4) {
                for x in 0..<(width / 4) {
                    let i = (y * width + x) * 3
                    (pixels[i], pixels[i + 1], pixels[i + 2]) = (255, 0, 0)
                }
            }
            let picture = try #require(DevelopedImage(sRGB8: pixels, width: width, height: height, metadata: .empty))
            let path = tmp.url.appendingPathComponent("marked.png").path
            try ImageFileWriter(format: .png).write(picture, to: path)
            scene = "image:" + path
            back = try Self.profile("phone-wide", as: "back", in: tmp)
            front = try Self.profile("phone-front", as: "front", in: tmp)
        }

        static func profile(_ builtIn: String, as name: String, in tmp: TemporaryDirectory) throws -> String {
            var profile = try #require(SensorProfile.builtIn(named: builtIn)).resized(toWidth: 256)
            profile.name = name
            let url = tmp.url.appendingPathComponent("\(name).json")
            try JSONEncoder().encode(profile).write(to: url)
            return url.path
        }

        var fixed: [String] { ["--scene", scene, "--iso", "100", "--shutter", "1/100", "--focus", "2m", "--wb", "daylight"] }
    }

    enum Corner: String, CaseIterable { case topLeft, topRight, bottomLeft, bottomRight }

    /// The corner of `image` (within `rect`: x, y, width, height) that shows red, nil when none or several do.
    static func redCorner(_ image: DecodedImage, in rect: (Int, Int, Int, Int)? = nil) -> Corner? {
        let (x0, y0, w, h) = rect ?? (0, 0, image.width, image.height)
        func red(_ x: Int, _ y: Int) -> Bool {
            let p = image.pixel(x: x0 + x, y: y0 + y)
            return Int(p.red) > 30000 && Int(p.red) > 2 * Int(p.green) && Int(p.red) > 2 * Int(p.blue)
        }
        let inset = 4
        let found = Corner.allCases.filter { corner in
            switch corner {
            case .topLeft: red(inset, inset)
            case .topRight: red(w - 1 - inset, inset)
            case .bottomLeft: red(inset, h - 1 - inset)
            case .bottomRight: red(w - 1 - inset, h - 1 - inset)
            }
        }
        return found.count == 1 ? found[0] : nil
    }

    @Test("--orientation N: DNG Orientation 1/6/3/8, and the scene's top-left corner turned N° clockwise by dcraw and by develop",
          .enabled(if: ToolAvailability.has("exiftool") && ToolAvailability.has("dcraw")),
          arguments: [(0, 1, Corner.topLeft), (90, 6, .topRight), (180, 3, .bottomRight), (270, 8, .bottomLeft)])
    func rotation(_ degrees: Int, _ exif: Int, _ corner: Corner) throws {
        let tmp = try TemporaryDirectory()
        let fixture = try Fixture(in: tmp)
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--profile", fixture.back] + fixture.fixed
                                 + ["--orientation", String(degrees), "--develop", "jpg", "-o", out.path, "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let dng = out.appendingPathComponent("back-0000.dng")
        #expect(try ExifTool.tags(of: dng)["IFD0:Orientation"]?.int == exif)
        // dcraw turns the DNG by its Orientation tag.
        let rendered = try DCRaw.decode(dng, to: tmp.url.appendingPathComponent("dcraw.tiff"))
        #expect(rendered.succeeded, "\(rendered.messages)")
        let byDcraw = try ImageFileReader.read(path: rendered.output.path)
        let portrait = degrees % 180 == 90
        #expect(portrait ? byDcraw.height > byDcraw.width : byDcraw.width > byDcraw.height)
        #expect(Self.redCorner(byDcraw) == corner, "dcraw")
        // rawburst's own picture, developed during the burst, is turned the same way and says it is upright.
        let picture = try ImageFileReader.read(path: out.appendingPathComponent("back-0000.jpg").path)
        #expect(picture.width == (portrait ? 192 : 256) && picture.height == (portrait ? 256 : 192))
        #expect(Self.redCorner(picture) == corner, "developed")
        let jpegTags = try ExifTool.tags(of: out.appendingPathComponent("back-0000.jpg"))
        #expect(jpegTags["IFD0:Orientation"]?.int == 1 && jpegTags["IFD0:ImageDescription"] == nil)
        let framing = try JSONValue(parsing: Data(result.stdout.utf8))["framing"]
        #expect(framing?["mirror"]?.string == "none")
        #expect(framing?["sensors"]?[0]?["orientationDegrees"]?.int == degrees)
        #expect(framing?["sensors"]?[0]?["dngOrientation"]?.int == exif)
        #expect(framing?["sensors"]?[0]?["mirrored"]?.bool == false)
    }

    @Test("two sensors, --orientation 0 --orientation 270 --mirror front: the front DNG keeps Orientation 8; its picture and its composite share are mirrored, and say so",
          .enabled(if: ToolAvailability.has("exiftool")))
    func mirroredFront() throws {
        let tmp = try TemporaryDirectory()
        let fixture = try Fixture(in: tmp)
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--profile", fixture.back, "--profile", fixture.front] + fixture.fixed
                                 + ["--orientation", "0", "--orientation", "270", "--mirror", "front", "-o", out.path,
                                    "--develop", "jpg", "--composite", "pip", "--pip-corner", "bottom-left", "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        func file(_ name: String) -> URL { out.appendingPathComponent(name) }
        // The DNGs: the sensors' own orientations, no mirrored value.
        #expect(try ExifTool.tags(of: file("back-0000.dng"))["IFD0:Orientation"]?.int == 1)
        #expect(try ExifTool.tags(of: file("front-0000.dng"))["IFD0:Orientation"]?.int == 8)
        // The back picture as the scene; the front turned 270° clockwise (the corner at the bottom left), then mirrored.
        let back = try ImageFileReader.read(path: file("back-0000.jpg").path)
        #expect(Self.redCorner(back) == .topLeft)
        let front = try ImageFileReader.read(path: file("front-0000.jpg").path)
        #expect(front.width == 192 && front.height == 256)
        #expect(Self.redCorner(front) == .bottomRight)
        #expect(try ExifTool.tags(of: file("back-0000.jpg"))["IFD0:ImageDescription"] == nil)
        #expect(try ExifTool.tags(of: file("front-0000.jpg"))["IFD0:ImageDescription"]?.string == "mirrored left to right")
        #expect(try ExifTool.validate(file("front-0000.jpg")) == [])
        // The composite: the back frame whole, the front (portrait, mirrored) inset at the bottom left.
        let composite = try ImageFileReader.read(path: file("back-0000-composite.jpg").path)
        #expect(composite.width == 256 && composite.height == 192)
        #expect(Self.redCorner(composite) == .topLeft)
        // The inset: 30 % of the width (77 px), the front frame's aspect (77 · 256 / 192 = 103 px), 5 px (3 % of 192)
        // from the edges.
        let insetW = 77, insetH = 103, margin = 5
        #expect(Self.redCorner(composite, in: (margin, 192 - margin - insetH, insetW, insetH)) == .bottomRight)
        #expect(try ExifTool.tags(of: file("back-0000-composite.jpg"))["IFD0:ImageDescription"]?.string
                == "composite: second frame mirrored left to right")
        let report = try JSONValue(parsing: Data(result.stdout.utf8))
        #expect(report["framing"]?["mirror"]?.string == "front")
        #expect(report["framing"]?["sensors"]?.array?.map { $0["sensor"]?.string ?? "" } == ["back", "front"])
        #expect(report["framing"]?["sensors"]?.array?.map { $0["mirrored"]?.bool ?? false } == [false, true])
        #expect(report["framing"]?["sensors"]?.array?.map { $0["dngOrientation"]?.int ?? 0 } == [1, 8])
        #expect(report["development"]?["settings"]?.string?.hasSuffix("mirrored front") == true)
    }

    @Test("--mirror all on pictures developed after the burst (the governor deferred them) mirrors them too",
          .enabled(if: ToolAvailability.has("exiftool")))
    func mirroredAfterTheBurst() throws {
        let tmp = try TemporaryDirectory()
        let fixture = try Fixture(in: tmp)
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--profile", fixture.back] + fixture.fixed
                                 + ["--frames", "1", "--fps", "2", "--late", "wait", "--simulate-thermal", "fair@0s",
                                    "--orientation", "90", "--mirror", "all", "-o", out.path, "--develop", "png", "--json"],
                                 environment: ["XDG_CACHE_HOME": tmp.url.appendingPathComponent("cache").path])
        #expect(result.exitStatus == 0, "\(result)")
        let report = try JSONValue(parsing: Data(result.stdout.utf8))
        #expect(report["development"]?["developed"]?[0]?["duringBurst"]?.bool == false)
        // Turned 90° clockwise: the corner at the top right; mirrored: at the top left.
        let picture = try ImageFileReader.read(path: out.appendingPathComponent("back-0000.png").path)
        #expect(picture.width == 192 && picture.height == 256)
        #expect(Self.redCorner(picture) == .topLeft)
        #expect(try ExifTool.tags(of: out.appendingPathComponent("back-0000.png"))["IFD0:ImageDescription"]?.string
                == "mirrored left to right")
        #expect(try ExifTool.tags(of: out.appendingPathComponent("back-0000.dng"))["IFD0:Orientation"]?.int == 6)
    }

    @Test("bad orientations and mirrors are refused in one line, exit 2, before anything is written")
    func refusals() throws {
        let tmp = try TemporaryDirectory()
        let fixture = try Fixture(in: tmp)
        let out = tmp.url.appendingPathComponent("burst")
        let one = ["capture", "--profile", fixture.back] + fixture.fixed + ["-o", out.path]
        let two = ["capture", "--profile", fixture.back, "--profile", fixture.front] + fixture.fixed + ["-o", out.path]
        let cases: [([String], String)] = [
            (one + ["--orientation", "45"], "--orientation must be 0, 90, 180 or 270 (degrees clockwise), not '45'"),
            (one + ["--orientation", "-90"], "--orientation must be 0, 90, 180 or 270 (degrees clockwise), not '-90'"),
            (one + ["--mirror", "sideways"], "--mirror must be none, front or all, not 'sideways'"),
            (one + ["--orientation", "90", "--orientation", "0"], "--orientation is given 2 times for 1 sensor(s): give one, or one per sensor"),
            (two + ["--orientation", "0", "--orientation", "90", "--orientation", "180"],
             "--orientation is given once, or once per sensor (two at most), not 3 times"),
            (one + ["--mirror", "front", "--develop", "jpg"],
             "--mirror: front is the second of two sensors, and this capture has 1; --mirror all mirrors a single sensor's pictures"),
            (one + ["--mirror", "all"], "--mirror all needs --develop FORMAT or --live: it flips developed pictures, composites "
                + "and the viewfinder, never the DNGs"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(arguments)
            #expect(result.exitStatus == 2, "\(arguments): \(result)")
            #expect(result.stderr == "rawburst capture: \(message)\n", "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: out.path), "\(arguments): nothing is written")
        }
    }
}
