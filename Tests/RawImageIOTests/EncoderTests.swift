import Foundation
import RawCore
import RawDNG
import RawDevelop
import RawImageIO
import Synchronization
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Synthetic developed images and helpers shared by the encoder suites.
enum EncoderFixtures {
    static let width = 67
    static let height = 45

    /// The DNG tests' full metadata (south-west GPS fix below sea level, -03:30 offset, 1/250 s, f/1.8,
    /// ISO 400) plus the fields only developed files carry. Its orientation (rotate90) must not reach the
    /// files: developed pixels are upright.
    static func metadata(gps: Bool = true, time: Bool = true) throws -> FrameMetadata {
        var m = try SyntheticRaw.fullMetadata()
        m.exposureBias = -0.7
        m.exposureProgram = .aperturePriority
        m.meteringPattern = .pattern
        m.whiteBalanceAutomatic = false
        m.focalLengthIn35mmFilm = 28
        if !gps { m.gps = nil }
        if !time { m.captureTime = nil }
        return m
    }

    /// Smooth ramps (red across, green down, blue diagonally) with a 3-bit pattern in the low bits, so a
    /// lossless 16-bit round trip is checked on values that are not multiples of 257.
    static func gradientSamples(width: Int = width, height: Int = height) -> [UInt16] {
        var s = [UInt16](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                s[i] = UInt16((x * 65535 / (width - 1)) ^ (y & 7))
                s[i + 1] = UInt16((y * 65535 / (height - 1)) ^ (x & 7))
                s[i + 2] = UInt16(65535 - (x + y) * 65535 / (width + height - 2))
            }
        }
        return s
    }

    static func gradient(_ space: OutputColorSpace = .sRGB, transfer: TransferFunction? = nil,
                         metadata: FrameMetadata? = nil) throws -> DevelopedImage {
        try DevelopedImage(width: width, height: height, samples: .uint16(gradientSamples()), colorSpace: space,
                           transfer: transfer ?? space.transfer, metadata: metadata ?? self.metadata())
    }

    /// Float samples with values above 1 (highlights) and values with long binary fractions.
    static func floatImage() throws -> DevelopedImage {
        var f = [Float](repeating: 0, count: width * height * 3)
        for i in 0..<f.count {
            f[i] = Float(i % 1009) / 777 + Float(i % 3) * 0.1 // 0 ... ~1.5
        }
        return try DevelopedImage(width: width, height: height, samples: .float32(f), colorSpace: .displayP3,
                                  transfer: .linear, metadata: metadata())
    }

    /// Random 16-bit samples: incompressible, for filling a small disk.
    static func noise(width: Int, height: Int) throws -> DevelopedImage {
        var rng = SplitMix64(seed: 7)
        let s = (0..<(width * height * 3)).map { _ in UInt16(truncatingIfNeeded: rng.next()) }
        return try DevelopedImage(width: width, height: height, samples: .uint16(s), colorSpace: .sRGB, metadata: metadata())
    }

    /// Writes `image` as `name` in `tmp` and returns the path.
    @discardableResult
    static func write(_ image: DevelopedImage, _ format: OutputFormat, options: EncodeOptions = EncodeOptions(),
                      in tmp: TemporaryDirectory, name: String? = nil) throws -> String {
        let path = tmp.file(name ?? "image.\(format.fileExtension)").path
        let report = try ImageFileWriter(format: format, options: options).write(image, to: path)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(report.path == path && report.bytes == size && report.format == format)
        #expect(report.width == image.width && report.height == image.height)
        #expect(report.bitsPerSample == options.bitDepth(for: format))
        return path
    }

    /// Names in `directory`, sorted.
    static func names(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    /// `exiv2 -pv ARGUMENTS PATH`'s values by group and tag (`Image.Make`, `Photo.ExposureTime`), and its output.
    static func exiv2Values(_ path: String, arguments: [String] = []) throws -> (values: [String: String], result: ProcessResult) {
        let result = try ExternalTool("exiv2").run(["-pv"] + arguments + [path])
        var values: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 6 else { continue }
            values["\(parts[1]).\(parts[2])"] = parts[5...].joined(separator: " ")
        }
        return (values, result)
    }

    /// Largest and mean absolute difference of two sample arrays.
    static func difference(_ a: [UInt16], _ b: [UInt16]) -> (max: Int, mean: Double) {
        var worst = 0, sum = 0
        for i in 0..<min(a.count, b.count) {
            let d = abs(Int(a[i]) - Int(b[i]))
            worst = max(worst, d)
            sum += d
        }
        return (worst, Double(sum) / Double(max(1, a.count)))
    }
}

