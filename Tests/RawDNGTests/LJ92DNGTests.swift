import Foundation
import LJ92
import RawCore
@testable import RawDNG
import RawTIFF
import TestSupport
import Testing

/// DNGs with lossless-JPEG raw data (and CinemaDNG frames), checked with tools nobody here wrote: LibRaw (rawpy,
/// LibRaw 0.22) and dcraw must decode every sample exactly as written, darktable must render them, and exiftool
/// must validate them and read the tags back.
@Suite("Lossless-JPEG and CinemaDNG DNGs")
struct LJ92DNGTests {
    private func write(_ image: RawImage, in tmp: TemporaryDirectory, name: String, compression: DNGCompression = .lj92,
                       cinema: CinemaDNGFrame? = nil, threads: Int = 2, digest: Bool = false) throws -> String {
        var options = DNGWriter.Options()
        options.compression = compression
        options.cinemaDNG = cinema
        options.encodingThreads = threads
        options.rawImageDigest = digest
        let path = tmp.url.appendingPathComponent(name).path
        try DNGWriter(options: options).write(image, to: path)
        return path
    }

    /// A frame whose size is not a multiple of the tile size, so edge tiles are padded.
    private func image(cfa: CFALayout, bits: Int, width: Int = 600, height: Int = 300, seed: UInt64 = 1) throws -> RawImage {
        let frame = try SyntheticRaw.frame(width: width, height: height, cfa: cfa, bits: bits,
                                           black: [Double](repeating: Double(1 << (bits - 4)), count: 4),
                                           margins: (top: 2, left: 4), seed: seed)
        return RawImage(frame: frame, metadata: try SyntheticRaw.fullMetadata(), calibration: try SyntheticRaw.calibration())
    }

    private func samples(of frame: RawFrame) -> Data {
        Data(bytes: frame.storage.baseAddress, count: frame.width * frame.height * 2)
    }

    @Test("the tiles decode with our decoder to exactly the frame, and the file is smaller than uncompressed")
    func tilesRoundTrip() throws {
        let tmp = try TemporaryDirectory()
        let image = try image(cfa: .grbg, bits: 14)
        let path = try write(image, in: tmp, name: "lj92.dng")
        let plain = try write(image, in: tmp, name: "plain.dng", compression: .none)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let tiff = try TIFFStructure(bytes: bytes)
        let raw = try #require(tiff.rawDirectory)
        #expect(raw.integer(TIFFTag.compression) == 7)
        #expect(raw.integer(TIFFTag.tileWidth) == 256 && raw.integer(TIFFTag.tileLength) == 256)
        #expect(raw.integers(TIFFTag.bitsPerSample) == [14])
        let offsets = try #require(raw.integers(TIFFTag.tileOffsets)), counts = try #require(raw.integers(TIFFTag.tileByteCounts))
        #expect(offsets.count == 3 * 2 && counts.count == 6)
        var decoded = [UInt16](repeating: 0, count: 600 * 300)
        for t in 0..<offsets.count {
            let tile = try LJ92Decoder().decode(Array(bytes[offsets[t]..<(offsets[t] + counts[t])]))
            // Two components of 128 pixels per 256-sample row, precision 14, predictor 1.
            #expect(tile.frame.width == 128 && tile.frame.height == 256 && tile.frame.components == 2)
            #expect(tile.frame.precision == 14 && tile.frame.predictor == .left)
            let x0 = (t % 3) * 256, y0 = (t / 3) * 256
            for r in 0..<min(256, 300 - y0) {
                for c in 0..<min(256, 600 - x0) { decoded[(y0 + r) * 600 + x0 + c] = tile.samples[r * 256 + c] }
            }
        }
        let frame = image.frame
        #expect(decoded.withUnsafeBytes { Data($0) } == samples(of: frame))
        let size = { (p: String) in (try? FileManager.default.attributesOfItem(atPath: p)[.size] as? Int) ?? 0 }
        #expect(size(path) < size(plain))
    }

