import Foundation
import RawCore
@testable import RawDNG
import RawImageIO
import RawTIFF
import TestSupport
import Testing

/// Writes DNGs with `DNGWriter` and checks them with tools nobody here wrote:
/// exiftool (tags and validation), LibRaw (raw-identify, and rawpy for the pixels), dcraw and darktable.
@Suite("DNG writer")
struct DNGWriterTests {
    static let bitDepths = [10, 12, 14, 16]

    private func write(_ image: RawImage, in tmp: TemporaryDirectory, name: String = "frame.dng",
                       preview: Int? = nil) throws -> String {
        var options = DNGWriter.Options()
        options.previewLongEdge = preview
        let path = tmp.url.appendingPathComponent(name).path
        let report = try DNGWriter(options: options, previewEncoder: JPEGPreviews()).write(image, to: path)
        #expect(report.bytes > image.frame.width * image.frame.height * 2)
        return path
    }

    @Test("every written tag reads back with the written value (exiftool -n)",
          .enabled(if: ToolAvailability.has("exiftool")))
    func tagsRoundTrip() throws {
        let tmp = try TemporaryDirectory()
        let frame = try SyntheticRaw.frame(width: 320, height: 240, cfa: .gbrg, bits: 14, black: [512, 513.5, 514, 515],
                                           margins: (top: 4, left: 8), crop: PixelRect(top: 8, left: 10, height: 200, width: 280),
                                           defaultScale: (1.5, 1))
        let image = RawImage(frame: frame, metadata: try SyntheticRaw.fullMetadata(), calibration: try SyntheticRaw.calibration())
        let path = try write(image, in: tmp, preview: 200)
        let t = try ExifTool.tags(of: path)
        func num(_ key: String) -> Double? { t[key]?.double }
        func nums(_ key: String) -> [Double] { t[key]?.numbers ?? [] }
        func close(_ a: [Double], _ b: [Double], _ tolerance: Double = 1e-9) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance * max(1, abs($1)) }
        }
        // IFD0
        #expect(t["IFD0:Make"]?.string == "rawburst")
        #expect(t["IFD0:Model"]?.string == "Synthetic 12")
        #expect(t["IFD0:UniqueCameraModel"]?.string == "rawburst Synthetic 12")
        #expect(t["IFD0:DNGVersion"]?.string == "1 6 0 0")
        #expect(t["IFD0:DNGBackwardVersion"]?.string == "1 1 0 0")
        #expect(num("IFD0:Orientation") == 6)
        #expect(t["IFD0:ModifyDate"]?.string == "2026:11:22 14:03:07")
        #expect(t["IFD0:CameraSerialNumber"]?.string == "RB-000123")
        #expect(num("IFD0:SubfileType") == 1)
        let cal = try SyntheticRaw.calibration()
        #expect(close(nums("IFD0:ColorMatrix1"), cal.colorMatrix1.values))
        #expect(close(nums("IFD0:ColorMatrix2"), cal.colorMatrix2!.values))
        #expect(close(nums("IFD0:ForwardMatrix1"), cal.forwardMatrix1!.values))
        #expect(close(nums("IFD0:ForwardMatrix2"), cal.forwardMatrix2!.values))
        #expect(num("IFD0:CalibrationIlluminant1") == 17)
        #expect(num("IFD0:CalibrationIlluminant2") == 21)
        #expect(close(nums("IFD0:AsShotNeutral"), [0.5, 1, 0.7]))
        #expect(num("IFD0:BaselineExposure") == 0.25)
        #expect((t["IFD0:RawDataUniqueID"]?.string ?? "").count == 32)
        // Raw SubIFD
        #expect(num("SubIFD:SubfileType") == 0)
        #expect(num("SubIFD:ImageWidth") == 320)
        #expect(num("SubIFD:ImageHeight") == 240)
        #expect(num("SubIFD:BitsPerSample") == 16)
        #expect(num("SubIFD:PhotometricInterpretation") == 32803)
        #expect(t["SubIFD:CFARepeatPatternDim"]?.string == "2 2")
        #expect(t["SubIFD:CFAPattern2"]?.string == "1 2 0 1")
        #expect(t["SubIFD:CFAPlaneColor"]?.string == "0 1 2")
        #expect(num("SubIFD:CFALayout") == 1)
        #expect(t["SubIFD:BlackLevelRepeatDim"]?.string == "2 2")
        #expect(close(nums("SubIFD:BlackLevel"), [512, 513.5, 514, 515]))
        #expect(num("SubIFD:WhiteLevel") == 16383)
        #expect(close(nums("SubIFD:DefaultScale"), [1.5, 1]))
        #expect(close(nums("SubIFD:DefaultCropOrigin"), [10, 8]))
        #expect(close(nums("SubIFD:DefaultCropSize"), [280, 200]))
        #expect(t["SubIFD:ActiveArea"]?.string == "4 8 240 320")
        // Preview SubIFD
        #expect(num("SubIFD1:Compression") == 7)
        #expect(num("SubIFD1:ImageWidth") == 200)
        // EXIF
        #expect(t["ExifIFD:ExifVersion"]?.string == "0231")
        #expect(num("ExifIFD:ExposureTime") == 0.004)
        #expect(num("ExifIFD:FNumber") == 1.8)
        #expect(num("ExifIFD:ISO") == 400)
        #expect(num("ExifIFD:FocalLength") == 26)
        #expect(num("ExifIFD:SubjectDistance") == 2.5)
        #expect(t["ExifIFD:DateTimeOriginal"]?.string == "2026:11:22 14:03:07")
        #expect(t["ExifIFD:SubSecTimeOriginal"]?.string ?? t["ExifIFD:SubSecTimeOriginal"]?.int.map(String.init) == "125")
        #expect(t["ExifIFD:OffsetTimeOriginal"]?.string == "-03:30")
        #expect(t["ExifIFD:LensModel"]?.string == "Simulated 26mm f/1.8")
        #expect(t["ExifIFD:SerialNumber"]?.string == "RB-000123")
        // GPS: south, west, below sea level, sub-arcsecond.
        #expect(t["GPS:GPSLatitudeRef"]?.string == "S")
        #expect(t["GPS:GPSLongitudeRef"]?.string == "W")
        #expect(abs((num("GPS:GPSLatitude") ?? 0) - 33.856784) < 1e-8)
        #expect(abs((num("GPS:GPSLongitude") ?? 0) - 70.648270) < 1e-8)
        #expect(num("GPS:GPSAltitudeRef") == 1)
        #expect(num("GPS:GPSAltitude") == 12.25)
        #expect(t["GPS:GPSDateStamp"]?.string == "2026:11:22")
        #expect(t["GPS:GPSTimeStamp"]?.string == "16:03:07.125")
        #expect(try ExifTool.validate(path) == [])
    }

    @Test("LibRaw reads size, pattern, levels and every pixel of each Bayer phase and depth",
          .enabled(if: ToolAvailability.has("raw-identify") && ToolAvailability.hasPythonModules("rawpy", "numpy")),
          arguments: CFALayout.bayerPhases)
    func libRawReadsPixels(cfa: CFALayout) throws {
        let tmp = try TemporaryDirectory()
        for bits in Self.bitDepths {
            let white = UInt32((1 << bits) - 1)
            let black = [Double](repeating: Double(1 << (bits - 4)), count: 4)
            let frame = try SyntheticRaw.frame(width: 192, height: 128, cfa: cfa, bits: bits, black: black,
                                               margins: (top: 2, left: 6), seed: UInt64(bits))
            let image = RawImage(frame: frame, metadata: try SyntheticRaw.fullMetadata(), calibration: try SyntheticRaw.calibration())
            let path = try write(image, in: tmp, name: "\(cfa)-\(bits).dng")
            #expect(try ExifTool.validate(path) == [], "\(cfa) \(bits)-bit")

            let id = try RawIdentify.identify(path)
            #expect(id.rawSize == PixelSize(width: 192, height: 128), "\(cfa) \(bits)-bit")
            #expect(id.imageSize == PixelSize(width: 186, height: 126), "\(cfa) \(bits)-bit")

            let dump = tmp.url.appendingPathComponent("\(cfa)-\(bits).bin")
            let info = try Python.json(script: LibRawDump.script, arguments: [path, dump.path])
            #expect(info["raw_pattern"]?.string == cfa.description, "\(cfa) \(bits)-bit")
            #expect(info["white_level"]?.int == Int(white), "\(cfa) \(bits)-bit")
            #expect(info["black_level_per_channel"]?.numbers == black, "\(cfa) \(bits)-bit")
            #expect(info["top_margin"]?.int == 2 && info["left_margin"]?.int == 6, "\(cfa) \(bits)-bit")
            let pixels = try Data(contentsOf: dump)
            let expected = Data(bytes: frame.storage.baseAddress, count: frame.width * frame.height * 2)
            #expect(pixels == expected, "\(cfa) \(bits)-bit pixels differ from what was written")
        }
    }

    @Test("dcraw decodes the full image and darktable renders it",
          .enabled(if: ToolAvailability.has("dcraw") && ToolAvailability.has("darktable-cli")),
          arguments: CFALayout.bayerPhases)
    func dcrawAndDarktable(cfa: CFALayout) throws {
        let tmp = try TemporaryDirectory()
        let path = try write(try SyntheticRaw.image(cfa: cfa, bits: 12), in: tmp, preview: 256)
        let info = try DCRaw.identify(path)
        #expect(info.rawSize == PixelSize(width: 256, height: 192))
        #expect(info.bayerPattern == cfa.description)
        let decoded = try DCRaw.decode(path, to: tmp.url.appendingPathComponent("dcraw.tiff"))
        #expect(decoded.succeeded, "\(decoded.messages)")
        // 16-bit RGB TIFF of the 256x192 image, rotated 90° by the orientation tag: at least w*h*3 bytes.
        #expect(decoded.outputSize >= 256 * 192 * 3)
        let rendered = try Darktable.export(path, to: tmp.url.appendingPathComponent("dt.jpg"))
        #expect(rendered.succeeded, "\(rendered.log)")
    }

    @Test("a 6x6 X-Trans pattern is written whole and LibRaw sees the 6x6 layout",
          .enabled(if: ToolAvailability.has("exiftool") && ToolAvailability.hasPythonModules("rawpy", "numpy")))
    func xTrans() throws {
        let tmp = try TemporaryDirectory()
        let frame = try SyntheticRaw.frame(width: 240, height: 180, cfa: .xTrans, bits: 14)
        let path = try write(RawImage(frame: frame, metadata: try SyntheticRaw.fullMetadata(),
                                      calibration: try SyntheticRaw.calibration()), in: tmp)
        let t = try ExifTool.tags(of: path)
        #expect(t["SubIFD:CFARepeatPatternDim"]?.string == "6 6")
        #expect(t["SubIFD:CFAPattern2"]?.numbers == CFALayout.xTrans.pattern.map { Double($0.rawValue) })
        #expect(try ExifTool.validate(path) == [])
        let dump = tmp.url.appendingPathComponent("xtrans.bin")
        let info = try Python.json(script: LibRawDump.script, arguments: [path, dump.path])
        #expect(info["raw_pattern"]?.string == CFALayout.xTrans.description)
        #expect(try Data(contentsOf: dump) == Data(bytes: frame.storage.baseAddress, count: 240 * 180 * 2))
    }

    @Test("a grey scene with its white balance gives a grey thumbnail")
    func neutralThumbnail() throws {
        let cal = try SyntheticRaw.calibration()
        let storage = PixelStorage(count: 64 * 64)
        let neutral = cal.asShotNeutral!
        for r in 0..<64 {
            for c in 0..<64 {
                let colour = CFALayout.rggb.color(row: r, column: c)
                let n = colour == .red ? neutral[0] : colour == .green ? neutral[1] : neutral[2]
                storage.baseAddress[r * 64 + c] = UInt16(256 + 1200 * n)
            }
        }
        let frame = try RawFrame(width: 64, height: 64, storage: storage, cfa: .rggb,
                                 blackLevels: BlackLevels(uniform: 256), whiteLevel: 4095, bitsPerSample: 12)
        let thumb = PreviewRenderer.render(RawImage(frame: frame, metadata: try FrameMetadata(), calibration: cal), longEdge: 32)
        #expect(thumb.width == 32 && thumb.height == 32)
        let p = thumb[16, 16]
        #expect(abs(Int(p.r) - Int(p.g)) <= 2 && abs(Int(p.b) - Int(p.g)) <= 2, "\(p)")
        #expect(p.g > 100 && p.g < 250)
    }

    @Test("an existing file is never replaced without overwrite, and replaced with it")
    func atomicReplacement() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.url.appendingPathComponent("a.dng").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        let image = try SyntheticRaw.image()
        #expect(throws: DNGWriteError.self) { try DNGWriter().write(image, to: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("keep me".utf8))
        var options = DNGWriter.Options()
        options.overwrite = true
        try DNGWriter(options: options).write(image, to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(4) == Data([0x49, 0x49, 0x2A, 0x00]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.url.path) == ["a.dng"])
    }

    @Test("a missing or unwritable directory gives one clear error and leaves nothing behind")
    func badDestinations() throws {
        let image = try SyntheticRaw.image()
        do {
            try DNGWriter().write(image, to: "/nonexistent-rawburst-dir/x.dng")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/nonexistent-rawburst-dir/x.dng: output directory /nonexistent-rawburst-dir does not exist")
        }
        do {
            try DNGWriter().write(image, to: "/proc/rawburst-test.dng")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("/proc/rawburst-test.dng: cannot create a file in /proc"))
        }
        let tmp = try TemporaryDirectory()
        let file = tmp.url.appendingPathComponent("plain")
        try Data().write(to: file)
        #expect(throws: DNGWriteError.self) { try DNGWriter().write(image, to: file.path + "/x.dng") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.url.path) == ["plain"])
    }

    @Test("the preview SubIFD holds a decodable baseline JPEG of the requested size",
          .enabled(if: ToolAvailability.has("exiftool")))
    func preview() throws {
        let tmp = try TemporaryDirectory()
        let path = try write(try SyntheticRaw.image(width: 640, height: 480), in: tmp, preview: 300)
        let jpeg = try ExternalTool("exiftool").run(["-b", "-SubIFD1:PreviewImage", path]).standardOutput
        #expect(jpeg.prefix(2) == Data([0xFF, 0xD8]))
        let out = tmp.url.appendingPathComponent("p.jpg")
        try jpeg.write(to: out)
        let t = try ExifTool.tags(of: out.path)
        #expect(t["File:ImageWidth"]?.int == 300 && t["File:ImageHeight"]?.int == 225)
    }

    @Test("tag tables: EXIF and GPS builders give the values the writer sets")
    func builders() throws {
        let metadata = try SyntheticRaw.fullMetadata()
        let exif = ExifIFDBuilder.assignments(for: metadata)
        #expect(exif.contains(TagAssignment(TIFFTag.subSecTimeOriginal, .text("125"))))
        #expect(exif.contains(TagAssignment(TIFFTag.offsetTimeOriginal, .text("-03:30"))))
        var infinity = metadata
        infinity.focusDistance = .infinity
        #expect(ExifIFDBuilder.assignments(for: infinity).contains(TagAssignment(TIFFTag.subjectDistance, .numbers([4_294_967_295]))))
        let gps = GPSIFDBuilder.assignments(for: metadata.gps!)
        #expect(gps.contains(TagAssignment(TIFFTag.gpsLatitudeRef, .text("S"))))
        #expect(gps.contains(TagAssignment(TIFFTag.gpsAltitudeRef, .bytes([1]))))
        let dms = GPSFix.degreesMinutesSeconds(48.858222)
        #expect(dms.degrees == 48 && dms.minutes == 51 && abs(dms.seconds - 29.5992) < 1e-6)
        #expect(ExactRational.make(1.0 / 250, signed: false) == (1, 250))
        #expect(ExactRational.make(1.8, signed: false) == (9, 5))
        #expect(ExactRational.make(-0.4485, signed: true) == (-897, 2000))
        #expect(ExactRational.make(4_294_967_295, signed: false) == (4_294_967_295, 1))
        #expect(ExactRational.make(-1, signed: false) == (0, 1))
    }
}

/// A rawpy (LibRaw 0.22, independent of the system's LibRaw 0.20) dump: geometry and levels as JSON, the whole
/// raw buffer as little-endian 16-bit samples into the file named by the second argument.
enum LibRawDump {
    static let script = """
    import json, sys, rawpy, numpy as np
    with rawpy.imread(sys.argv[1]) as r:
        raw = np.ascontiguousarray(r.raw_image, dtype='<u2')
        raw.tofile(sys.argv[2])
        colours = r.color_desc.decode()
        pattern = ''.join(colours[i] for i in r.raw_pattern.flatten())
        s = r.sizes
        print(json.dumps({
            'raw_pattern': pattern, 'white_level': int(r.white_level),
            'black_level_per_channel': [float(b) for b in r.black_level_per_channel],
            'raw_width': s.raw_width, 'raw_height': s.raw_height, 'width': s.width, 'height': s.height,
            'top_margin': s.top_margin, 'left_margin': s.left_margin}))
    """
}