@Suite("Encoder formats and options")
struct EncoderTests {
    @Test("format names, extensions and media types parse and print")
    func formats() {
        for (text, format) in [("jpg", OutputFormat.jpeg), ("JPEG", .jpeg), (".jpe", .jpeg), ("heic", .heif), ("HEIF", .heif),
                               ("hif", .heif), ("tif", .tiff), ("TIFF", .tiff), ("png", .png), (".PNG", .png)] {
            #expect(OutputFormat(parsing: text) == format, "\(text)")
        }
        #expect(OutputFormat(parsing: "gif") == nil && OutputFormat(parsing: "") == nil)
        #expect(OutputFormat(pathExtension: "out/IMG_0001.HEIC") == .heif)
        #expect(OutputFormat(pathExtension: "a.b/noextension") == nil && OutputFormat(pathExtension: ".hidden") == nil)
        #expect(OutputFormat.allCases.map(\.rawValue) == ["jpg", "heic", "tiff", "png"])
        #expect(OutputFormat.allCases.map(\.fileExtension) == ["jpg", "heic", "tif", "png"])
        #expect(OutputFormat.allCases.map(\.mediaType) == ["image/jpeg", "image/heic", "image/tiff", "image/png"])
    }

    @Test("options: defaults, and each bad value refused in one line naming the setting")
    func options() throws {
        let defaults = EncodeOptions()
        #expect(defaults == EncodeOptions(quality: 90, heifBitDepth: 8, tiffBitDepth: 16, pngBitDepth: 16, overwrite: false))
        #expect(try defaults.validated() == defaults)
        let bad: [(EncodeOptions, String)] = [
            (EncodeOptions(quality: 0), "invalid quality: 0 is outside 1...100"),
            (EncodeOptions(quality: 101), "invalid quality: 101 is outside 1...100"),
            (EncodeOptions(heifBitDepth: 12), "invalid HEIF bit depth: 12 is not 8 or 10"),
            (EncodeOptions(tiffBitDepth: 12), "invalid TIFF bit depth: 12 is not 8, 16 (integer) or 32 (float)"),
            (EncodeOptions(pngBitDepth: 10), "invalid PNG bit depth: 10 is not 8 or 16"),
        ]
        let tmp = try TemporaryDirectory()
        let image = try EncoderFixtures.gradient()
        for (options, message) in bad {
            do {
                _ = try options.validated()
                Issue.record("\(options) validated")
            } catch {
                #expect(error.description == message)
            }
            let path = tmp.file("refused.png").path
            do {
                try ImageFileWriter(format: .png, options: options).write(image, to: path)
                Issue.record("\(options) was accepted")
            } catch {
                #expect(error.description == "\(path): \(message)")
            }
        }
        #expect(try EncoderFixtures.names(tmp.path).isEmpty)
        #expect(EncodeOptions(heifBitDepth: 10, tiffBitDepth: 32, pngBitDepth: 8).bitDepth(for: .heif) == 10)
        #expect(OutputFormat.allCases.map { EncodeOptions(tiffBitDepth: 32).bitDepth(for: $0) } == [8, 8, 32, 16])
    }

    @Test("the EXIF block: Exif prefix, Intel TIFF, one field per tag, the per-format fields, exact fractions")
    func exifBlock() throws {
        let image = try EncoderFixtures.gradient(.displayP3)
        for format in OutputFormat.allCases {
            let block = try ExifBlock(image: image, format: format)
            #expect(block.app1Payload.starts(with: Array("Exif\0\0II*\0".utf8)))
            #expect(block.tiffData == Array(block.app1Payload.dropFirst(6)))
            let keys = block.fields.map { "\($0.directory)/\($0.tag)" }
            #expect(Set(keys).count == keys.count, "\(format): a tag twice")
            let tags = Set(block.fields.map(\.tag))
            #expect(tags.contains(0x0213) == (format == .jpeg || format == .heif), "\(format) YCbCrPositioning")
            #expect(tags.contains(0xA002) == (format != .tiff) && tags.contains(0x9101) == (format != .tiff), "\(format)")
            #expect(block.fields.contains(.init(.ifd0, 0x0112, .shorts([1]))), "\(format): orientation not 1")
            #expect(block.fields.contains(.init(.exif, 0xA001, .shorts([0xFFFF]))), "\(format): ColorSpace")
        }
        #expect(try ExifBlock(image: EncoderFixtures.gradient(.sRGB), format: .jpeg).fields
            .contains(.init(.exif, 0xA001, .shorts([1]))))
        for (value, numerator, denominator) in [(0.004, 1, 250), (1.8, 9, 5), (12.25, 49, 4), (1.0 / 3, 1, 3), (0, 0, 1),
                                                (4_294_967_295, 4_294_967_295, 1), (24.4224, 15264, 625)] as [(Double, UInt64, UInt64)] {
            let f = ExifBlock.fraction(value)
            #expect(f.numerator == numerator && f.denominator == denominator, "\(value) → \(f)")
        }
        #expect(ExifBlock.rationalBytes([-0.7], signed: true) == [0xF9, 0xFF, 0xFF, 0xFF, 10, 0, 0, 0])
    }
}

