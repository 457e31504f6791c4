import Foundation
import RawBurst
import Testing
import TestSupport

/// Issue #33 section 2: a tag the TIFF 6.0 or DNG specification gives a default is, when absent, exactly that default.
/// A machine-vision camera's DNG 1.1 (8-bit CFA, uncompressed, no SamplesPerPixel) was refused: "required tag
/// SamplesPerPixel (277) is missing".
@Suite("a tag left out of a DNG takes its TIFF or DNG default (issue #33)")
struct DNGDefaultsCLITests {
    /// One default: the file without `tag`, and the same file with `written` (the default value) in its place.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let written: SpecDNG.Entry
        /// DNGVersion of both files (tags newer than DNG 1.1 are tried in a newer file).
        var version: [Int64] = [1, 1, 0, 0]
        /// Adobe's SDK needs the tag itself (it finds no main image without NewSubFileType): it refuses the file without.
        var sdkNeedsTag = false
        var testDescription: String { name }

        var tag: UInt16 { written.tag }

        /// The pair: without the tag, and with its default written.
        func files(in tmp: TemporaryDirectory) throws -> (without: String, with: String) {
            var base = SpecDNG.cfa(version: version, samples: SpecDNG.ramp())
            base.remove(tag)
            var with = base
            with.set(written)
            let paths = (tmp.file("\(name)-without.dng").path, tmp.file("\(name)-with.dng").path)
            try Data(base.bytes).write(to: URL(fileURLWithPath: paths.0))
            try Data(with.bytes).write(to: URL(fileURLWithPath: paths.1))
            return paths
        }
    }

    static let width = 128, height = 96

    /// Every default the readers and the validator use (TIFFDefaults and the dependent ones).
    static let cases: [Case] = [
        Case(name: "SamplesPerPixel", written: .init(277, .short, [1])),
        Case(name: "PlanarConfiguration", written: .init(284, .short, [1])),
        Case(name: "Compression", written: .init(259, .short, [1])),
        Case(name: "FillOrder", written: .init(266, .short, [1])),
        Case(name: "BlackLevelRepeatDim", written: .init(50713, .short, [1, 1])),
        Case(name: "CFALayout", written: .init(50711, .short, [1])),
        Case(name: "DefaultScale", written: .init(50718, .rational, [1, 1, 1, 1])),
        Case(name: "RowsPerStrip", written: .init(278, .long, [0xFFFF_FFFF])),
        Case(name: "SampleFormat", written: .init(339, .short, [1])),
        Case(name: "NewSubFileType", written: .init(254, .long, [0]), sdkNeedsTag: true),
        Case(name: "Orientation", written: .init(274, .short, [1])),
        Case(name: "Predictor", written: .init(317, .short, [1])),
        Case(name: "BlackLevel", written: .init(50714, .short, [0])),
        Case(name: "WhiteLevel", written: .init(50717, .long, [255])),
        Case(name: "BlackLevelDeltaH", written: .init(50715, .srational, Array(repeating: [0, 1], count: width).flatMap { $0 })),
        Case(name: "BlackLevelDeltaV", written: .init(50716, .srational, Array(repeating: [0, 1], count: height).flatMap { $0 })),
        Case(name: "LinearizationTable", written: .init(50712, .short, (0..<256).map { Int64($0) })),
        Case(name: "DefaultCropOrigin", written: .init(50719, .short, [0, 0])),
        Case(name: "DefaultCropSize", written: .init(50720, .short, [Int64(width), Int64(height)])),
        Case(name: "ActiveArea", written: .init(50829, .short, [0, 0, Int64(height), Int64(width)])),
        Case(name: "CFAPlaneColor", written: .init(50710, .byte, [0, 1, 2])),
        Case(name: "DNGBackwardVersion", written: .init(50707, .byte, [1, 1, 0, 0])),
        Case(name: "CalibrationIlluminant1", written: .init(50778, .short, [0])),
        Case(name: "BaselineExposure", written: .init(50730, .srational, [0, 1])),
        Case(name: "RowInterleaveFactor", written: .init(50975, .short, [1]), version: [1, 4, 0, 0]),
        Case(name: "SubTileBlockSize", written: .init(50974, .short, [1, 1]), version: [1, 4, 0, 0]),
    ]

    /// Everything rawburst's reader gives, as text (samples by a checksum); without `crop`, all but the default crop
    /// (which `convert` pulls in to a margin).
    static func summary(_ content: RawFileContent, crop: Bool = true) -> String {
        guard case .mosaic(let image) = content else { return "not a mosaic" }
        let f = image.frame
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for row in 0..<f.height {
            for column in 0..<f.width { hash = (hash ^ UInt64(f.storage.baseAddress[row * f.rowStride + column])) &* 0x100_0000_01b3 }
        }
        let c = image.calibration
        return """
            \(f.width)x\(f.height) cfa \(f.cfa) area \(f.activeArea) crop \(crop ? "\(f.defaultCrop)" : "-") scale \(f.defaultScale) \
            black \(f.blackLevels.values) white \(f.whiteLevel) bits \(f.bitsPerSample) samples \(hash) \
            orientation \(image.metadata.orientation) matrix \(c?.colorMatrix1.values ?? []) light \(String(describing: c?.illuminant1)) \
            baseline \(c?.baselineExposure ?? .nan) neutral \(c?.asShotNeutral ?? [])
            """
    }

    @Test("without the tag, a DNG validates, reads and converts exactly as with its default written", arguments: cases)
    func readsAsItsDefault(_ c: Case) throws {
        let tmp = try TemporaryDirectory()
        let (without, with) = try c.files(in: tmp)
        // The validator: no error, and the same findings for both.
        let problems = DNGValidator.validate(path: without)
        #expect(problems.filter(\.isError).isEmpty, "\(problems)")
        #expect(problems.map(\.description) == DNGValidator.validate(path: with).map(\.description))
        // The reader: the same frame, levels, layout and colour.
        let read = Self.summary(try RawFileReader().readContent(path: without))
        #expect(read == Self.summary(try RawFileReader().readContent(path: with)))
        // The converter: DNGs that read back the same.
        var options = DNGWriter.Options()
        options.compression = .lj92
        let converter = RawConverter(writerOptions: options)
        let outputs = [without, with].map { source in
            converter.convert(ConversionJob(input: source, output: source + ".converted.dng"))
        }
        for result in outputs { #expect(result.succeeded, "\(result.error ?? "")") }
        let back = try outputs.map { Self.summary(try RawFileReader().readContent(path: $0.job.output)) }
        #expect(back[0] == back[1])
    }

    /// The issue's file, end to end through the command line.
    @Test("the machine-vision camera's DNG 1.1 without SamplesPerPixel passes inspect --validate and converts")
    func machineVisionDNG() throws {
        let tmp = try TemporaryDirectory()
        let (without, _) = try Self.cases[0].files(in: tmp)
        let inspect = try CLI.run(["inspect", "--validate", without])
        #expect(inspect.exitStatus == 0, "\(inspect)")
        #expect(inspect.stdout.contains("Validation") && inspect.stdout.contains("OK"))
        let out = tmp.file("out.dng").path
        let convert = try CLI.run(["convert", without, "-o", out, "-q"])
        #expect(convert.exitStatus == 0, "\(convert)")
        #expect(FileManager.default.fileExists(atPath: out))
    }

    /// Independent readers agree that each file without a tag is the file with its default: LibRaw 0.22 (rawpy) and
    /// 0.20 (unprocessed_raw, raw-identify), dcraw and Adobe's DNG SDK (dngpy) read the same raw data and levels from
    /// both. The one exception is the SDK's: it finds no main image without NewSubFileType (TIFF's default is 0, which
    /// LibRaw, dcraw and rawburst take).
    @Test("LibRaw (0.20 and 0.22), dcraw and Adobe's SDK read each file without the tag as the file with its default",
          .enabled(if: ToolAvailability.hasPythonModules("numpy", "rawpy", "dngpy", "tifffile")
                   && ToolAvailability.has("dcraw") && ToolAvailability.has("raw-identify")
                   && ToolAvailability.has("unprocessed_raw")))
    func independentReadersAgree() throws {
        let tmp = try TemporaryDirectory()
        var pairs: [String] = []
        for c in Self.cases {
            let (without, with) = try c.files(in: tmp)
            pairs += [c.name, without, with]
        }
        let report = try Python.json(script: Self.externalCheck, arguments: pairs)
        for c in Self.cases {
            let r = try #require(report[c.name], "\(c.name)")
            // dngpyNotes: the SDK's errors and warnings (a crop without a margin warns about padding) are the same for
            // both, but for its warnings that a tag is missing ("Missing Orientation tag"), which say no more.
            let sdk = c.sdkNeedsTag ? ["dngpy": "without: ", "dngpyNotes": "without: "] : [:]
            for reader in ["rawpy", "libraw020", "identify", "dcraw", "dngpy", "dngpyNotes"] {
                let verdict = r[reader]?.string ?? "?"
                if let prefix = sdk[reader] {
                    #expect(verdict.hasPrefix(prefix) && verdict.contains("error code"), "\(c.name): \(reader): \(verdict)")
                } else {
                    #expect(verdict == "same", "\(c.name): \(reader): \(verdict)")
                }
            }
        }
    }

    /// For each (name, without, with): what each reader makes of the two files: "same" when both read and agree.
    static let externalCheck = """
        import sys, os, json, subprocess, tempfile, io, numpy as np, rawpy, dngpy, tifffile
        def rawpy_read(p):
            with rawpy.imread(p) as r:
                return (r.raw_image.copy(), list(r.black_level_per_channel), r.white_level, r.raw_pattern.tolist())
        # raw-identify's lines that only say a tag is present, not what LibRaw decodes from it
        echoes = ('Filename', 'BlackLevelRepeatDim', 'cblack[', 'DNG Illuminant', 'Baseline exposure')
        def identify(p):
            out = subprocess.run(['raw-identify', '-v', p], capture_output=True, text=True).stdout
            return [l for l in out.splitlines() if not l.startswith(echoes)]
        def libraw020(p):
            done = subprocess.run(['unprocessed_raw', '-T', p], capture_output=True, text=True)
            if done.returncode != 0: raise RuntimeError(done.stderr + done.stdout)
            return tifffile.imread(p + '.tiff')
        def dcraw(p):
            out = subprocess.run(['dcraw', '-4', '-D', '-T', '-c', p], capture_output=True)
            if out.returncode != 0 or not out.stdout: raise RuntimeError(out.stderr.decode())
            return tifffile.imread(io.BytesIO(out.stdout))
        def dng(p):
            log = tempfile.TemporaryFile()
            saved = os.dup(2); sys.stderr.flush(); os.dup2(log.fileno(), 2)
            try:
                d = dngpy.Dng(p); pixels = np.array(d.raw_pixels)
            finally:
                os.dup2(saved, 2); os.close(saved)
            log.seek(0)
            return pixels, log.read().decode(errors='replace')
        def compare(read, a, b, equal):
            try:
                x = read(a)
            except Exception as e:
                return 'without: ' + str(e)[:200]
            try:
                y = read(b)
            except Exception as e:
                return 'with: ' + str(e)[:200]
            return 'same' if equal(x, y) else 'different'
        def same(x, y):
            if isinstance(x, tuple):
                return all(same(p, q) for p, q in zip(x, y))
            if isinstance(x, np.ndarray):
                return x.shape == y.shape and bool(np.array_equal(x, y))
            return x == y
        args = sys.argv[1:]
        out = {}
        for i in range(0, len(args), 3):
            name, a, b = args[i:i + 3]
            r = {'rawpy': compare(rawpy_read, a, b, same), 'libraw020': compare(libraw020, a, b, same),
                 'identify': compare(identify, a, b, same),
                 'dcraw': compare(dcraw, a, b, same), 'dngpy': compare(lambda p: dng(p)[0], a, b, same)}
            notes = lambda p: [l for l in dng(p)[1].splitlines() if 'Error' in l or ('Warning' in l and 'Missing' not in l)]
            r['dngpyNotes'] = compare(notes, a, b, same)
            out[name] = r
        print(json.dumps(out))
        """
}