    @Test("LibRaw (rawpy) reads every sample of every Bayer phase and depth, exiftool validates",
          .enabled(if: ToolAvailability.has("exiftool") && ToolAvailability.hasPythonModules("rawpy", "numpy")),
          arguments: CFALayout.bayerPhases)
    func libRawReadsSamples(cfa: CFALayout) throws {
        let tmp = try TemporaryDirectory()
        // The last two are narrower than a tile: one strip (LibRaw reads a wider-than-image tile, or a second
        // lossless-JPEG strip, wrongly).
        for (bits, w, h) in [(10, 600, 300), (12, 600, 300), (14, 600, 300), (16, 600, 300), (16, 130, 700), (12, 96, 64)] {
            let image = try image(cfa: cfa, bits: bits, width: w, height: h, seed: UInt64(bits))
            let path = try write(image, in: tmp, name: "\(cfa)-\(bits)-\(w).dng")
            #expect(try ExifTool.validate(path) == [], "\(cfa) \(bits)-bit")
            let t = try ExifTool.tags(of: path)
            #expect(t["SubIFD:Compression"]?.int == 7, "\(cfa) \(bits)-bit")
            #expect(w < 256 ? t["SubIFD:RowsPerStrip"]?.int == h : t["SubIFD:TileWidth"]?.int == 256, "\(cfa) \(bits)-bit \(w)x\(h)")
            let dump = tmp.url.appendingPathComponent("\(cfa)-\(bits)-\(w).bin")
            let info = try Python.json(script: LibRawDump.script, arguments: [path, dump.path])
            #expect(info["raw_pattern"]?.string == cfa.description)
            #expect(try Data(contentsOf: dump) == samples(of: image.frame), "\(cfa) \(bits)-bit \(w)x\(h) samples differ")
        }
    }

    @Test("Adobe's DNG SDK (dngpy) reads every sample of lossless-JPEG tiles, a narrow strip and a CinemaDNG frame",
          .enabled(if: ToolAvailability.hasPythonModules("dngpy", "numpy")))
    func adobeSDKReadsSamples() throws {
        let tmp = try TemporaryDirectory()
        let cinema = try CinemaDNGFrame(reelName: "A001", frameRate: 25, timeCode: SMPTETimeCode(frameIndex: 3, startSeconds: 60, base: 25))
        for (name, image, clip) in [("tiles", try image(cfa: .rggb, bits: 14), nil as CinemaDNGFrame?),
                                    ("narrow", try image(cfa: .gbrg, bits: 16, width: 130, height: 700), nil),
                                    ("cinema", try image(cfa: .bggr, bits: 12), cinema)] {
            let path = try write(image, in: tmp, name: "\(name).dng", cinema: clip)
            let dump = tmp.url.appendingPathComponent("\(name).bin")
            let info = try Python.json(script: """
                import sys, json, numpy as np, dngpy
                d = dngpy.Dng(sys.argv[1])
                pixels = np.ascontiguousarray(d.raw_pixels[..., 0], dtype='<u2')
                pixels.tofile(sys.argv[2])
                print(json.dumps({"shape": list(pixels.shape)}))
                """, arguments: [path, dump.path])
            #expect(info["shape"]?.array?.compactMap(\.int) == [image.frame.height, image.frame.width], "\(name)")
            #expect(try Data(contentsOf: dump) == samples(of: image.frame), "\(name): Adobe's SDK reads other samples")
        }
    }

