import Foundation
import RawBurst
import Testing
import TestSupport

/// Issue #33 section 2: a DNG whose raw data cannot be re-encoded exactly — a Blackmagic camera's Compression 7 tiles
/// holding lossy DCT JPEG, codes through a LinearizationTable that rawburst does not decode itself — converts with its
/// tiles or strips copied byte for byte, with their table and levels, instead of 16-bit lossless values 3.6x the size.
@Suite("DNG sources whose raw data cannot be re-encoded: copied verbatim (issue #33)", .serialized)
struct VerbatimRawDataCLITests {
    static let width = 256, height = 192, tileWidth = 128, tileLength = 64

    /// Makes the lossy tiles as a Blackmagic camera codes them (from the DNG and JPEG specifications, not from a camera):
    /// 12-bit codes, each 128x64 tile one JPEG stream of one component, coded 256x32 (two tile rows per JPEG row), DCT
    /// with quantisation tables (SOF1, 12-bit precision: libjpeg-turbo through imagecodecs, its DQT rewritten with 16-bit
    /// entries as 12-bit JPEG allows and LibRaw and dcraw read it). Writes tile-N.jpg and table.u16 into `directory`.
    static let tileMaker = """
        import sys, struct, numpy as np, imagecodecs
        out, W, H, TW, TH = sys.argv[1], 256, 192, 128, 64
        def dqt16(stream):
            res = bytearray(stream[:2]); i = 2
            while True:
                m, l = stream[i + 1], stream[i + 2] << 8 | stream[i + 3]
                seg = stream[i:i + 2 + l]
                if m == 0xDB:
                    body, j, nb = seg[4:], 0, bytearray()
                    while j < len(body):
                        if body[j] >> 4 == 0:
                            nb.append(0x10 | (body[j] & 15))
                            for v in body[j + 1:j + 65]: nb += bytes([0, v])
                            j += 65
                        else:
                            nb += body[j:j + 129]; j += 129
                    seg = b'\\xff\\xdb' + struct.pack('>H', len(nb) + 2) + bytes(nb)
                res += seg; i += 2 + l
                if m == 0xDA: break
            return bytes(res + stream[i:])
        rng = np.random.default_rng(7)
        y, x = np.mgrid[0:H, 0:W]
        codes = (300 + 2500 * (x + y) / (W + H) + 400 * np.sin(x / 9.0) + rng.normal(0, 20, (H, W))).clip(0, 4095).astype(np.uint16)
        k = 0
        for ty in range(0, H, TH):
            for tx in range(0, W, TW):
                tile = codes[ty:ty + TH, tx:tx + TW].reshape(TH // 2, 2 * TW)
                stream = dqt16(imagecodecs.jpeg8_encode(tile, level=85, bitspersample=12))
                assert b'\\xff\\xc1' in stream   # SOF1: extended sequential DCT, 12-bit
                open(f'{out}/tile-{k}.jpg', 'wb').write(stream); k += 1
        np.round((np.arange(4096) / 4095.0) ** 2.2 * 65535).astype('<u2').tofile(f'{out}/table.u16')
        """

