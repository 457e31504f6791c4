import Foundation
import RawCore
import RawDevelop
@testable import RawImageIO
import TestSupport
import Testing

/// Grey pictures (a monochrome sensor's): one channel in every format, with EXIF and a grey ICC profile, read back
/// by readers rawburst did not write (Pillow, tifffile, pillow-heif's libheif, Debian's heif-info, exiftool, exiv2)
/// and compared with the samples the encoder was given.
@Suite("Encoder: grey pictures")
struct GreyEncoderTests {
    static let width = 67, height = 45

    /// A ramp across with a pattern in the low bits (so a lossless round trip is checked on values that are not
    /// multiples of 257) and a dark-to-light ramp down.
    static func samples16() -> [UInt16] {
        (0..<(width * height)).map { i in
            let x = i % width, y = i / width
            return UInt16(((x * 60000 / (width - 1)) + y * 100) ^ (y & 7))
        }
    }

    static func image(_ samples: DevelopedImage.Samples, space: OutputColorSpace = .sRGB,
                      transfer: TransferFunction? = nil) throws -> DevelopedImage {
        try DevelopedImage(width: width, height: height, channels: .grey, samples: samples, colorSpace: space,
                           transfer: transfer ?? space.transfer, metadata: EncoderFixtures.metadata())
    }

    /// The 16-bit grey picture.
    static func grey16() throws -> DevelopedImage { try image(.uint16(samples16())) }

    /// What Pillow (PIL) makes of a PNG, JPEG or TIFF: mode, size, bit depth, the samples row by row, the ICC profile's
    /// data colour space and class.
    static let pillowScript = """
        import json, sys, io
        from PIL import Image
        try:
            import pillow_heif
            pillow_heif.register_heif_opener()
        except ImportError:
            pass
        im = Image.open(sys.argv[1])
        im.load()
        icc = im.info.get("icc_profile") or b""
        print(json.dumps({"mode": im.mode, "size": list(im.size), "format": im.format,
                          "bands": len(im.getbands()), "samples": list(im.getdata()),
                          "iccSpace": icc[16:20].decode("latin-1"), "iccClass": icc[12:16].decode("latin-1"),
                          "iccLength": len(icc)}))
        """

    static func pillow(_ path: String) throws -> JSONValue { try Python.json(script: pillowScript, arguments: [path]) }

    /// Largest difference between read-back samples and the expected ones.
    static func worst(_ read: JSONValue?, _ expected: [Int]) -> Int {
        let got = read?.numbers?.map { Int($0) } ?? []
        guard got.count == expected.count else { return .max }
        return zip(got, expected).map { abs($0 - $1) }.max() ?? 0
    }

    @Test("PNG: colour type 0 at 8 and 16 bits, every sample exact (Pillow), a grey iCCP profile, EXIF (exiftool)",
          .enabled(if: ToolAvailability.hasPythonModules("PIL") && ToolAvailability.has("exiftool")), arguments: [8, 16])
    func png(bits: Int) throws {
        let tmp = try TemporaryDirectory()
        let picture = try Self.grey16()
        let path = try EncoderFixtures.write(picture, .png, options: EncodeOptions(pngBitDepth: bits), in: tmp)
        let read = try Self.pillow(path)
        #expect(read["mode"]?.string == (bits == 8 ? "L" : "I;16") && read["bands"]?.int == 1, "\(read)")
        #expect(read["size"]?.numbers == [Double(Self.width), Double(Self.height)])
        let expected = bits == 8 ? picture.uint8Samples.map(Int.init) : Self.samples16().map(Int.init)
        #expect(Self.worst(read["samples"], expected) == 0)
        #expect(read["iccSpace"]?.string == "GRAY" && read["iccClass"]?.string == "mntr")
        let tags = try ExifTool.tags(of: path)
        #expect(tags["PNG:ColorType"]?.int == 0 && tags["PNG:BitDepth"]?.int == bits)
        #expect(tags["IFD0:Make"]?.string == "rawburst" && tags["ExifIFD:ExposureTime"]?.double == 1.0 / 250)
        #expect(tags["ICC-header:ColorSpaceData"]?.string == "GRAY")
        #expect(tags["ICC_Profile:ProfileDescription"]?.string == "sRGB IEC61966-2.1 grey")
        #expect(try ExifTool.validate(path) == [])
    }

