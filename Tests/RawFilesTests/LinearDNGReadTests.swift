import Foundation
import RawCore
import RawDNG
@testable import RawFiles
import RawTIFF
import TestSupport
import Testing

/// Reading LinearRaw DNGs (three samples per pixel, no CFA): PiDNG's (uncompressed, a lossless-JPEG tile of three
/// components built from the JPEG specification, a lossy-JPEG tile) and rawburst's own (`LinearDNGWriter`, both
/// storages) read to exactly the samples written, with their levels, tags and calibration; a JPEG XL one is refused
/// in one line naming its compression; damaged data is an error.
@Suite("Reading LinearRaw DNGs")
struct LinearDNGReadTests {
    static let pidng = ToolAvailability.hasPythonModules("pidng", "numpy", "PIL")

    private func linear(_ path: URL) throws -> LinearRawImage {
        guard case .linear(let image) = try RawFileReader().readContent(path: path.path) else {
            throw RawReadError(path: path.path, kind: .unsupported, detail: "read as a mosaic")
        }
        return image
    }

    private func samples(_ frame: LinearRawFrame) -> [UInt16] {
        Array(UnsafeBufferPointer(start: frame.storage.baseAddress, count: frame.width * frame.height * 3))
    }

    /// A seeded random linear image with a crop, levels per channel and a calibration.
    static func image(width: Int = 300, height: Int = 270, seed: UInt64 = 7) throws -> LinearRawImage {
        var rng = SplitMix64(seed: seed)
        let storage = PixelStorage(count: width * height * 3)
        for i in 0..<storage.count { storage.baseAddress[i] = UInt16(200 + rng.next() % 60000) }
        let frame = try LinearRawFrame(width: width, height: height, storage: storage,
                                       defaultCrop: PixelRect(top: 10, left: 12, height: height - 20, width: width - 24),
                                       blackLevels: [128, 130, 132], whiteLevels: [65000, 64000, 65535])
        return LinearRawImage(frame: frame, metadata: try SyntheticRaw.fullMetadata(), calibration: try SyntheticRaw.calibration())
    }

    @Test("PiDNG's linear DNGs read to exactly the samples written", .enabled(if: Self.pidng),
          arguments: ["uncompressed", "lj92"])
    func pidngExact(kind: String) throws {
        let tmp = try TemporaryDirectory()
        let fixture = try LinearPiDNG.make(in: tmp.url, kind: kind)
        let image = try linear(fixture.dng)
        #expect(image.frame.width == 64 && image.frame.height == 48)
        #expect(samples(image.frame) == fixture.samples)
        #expect(image.frame.blackLevels == [256, 256, 256] && image.frame.whiteLevels == [16383, 16383, 16383])
        #expect(image.metadata.orientation == .rotate90)
        #expect(image.metadata.make == "PiDNG" && image.metadata.model == "Linear \(kind)")
        #expect(image.calibration?.baselineExposure == 0.5 && image.calibration?.asShotNeutral == [1, 1, 1])
        #expect(abs((image.calibration?.colorMatrix1.values[0] ?? 0) - 3.2406) < 1e-9)
        // The mosaic reader says what it cannot take, in one line.
        #expect(throws: RawReadError.self) { try RawFileReader().read(path: fixture.dng.path) }
        do { _ = try RawFileReader().read(path: fixture.dng.path) } catch {
            #expect(error.kind == .unsupported && error.description.contains("LinearRaw") && !error.description.contains("\n"))
        }
    }

    @Test("a lossy-JPEG (34892) tile decodes within JPEG error of the source and as Adobe's SDK decodes it",
          .enabled(if: Self.pidng && ToolAvailability.hasPythonModules("dngpy")))
    func lossy() throws {
        let tmp = try TemporaryDirectory()
        let fixture = try LinearPiDNG.make(in: tmp.url, kind: "lossy")
        let image = try linear(fixture.dng)
        let decoded = samples(image.frame)
        let worst = zip(decoded, fixture.samples).map { abs(Int($0) - Int($1)) }.max() ?? 99
        #expect(worst <= 4, "largest JPEG error \(worst)")
        #expect(decoded != fixture.samples || worst == 0)
        #expect(image.frame.whiteLevels == [255, 255, 255])
        let adobe = try Python.json(script: """
            import sys, json, dngpy, numpy as np
            p = np.asarray(dngpy.Dng(sys.argv[1]).raw_pixels).astype(int).flatten()
            print(json.dumps(p.tolist()))
            """, arguments: [fixture.dng.path])
        let reference = adobe.array?.compactMap(\.int) ?? []
        #expect(reference.count == decoded.count)
        let fromAdobe = zip(decoded, reference).map { abs(Int($0) - $1) }.max() ?? 99
        #expect(fromAdobe <= 1, "libjpeg-turbo and the SDK differ by \(fromAdobe)")
    }