@Suite("Encoder pixels round trip")
struct EncoderPixelTests {
    @Test("PNG 16-bit and TIFF 16-bit keep every sample exactly")
    func lossless16() throws {
        let tmp = try TemporaryDirectory()
        let image = try EncoderFixtures.gradient()
        for format in [OutputFormat.png, .tiff] {
            let decoded = try ImageFileReader.read(path: EncoderFixtures.write(image, format, in: tmp))
            #expect(decoded.width == image.width && decoded.height == image.height && decoded.bitDepth == 16, "\(format)")
            #expect(decoded.samples == EncoderFixtures.gradientSamples(), "\(format) samples differ")
        }
    }

    @Test("PNG 8-bit holds the image's rounded 8-bit samples; float samples are quantised like uint16Samples")
    func png8() throws {
        let tmp = try TemporaryDirectory()
        for image in [try EncoderFixtures.gradient(), try EncoderFixtures.floatImage()] {
            let path = try EncoderFixtures.write(image, .png, options: EncodeOptions(pngBitDepth: 8), in: tmp,
                                                 name: "\(image.isLinear ? "float" : "int").png")
            let decoded = try ImageFileReader.read(path: path)
            #expect(decoded.bitDepth == 8)
            #expect(decoded.samples == image.uint8Samples.map { UInt16($0) * 257 })
            if image.isLinear { // a float image written at 16 bits: the samples of uint16Samples
                let sixteen = try EncoderFixtures.write(image, .png, in: tmp, name: "float16.png")
                #expect(try ImageFileReader.read(path: sixteen).samples == image.uint16Samples)
            }
        }
    }

    @Test("float TIFF holds the float samples bit for bit (tifffile); 16-bit input becomes v/65535",
          .enabled(if: ToolAvailability.hasPythonModules("tifffile", "numpy", "imagecodecs")))
    func floatTIFF() throws {
        let tmp = try TemporaryDirectory()
        let script = """
            import json, sys, tifffile, numpy
            with tifffile.TiffFile(sys.argv[1]) as t:
                p = t.pages[0]
                a = p.asarray()
                a.astype('<f4').tofile(sys.argv[2])
                print(json.dumps({"dtype": str(a.dtype), "shape": list(a.shape), "compression": int(p.compression),
                                  "predictor": int(p.predictor), "sampleformat": int(p.sampleformat),
                                  "bits": int(p.bitspersample), "pages": len(t.pages)}))
            """
        let floatImage = try EncoderFixtures.floatImage()
        let intImage = try EncoderFixtures.gradient()
        let expected: [[Float]] = [
            { if case .float32(let f) = floatImage.samples { return f }; return [] }(),
            EncoderFixtures.gradientSamples().map { Float($0) / 65535 },
        ]
        for (n, image) in [floatImage, intImage].enumerated() {
            let path = try EncoderFixtures.write(image, .tiff, options: EncodeOptions(tiffBitDepth: 32, tiffCompression: .lzw),
                                                 in: tmp, name: "\(n).tif")
            let dump = tmp.file("\(n).f32").path
            let info = try Python.json(script: script, arguments: [path, dump])
            #expect(info["dtype"]?.string == "float32" && info["sampleformat"]?.int == 3 && info["bits"]?.int == 32)
            #expect(info["shape"]?.numbers == [45, 67, 3] && info["pages"]?.int == 1)
            #expect(info["compression"]?.int == 5 && info["predictor"]?.int == 3)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: dump))
            #expect(bytes == expected[n].withUnsafeBytes { Data($0) }, "float samples differ (\(n))")
        }
    }

    @Test("JPEG at quality 100 decodes within 2 % of full scale of the 8-bit samples")
    func jpeg() throws {
        let tmp = try TemporaryDirectory()
        let image = try EncoderFixtures.gradient()
        let decoded = try ImageFileReader.read(path: EncoderFixtures.write(image, .jpeg, options: EncodeOptions(quality: 100), in: tmp))
        #expect(decoded.width == 67 && decoded.height == 45 && decoded.bitDepth == 8)
        let d = EncoderFixtures.difference(decoded.samples.map { $0 / 257 }, image.uint8Samples.map { UInt16($0) })
        #expect(d.max <= 5 && d.mean <= 1.0, "max \(d.max), mean \(d.mean) code values")
        // Lower quality: smaller and still close.
        let small = try EncoderFixtures.write(image, .jpeg, options: EncodeOptions(quality: 40), in: tmp, name: "q40.jpg")
        let q100 = try FileManager.default.attributesOfItem(atPath: tmp.file("image.jpg").path)[.size] as? Int ?? 0
        #expect((try FileManager.default.attributesOfItem(atPath: small)[.size] as? Int ?? .max) < q100)
    }