    @Test("TIFF: PhotometricInterpretation 1, one sample per pixel at 8, 16 and 32 (float) bits, exact (tifffile)",
          .enabled(if: ToolAvailability.hasPythonModules("tifffile", "numpy") && ToolAvailability.has("exiftool")),
          arguments: [8, 16, 32])
    func tiff(bits: Int) throws {
        let tmp = try TemporaryDirectory()
        let picture = try Self.grey16()
        let path = try EncoderFixtures.write(picture, .tiff, options: EncodeOptions(tiffBitDepth: bits), in: tmp)
        let info = try Python.json(script: """
            import json, sys, tifffile
            with tifffile.TiffFile(sys.argv[1]) as t:
                p = t.pages[0]
                a = p.asarray()
                print(json.dumps({"shape": list(a.shape), "dtype": str(a.dtype), "photometric": int(p.photometric),
                                  "spp": int(p.samplesperpixel), "bits": int(p.bitspersample),
                                  "samples": [float(v) for v in a.ravel()],
                                  "icc": p.tags[34675].value[16:20].decode("latin-1")}))
            """, arguments: [path])
        #expect(info["shape"]?.numbers == [Double(Self.height), Double(Self.width)], "\(info["shape"] ?? .null)")
        #expect(info["photometric"]?.int == 1 && info["spp"]?.int == 1 && info["bits"]?.int == bits)
        #expect(info["dtype"]?.string == ["uint8", "uint16", "float32"][[8, 16, 32].firstIndex(of: bits)!])
        #expect(info["icc"]?.string == "GRAY")
        let got = info["samples"]?.numbers ?? []
        let expected: [Double] = switch bits {
        case 8: picture.uint8Samples.map(Double.init)
        case 16: Self.samples16().map(Double.init)
        default: picture.floatSamples.map(Double.init)
        }
        #expect(got == expected, "\(bits)-bit samples differ")
        #expect(try ExifTool.validate(path) == ["Warning: Missing required TIFF GPS tag 0x001b GPSProcessingMethod"])
    }

    @Test("8-bit TIFF (new with grey pictures) holds an RGB picture too: PhotometricInterpretation 2, its bytes exact",
          .enabled(if: ToolAvailability.hasPythonModules("tifffile", "numpy")))
    func rgbTIFF8() throws {
        let tmp = try TemporaryDirectory()
        let picture = try EncoderFixtures.gradient()
        let path = try EncoderFixtures.write(picture, .tiff, options: EncodeOptions(tiffBitDepth: 8, tiffCompression: .deflate), in: tmp)
        let info = try Python.json(script: """
            import json, sys, tifffile
            with tifffile.TiffFile(sys.argv[1]) as t:
                p = t.pages[0]
                a = p.asarray()
                print(json.dumps({"shape": list(a.shape), "dtype": str(a.dtype), "photometric": int(p.photometric),
                                  "samples": [int(v) for v in a.ravel()]}))
            """, arguments: [path])
        #expect(info["shape"]?.numbers == [45, 67, 3] && info["dtype"]?.string == "uint8" && info["photometric"]?.int == 2)
        #expect(info["samples"]?.numbers == picture.uint8Samples.map(Double.init))
    }