    @Test("a lossy linear DNG claiming a 60000 x 60000 image in one tile is refused, not allocated", .enabled(if: Self.pidng))
    func lossyOverlap() throws {
        let tmp = try TemporaryDirectory()
        let fixture = try LinearPiDNG.make(in: tmp.url, kind: "lossy")
        var bytes = try [UInt8](Data(contentsOf: fixture.dng))
        for (tag, value) in [(UInt16(256), UInt32(64)), (257, 48), (322, 64), (323, 48)] {
            try TIFFEntryPatch.replace(&bytes, tag: tag, value: value, with: 60000)
        }
        try Data(bytes).write(to: fixture.dng)
        do {
            _ = try RawFileReader().readContent(path: fixture.dng.path)
            Issue.record("a 60000 x 60000 image was read from \(bytes.count) bytes")
        } catch {
            #expect(error.kind == .corrupt && error.description.contains("overlap"), "\(error)")
        }
    }

    @Test("a JPEG XL (52546) linear DNG is refused in one line naming the compression", .enabled(if: Self.pidng))
    func jpegXL() throws {
        let tmp = try TemporaryDirectory()
        let fixture = try LinearPiDNG.make(in: tmp.url, kind: "jxl")
        do {
            _ = try RawFileReader().readContent(path: fixture.dng.path)
            Issue.record("a JPEG XL DNG was read")
        } catch {
            #expect(error.kind == .unsupported)
            #expect(error.description.contains("52546") && error.description.contains("JPEG XL"))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("rawburst's linear DNGs read back exactly, as tifffile decodes them", arguments: [LinearDNGWriter.Storage.uncompressed, .losslessJPEG])
    func ownWriter(storage: LinearDNGWriter.Storage) throws {
        let tmp = try TemporaryDirectory()
        let original = try Self.image()
        let path = tmp.url.appendingPathComponent("linear-\(storage.rawValue).dng")
        try LinearDNGWriter(storage: storage).write(original, to: path.path)
        let back = try linear(path)
        #expect(samples(back.frame) == samples(original.frame))
        #expect(back.frame.blackLevels == [128, 130, 132] && back.frame.whiteLevels == [65000, 64000, 65535])
        #expect(back.frame.defaultCrop == original.frame.defaultCrop)
        #expect(back.metadata.orientation == .rotate90 && back.metadata.iso == 400)
        #expect(back.calibration?.asShotNeutral == [0.5, 1, 0.7] && back.calibration?.baselineExposure == 0.25)
        let structure = try TIFFStructure.read(path: path.path)
        let raw = try #require(structure.rawDirectory)
        #expect(raw.integer(TIFFTag.photometricInterpretation) == 34892 && raw.integer(TIFFTag.samplesPerPixel) == 3)
        #expect(raw.integer(TIFFTag.compression) == (storage == .uncompressed ? 1 : 7))
        if ToolAvailability.hasPythonModules("tifffile", "imagecodecs", "numpy") {
            // An independent decoder: tifffile (and imagecodecs' lossless-JPEG decoder for the tiles).
            let info = try Python.json(script: """
                import sys, json, tifffile, numpy as np
                a = tifffile.TiffFile(sys.argv[1]).pages[0].asarray().astype('<u2')
                print(json.dumps({'shape': list(a.shape), 'sum': int(a.astype(np.int64).sum()), 'first': a.flatten()[:6].tolist()}))
                """, arguments: [path.path])
            let all = samples(original.frame)
            #expect(info["shape"]?.array?.compactMap(\.int) == [270, 300, 3])
            #expect(info["sum"]?.int == all.reduce(0) { $0 + Int($1) })
            #expect(info["first"]?.array?.compactMap(\.int) == all.prefix(6).map { Int($0) })
        }
    }

    @Test("rawburst's linear DNGs pass exiftool -validate and Adobe's DNG SDK (dngpy) without a warning, digest included",
          .enabled(if: ToolAvailability.hasPythonModules("dngpy", "numpy") && ToolAvailability.has("exiftool")),
          arguments: [LinearDNGWriter.Storage.uncompressed, .losslessJPEG])
    func validators(storage: LinearDNGWriter.Storage) throws {
        let tmp = try TemporaryDirectory()
        let original = try Self.image()
        let path = tmp.url.appendingPathComponent("linear.dng").path
        try LinearDNGWriter(storage: storage).write(original, to: path)
        #expect(try ExifTool.validate(path) == [])
        let adobe = try Python.run(script: """
            import sys, dngpy, numpy as np
            d = dngpy.Dng(sys.argv[1])
            d.color_info
            print(int(np.asarray(d.raw_pixels).astype(np.int64).sum()))
            d.save(sys.argv[2])
            """, arguments: [path, tmp.url.appendingPathComponent("adobe.dng").path])
        let complaints = adobe.stderr.split(separator: "\n").filter { $0.contains("Warning") || $0.contains("Error") }
        #expect(adobe.succeeded && complaints.isEmpty, "\(adobe)")
        let sum = samples(original.frame).reduce(0) { $0 + Int($1) }
        #expect(adobe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(sum))
    }

    @Test("damaged lossless-JPEG data in a linear DNG is an error, not wrong pixels")
    func damaged() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.url.appendingPathComponent("linear.dng")
        try LinearDNGWriter(storage: .losslessJPEG).write(try Self.image(), to: path.path)
        let structure = try TIFFStructure.read(path: path.path)
        let offset = try #require(structure.rawDirectory?.integers(TIFFTag.tileOffsets)?.first)
        var bytes = try [UInt8](Data(contentsOf: path))
        bytes[offset + 4000] ^= 0x10
        try Data(bytes).write(to: path)
        do {
            _ = try RawFileReader().readContent(path: path.path)
            Issue.record("damaged data was read")
        } catch {
            #expect(error.kind == .corrupt && !error.description.contains("\n"), "\(error)")
        }
    }

    /// The little-endian bytes of `values` as LONGs.
    private static func longs(_ values: [Int]) -> [UInt8] {
        values.flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    }

    @Test("tiles claiming 65520 x 65520 pixels around a small image are refused before anything is allocated")
    func hugeTiles() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.url.appendingPathComponent("linear.dng")
        // One tile (the image is smaller than a tile), so the tile count stays right and only the size lies.
        try LinearDNGWriter(storage: .losslessJPEG).write(try Self.image(width: 200, height: 150), to: path.path)
        let raw = try #require(try TIFFStructure.read(path: path.path).rawDirectory)
        let tile = try #require(raw.integer(TIFFTag.tileWidth))
        var bytes = try [UInt8](Data(contentsOf: path))
        for tag: UInt16 in [322, 323] { try TIFFEntryPatch.replace(&bytes, tag: tag, value: UInt32(tile), with: 65520) }
        try Data(bytes).write(to: path)
        do {
            _ = try RawFileReader().readContent(path: path.path)
            Issue.record("65520 x 65520 tiles were accepted")
        } catch {
            #expect(error.kind == .corrupt && error.description.contains("far larger"), "\(error)")
        }
    }