    @Test("NewRawImageDigest is the digest Adobe's DNG SDK computes, for tiles, a narrow strip, strips and a CinemaDNG frame",
          .enabled(if: ToolAvailability.hasPythonModules("dngpy") && ToolAvailability.has("exiftool")))
    func rawImageDigestMatchesAdobe() throws {
        let tmp = try TemporaryDirectory()
        let cinema = try CinemaDNGFrame(reelName: "A001", frameRate: 25, timeCode: SMPTETimeCode(frameIndex: 0, startSeconds: 0, base: 25))
        let cases: [(String, RawImage, DNGCompression, CinemaDNGFrame?)] = [
            ("tiles", try image(cfa: .rggb, bits: 14), .lj92, nil),
            ("narrow", try image(cfa: .grbg, bits: 12, width: 130, height: 700), .lj92, nil),
            ("strips", try image(cfa: .gbrg, bits: 16, width: 300, height: 260), .none, nil),
            ("cinema", try image(cfa: .bggr, bits: 12), .lj92, cinema),
        ]
        for (name, image, compression, clip) in cases {
            let path = try write(image, in: tmp, name: "\(name).dng", compression: compression, cinema: clip, digest: true)
            let ours = try #require(try ExifTool.tags(of: path)["IFD0:NewRawImageDigest"]?.string, "\(name): no digest")
            #expect(ours.count == 32, "\(name): \(ours)")
            // Adobe's SDK reads the file and writes it again with a digest it computes itself.
            let resaved = tmp.url.appendingPathComponent("\(name)-adobe.dng").path
            let result = try Python.run(script: """
                import sys, dngpy
                dngpy.Dng(sys.argv[1]).save(sys.argv[2])
                """, arguments: [path, resaved])
            #expect(result.succeeded, "\(name): \(result)")
            #expect(!result.stderr.contains("NewRawImageDigest does not match"), "\(name): \(result.stderr)")
            let adobe = try ExifTool.tags(of: resaved)["IFD0:NewRawImageDigest"]?.string
            #expect(adobe == ours, "\(name): Adobe's SDK computes \(adobe ?? "nothing"), we wrote \(ours)")
        }
    }

    @Test("dcraw decodes the same mosaic as from the uncompressed file; darktable renders both to the same float pixels",
          .enabled(if: ToolAvailability.has("dcraw") && ToolAvailability.has("darktable-cli")
                   && ToolAvailability.hasPythonModules("tifffile", "numpy")))
    func dcrawAndDarktable() throws {
        let tmp = try TemporaryDirectory()
        let image = try image(cfa: .rggb, bits: 12, width: 520, height: 390)
        let lj92 = try write(image, in: tmp, name: "lj92.dng")
        let plain = try write(image, in: tmp, name: "plain.dng", compression: .none)
        let a = try DCRaw.decode(lj92, mode: .rawMosaic16, to: tmp.url.appendingPathComponent("a.tiff"))
        let b = try DCRaw.decode(plain, mode: .rawMosaic16, to: tmp.url.appendingPathComponent("b.tiff"))
        #expect(a.succeeded && b.succeeded, "\(a.messages) \(b.messages)")
        let same = try Python.json(script: """
            import sys, json, tifffile, numpy as np
            a, b = tifffile.imread(sys.argv[1]), tifffile.imread(sys.argv[2])
            print(json.dumps({"same": a.shape == b.shape and bool((a == b).all()), "shape": list(a.shape)}))
            """, arguments: [a.output.path, b.output.path])
        #expect(same["same"]?.bool == true, "dcraw's mosaics differ: \(same)")
        // darktable cannot dump raw samples: its 32-bit float renders of the two files must be identical.
        let float = ["--conf", "plugins/imageio/format/tiff/bpp=32"]
        let x = try Darktable.export(lj92, to: tmp.url.appendingPathComponent("lj92.tif"), coreArguments: float)
        let y = try Darktable.export(plain, to: tmp.url.appendingPathComponent("plain.tif"), coreArguments: float)
        #expect(x.succeeded && y.succeeded, "\(x.log) \(y.log)")
        let renders = try Python.json(script: """
            import sys, json, tifffile, numpy as np
            a, b = tifffile.imread(sys.argv[1]), tifffile.imread(sys.argv[2])
            print(json.dumps({"same": a.shape == b.shape and bool((a == b).all()), "dtype": str(a.dtype), "shape": list(a.shape)}))
            """, arguments: [x.output.path, y.output.path])
        #expect(renders["same"]?.bool == true && renders["dtype"]?.string == "float32", "darktable's renders differ: \(renders)")
    }

