import Foundation
import RawBurst
import Testing
import TestSupport

/// Issue #20 item 5: a DNG source whose samples are codes mapped by a LinearizationTable (a Blackmagic camera's) is
/// converted with its stored codes and its table, not expanded to 16-bit linear values.
@Suite("converting a DNG with a LinearizationTable (issue #20)", .serialized)
struct LinearizedDNGCLITests {
    /// 12-bit codes and a 4096-entry table that squares them onto 0...65535, as a log-encoded camera stores its data.
    /// `compression` is the source's: `packed` stores the codes in 12 bits, `none` in 16-bit samples.
    static func source(in tmp: TemporaryDirectory,
                       compression: DNGCompression = .packed) throws -> (path: String, codes: [UInt16], table: [UInt16]) {
        let coded = try SyntheticRaw.frame(width: 512, height: 384, bits: 12)
        let table = (0..<4096).map { UInt16((pow(Double($0) / 4095, 2) * 65535).rounded()) }
        let count = coded.width * coded.height
        let codes = Array(UnsafeBufferPointer(start: coded.storage.baseAddress, count: count))
        let linear = PixelStorage(count: count)
        for i in 0..<count { linear.baseAddress[i] = table[Int(codes[i])] }
        let frame = try RawFrame(width: coded.width, height: coded.height, storage: linear, cfa: .rggb,
                                 defaultCrop: try PixelRect(top: 2, left: 2, height: coded.height - 4, width: coded.width - 4),
                                 blackLevels: try BlackLevels(uniform: Double(table[256])), whiteLevel: 65535, bitsPerSample: 16)
        let calibration = try ColorCalibration(colorMatrix1: try ColorMatrix([0.9, -0.3, -0.1], [-0.4, 1.2, 0.2], [-0.1, 0.2, 0.6]),
                                               illuminant1: .d65, asShotNeutral: [0.5, 1, 0.7])
        let stored = try DNGStoredCodes(samples: coded.storage, width: coded.width, height: coded.height, bitsPerSample: 12,
                                        table: table)
        var options = DNGWriter.Options()
        options.compression = compression
        let path = tmp.file("log-\(compression).dng").path
        try DNGWriter(options: options).write(RawImage(frame: frame, metadata: try FrameMetadata(make: "rawburst", model: "Log 12"),
                                                       calibration: calibration), codes: stored, to: path)
        return (path, codes, table)
    }

    /// What independent readers see in `path`: tifffile's stored samples of the raw IFD and its LinearizationTable and
    /// BitsPerSample, and LibRaw's (rawpy 0.22) linearised raw_image, compared with `codes` and `table`.
    static func readBack(_ path: String, codes: String, table: String) throws -> JSONValue {
        try Python.json(script: """
            import sys, json, numpy as np, tifffile, rawpy
            codes = np.fromfile(sys.argv[2], dtype='<u2').reshape(384, 512)
            table = np.fromfile(sys.argv[3], dtype='<u2')
            with tifffile.TiffFile(sys.argv[1]) as t:
                raw = [p for p in t.pages[0].pages if p.tags['NewSubfileType'].value == 0][0]
                stored = raw.asarray()
                tag = np.array(raw.tags[50712].value, dtype=np.int64)
                bits = raw.tags['BitsPerSample'].value
            with rawpy.imread(sys.argv[1]) as r:
                linear = r.raw_image.copy()
            print(json.dumps({'codes': bool(np.array_equal(stored, codes)), 'table': bool(np.array_equal(tag, table)),
                              'bits': int(bits), 'linear': bool(np.array_equal(linear, table[codes]))}))
            """, arguments: [path, codes, table])
    }