    @Test("tiles that share their bytes are refused (a small file cannot claim a huge image by repeating one tile)")
    func overlappingTiles() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.url.appendingPathComponent("linear.dng")
        try LinearDNGWriter(storage: .losslessJPEG).write(try Self.image(), to: path.path)
        let raw = try #require(try TIFFStructure.read(path: path.path).rawDirectory)
        let offsets = try #require(raw.integers(TIFFTag.tileOffsets))
        try #require(offsets.count >= 2)
        var bytes = try [UInt8](Data(contentsOf: path))
        let list = Self.longs(offsets)
        let at = try #require((0...(bytes.count - list.count)).first { bytes[$0..<($0 + list.count)].elementsEqual(list) })
        bytes.replaceSubrange((at + 4)..<(at + 8), with: Self.longs([offsets[0]]))    // tile 1 points at tile 0's bytes
        try Data(bytes).write(to: path)
        do {
            _ = try RawFileReader().readContent(path: path.path)
            Issue.record("overlapping tiles were read")
        } catch {
            #expect(error.kind == .corrupt && error.description.contains("overlap"), "\(error)")
        }
    }

    @Test("an 8-bit linear DNG saved by Adobe's SDK reads: its digest hashes one byte per sample",
          .enabled(if: Self.pidng && ToolAvailability.hasPythonModules("dngpy")))
    func eightBitDigest() throws {
        let tmp = try TemporaryDirectory()
        let fixture = try LinearPiDNG.make(in: tmp.url, kind: "uncompressed8")
        let saved = tmp.url.appendingPathComponent("sdk.dng")
        _ = try Python.run(script: "import sys, dngpy\ndngpy.Dng(sys.argv[1]).save(sys.argv[2])",
                           arguments: [fixture.dng.path, saved.path])
        let structure = try TIFFStructure.read(path: saved.path)
        #expect(structure.mainDirectory.bytes(NewRawImageDigest.tag)?.count == 16, "the SDK wrote a digest")
        let image = try linear(saved)
        #expect(samples(image.frame).count == fixture.samples.count)
        #expect(samples(image.frame).reduce(0) { $0 + Int($1) } == fixture.samples.reduce(0) { $0 + Int($1) })
    }
}
