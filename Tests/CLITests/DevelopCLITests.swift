import Foundation
import RawBurst
import RawImageIO
import TestSupport
import Testing

/// `rawburst develop` end to end: every format read back by independent tools, composites, real camera raws,
/// and bad input that must fail cleanly without leaving anything behind.
@Suite("rawburst develop")
struct DevelopCLITests {
    /// A 960x720 simulated DNG of the colour chart with a position and a known exposure.
    static func dng(in tmp: TemporaryDirectory, name: String = "chart.dng", profile: String = "phone-wide",
                    orientation: Orientation = .normal) throws -> URL {
        var sensorProfile = SensorProfile.builtIn(named: profile)!.resized(toWidth: 960)
        sensorProfile.name = profile
        let sensor = try SimulatedSensor(profile: sensorProfile, scene: ColorChartScene(), seed: 9)
        try sensor.configure(CaptureSettings(iso: 200, shutter: 1.0 / 125, focus: .metres(1.5)))
        var image = try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame)).image
        image.metadata.gps = try GPSFix(latitude: 48.8584, longitude: -2.2945, altitude: 35)
        image.metadata.orientation = orientation
        let url = tmp.url.appendingPathComponent(name)
        try DNGWriter().write(image, to: url.path)
        return url
    }

    @Test("each format: exiftool reads EXIF, GPS and the ICC profile; heif-info opens HEIC; exiv2 reads the EXIF",
          .enabled(if: ToolAvailability.has("exiftool", "heif-info", "exiv2")),
          arguments: [("jpg", "srgb", 8), ("heic", "p3", 10), ("tiff", "prophoto", 16), ("png", "adobe", 16), ("heic", "srgb", 8)])
    func formats(_ format: String, _ space: String, _ bits: Int) throws {
        let tmp = try TemporaryDirectory()
        let input = try Self.dng(in: tmp)
        let out = tmp.url.appendingPathComponent("out.\(format)")
        let result = try CLI.run(["develop", input.path, "-o", out.path, "--space", space, "--bits", "\(bits)", "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let report = try JSONValue(parsing: Data(result.stdout.utf8))
        #expect(report["developed"]?.int == 1 && report["files"]?[0]?["width"]?.int == 960)
        let tags = try ExifTool.tags(of: out.path)
        #expect(tags["IFD0:Make"]?.string == "rawburst" || tags["IFD0:Make"] != nil, "\(format): Make")
        #expect(abs((tags["ExifIFD:ExposureTime"]?.double ?? 0) - 1.0 / 125) < 1e-6, "\(format): ExposureTime")
        #expect(tags["ExifIFD:ISO"]?.int == 200, "\(format): ISO")
        #expect(abs((tags["GPS:GPSLatitude"]?.double ?? 0) - 48.8584) < 1e-4, "\(format): latitude")
        #expect(abs((tags["GPS:GPSLongitude"]?.double ?? 0) - 2.2945) < 1e-4 && tags["GPS:GPSLongitudeRef"]?.string == "W",
                "\(format): longitude")
        let description = tags["ICC_Profile:ProfileDescription"]?.string ?? ""
        let expected = OutputColorSpace(parsing: space)!.description
        #expect(description.hasPrefix(expected), "\(format): ICC profile '\(description)'")
        // exiftool wants GPSProcessingMethod in a TIFF's GPS IFD; rawburst does not know how a position was found.
        let allowed = format == "tiff" ? ["Warning: Missing required TIFF GPS tag 0x001b GPSProcessingMethod"] : []
        #expect(try ExifTool.validate(out.path) == allowed, "\(format)")
        if format == "heic" {
            let info = try ExternalTool.run("heif-info", [out.path])
            #expect(info.succeeded && info.stdout.contains("960x720"), "\(info)")
            #expect(tags["QuickTime:BitDepthLuma"]?.int == bits, "\(format): bit depth \(String(describing: tags["QuickTime:BitDepthLuma"]))")
        } else {
            let exiv2 = try ExternalTool.run("exiv2", ["-pa", out.path])
            #expect(exiv2.stdout.contains("Exif.Photo.ISOSpeedRatings") && exiv2.stdout.contains("Exif.GPSInfo.GPSLatitude"),
                    "\(format): \(exiv2)")
        }
    }

    @Test("real camera raws develop upright at their default crop", arguments: ["canon-powershot-g2.crw", "kodak-dc120.kdc"])
    func realRaws(_ sample: String) throws {
        let source = try #require(TestPaths.sharedSample(sample), "missing sample \(sample)")
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("out.jpg")
        let result = try CLI.run(["develop", source.path, "-o", out.path, "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let image = try ImageFileReader.read(path: out.path)
        let raw = try RawFileReader().read(path: source.path)
        let crop = raw.frame.defaultCrop
        let w = Int((Double(crop.width) * raw.frame.defaultScale.horizontal).rounded())
        let h = Int((Double(crop.height) * raw.frame.defaultScale.vertical).rounded())
        let turned = [.rotate90, .rotate270, .mirrorHorizontalRotate90, .mirrorHorizontalRotate270].contains(raw.metadata.orientation)
        #expect(image.width == (turned ? h : w) && image.height == (turned ? w : h), "\(image.width)x\(image.height)")
        // Not black, not blown out.
        let mean = image.samples.reduce(0.0) { $0 + Double($1) } / Double(image.samples.count) / 65535
        #expect(mean > 0.1 && mean < 0.9, "mean \(mean)")
    }

    @Test("composites: two files in order, or a directory paired by sequence number")
    func composites() throws {
        let tmp = try TemporaryDirectory()
        let burst = try tmp.subdirectory("burst")
        for n in 0..<2 {
            _ = try Self.dng(in: tmp, name: "burst/back-000\(n).dng", profile: "phone-wide")
            _ = try Self.dng(in: tmp, name: "burst/front-000\(n).dng", profile: "phone-front")
        }
        let out = try tmp.subdirectory("out")
        var result = try CLI.run(["develop", burst.path, "-o", out.path, "--composite", "stacked", "--split", "70/30",
                                  "--border", "6", "--primary", "back", "--size", "480"])
        #expect(result.exitStatus == 0, "\(result)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(names == ["back-0000-composite.jpg", "back-0001-composite.jpg"])
        let picture = try ImageFileReader.read(path: out.appendingPathComponent(names[0]).path)
        #expect(picture.width == 480 && picture.height == 360)
        // The border between the shares: 6 px of white at row 6 + round((360 − 18) × 0.7) = 245.
        let p = picture.pixel(x: 240, y: 248)
        #expect(p.red > 60000 && p.green > 60000 && p.blue > 60000, "\(p)")
        result = try CLI.run(["develop", burst.appendingPathComponent("back-0000.dng").path, "-o",
                              tmp.url.appendingPathComponent("pip.png").path, "--composite", "pip", "--size", "400"])
        #expect(result.exitStatus == 2 && result.stderr.contains("no partner"), "\(result)")
    }

    @Test("bad input: a truncated raw fails alone (exit 1), nothing is left under its name, the other file is written")
    func truncatedInput() throws {
        let tmp = try TemporaryDirectory()
        let good = try Self.dng(in: tmp, name: "good.dng")
        let data = try Data(contentsOf: good)
        let cut = tmp.url.appendingPathComponent("cut.dng")
        try data.prefix(data.count / 3).write(to: cut)
        let out = try tmp.subdirectory("out")
        let result = try CLI.run(["develop", good.path, cut.path, "-o", out.path])
        #expect(result.exitStatus == 1, "\(result)")
        #expect(result.stderr.contains("cut.dng"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["good.jpg"])
    }

    @Test("refusals before anything is touched (exit 2): bad settings, existing output, missing folder")
    func refusals() throws {
        let tmp = try TemporaryDirectory()
        let input = try Self.dng(in: tmp)
        let existing = tmp.url.appendingPathComponent("exists.jpg")
        try Data("keep".utf8).write(to: existing)
        for (arguments, message) in [(["--wb", "15000K"], "white balance"), (["--space", "cmyk"], "space"),
                                     (["--exposure", "+9"], "exposure"), (["--format", "gif"], "format"),
                                     (["--bits", "12", "--format", "heic"], "bit"), (["--crop", "16:0"], "crop"),
                                     (["--look", "sepia"], "look"), (["--demosaic", "vng"], "demosaic")] {
            let result = try CLI.run(["develop", input.path, "-o", tmp.url.appendingPathComponent("x.jpg").path] + arguments)
            #expect(result.exitStatus == 2, "\(arguments): \(result)")
            #expect(result.stderr.lowercased().contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): one line: \(result.stderr)")
        }
        var result = try CLI.run(["develop", input.path, "-o", existing.path])
        #expect(result.exitStatus == 2 && result.stderr.contains("already exists"), "\(result)")
        #expect(try Data(contentsOf: existing) == Data("keep".utf8))
        result = try CLI.run(["develop", input.path, "-o", tmp.url.appendingPathComponent("no/such/dir/x.jpg").path])
        #expect(result.exitStatus == 2, "\(result)")
        result = try CLI.run(["develop", input.path, "-o", existing.path, "--overwrite"])
        #expect(result.exitStatus == 0, "\(result)")
        #expect(try Data(contentsOf: existing).prefix(2) == Data([0xFF, 0xD8]))
    }

    @Test("libraw-ahd through the command line gives the same picture size and a close rendering")
    func libRawDemosaic() throws {
        let tmp = try TemporaryDirectory()
        let input = try Self.dng(in: tmp)
        let ours = tmp.url.appendingPathComponent("ours.png"), theirs = tmp.url.appendingPathComponent("theirs.png")
        #expect(try CLI.run(["develop", input.path, "-o", ours.path]).exitStatus == 0)
        let result = try CLI.run(["develop", input.path, "-o", theirs.path, "--demosaic", "libraw-ahd", "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        #expect(try JSONValue(parsing: Data(result.stdout.utf8))["files"]?[0]?["demosaic"]?.string == "libraw-ahd")
        let a = try ImageFileReader.read(path: ours.path), b = try ImageFileReader.read(path: theirs.path)
        #expect(a.width == b.width && a.height == b.height)
        let difference = zip(a.samples, b.samples).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(a.samples.count) / 65535
        // Two demosaics of a (noisy) chart differ at edges; overall they agree within 2 % of the range.
        #expect(difference < 0.02, "mean difference \(difference)")
    }
}