    @Test("HEIF decodes (libheif) at the size and depth written, near the samples, with its profile and EXIF",
          arguments: [8, 10])
    func heif(bits: Int) throws {
        let image = try EncoderFixtures.gradient(.displayP3)
        let top = Double((1 << bits) - 1)
        func reference(_ image: DevelopedImage) -> [UInt16] {
            bits == 10 ? image.samples(bits: 10) : image.uint8Samples.map { UInt16($0) }
        }
        let decoded = try HEIFEncoder.decode(try HEIFEncoder(quality: 95, bitDepth: bits).encode(image))
        #expect(decoded.width == 67 && decoded.height == 45 && decoded.bitDepth == bits)
        // Colour ramps change chroma at every pixel: 4:2:0 subsampling, and libheif 1.15's nearest-neighbour
        // chroma upsampling, cost about 0.75 % on average here whatever the quality.
        let d = EncoderFixtures.difference(decoded.samples, reference(image))
        #expect(Double(d.max) / top <= 0.03 && d.mean / top <= 0.01, "\(bits)-bit: max \(d.max), mean \(d.mean)")
        #expect(decoded.iccProfile == (try ICCProfile.profile(for: .displayP3).data))
        let exif = try ExifBlock(image: image, format: .heif).app1Payload
        // The Exif item: a 4-byte offset to the TIFF header (6, past "Exif\0\0"), then the block.
        #expect(decoded.exif == [0, 0, 0, 6] + exif)

        // A grey ramp has no chroma: what remains is the coding error, about one code value at either depth.
        var grey = [UInt16](repeating: 0, count: 67 * 45 * 3)
        for i in 0..<(67 * 45) {
            let v = UInt16((i % 67) * 65535 / 66)
            grey[3 * i] = v
            grey[3 * i + 1] = v
            grey[3 * i + 2] = v
        }
        let ramp = try DevelopedImage(width: 67, height: 45, samples: .uint16(grey), colorSpace: .sRGB,
                                      metadata: EncoderFixtures.metadata())
        let flat = try HEIFEncoder.decode(try HEIFEncoder(quality: 95, bitDepth: bits).encode(ramp))
        let g = EncoderFixtures.difference(flat.samples, reference(ramp))
        // (At 10 bits, data that went through 8 bits would be off by up to 2 codes, 1 on average.)
        #expect(g.max <= 2 && g.mean <= 0.5, "\(bits)-bit grey: max \(g.max), mean \(g.mean)")
    }
}

extension EncoderPixelTests {
    @Test("tiny images (1x1 to 2x17) encode in every format and decode to their colour",
          arguments: [(1, 1), (3, 2), (15, 9), (2, 17)])
    func tiny(width: Int, height: Int) throws {
        let tmp = try TemporaryDirectory()
        let image = try DevelopedImage(width: width, height: height,
                                       samples: .uint16([UInt16](repeating: 30000, count: width * height * 3)),
                                       colorSpace: .sRGB, metadata: EncoderFixtures.metadata())
        for format in [OutputFormat.jpeg, .tiff, .png] {
            let decoded = try ImageFileReader.read(path: EncoderFixtures.write(image, format, in: tmp))
            #expect(decoded.width == width && decoded.height == height, "\(format)")
            let expected = format == .jpeg ? 117 * 257 : 30000 // 30000/65535 of 255 is 116.7
            #expect(decoded.samples.allSatisfy { abs(Int($0) - expected) <= (format == .jpeg ? 257 : 0) }, "\(format)")
        }
        for bits in [8, 10] {
            let decoded = try HEIFEncoder.decode(try HEIFEncoder(bitDepth: bits).encode(image))
            #expect(decoded.width == width && decoded.height == height)
            #expect(decoded.samples.allSatisfy { abs(Int($0) - (bits == 8 ? 117 : 468)) <= 1 }, "\(bits)-bit")
        }
    }
}

extension EncoderPixelTests {
    @Test("HEIF x265 presets: another preset encodes too, an unknown one is refused in one line")
    func heifPresets() throws {
        let image = try EncoderFixtures.gradient()
        var encoder = HEIFEncoder()
        #expect(encoder.preset == "ultrafast")
        encoder.preset = "medium"
        #expect(try HEIFEncoder.decode(encoder.encode(image)).width == 67)
        encoder.preset = "warp"
        do {
            _ = try encoder.encode(image, reportingAs: "x.heic")
            Issue.record("preset warp accepted")
        } catch {
            #expect(error.description == "x.heic: invalid x265 preset: \"warp\" is not one of "
                    + "ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, placebo")
        }
    }
}