    @Test("JPEG: one component (Pillow mode L, exiftool ColorComponents 1) near the samples, grey profile, validates clean",
          .enabled(if: ToolAvailability.hasPythonModules("PIL") && ToolAvailability.has("exiftool")))
    func jpeg() throws {
        let tmp = try TemporaryDirectory()
        let picture = try Self.grey16()
        let path = try EncoderFixtures.write(picture, .jpeg, options: EncodeOptions(quality: 100), in: tmp)
        let read = try Self.pillow(path)
        #expect(read["mode"]?.string == "L" && read["bands"]?.int == 1)
        #expect(Self.worst(read["samples"], picture.uint8Samples.map(Int.init)) <= 2)
        #expect(read["iccSpace"]?.string == "GRAY")
        let tags = try ExifTool.tags(of: path)
        #expect(tags["File:ColorComponents"]?.int == 1 && tags["File:BitsPerSample"]?.int == 8)
        #expect(tags["ExifIFD:ComponentsConfiguration"]?.string == "1 0 0 0")
        #expect(tags["IFD0:Model"]?.string == "Synthetic 12" && tags["GPS:GPSLatitudeRef"]?.string == "S")
        #expect(try ExifTool.validate(path) == [])
        // A tall grey picture is encoded in bands (8-row MCUs, restart markers) and joined: libjpeg reads it whole.
        let tall = try DevelopedImage(width: 40, height: 1100, channels: .grey,
                                      samples: .uint8((0..<44_000).map { UInt8(truncatingIfNeeded: $0 / 40 + $0 % 40) }),
                                      colorSpace: .sRGB, transfer: OutputColorSpace.sRGB.transfer, metadata: EncoderFixtures.metadata())
        let bands = try JPEGEncoder(quality: 100).encode(tall, bands: 2)
        let tallPath = tmp.file("tall.jpg").path
        try Data(bands).write(to: URL(fileURLWithPath: tallPath))
        let tallRead = try Self.pillow(tallPath)
        #expect(tallRead["size"]?.numbers == [40, 1100] && tallRead["mode"]?.string == "L")
        #expect(Self.worst(tallRead["samples"], tall.uint8Samples.map(Int.init)) <= 2)
    }

    @Test("HEIF: monochrome at 8 and 10 bits — heif-info (Debian libheif) and pillow-heif (libheif 1.2x) read one channel",
          .enabled(if: ToolAvailability.hasPythonModules("PIL", "pillow_heif") && ToolAvailability.has("heif-info", "exiftool")),
          arguments: [8, 10])
    func heif(bits: Int) throws {
        let tmp = try TemporaryDirectory()
        let picture = try Self.grey16()
        let path = try EncoderFixtures.write(picture, .heif, options: EncodeOptions(quality: 100, heifBitDepth: bits), in: tmp)
        let info = try ExternalTool("heif-info").run([path]).requireSuccess().stdout
        #expect(info.contains("image: 67x45") && info.contains("color profile: prof") && info.contains("Exif:"), "\(info)")
        // The HEVC configuration: chroma format 0 (4:0:0, luma only) at the depth asked for.
        let boxes = try ExternalTool("heif-info").run(["-d", path]).requireSuccess().stdout
        #expect(boxes.contains("chroma_format: 0") && boxes.contains("bit_depth_luma: \(bits)"), "\(boxes)")
        let read = try Python.json(script: """
            import json, sys, pillow_heif
            f = pillow_heif.open_heif(sys.argv[1], convert_hdr_to_8bit=False)
            icc = f.info.get("icc_profile") or b""
            print(json.dumps({"mode": f.mode, "size": list(f.size), "bits": f.info.get("bit_depth"),
                              "samples": list(f.to_pillow().getdata()) if f.mode == "L" else
                                         [int(v) for v in __import__("numpy").asarray(f).ravel()],
                              "iccSpace": icc[16:20].decode("latin-1"), "exif": len(f.info.get("exif") or b"")}))
            """, arguments: [path])
        #expect(read["size"]?.numbers == [67, 45] && read["iccSpace"]?.string == "GRAY" && (read["exif"]?.int ?? 0) > 0, "\(read)")
        #expect(read["mode"]?.string == (bits == 8 ? "L" : "I;16"), "\(read["mode"] ?? .null)")
        // pillow-heif gives 10-bit samples scaled to 16 bits (v << 6).
        let expected = bits == 8 ? picture.uint8Samples.map(Int.init) : picture.samples(bits: 10).map { Int($0) << 6 }
        let tolerance = bits == 8 ? 3 : 3 << 6
        #expect(Self.worst(read["samples"], expected) <= tolerance)
        #expect(try ExifTool.validate(path) == [])
    }

