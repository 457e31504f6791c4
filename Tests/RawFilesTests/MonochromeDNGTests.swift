import Foundation
import RawCore
import RawDNG
import RawImageIO
@testable import RawFiles
import RawTIFF
import TestSupport
import Testing

/// Monochrome DNGs (issue #33): a frame of `CFALayout.monochrome` is written as LinearRaw with one sample per pixel
/// (PhotometricInterpretation 34892, no CFA or colour tags, BitsPerSample as the source, a one-plane NoiseProfile)
/// and reads back — through rawburst, LibRaw (rawpy: one colour), dcraw, Adobe's SDK (dngpy) and darktable — to
/// exactly the samples written.
@Suite("Monochrome DNGs")
struct MonochromeDNGTests {
    static let noise = try! NoiseProfile(gain: 0.25, readNoiseElectrons: 3, range: 4000) // valid constants

    /// A seeded monochrome image with a crop margin, a 1x1 black level and a noise profile.
    static func image(bits: Int, width: Int = 300, height: Int = 200) throws -> RawImage {
        let white = UInt32((1 << bits) - 1)
        let frame = try SyntheticRaw.frame(width: width, height: height, cfa: .monochrome, bits: bits,
                                           black: [Double(white / 32)], crop: PixelRect(top: 4, left: 6, height: height - 8, width: width - 12))
        var metadata = try SyntheticRaw.fullMetadata()
        metadata.noiseProfile = noise
        metadata.baselineExposure = 0.75
        metadata.orientation = .normal
        return RawImage(frame: frame, metadata: metadata, calibration: nil)
    }

    static func write(_ image: RawImage, compression: DNGCompression, to url: URL) throws -> DNGWriter.Report {
        var options = DNGWriter.Options()
        options.compression = compression
        options.previewLongEdge = 128
        return try DNGWriter(options: options, previewEncoder: JPEGPreviews()).write(image, to: url.path)
    }

    static func samples(_ frame: RawFrame) -> [UInt16] { frame.activeSamples() }

    static let cases: [(DNGCompression, Int)] = [(.none, 8), (.packed, 8), (.lj92, 8), (.none, 12), (.packed, 10),
                                                  (.lj92, 12), (.packed, 16), (.lj92, 16)]

    @Test("written as LinearRaw with one sample, BitsPerSample as the source, and read back exactly",
          arguments: cases.indices)
    func roundTrip(index: Int) throws {
        let (compression, bits) = Self.cases[index]
        let tmp = try TemporaryDirectory()
        let image = try Self.image(bits: bits)
        let url = tmp.file("mono-\(compression.rawValue)-\(bits).dng")
        let report = try Self.write(image, compression: compression, to: url)
        let expectedBits = compression == .none ? 16 : bits
        #expect(report.bitsPerSample == expectedBits)
        let back = try RawFileReader().read(path: url.path)
        #expect(back.frame.cfa.isMonochrome)
        #expect(back.calibration == nil)
        #expect(Self.samples(back.frame) == Self.samples(image.frame))
        #expect(back.frame.blackLevels == image.frame.blackLevels && back.frame.whiteLevel == image.frame.whiteLevel)
        #expect(back.frame.defaultCrop == image.frame.defaultCrop)
        #expect(back.metadata.noiseProfile == Self.noise)
        #expect(back.metadata.baselineExposure == 0.75)
        #expect(DNGValidator.validate(path: url.path).isEmpty)
    }
}

extension MonochromeDNGTests {
    @Test("exiftool: LinearRaw, one sample, no CFA or colour tags, a one-plane NoiseProfile; validates clean",
          .enabled(if: ToolAvailability.has("exiftool")), arguments: [0, 2, 4, 5])
    func exiftoolTags(index: Int) throws {
        let (compression, bits) = Self.cases[index]
        let tmp = try TemporaryDirectory()
        let url = tmp.file("mono.dng")
        _ = try Self.write(try Self.image(bits: bits), compression: compression, to: url)
        let tags = try ExifTool.tags(of: url)
        let raw = "SubIFD"
        #expect(tags["\(raw):PhotometricInterpretation"]?.int == 34892)
        #expect(tags["\(raw):SamplesPerPixel"]?.int == 1)
        #expect(tags["\(raw):BitsPerSample"]?.int == (compression == .none ? 16 : bits))
        #expect(tags["\(raw):Compression"]?.int == compression.tiffCode)
        for absent in ["CFAPattern", "CFARepeatPatternDim", "CFAPlaneColor", "CFALayout", "ColorMatrix1", "AsShotNeutral",
                       "CalibrationIlluminant1", "ForwardMatrix1"] {
            #expect(tags.keys.allSatisfy { !$0.hasSuffix(":" + absent) }, "\(absent) must be absent")
        }
        let noise = tags["\(raw):NoiseProfile"]?.numbers ?? []
        #expect(noise.count == 2)
        #expect(zip(noise, Self.noise.tagValues).allSatisfy { abs($0 - $1) <= 1e-12 * max(1, abs($1)) })
        #expect(try ExifTool.validate(url) == [])
    }