@Suite("Encoder metadata read by other tools")
struct EncoderMetadataTests {
    /// 10-bit HEIF so exiftool can be asked for the depth; Display P3 so ColorSpace is "uncalibrated".
    static let options = EncodeOptions(heifBitDepth: 10)

    @Test("exiftool reads camera, exposure, time, GPS, ICC description, size and depth from every format",
          .enabled(if: ToolAvailability.has("exiftool")), arguments: OutputFormat.allCases)
    func exiftoolTags(format: OutputFormat) throws {
        let tmp = try TemporaryDirectory()
        let image = try EncoderFixtures.gradient(.displayP3)
        let path = try EncoderFixtures.write(image, format, options: Self.options, in: tmp)
        let t = try ExifTool.tags(of: path)
        func num(_ key: String) -> Double? { t[key]?.double }
        func text(_ key: String) -> String? { t[key]?.string ?? t[key]?.int.map(String.init) }
        #expect(text("IFD0:Make") == "rawburst" && text("IFD0:Model") == "Synthetic 12")
        #expect(num("IFD0:Orientation") == 1)
        #expect(text("IFD0:Software") == "rawburst \(RawBurstVersion.string)")
        #expect(text("IFD0:ModifyDate") == "2026:11:22 14:03:07")
        #expect(num("IFD0:XResolution") == 72 && num("IFD0:YResolution") == 72 && num("IFD0:ResolutionUnit") == 2)
        #expect(text("ExifIFD:ExifVersion") == "0232" && text("ExifIFD:FlashpixVersion") == "0100")
        #expect(text("ExifIFD:DateTimeOriginal") == "2026:11:22 14:03:07")
        #expect(text("ExifIFD:SubSecTimeOriginal") == "125" && text("ExifIFD:OffsetTimeOriginal") == "-03:30")
        #expect(num("ExifIFD:ExposureTime") == 0.004 && num("ExifIFD:FNumber") == 1.8 && num("ExifIFD:ISO") == 400)
        #expect(num("ExifIFD:FocalLength") == 26 && num("ExifIFD:FocalLengthIn35mmFormat") == 28)
        #expect(num("ExifIFD:ExposureCompensation") == -0.7 && num("ExifIFD:SubjectDistance") == 2.5)
        #expect(num("ExifIFD:ExposureProgram") == 3 && num("ExifIFD:MeteringMode") == 5 && num("ExifIFD:WhiteBalance") == 1)
        #expect(text("ExifIFD:LensModel") == "Simulated 26mm f/1.8" && text("ExifIFD:SerialNumber") == "RB-000123")
        #expect(num("ExifIFD:ColorSpace") == 65535)
        if format != .tiff {
            #expect(num("ExifIFD:ExifImageWidth") == 67 && num("ExifIFD:ExifImageHeight") == 45)
        }
        // GPS, compared numerically.
        #expect(text("GPS:GPSVersionID") == "2 3 0 0")
        #expect(text("GPS:GPSLatitudeRef") == "S" && text("GPS:GPSLongitudeRef") == "W")
        #expect(abs((num("GPS:GPSLatitude") ?? 0) - 33.856784) < 1e-9)
        #expect(abs((num("GPS:GPSLongitude") ?? 0) - 70.648270) < 1e-9)
        #expect(abs((num("Composite:GPSLatitude") ?? 0) + 33.856784) < 1e-9)
        #expect(num("GPS:GPSAltitudeRef") == 1 && num("GPS:GPSAltitude") == 12.25)
        #expect(text("GPS:GPSDateStamp") == "2026:11:22" && text("GPS:GPSTimeStamp") == "16:03:07.125")
        // The ICC profile.
        #expect(text("ICC_Profile:ProfileDescription") == "Display P3")
        #expect(text("ICC-header:ColorSpaceData")?.trimmingCharacters(in: .whitespaces) == "RGB")
        #expect(text("ICC-header:ProfileClass") == "mntr" && text("ICC-header:ProfileConnectionSpace")?.hasPrefix("XYZ") == true)
        // Size and depth.
        #expect(text("Composite:ImageSize") == "67 45")
        switch format {
        case .jpeg: #expect(num("File:BitsPerSample") == 8)
        case .heif: #expect(num("QuickTime:BitDepthLuma") == 10 && num("QuickTime:BitDepthChroma") == 10)
        case .tiff: #expect(text("IFD0:BitsPerSample") == "16 16 16")
        case .png: #expect(num("PNG:BitDepth") == 16 && num("PNG:ColorType") == 2)
        }
    }