    /// The source DNG: the lossy tiles, a 4096-entry LinearizationTable, BlackLevel 1000 and WhiteLevel 65535 (linear
    /// units), a made-up NewRawImageDigest; raw image in IFD0 with CinemaDNG tags (as a Blackmagic frame), or with
    /// `subIFD` in a SubIFD below a small thumbnail IFD0; with `monochrome`, a LinearRaw image of one sample per pixel
    /// (no CFA or colour tags), as a monochrome camera's.
    static func source(in tmp: TemporaryDirectory, subIFD: Bool = false, monochrome: Bool = false) throws -> String {
        let made = try Python.run(script: tileMaker, arguments: [tmp.url.path])
        #expect(made.succeeded, "\(made)")
        let tiles = try (0..<6).map { [UInt8](try Data(contentsOf: tmp.file("tile-\($0).jpg"))) }
        let table = try Data(contentsOf: tmp.file("table.u16")).withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        var rawTags: [SpecDNG.Entry] = [
            .init(254, .long, [0]), .init(256, .long, [Int64(width)]), .init(257, .long, [Int64(height)]),
            .init(258, .short, [12]), .init(259, .short, [7]), .init(262, .short, [32803]), .init(277, .short, [1]),
            .init(284, .short, [1]), .init(322, .short, [Int64(tileWidth)]), .init(323, .short, [Int64(tileLength)]),
            .init(324, .long, []), .init(325, .long, tiles.map { Int64($0.count) }),
            .init(33421, .short, [2, 2]), .init(33422, .byte, [0, 1, 1, 2]),
            .init(50712, .short, table.map(Int64.init)), .init(50714, .long, [1000]), .init(50717, .long, [65535]),
        ]
        var cameraTags: [SpecDNG.Entry] = [
            .ascii(271, "Blackmagic-like"), .ascii(272, "Lossy 12"),
            .init(50706, .byte, [1, 4, 0, 0]), .init(50707, .byte, [1, 1, 0, 0]), .ascii(50708, "Blackmagic-like Lossy 12"),
            .init(50721, .srational, [9, 10, -3, 10, -1, 10, -4, 10, 12, 10, 2, 10, -1, 10, 2, 10, 6, 10]),
            .init(50778, .short, [21]), .init(50728, .rational, [1, 2, 1, 1, 7, 10]),
            .init(51111, .byte, (0..<16).map { Int64(16 * $0 + 3) }),
        ]
        if monochrome {
            rawTags = rawTags.filter { ![262, 33421, 33422].contains($0.tag) } + [.init(262, .short, [34892])]
            cameraTags = cameraTags.filter { ![50721, 50728, 50778].contains($0.tag) }
        }
        var dng: SpecDNG
        if subIFD {
            let thumbnail: [SpecDNG.Entry] = [
                .init(254, .long, [1]), .init(256, .long, [8]), .init(257, .long, [6]), .init(258, .short, [8, 8, 8]),
                .init(259, .short, [1]), .init(262, .short, [2]), .init(273, .long, []), .init(277, .short, [3]),
                .init(278, .long, [6]), .init(279, .long, [144]),
            ]
            dng = SpecDNG(entries: thumbnail + cameraTags, blocks: [[UInt8](repeating: 128, count: 144)])
            dng.subIFDs = [SpecDNG(entries: rawTags, blocks: tiles, offsetsTag: 324)]
        } else {
            let cinema: [SpecDNG.Entry] = [
                .init(51043, .byte, [0x12, 0x34, 0x10, 0x01, 0, 0, 0, 0]), .init(51044, .srational, [24, 1]), .ascii(51081, "A001"),
            ]
            dng = SpecDNG(entries: rawTags + cameraTags + cinema, blocks: tiles, offsetsTag: 324)
        }
        let path = tmp.file((monochrome ? "mono-" : "") + (subIFD ? "lossy-subifd.dng" : "lossy-cinema.dng")).path
        try Data(dng.bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// What independent readers see in the source and a converted DNG: the raw directory's tiles or strips (bytes, by
    /// tifffile), LibRaw 0.22's raw_image (rawpy), dcraw's raw mosaic, and Adobe's SDK's (dngpy) verdict on each.
    static let compare = """
        import sys, os, io, json, subprocess, numpy as np, tifffile, rawpy, dngpy
        def rawpage(t):
            pages = [t.pages[0]] + list(t.pages[0].pages or [])
            return [q for q in pages if q.tags.get('NewSubfileType') is None or q.tags['NewSubfileType'].value == 0][0]
        def blocks(p):
            with tifffile.TiffFile(p) as t:
                raw = rawpage(t)
                with open(p, 'rb') as f:
                    data = f.read()
                return [data[o:o + n] for o, n in zip(raw.dataoffsets, raw.databytecounts)]
        def stored(p):
            with tifffile.TiffFile(p) as t:
                return rawpage(t).asarray() if rawpage(t).compression == 1 else None
        def libraw(p):
            with rawpy.imread(p) as r: return r.raw_image.copy()
        def dcraw(p):
            out = subprocess.run(['dcraw', '-4', '-D', '-T', '-c', p], capture_output=True)
            return tifffile.imread(io.BytesIO(out.stdout)) if out.returncode == 0 and out.stdout else None
        def sdk(p):
            # The SDK prints its complaints on both streams: keep them off this script's JSON.
            sys.stdout.flush(); sys.stderr.flush()
            saved = [os.dup(1), os.dup(2)]
            quiet = os.open(os.devnull, os.O_WRONLY); os.dup2(quiet, 1); os.dup2(quiet, 2)
            try:
                return 'read: ' + str(np.array(dngpy.Dng(p).raw_pixels).shape)
            except Exception as e:
                return 'refused: ' + str(e).replace(p, 'FILE')
            finally:
                os.dup2(saved[0], 1); os.dup2(saved[1], 2); os.close(quiet)
        a, b = sys.argv[1:3]
        la, lb, da, db = libraw(a), libraw(b), dcraw(a), dcraw(b)
        sa, sb = stored(a), stored(b)
        print(json.dumps({'blocks': blocks(a) == blocks(b), 'blockCount': len(blocks(b)),
                          'samples': sa is not None and sb is not None and bool(np.array_equal(sa, sb)),
                          'libraw': bool(np.array_equal(la, lb)), 'librawMax': int(la.max()),
                          'dcraw': da is not None and db is not None and bool(np.array_equal(da, db)),
                          'sdkSource': sdk(a), 'sdkOutput': sdk(b)}))
        """

    static var tools: Bool {
        ToolAvailability.hasPythonModules("numpy", "imagecodecs", "tifffile", "rawpy", "dngpy") && ToolAvailability.has("dcraw")
            && ToolAvailability.has("exiftool")
    }

    /// `rawburst convert SOURCE -o OUT --json` succeeds and reports the raw data copied verbatim, being lossy JPEG.
    static func convertsVerbatim(_ source: String, to out: String) throws {
        let result = try CLI.run(["convert", source, "-o", out, "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let file = try #require(try JSONValue(parsing: result.stdout)["files"]?[0])
        #expect(file["action"]?.string == "converted-verbatim" && file["verbatimReason"]?.string == "lossy-jpeg", "\(result.stdout)")
    }

    @Test("a Blackmagic-style lossy CinemaDNG frame: tiles, table, levels and digest copied; every reader decodes the same raw data; at most 10 % larger",
          .enabled(if: tools))
    func lossyCinemaFrame() throws {
        let tmp = try TemporaryDirectory()
        let source = try Self.source(in: tmp)
        let out = tmp.file("out.dng").path
        try Self.convertsVerbatim(source, to: out)

        let seen = try Python.json(script: Self.compare, arguments: [source, out])
        #expect(seen["blocks"]?.bool == true && seen["blockCount"]?.int == 6, "the tiles are not the source's, byte for byte: \(seen)")
        #expect(seen["libraw"]?.bool == true && (seen["librawMax"]?.int ?? 0) > 4095, "LibRaw 0.22 (linearised): \(seen)")
        #expect(seen["dcraw"]?.bool == true, "dcraw: \(seen)")
        // Adobe's SDK does not read lossy DCT under Compression 7 (it is not in the DNG specification); it treats the
        // copy exactly as the source.
        #expect(seen["sdkOutput"]?.string == seen["sdkSource"]?.string, "\(seen)")

        let sourceBytes = try #require(try FileManager.default.attributesOfItem(atPath: source)[.size] as? Int)
        let outBytes = try #require(try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int)
        #expect(Double(outBytes) <= 1.10 * Double(sourceBytes), "\(outBytes) bytes from \(sourceBytes)")
        #expect(try ExifTool.validate(out).isEmpty)
        let keys = ["NewRawImageDigest", "LinearizationTable", "BlackLevel", "WhiteLevel", "BitsPerSample", "Compression",
                    "TimeCodes", "FrameRate", "ReelName", "CFAPattern2"]
        let before = try ExifTool.tags(of: source, extraArguments: ["-n", "-b"] + keys.map { "-" + $0 })
        let after = try ExifTool.tags(of: out, extraArguments: ["-n", "-b"] + keys.map { "-" + $0 })
        for key in keys {
            let name = before.keys.first { $0.hasSuffix(":" + key) || $0 == key }
            let value = name.flatMap { before[$0] }
            #expect(value != nil, "\(key) missing from the source")
            #expect(after.first { $0.key.hasSuffix(":" + key) || $0.key == key }?.value == value, "\(key)")
        }
        // rawburst reads the same frame from both (the crop aside: convert keeps a margin), and validates the copy.
        #expect(DNGDefaultsCLITests.summary(try RawFileReader().readContent(path: out), crop: false)
                == DNGDefaultsCLITests.summary(try RawFileReader().readContent(path: source), crop: false))
        let inspect = try CLI.run(["inspect", "--validate", out])
        #expect(inspect.exitStatus == 0 && inspect.stdout.contains("lossy JPEG (DCT) (Compression 7)"), "\(inspect)")
    }

    @Test("a lossy raw image in a SubIFD keeps the usual layout (thumbnail IFD0, raw SubIFD), its tiles copied",
          .enabled(if: tools))
    func lossySubIFD() throws {
        let tmp = try TemporaryDirectory()
        let source = try Self.source(in: tmp, subIFD: true)
        let out = tmp.file("out.dng").path
        let result = try CLI.run(["convert", source, "-o", out, "-q"])
        #expect(result.exitStatus == 0, "\(result)")
        let seen = try Python.json(script: Self.compare, arguments: [source, out])
        #expect(seen["blocks"]?.bool == true && seen["libraw"]?.bool == true && seen["dcraw"]?.bool == true, "\(seen)")
        let structure = try TIFFStructure.read(path: out)
        #expect(structure.mainDirectory.integer(TIFFTag.newSubFileType) == 1)
        #expect(structure.rawDirectory?.path == "IFD0.SubIFD0")
        #expect(try ExifTool.validate(out).isEmpty)
    }

    @Test("a monochrome camera's lossy frame (LinearRaw, one sample per pixel): its tiles copied, still monochrome; LibRaw and dcraw read the same",
          .enabled(if: tools))
    func lossyMonochrome() throws {
        let tmp = try TemporaryDirectory()
        let source = try Self.source(in: tmp, subIFD: true, monochrome: true)
        let out = tmp.file("out.dng").path
        try Self.convertsVerbatim(source, to: out)
        let seen = try Python.json(script: Self.compare, arguments: [source, out])
        #expect(seen["blocks"]?.bool == true && seen["libraw"]?.bool == true && seen["dcraw"]?.bool == true, "\(seen)")
        let raw = try #require(try TIFFStructure.read(path: out).rawDirectory)
        #expect(raw.integer(TIFFTag.photometricInterpretation) == 34892 && raw.integer(TIFFTag.samplesPerPixel) == 1)
        #expect(!raw.contains(TIFFTag.cfaPattern))
        #expect(try ExifTool.validate(out).isEmpty)
    }

    @Test("a table DNG whose codes rawburst does not decode itself (big-endian 16-bit strips): its codes and table copied",
          .enabled(if: tools))
    func undecodedCodes() throws {
        let tmp = try TemporaryDirectory()
        let source = tmp.file("be.dng").path
        let made = try Python.run(script: """
            import sys, numpy as np, tifffile
            h, w = 192, 256
            y, x = np.mgrid[0:h, 0:w]
            codes = (256 + 3000 * (x + y) / (w + h) + np.random.default_rng(1).integers(0, 32, (h, w))).astype(np.uint16)
            table = np.round((np.arange(4096) / 4095.0) ** 2 * 65535).astype(np.uint16)
            tags = [(50706, 'B', 4, (1, 4, 0, 0)), (50708, 's', 0, 'tifffile BE Log'), (33421, 'H', 2, (2, 2)),
                    (33422, 'B', 4, (0, 1, 1, 2)),
                    (50721, '2i', 9, (9, 10, -3, 10, -1, 10, -4, 10, 12, 10, 2, 10, -1, 10, 2, 10, 6, 10)),
                    (50778, 'H', 1, 21), (50728, '2I', 3, (1, 2, 1, 1, 7, 10)), (50714, 'H', 1, int(table[256])),
                    (50717, 'H', 1, 65535), (50712, 'H', 4096, tuple(int(v) for v in table))]
            tifffile.imwrite(sys.argv[1], codes, photometric=32803, extratags=tags, subfiletype=0, byteorder='>',
                             rowsperstrip=64)
            """, arguments: [source])
        #expect(made.succeeded, "\(made)")
        let out = tmp.file("out.dng").path
        let result = try CLI.run(["convert", source, "-o", out, "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let file = try #require(try JSONValue(parsing: result.stdout)["files"]?[0])
        #expect(file["action"]?.string == "converted-verbatim" && file["verbatimReason"]?.string == "linearization-table",
                "\(result.stdout)")
        let seen = try Python.json(script: Self.compare, arguments: [source, out])
        // The strips are the source's samples, stored little-endian as the DNG is (tifffile decodes both the same).
        #expect(seen["samples"]?.bool == true && seen["blockCount"]?.int == 3, "\(seen)")
        #expect(seen["libraw"]?.bool == true && seen["dcraw"]?.bool == true, "\(seen)")
        #expect(seen["sdkSource"]?.string?.hasPrefix("read") == true && seen["sdkOutput"] == seen["sdkSource"], "\(seen)")
        let sourceBytes = try #require(try FileManager.default.attributesOfItem(atPath: source)[.size] as? Int)
        let outBytes = try #require(try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int)
        #expect(Double(outBytes) <= 1.10 * Double(sourceBytes), "\(outBytes) bytes from \(sourceBytes)")
        #expect(try ExifTool.validate(out).isEmpty)
    }

    @Test("floating-point samples are data to copy, not to re-encode as 16-bit integers")
    func floatingPoint() throws {
        let tmp = try TemporaryDirectory()
        var dng = SpecDNG.cfa(samples: SpecDNG.ramp())
        let floats = SpecDNG.ramp().flatMap { v -> [UInt8] in
            let bits = (Float(v) / 255).bitPattern
            return (0..<4).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
        }
        dng.blocks = [floats]
        dng.set(.init(258, .short, [32]))
        dng.set(.init(339, .short, [3]))
        dng.set(.init(279, .long, [Int64(floats.count)]))
        dng.set(.init(50717, .long, [1]))
        dng.set(.init(50714, .short, [0]))
        let path = tmp.file("float.dng").path
        try Data(dng.bytes).write(to: URL(fileURLWithPath: path))
        guard case .verbatim(let data) = try RawFileReader().sourceData(path: path) else {
            Issue.record("not copied verbatim")
            return
        }
        #expect(data.reason == .floatingPoint && data.blocks == [floats] && !data.isTiled && data.inMainDirectory)
    }

    @Test("a CFA raw image in lossy JPEG (Compression 34892) is invalid, as Adobe's SDK says: refused with the reason")
    func lossyCFA() throws {
        let tmp = try TemporaryDirectory()
        var dng = SpecDNG.cfa(samples: SpecDNG.ramp())
        dng.set(.init(259, .short, [34892]))
        let path = tmp.file("cfa-34892.dng").path
        try Data(dng.bytes).write(to: URL(fileURLWithPath: path))
        let errors = DNGValidator.validate(path: path).filter(\.isError)
        #expect(errors.contains { $0.message.contains("Compression 34892 (lossy JPEG) is for LinearRaw images") }, "\(errors)")
        let result = try CLI.run(["convert", path, "-o", tmp.file("out.dng").path])
        #expect(result.exitStatus == 1 && result.stderr.contains("Compression 34892"), "\(result)")
    }

    @Test("the worker mode records a verbatim conversion: its action and the source's NewRawImageDigest, kept",
          .enabled(if: ToolAvailability.hasPythonModules("numpy", "imagecodecs")))
    func workerRecord() throws {
        let tmp = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: tmp.file("raws"), withIntermediateDirectories: true)
        let source = try Self.source(in: tmp)
        try FileManager.default.moveItem(atPath: source, toPath: tmp.file("raws/frame.dng").path)
        try FileManager.default.createDirectory(at: tmp.file("out"), withIntermediateDirectories: true)
        let run = try CLI.run(["convert", "raws", "-o", "out", "--results", "r.jsonl"], in: tmp.url)
        #expect(run.exitStatus == 0, "\(run)")
        let line = try #require(try WorkerSupport.results(tmp.file("r.jsonl")).first)
        #expect(line["status"] as? String == "ok" && line["action"] as? String == "converted-verbatim", "\(line)")
        #expect(line["digestKind"] as? String == "NewRawImageDigest", "\(line)")
        let digest = (0..<16).map { String(format: "%02x", 16 * $0 + 3) }.joined()
        #expect(line["digest"] as? String == digest, "\(line)")
    }
}