    /// Sources with 12-bit codes stored packed in 12 bits and in 16-bit samples: both are written 12 bits wide where the
    /// compression allows.
    @Test("codes and table carried over bit-exactly in each compression; LibRaw reads the same linear values; about the source's size; Adobe's SDK and exiftool silent",
          .enabled(if: ToolAvailability.hasPythonModules("numpy", "tifffile", "rawpy", "dngpy", "imagecodecs")
                   && ToolAvailability.has("exiftool")),
          arguments: [(DNGCompression.packed, 12), (DNGCompression.none, 16)])
    func carriedOver(sourceCompression: DNGCompression, sourceBits: Int) throws {
        let tmp = try TemporaryDirectory()
        let (source, codes, table) = try Self.source(in: tmp, compression: sourceCompression)
        let codesFile = tmp.file("codes.u16"), tableFile = tmp.file("table.u16")
        try codes.withUnsafeBytes { try Data($0).write(to: codesFile) }
        try table.withUnsafeBytes { try Data($0).write(to: tableFile) }
        // The source itself, as the independent readers see it: packed 12-bit codes that LibRaw linearises.
        let original = try Self.readBack(source, codes: codesFile.path, table: tableFile.path)
        #expect(original["codes"]?.bool == true && original["table"]?.bool == true && original["bits"]?.int == sourceBits)
        #expect(original["linear"]?.bool == true)
        #expect(try ConvertedDNGCLITests.adobeWarnings(source, tmp.file("adobe.dng").path).isEmpty)
        let sourceBytes = try #require(try FileManager.default.attributesOfItem(atPath: source)[.size] as? Int)

        // Stored bits and the largest size relative to the source (packed 12-bit): lossless JPEG and packed keep 12 bits,
        // and none 16 (4/3 of packed's samples); expanded 16-bit linear values would not be the codes at all.
        for (compression, bits, ratio) in [("lj92", 12, 1.05), ("packed", 12, 1.05), ("none", 16, 1.4)] {
            let out = tmp.file("out-\(compression).dng").path
            let result = try CLI.run(["convert", source, "-o", out, "--compression", compression, "-q"])
            #expect(result.exitStatus == 0, "\(result)")
            let back = try Self.readBack(out, codes: codesFile.path, table: tableFile.path)
            #expect(back["codes"]?.bool == true, "\(compression): the stored samples are not the source's codes")
            #expect(back["table"]?.bool == true, "\(compression): the LinearizationTable is not the source's")
            #expect(back["bits"]?.int == bits, "\(compression): \(String(describing: back["bits"]))")
            #expect(back["linear"]?.bool == true, "\(compression): LibRaw reads other linear values")
            let bytes = try #require(try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int)
            #expect(Double(bytes) <= Double(sourceBytes) * ratio, "\(compression): \(bytes) bytes, the source \(sourceBytes)")
            let problems = try ExifTool.validate(out)
            #expect(problems.isEmpty, "\(compression): \(problems)")
            let adobe = try ConvertedDNGCLITests.adobeWarnings(out, tmp.file("adobe.dng").path)
            #expect(adobe.isEmpty, "\(compression): \(adobe)")
            // Levels as in the source: BlackLevel and WhiteLevel are linear values, applied after the table.
            let tags = try ExifTool.tags(of: out, extraArguments: ["-n"])
            #expect(tags["SubIFD:WhiteLevel"]?.int == 65535 && tags["SubIFD:BlackLevel"]?.numbers?.allSatisfy { $0 == Double(table[256]) } == true,
                    "\(compression)")
        }
    }

    /// A source from another writer: tifffile's plain 16-bit strips of 12-bit codes, with the tags a DNG needs.
    @Test("a table DNG written by tifffile converts with its codes and table; LibRaw reads the same values; Adobe's SDK silent",
          .enabled(if: ToolAvailability.hasPythonModules("numpy", "tifffile", "rawpy", "dngpy", "imagecodecs")))
    func fromTifffile() throws {
        let tmp = try TemporaryDirectory()
        let source = tmp.file("tifffile.dng").path, codes = tmp.file("codes.u16").path, table = tmp.file("table.u16").path
        let made = try Python.run(script: """
            import sys, numpy as np, tifffile
            h, w = 384, 512
            y, x = np.mgrid[0:h, 0:w]
            codes = (256 + 3000 * (x + y) / (w + h) + np.random.default_rng(1).integers(0, 32, (h, w))).astype(np.uint16)
            table = np.round((np.arange(4096) / 4095.0) ** 2 * 65535).astype(np.uint16)
            tags = [(50706, 'B', 4, (1, 4, 0, 0)), (50707, 'B', 4, (1, 1, 0, 0)), (50708, 's', 0, 'tifffile Log'),
                    (33421, 'H', 2, (2, 2)), (33422, 'B', 4, (0, 1, 1, 2)),
                    (50721, '2i', 9, (9, 10, -3, 10, -1, 10, -4, 10, 12, 10, 2, 10, -1, 10, 2, 10, 6, 10)),
                    (50778, 'H', 1, 21), (50728, '2I', 3, (1, 2, 1, 1, 7, 10)), (50714, 'H', 1, int(table[256])),
                    (50717, 'H', 1, 65535), (50712, 'H', 4096, tuple(int(v) for v in table))]
            tifffile.imwrite(sys.argv[1], codes, photometric=32803, extratags=tags, subfiletype=0)
            codes.astype('<u2').tofile(sys.argv[2]); table.astype('<u2').tofile(sys.argv[3])
            """, arguments: [source, codes, table])
        #expect(made.succeeded, "\(made)")
        let out = tmp.file("out.dng").path
        let result = try CLI.run(["convert", source, "-o", out, "-q"])
        #expect(result.exitStatus == 0, "\(result)")
        let back = try Self.readBack(out, codes: codes, table: table)
        #expect(back["codes"]?.bool == true && back["table"]?.bool == true && back["bits"]?.int == 12, "\(back)")
        #expect(back["linear"]?.bool == true)
        #expect(try ConvertedDNGCLITests.adobeWarnings(out, tmp.file("adobe.dng").path).isEmpty)
    }

    @Test("rawburst's reader gives the stored codes and table of such a DNG, and nil for a DNG without a table")
    func readerGivesCodes() throws {
        let tmp = try TemporaryDirectory()
        let (source, codes, table) = try Self.source(in: tmp)
        let stored = try #require(try RawFileReader().storedCodes(path: source))
        #expect(stored.bitsPerSample == 12 && stored.table == table)
        #expect(Array(UnsafeBufferPointer(start: stored.samples.baseAddress, count: codes.count)) == codes)
        let plain = tmp.file("plain.dng").path
        try DNGWriter().write(try SyntheticRaw.image(width: 128, height: 96), to: plain)
        #expect(try RawFileReader().storedCodes(path: plain) == nil)
    }
}