    @Test("without a GPS fix or capture time: no GPS IFD, DateTime is the writing time",
          .enabled(if: ToolAvailability.has("exiftool")), arguments: OutputFormat.allCases)
    func sparseMetadata(format: OutputFormat) throws {
        let tmp = try TemporaryDirectory()
        let image = try EncoderFixtures.gradient(metadata: EncoderFixtures.metadata(gps: false, time: false))
        let t = try ExifTool.tags(of: EncoderFixtures.write(image, format, in: tmp))
        #expect(!t.keys.contains { $0.hasPrefix("GPS:") }, "\(t.keys.filter { $0.hasPrefix("GPS:") })")
        #expect(t["ExifIFD:DateTimeOriginal"] == nil && t["ExifIFD:ColorSpace"]?.int == 1)
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        #expect(t["IFD0:ModifyDate"]?.string?.hasPrefix("\(year):") == true)
    }

    @Test("exiftool -validate: JPEG, PNG and HEIF clean; TIFF only exiftool's TIFF 6 baseline complaints",
          .enabled(if: ToolAvailability.has("exiftool")), arguments: OutputFormat.allCases)
    func validate(format: OutputFormat) throws {
        let tmp = try TemporaryDirectory()
        let path = try EncoderFixtures.write(try EncoderFixtures.gradient(.displayP3), format, options: Self.options, in: tmp)
        let problems = try ExifTool.validate(path)
        if format == .tiff {
            // exiftool wants GPSProcessingMethod in a TIFF's GPS IFD, which rawburst cannot know (see the encoder's
            // documentation); nothing else.
            #expect(problems == ["Warning: Missing required TIFF GPS tag 0x001b GPSProcessingMethod"])
        } else {
            #expect(problems == [])
        }
    }

    @Test("each file embeds exactly the LittleCMS profile, and it works as a reference transform",
          .enabled(if: ToolAvailability.has("exiftool")), arguments: OutputFormat.allCases)
    func embeddedProfile(format: OutputFormat) throws {
        let tmp = try TemporaryDirectory()
        let image = try EncoderFixtures.gradient(.adobeRGB, transfer: .linear)
        let path = try EncoderFixtures.write(image, format, in: tmp)
        let extracted = try ExternalTool("exiftool").run(["-b", "-ICC_Profile", path]).requireSuccess().standardOutput
        let profile = try ICCProfile.profile(for: .adobeRGB, transfer: .linear)
        #expect(profile.description == "Adobe RGB (1998) compatible (linear)")
        #expect([UInt8](extracted) == profile.data)
        let lab = [CIELab(L: 50, a: 10, b: -10)]
        let fromFile = try ColorReference.encode(labD50: lab, profileData: [UInt8](extracted))
        let reference = try ColorReference.encode(labD50: lab, space: .adobeRGB, transfer: .linear)
        #expect(fromFile[0] == reference[0])
    }

    @Test("heif-info opens the files and reports size, profile, EXIF and the bit depth asked for",
          .enabled(if: ToolAvailability.has("heif-info")), arguments: [8, 10])
    func heifInfo(bits: Int) throws {
        let tmp = try TemporaryDirectory()
        let path = try EncoderFixtures.write(try EncoderFixtures.gradient(.rec2020), .heif,
                                             options: EncodeOptions(heifBitDepth: bits), in: tmp)
        let info = try ExternalTool("heif-info").run([path]).requireSuccess().stdout
        #expect(info.contains("image: 67x45") && info.contains("primary"), "\(info)")
        #expect(info.contains("color profile: prof") && info.contains("Exif:"), "\(info)")
        let boxes = try ExternalTool("heif-info").run(["-d", path]).requireSuccess().stdout
        #expect(boxes.contains("bit_depth_luma: \(bits)") && boxes.contains("bit_depth_chroma: \(bits)"))
        #expect(boxes.contains("bits_per_channel: \(bits),\(bits),\(bits)"))
        #expect(!boxes.contains("irot") && !boxes.contains("imir"))
    }

    @Test("exiv2 reads the EXIF and GPS of JPEG, TIFF and PNG files",
          .enabled(if: ToolAvailability.has("exiv2")), arguments: [OutputFormat.jpeg, .tiff, .png])
    func exiv2(format: OutputFormat) throws {
        let tmp = try TemporaryDirectory()
        let path = try EncoderFixtures.write(try EncoderFixtures.gradient(), format, in: tmp)
        let (values, result) = try EncoderFixtures.exiv2Values(path, arguments: ["-q"])
        #expect(values["Image.Make"] == "rawburst" && values["Image.Model"] == "Synthetic 12", "\(result.stdout)")
        #expect(values["Photo.DateTimeOriginal"] == "2026:11:22 14:03:07")
        #expect(values["Photo.ExposureTime"] == "1/250" && values["Photo.FNumber"] == "9/5")
        #expect(values["Photo.ExposureBiasValue"] == "-7/10" && values["Photo.ISOSpeedRatings"] == "400")
        #expect(values["GPSInfo.GPSLatitude"] == "33/1 51/1 15264/625" && values["GPSInfo.GPSLatitudeRef"] == "S")
        #expect(values["GPSInfo.GPSLongitude"] == "70/1 38/1 13443/250" && values["GPSInfo.GPSAltitude"] == "49/4")
    }
}