    @Test("a CinemaDNG frame: raw data in IFD0, TimeCodes, FrameRate and ReelName read back, every sample decodes",
          .enabled(if: ToolAvailability.has("exiftool") && ToolAvailability.hasPythonModules("rawpy", "numpy")))
    func cinemaDNGFrame() throws {
        let tmp = try TemporaryDirectory()
        let image = try image(cfa: .bggr, bits: 12)
        for compression in DNGCompression.allCases {
            let code = SMPTETimeCode(frameIndex: 59, startSeconds: 13 * 3600 + 7 * 60 + 5, base: 24)
            #expect(code.description == "13:07:07:11")
            let cinema = try CinemaDNGFrame(reelName: "A002_C003", frameRate: 24000.0 / 1001.0, timeCode: code)
            let path = try write(image, in: tmp, name: "A002_C003_\(compression)_0000059.dng", compression: compression, cinema: cinema)
            #expect(try ExifTool.validate(path) == [], "\(compression)")
            let t = try ExifTool.tags(of: path)
            // exiftool -n lists the 8 bytes: BCD frames, seconds, minutes, hours, then the binary groups.
            #expect(t["IFD0:TimeCodes"]?.string == "11.07.07.13.00.00.00.00", "\(t["IFD0:TimeCodes"] ?? .null)")
            #expect(abs((t["IFD0:FrameRate"]?.double ?? 0) - 23.976) < 0.001)
            #expect(t["IFD0:ReelName"]?.string == "A002_C003")
            // NewSubfileType 0 (the raw image) is TIFF's default, which libtiff leaves out.
            #expect((t["IFD0:NewSubfileType"]?.int ?? 0) == 0 && t["IFD0:Compression"]?.int == compression.tiffCode)
            #expect(t["IFD0:CFAPattern2"] != nil && t["IFD0:BlackLevel"] != nil && t["IFD0:ColorMatrix1"] != nil)
            #expect(t["IFD0:SubIFDs"] == nil, "no thumbnail or preview SubIFDs")
            let dump = tmp.url.appendingPathComponent("cinema-\(compression).bin")
            _ = try Python.json(script: LibRawDump.script, arguments: [path, dump.path])
            #expect(try Data(contentsOf: dump) == samples(of: image.frame), "\(compression)")
        }
        // The exact bytes of a time code: BCD frames, seconds, minutes, hours, then four zero bytes.
        #expect(SMPTETimeCode(frameIndex: 0, startSeconds: 23 * 3600 + 59 * 60 + 59, base: 30).bytes == [0x00, 0x59, 0x59, 0x23, 0, 0, 0, 0])
        #expect(SMPTETimeCode(frameIndex: 31, startSeconds: 86_399, base: 30).description == "00:00:00:01")
        #expect(throws: InvalidValueError.self) { try CinemaDNGFrame(reelName: "bad/name", frameRate: 24, timeCode: SMPTETimeCode(frameIndex: 0, startSeconds: 0, base: 24)) }
        #expect(throws: InvalidValueError.self) { try CinemaDNGFrame(reelName: "A001", frameRate: 0.5, timeCode: SMPTETimeCode(frameIndex: 0, startSeconds: 0, base: 24)) }
        // Above 30 fps the frames field (two BCD digits in 6 bits) cannot count: refused, not written wrong.
        #expect(throws: InvalidValueError.self) { try CinemaDNGFrame(reelName: "A001", frameRate: 48, timeCode: SMPTETimeCode(frameIndex: 0, startSeconds: 0, base: 48)) }
        #expect(SMPTETimeCode(frameIndex: 29, startSeconds: 0, base: 30).bytes[0] == 0x29)
    }

    @Test("one thread and many threads write the same bytes; samples above the stated depth raise the precision")
    func deterministicAndPrecision() throws {
        let tmp = try TemporaryDirectory()
        let image = try image(cfa: .gbrg, bits: 12, width: 1030, height: 520)
        let one = try write(image, in: tmp, name: "one.dng", threads: 1)
        let four = try write(image, in: tmp, name: "four.dng", threads: 4)
        let a = try Data(contentsOf: URL(fileURLWithPath: one)), b = try Data(contentsOf: URL(fileURLWithPath: four))
        #expect(a == b)
        // A 12-bit frame holding a 13-bit value: 13-bit precision, not a wrapped sample.
        let frame = try SyntheticRaw.frame(width: 64, height: 64, cfa: .rggb, bits: 12)
        frame.storage.baseAddress[100] = 5000
        #expect(LJ92TileEncoder.precision(for: frame) == 13)
    }
}