    @Test("LibRaw (rawpy), dcraw and Adobe's SDK (dngpy) read one colour and exactly the samples written",
          .enabled(if: ToolAvailability.has("dcraw") && ToolAvailability.hasPythonModules("rawpy", "numpy", "dngpy", "tifffile")))
    func independentReaders() throws {
        let tmp = try TemporaryDirectory()
        var files: [(url: URL, image: RawImage)] = []
        for (compression, bits) in Self.cases {
            let url = tmp.file("mono-\(compression.rawValue)-\(bits).dng")
            let image = try Self.image(bits: bits)
            _ = try Self.write(image, compression: compression, to: url)
            files.append((url, image))
        }
        // One Python process reads every file (rawpy and the SDK take a while to import).
        let run = try Python.run(script: """
            import sys, json, rawpy, dngpy, tifffile, numpy as np
            out = []
            for path in sys.argv[1:]:
                entry = {}
                with rawpy.imread(path) as r:
                    entry["colors"] = int(r.num_colors)
                    entry["raw"] = r.raw_image.astype(int).flatten().tolist()
                    entry["white"] = int(r.white_level)
                d = dngpy.Dng(path)
                entry["adobe"] = np.asarray(d.raw_pixels).astype(int).flatten().tolist()
                d.save(path + ".adobe.dng")
                out.append(entry)
            print(json.dumps(out))
            """, arguments: files.map(\.url.path))
        try run.requireSuccess()
        // The SDK reports what it dislikes on stderr (warnings included) and still succeeds.
        #expect(!run.stderr.contains("Warning") && !run.stderr.contains("Error"), "\(run.stderr)")
        let readers = try JSONValue(parsing: run.standardOutput)
        for (index, file) in files.enumerated() {
            let frame = file.image.frame
            let whole = Array(UnsafeBufferPointer(start: frame.storage.baseAddress, count: frame.width * frame.height))
            let entry = readers[index]
            let name = file.url.lastPathComponent
            #expect(entry?["colors"]?.int == 1, "\(name)")
            #expect(entry?["raw"]?.array?.compactMap(\.int) == whole.map(Int.init), "\(name): LibRaw's samples")
            #expect(entry?["adobe"]?.array?.compactMap(\.int) == whole.map(Int.init), "\(name): the SDK's samples")
            #expect(entry?["white"]?.int == Int(frame.whiteLevel), "\(name)")
            let identify = try DCRaw.identify(file.url)
            #expect(identify.value("Raw colors") == "1", "\(name): \(identify)")
            let decoded = try DCRaw.decode(file.url, mode: .rawMosaic16, to: tmp.file(name + ".tiff"))
            #expect(decoded.succeeded, "\(name): \(decoded.messages)")
        }
        let pixels = try Python.json(script: """
            import sys, json, tifffile
            print(json.dumps([tifffile.imread(p).astype(int).flatten().tolist() for p in sys.argv[1:]]))
            """, arguments: files.map { tmp.file($0.url.lastPathComponent + ".tiff").path })
        for (index, file) in files.enumerated() {
            #expect(pixels[index]?.array?.compactMap(\.int) == file.image.frame.activeSamples().map(Int.init),
                    "\(file.url.lastPathComponent): dcraw's samples")
        }
    }

    @Test("darktable develops it to a grey picture of the gradient written",
          .enabled(if: ToolAvailability.has("darktable-cli") && ToolAvailability.hasPythonModules("PIL", "numpy")),
          arguments: [2, 4])
    func darktable(index: Int) throws {
        let (compression, bits) = Self.cases[index]
        let tmp = try TemporaryDirectory()
        let url = tmp.file("mono.dng")
        _ = try Self.write(try Self.image(bits: bits), compression: compression, to: url)
        let result = try Darktable.export(url.path, to: tmp.file("mono.jpg"))
        #expect(result.succeeded, "\(result.log)")
        // SyntheticRaw's frame brightens from the top-left to the bottom-right, and a monochrome sensor has no colour.
        // darktable 4.2.1 gives each pixel three neighbouring samples as its R, G and B (its issue #14034: Leica's
        // monochrome DNGs show colour too), so the picture is grey only on average: its channels' means agree.
        let look = try Python.json(script: """
            import sys, json, numpy as np
            from PIL import Image
            a = np.asarray(Image.open(sys.argv[1]).convert("RGB")).astype(float)
            h, w, _ = a.shape
            means = a.reshape(-1, 3).mean(axis=0)
            print(json.dumps({"cast": float(means.max() - means.min()), "size": [w, h],
                              "first": float(a[: h // 4, : w // 4].mean()), "last": float(a[-h // 4 :, -w // 4 :].mean())}))
            """, arguments: [tmp.file("mono.jpg").path])
        #expect((look["cast"]?.double ?? 99) <= 2, "\(look)")
        #expect(look["size"]?.array?.compactMap(\.int) == [288, 192], "the default crop: \(look)")
        #expect((look["last"]?.double ?? 0) > (look["first"]?.double ?? 0) + 40, "\(look)")
    }
}