@Suite("Encoder ICC profiles and the LittleCMS reference")
struct EncoderICCTests {
    static let curves: [(OutputColorSpace, TransferFunction)] =
        OutputColorSpace.allCases.flatMap { [($0, $0.transfer), ($0, TransferFunction.linear)] }

    /// Colours inside the sRGB gamut (so inside every output space): greys from near black, skin, foliage,
    /// sky, a saturated blue and red.
    static let colours = [CIELab(L: 3, a: 0, b: 0), CIELab(L: 20, a: 0, b: 0), CIELab(L: 50, a: 0, b: 0),
                          CIELab(L: 96, a: 0, b: 0), CIELab(L: 65, a: 18, b: 18), CIELab(L: 42, a: -18, b: 28),
                          CIELab(L: 62, a: -5, b: -22), CIELab(L: 35, a: 20, b: -50), CIELab(L: 45, a: 55, b: 35)]

    @Test("profiles: ICC v4.3 RGB display, D50 PCS, description, fixed date, MD5 ID, cached and reproducible")
    func header() throws {
        var seen = Set<[UInt8]>()
        for (space, transfer) in Self.curves {
            let p = try ICCProfile.profile(for: space, transfer: transfer)
            let d = p.data
            let expected = transfer == .linear ? space.description + " (linear)" : space.description
            #expect(p.description == expected && p.colorSpace == space && p.transfer == transfer)
            #expect(Int(d[0]) << 24 | Int(d[1]) << 16 | Int(d[2]) << 8 | Int(d[3]) == d.count)
            #expect(Array(d[8..<10]) == [4, 0x30], "\(expected): version")
            #expect(String(decoding: d[12..<24], as: UTF8.self) == "mntrRGB XYZ ")
            #expect(Array(d[24..<36]) == [0x07, 0xE9, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0])
            #expect(String(decoding: d[36..<40], as: UTF8.self) == "acsp")
            #expect(d[84..<100].contains { $0 != 0 }, "\(expected): no profile ID")
            #expect(try ICCProfile.profile(for: space, transfer: transfer) == p)
            seen.insert(d)
        }
        #expect(seen.count == Self.curves.count, "two curves share a profile")
    }

    @Test("LittleCMS and OutputColorSpace's own matrices and curves agree within 1e-3 (Lab D50 → code values)",
          arguments: OutputColorSpace.allCases)
    func referenceMatchesHandMath(space: OutputColorSpace) throws {
        for transfer in [space.transfer, .linear] {
            let reference = try ColorReference.encode(labD50: Self.colours, space: space, transfer: transfer)
            let m = space.fromXYZD50
            for (lab, lcms) in zip(Self.colours, reference) {
                let xyz = ColorSpaceMath.xyz(fromLab: lab, white: OutputColorSpace.pcsWhite)
                let linear = ColorSpaceMath.apply(m, xyz.vector)
                let ours = (transfer.encode(linear.0), transfer.encode(linear.1), transfer.encode(linear.2))
                for (a, b) in [(ours.0, lcms.0), (ours.1, lcms.1), (ours.2, lcms.2)] {
                    #expect((0...1).contains(b) && abs(a - b) <= 1e-3, "\(space) \(transfer == .linear ? "linear" : "own curve") \(lab): ours \(ours), LittleCMS \(lcms)")
                }
            }
            // And back: code values → Lab returns the colours.
            let back = try ColorReference.labD50(ofEncoded: reference, space: space, transfer: transfer)
            for (a, b) in zip(Self.colours, back) {
                #expect(abs(a.L - b.L) < 1e-3 && abs(a.a - b.a) < 1e-3 && abs(a.b - b.b) < 1e-3, "\(space): \(a) → \(b)")
            }
        }
    }

    @Test("a profile that is not RGB, or not a profile, is refused")
    func badProfiles() throws {
        #expect(throws: DevelopError.self) { try ColorReference.encode(labD50: [CIELab(L: 50, a: 0, b: 0)], profileData: [1, 2, 3]) }
        #expect(try ColorReference.encode(labD50: [], space: .sRGB).isEmpty)
    }
}