    @Test("exiv2 reads the EXIF of grey JPEG, TIFF and PNG files without a complaint, and sees one grey sample",
          .enabled(if: ToolAvailability.has("exiv2")), arguments: [OutputFormat.jpeg, .tiff, .png])
    func exiv2(format: OutputFormat) throws {
        let tmp = try TemporaryDirectory()
        let path = try EncoderFixtures.write(try Self.grey16(), format, in: tmp)
        let (values, result) = try EncoderFixtures.exiv2Values(path)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(values["Image.Make"] == "rawburst" && values["Photo.ExposureTime"] == "1/250", "\(result.stdout)")
        // The picture as exiv2 sees it: one grey sample (TIFF's own tags), or EXIF's components Y alone.
        if format == .tiff {
            #expect(values["Image.PhotometricInterpretation"] == "1" && values["Image.SamplesPerPixel"] == "1")
        } else {
            #expect(values["Photo.ComponentsConfiguration"] == "1 0 0 0")
        }
    }

    @Test("the grey profile: ICC v4.3 GRAY display profile with the space's curve; Pillow's LittleCMS turns each grey code into the sRGB neutral of its luminance",
          .enabled(if: ToolAvailability.hasPythonModules("PIL")), arguments: [false, true])
    func profile(linear: Bool) throws {
        let transfer = linear ? TransferFunction.linear : TransferFunction.sRGB
        let grey = try ICCProfile.greyProfile(for: .sRGB, transfer: transfer)
        #expect(grey.isGrey && grey.data.count > 128)
        #expect(Array(grey.data[12..<20]) == Array("mntrGRAY".utf8) && Array(grey.data[20..<24]) == Array("XYZ ".utf8))
        #expect(grey.data[8] == 4 && grey.data[9] == 0x30)
        #expect(grey.description == "sRGB IEC61966-2.1 grey" + (linear ? " (linear)" : ""))
        #expect(try ICCProfile.greyProfile(for: .sRGB, transfer: transfer).data == grey.data) // cached, reproducible
        let tmp = try TemporaryDirectory()
        let file = tmp.file("grey.icc")
        try Data(grey.data).write(to: file)
        let codes = [0, 10, 40, 90, 128, 200, 255]
        let out = try Python.json(script: """
            import json, sys
            from PIL import Image, ImageCms
            grey = ImageCms.getOpenProfile(sys.argv[1])
            srgb = ImageCms.createProfile("sRGB")
            t = ImageCms.buildTransform(grey, srgb, "L", "RGB", renderingIntent=1)
            codes = json.loads(sys.argv[2])
            im = Image.new("L", (len(codes), 1))
            im.putdata(codes)
            print(json.dumps([list(p) for p in ImageCms.applyTransform(im, t).getdata()]))
            """, arguments: [file.path, "\(codes)"])
        for (k, code) in codes.enumerated() {
            let rgb = out[k]?.numbers ?? []
            // The sRGB code of the grey's luminance: the code itself for the sRGB curve, the sRGB encoding of it for linear.
            let expected = 255 * TransferFunction.sRGB.encode(transfer.decode(Double(code) / 255))
            #expect(rgb.count == 3 && rgb.allSatisfy { abs($0 - expected) <= 2 }, "grey \(code) → \(rgb), expected \(expected)")
        }
    }
}