@Suite("Encoder atomic writes")
struct EncoderAtomicTests {
    @Test("every format writes only its final file; reports match the files", arguments: OutputFormat.allCases)
    func onlyFinalFile(format: OutputFormat) throws {
        let tmp = try TemporaryDirectory()
        try EncoderFixtures.write(try EncoderFixtures.gradient(), format, in: tmp, name: "a.\(format.fileExtension)")
        #expect(try EncoderFixtures.names(tmp.path) == ["a.\(format.fileExtension)"])
    }

    @Test("an existing file is refused (bytes unchanged) unless overwrite is set", arguments: OutputFormat.allCases)
    func existing(format: OutputFormat) throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("x.\(format.fileExtension)").path
        try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
        let image = try EncoderFixtures.gradient()
        do {
            try ImageFileWriter(format: format).write(image, to: path)
            Issue.record("an existing file was replaced")
        } catch {
            #expect(error.path == path && error.description == "\(path): already exists (use --overwrite to replace it)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("precious".utf8))
        #expect(try EncoderFixtures.names(tmp.path) == ["x.\(format.fileExtension)"])
        try ImageFileWriter(format: format, options: EncodeOptions(overwrite: true)).write(image, to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count > 1000)
        #expect(try EncoderFixtures.names(tmp.path) == ["x.\(format.fileExtension)"])
    }

    @Test("a missing directory: a one-line error naming the path, nothing created")
    func missingDirectory() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("no/such/dir/out.jpg").path
        let image = try EncoderFixtures.gradient()
        do {
            try ImageFileWriter(format: .jpeg).write(image, to: path)
            Issue.record("wrote into a missing directory")
        } catch {
            #expect(error.description == "\(path): output directory \(tmp.path)/no/such/dir does not exist")
            #expect(!error.description.contains("\n"))
        }
        #expect(try EncoderFixtures.names(tmp.path).isEmpty)
    }

    @Test("a read-only directory: permission denied, nothing left behind", .enabled(if: getuid() != 0))
    func readOnlyDirectory() throws {
        let tmp = try TemporaryDirectory()
        let dir = try tmp.subdirectory("ro")
        chmod(dir.path, 0o555)
        defer { chmod(dir.path, 0o755) }
        let path = dir.appendingPathComponent("out.tif").path
        let image = try EncoderFixtures.gradient()
        do {
            try ImageFileWriter(format: .tiff).write(image, to: path)
            Issue.record("wrote into a read-only directory")
        } catch {
            #expect(error.path == path && error.description.hasSuffix("Permission denied"), "\(error)")
        }
        #expect(try EncoderFixtures.names(dir.path).isEmpty)
    }

    /// Whether this process may mount a small tmpfs (root with CAP_SYS_ADMIN).
    static let canMountTmpfs: Bool = {
        guard getuid() == 0, let tmp = try? TemporaryDirectory(), let mount = try? ExternalTool("mount"),
              let result = try? mount.run(["-t", "tmpfs", "-o", "size=64k", "tmpfs", tmp.path]), result.succeeded else {
            return false
        }
        _ = try? ExternalTool("umount").run([tmp.path])
        return true
    }()

    @Test("a full disk: the system's reason named, an existing file kept, no temporary file left",
          .enabled(if: canMountTmpfs), arguments: OutputFormat.allCases)
    func fullDisk(format: OutputFormat) throws {
        let tmp = try TemporaryDirectory()
        let disk = try tmp.subdirectory("disk")
        try ExternalTool("mount").run(["-t", "tmpfs", "-o", "size=128k", "tmpfs", disk.path]).requireSuccess()
        defer { _ = try? ExternalTool("umount").run([disk.path]) }
        let path = disk.appendingPathComponent("big.\(format.fileExtension)").path
        try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
        let image = try EncoderFixtures.noise(width: 480, height: 320)
        do {
            try ImageFileWriter(format: format, options: EncodeOptions(quality: 100, overwrite: true)).write(image, to: path)
            Issue.record("\(format): a \(image.width)x\(image.height) noise image fitted in 128 KiB")
        } catch {
            #expect(error.path == path && error.description.hasSuffix("No space left on device"), "\(error)")
            #expect(!error.description.contains("\n"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("precious".utf8))
        #expect(try EncoderFixtures.names(disk.path) == ["big.\(format.fileExtension)"])
    }

    @Test("writers on many threads at once (libheif started once, profiles built once)")
    func concurrent() throws {
        let tmp = try TemporaryDirectory()
        let image = try EncoderFixtures.gradient(.proPhoto)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            let format = OutputFormat.allCases[i % 4]
            let path = tmp.file("\(i).\(format.fileExtension)").path
            do {
                try ImageFileWriter(format: format, options: EncodeOptions(heifBitDepth: i % 8 < 4 ? 8 : 10)).write(image, to: path)
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try EncoderFixtures.names(tmp.path).count == 16)
    }
}
