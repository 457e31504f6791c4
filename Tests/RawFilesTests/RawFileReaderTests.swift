import Foundation
import RawCore
import RawDNG
@testable import RawFiles
import RawSimulator
import RawSources
import RawTIFF
import TestSupport
import Testing

/// `RawFileReader` against the real camera raws in `shared/samples-raw`, checked value by value and
/// against rawpy (which bundles LibRaw 0.22, an independent, newer decoder than Debian's LibRaw 0.20).
@Suite struct RawFileReaderTests {
    let reader = RawFileReader()

    /// Path of a shared sample; the samples are part of the test environment, so a missing one fails.
    static func sample(_ name: String) -> String {
        TestPaths.sharedSamples.appendingPathComponent(name).path
    }

    static let realSamples = ["canon-powershot-g2.crw", "kodak-dc120.kdc", "kodak-dc120-jpeg.kdc",
                              "canon-550d-magiclantern.dng"]

    // MARK: - Against rawpy

    /// Dumps what rawpy sees, and raw_image as little-endian 16-bit samples into argv[2].
    static let rawpyScript = """
        import sys, json, rawpy, numpy as np
        with rawpy.imread(sys.argv[1]) as r:
            img = np.ascontiguousarray(r.raw_image, dtype='<u2')
            img.tofile(sys.argv[2])
            s = r.sizes
            print(json.dumps(dict(
                raw_width=int(s.raw_width), raw_height=int(s.raw_height), width=int(s.width), height=int(s.height),
                top_margin=int(s.top_margin), left_margin=int(s.left_margin), pixel_aspect=float(s.pixel_aspect),
                shape=list(img.shape), raw_pattern=r.raw_pattern.tolist(), color_desc=r.color_desc.decode('ascii'),
                black_level_per_channel=[int(x) for x in r.black_level_per_channel],
                white_level=int(r.white_level), camera_whitebalance=[float(x) for x in r.camera_whitebalance],
                daylight_whitebalance=[float(x) for x in r.daylight_whitebalance],
                max=int(img.max()))))
        """

    @Test(.enabled(if: ToolAvailability.hasPythonModules("rawpy", "numpy")), arguments: realSamples)
    func matchesRawpy(_ name: String) throws {
        let path = Self.sample(name)
        let tmp = try TemporaryDirectory()
        let pixelsFile = tmp.file("raw_image.u16")
        let ref = try Python.json(script: Self.rawpyScript, arguments: [path, pixelsFile.path])
        let image = try reader.read(path: path)
        let frame = image.frame

        #expect(frame.width == ref["raw_width"]?.int)
        #expect(frame.height == ref["raw_height"]?.int)
        #expect(ref["shape"]?.numbers == [Double(frame.height), Double(frame.width)])
        #expect(frame.activeArea.top == ref["top_margin"]?.int)
        #expect(frame.activeArea.left == ref["left_margin"]?.int)
        #expect(frame.activeArea.height == ref["height"]?.int)
        #expect(frame.activeArea.width == ref["width"]?.int)

        // CFA letters and per-position black levels, both relative to the active area's top-left.
        let desc = Array(try #require(ref["color_desc"]?.string))
        let pattern = try #require(ref["raw_pattern"]?.array).map { row in (row.numbers ?? []).map { Int($0) } }
        #expect(pattern.count == 2 && pattern.allSatisfy { $0.count == 2 })
        let blacks = try #require(ref["black_level_per_channel"]?.numbers)
        for r in 0..<pattern.count {
            for c in 0..<pattern[r].count {
                let index = pattern[r][c]
                #expect(frame.cfa.color(row: r, column: c).letter == desc[index], "CFA at \(r),\(c)")
                #expect(frame.blackLevels.level(row: r, column: c) == blacks[index], "black at \(r),\(c)")
            }
        }
        #expect(Double(frame.whiteLevel) == ref["white_level"]?.double)
        let largest = try #require(ref["max"]?.int)
        #expect((1 << frame.bitsPerSample) - 1 >= max(Int(frame.whiteLevel), largest))
        #expect((1 << (frame.bitsPerSample - 1)) - 1 < max(Int(frame.whiteLevel), largest) || frame.bitsPerSample == 8)

        // Pixels: bit-exact over the whole buffer, masked areas included.
        let expected = try Data(contentsOf: pixelsFile)
        #expect(expected.count == frame.width * frame.height * 2)
        #expect(frame.rowStride == frame.width)
        let same = expected.withUnsafeBytes { ref in
            ref.count == frame.storage.count * 2 && memcmp(ref.baseAddress!, frame.storage.baseAddress, ref.count) == 0
        }
        #expect(same, "raw_image differs from rawpy's")

        // White balance as shot, for the non-DNG sources (a DNG's own AsShotNeutral tag is exact).
        let wb = try #require(ref["camera_whitebalance"]?.numbers)
        if !name.hasSuffix(".dng") {
            let neutral = try #require(image.calibration?.asShotNeutral)
            if wb.prefix(3).allSatisfy({ $0 > 0 }) {
                for c in 0..<3 { #expect(abs(neutral[c] - wb[1] / wb[c]) < 1e-9) }
            } else {
                // No white balance in the file: LibRaw's pre-multipliers (its daylight balance) stand in for it.
                let daylight = try #require(ref["daylight_whitebalance"]?.numbers)
                for c in 0..<3 { #expect(abs(neutral[c] - daylight[1] / daylight[c]) < 1e-6) }
            }
        }
        let aspect = try #require(ref["pixel_aspect"]?.double)
        #expect(abs(frame.defaultScale.horizontal * frame.defaultScale.vertical - max(aspect, 1 / aspect)) < 1e-9)
    }

    // MARK: - Per-camera values

    @Test func canonPowerShotG2() throws {
        let image = try reader.read(path: Self.sample("canon-powershot-g2.crw"))
        let f = image.frame
        #expect((f.width, f.height) == (2376, 1728))
        #expect(f.activeArea == (try PixelRect(top: 6, left: 12, height: 1720, width: 2312)))
        #expect(f.cfa == .rggb)
        #expect(f.blackLevels == (try BlackLevels(rows: 2, columns: 2, values: [32, 32, 32, 32])))
        #expect(f.whiteLevel == 1023)
        #expect(f.bitsPerSample == 10)
        // LibRaw's visible area, with the 2-px margin a DNG keeps for demosaicing (DNGCropMargin).
        #expect(f.defaultCrop == (try PixelRect(top: 2, left: 2, height: 1716, width: 2308)))
        #expect(f.defaultScale == (1, 1))
        // A sample inside the active area, and the masked-border sum LibRaw measured black from.
        #expect(f[6, 12] == f.storage.baseAddress[6 * 2376 + 12])

        let m = image.metadata
        #expect(m.make == "Canon")
        #expect(m.model == "PowerShot G2")
        #expect(m.serialNumber == "1135763910")
        #expect(m.lens == nil)
        #expect(m.iso == 50)
        #expect(abs((m.exposureTime ?? 0) - 0.019829) < 1e-5)
        #expect(m.fNumber == 4)
        #expect(m.focalLength == 7)
        #expect(m.orientation == .normal)
        #expect(m.captureTime?.exifDateTime == "2022:01:20 08:13:24")
        #expect(m.captureTime?.utcOffsetSeconds == nil)
        #expect(m.gps == nil)

        let cal = try #require(image.calibration)
        #expect(cal.illuminant1 == .d65)
        #expect(cal.colorMatrix1.rows == 3)
        let expectedMatrix = [0.9194, -0.2787, -0.1059, -0.8098, 1.5657, 0.2608, -0.2610, 0.3064, 0.7867]
        for (a, b) in zip(cal.colorMatrix1.values, expectedMatrix) { #expect(abs(a - b) < 1e-6) }
        #expect(cal.colorMatrix2 == nil)
        #expect(cal.forwardMatrix1 == nil)
        let neutral = try #require(cal.asShotNeutral)
        #expect(abs(neutral[0] - 1036.0 / 1687.0) < 1e-9 && neutral[1] == 1 && abs(neutral[2] - 1036.0 / 1655.0) < 1e-9)
        #expect(cal.baselineExposure == 0)
    }

    @Test func kodakDC120NonSquarePixels() throws {
        let image = try reader.read(path: Self.sample("kodak-dc120.kdc"))
        let f = image.frame
        #expect((f.width, f.height) == (848, 976))
        #expect(f.activeArea == (try PixelRect.whole(width: 848, height: 976)))
        #expect(f.cfa == .grbg)
        #expect(f.blackLevels.values == [0, 0, 0, 0])
        #expect(f.whiteLevel == 255)
        #expect(f.bitsPerSample == 8)
        // Displayed 1301x976: pixels are 1.5346 times wider than high.
        #expect(abs(f.defaultScale.horizontal - 1.534591194968553) < 1e-9)
        #expect(f.defaultScale.vertical == 1)
        #expect(Int((Double(f.activeArea.width) * f.defaultScale.horizontal).rounded()) == 1301)
        #expect(image.metadata.make == "Kodak")
        #expect(image.metadata.model == "DC120")
        #expect(image.metadata.iso == 160)
        #expect(image.metadata.fNumber == 4)
        #expect(image.metadata.focalLength == 37)
        #expect(image.metadata.captureTime?.exifDateTime == "1994:01:02 15:52:32")
        // LibRaw knows no colour matrix and no white balance for this camera: the stand-in, with LibRaw's
        // pre-multipliers (1, 1, 1) as the neutral.
        #expect(image.calibration == .standIn)
    }

    @Test func kodakDC120JPEG() throws {
        let image = try reader.read(path: Self.sample("kodak-dc120-jpeg.kdc"))
        #expect(image.frame.cfa == .grbg)
        // LibRaw's Kodak JPEG decoder doubles the 8-bit range: white 510, so 9 significant bits.
        #expect(image.frame.whiteLevel == 510)
        #expect(image.frame.bitsPerSample == 9)
        #expect(abs(image.frame.defaultScale.horizontal - 1.534591194968553) < 1e-9)
        #expect(image.metadata.fNumber.map { abs($0 - 3.7) < 1e-6 } == true)
        #expect(image.calibration == .standIn)
    }

    @Test func canon550DMagicLanternDNG() throws {
        let image = try reader.read(path: Self.sample("canon-550d-magiclantern.dng"))
        let f = image.frame
        #expect((f.width, f.height) == (1888, 1182))
        // DNG ActiveArea 26,152,1182,1886 (top, left, bottom, right).
        #expect(f.activeArea == (try PixelRect(top: 26, left: 152, height: 1156, width: 1734)))
        #expect(f.cfa == .rggb)
        #expect(f.blackLevels == (try BlackLevels(rows: 2, columns: 2, values: [2056, 2056, 2056, 2056])))
        #expect(f.whiteLevel == 15000)
        #expect(f.bitsPerSample == 14)
        #expect(f.defaultCrop == (try PixelRect(top: 0, left: 0, height: 1156, width: 1734)))
        #expect(image.metadata.make == "Canon")
        #expect(image.metadata.model == "EOS Kiss X4")
        #expect(image.metadata.captureTime == nil)
        let cal = try #require(image.calibration)
        let expectedMatrix = [0.6461, -0.1164, -0.0857, -0.3825, 1.1597, 0.2534, -0.0416, 0.1540, 0.6039]
        for (a, b) in zip(cal.colorMatrix1.values, expectedMatrix) { #expect(abs(a - b) < 1e-6) }
        #expect(cal.illuminant1 == .unknown)
        #expect(cal.colorMatrix2 == nil)
    }

    // MARK: - DNG tags LibRaw does not expose

    /// The G2 frame with every tag the DNG path must carry: crop, mirrored orientation, EXIF time with
    /// milliseconds and offset, lens, serial, focus distance, GPS, two matrices, forward matrices.
    static func richImage(from source: RawImage) throws -> RawImage {
        let f = source.frame
        let frame = try RawFrame(width: f.width, height: f.height, rowStride: f.rowStride, storage: f.storage,
                                 cfa: f.cfa, activeArea: f.activeArea,
                                 defaultCrop: try PixelRect(top: 8, left: 10, height: 1700, width: 2290),
                                 defaultScale: (1, 1), blackLevels: f.blackLevels, whiteLevel: f.whiteLevel,
                                 bitsPerSample: f.bitsPerSample)
        var m = source.metadata
        m.captureTime = try CaptureTime(exifDateTime: "2026:11:22 14:03:07", subSeconds: "125", offset: "-03:30")
        m.lens = "Zoom Lens 7-21mm"
        m.serialNumber = "SN-0042"
        m.focusDistance = try .finite(2.5)
        m.orientation = .mirrorHorizontalRotate90
        m.gps = try GPSFix(latitude: -33.856_8, longitude: 151.215_3, altitude: -12.5,
                           timestampMilliseconds: 1_795_356_187_500)
        try m.setISO(200)
        try m.setExposureTime(1.0 / 250)
        try m.setFNumber(5.6)
        try m.setFocalLength(10.5)
        let cm1 = try ColorMatrix([0.9194, -0.2787, -0.1059], [-0.8098, 1.5657, 0.2608], [-0.2610, 0.3064, 0.7867])
        let cm2 = try ColorMatrix([1.0, -0.3, -0.1], [-0.7, 1.5, 0.2], [-0.2, 0.25, 0.75])
        let fm1 = try ColorMatrix([0.6, 0.3, 0.1], [0.25, 0.7, 0.05], [0.0, 0.1, 0.725])
        let fm2 = try ColorMatrix([0.55, 0.35, 0.1], [0.2, 0.75, 0.05], [0.0, 0.05, 0.775])
        let calibration = try ColorCalibration(colorMatrix1: cm1, illuminant1: .standardLightA, colorMatrix2: cm2,
                                               illuminant2: .d65, forwardMatrix1: fm1, forwardMatrix2: fm2,
                                               asShotNeutral: [0.5, 1, 0.625], baselineExposure: 0.35)
        return RawImage(frame: frame, metadata: m, calibration: calibration)
    }

    @Test func dngWrittenByRawDNGReadsBackEveryTag() throws {
        let original = try Self.richImage(from: reader.read(path: Self.sample("canon-powershot-g2.crw")))
        let tmp = try TemporaryDirectory()
        let path = tmp.file("rich.dng").path
        try DNGWriter().write(original, to: path)
        let back = try reader.read(path: path)

        let (a, b) = (original.frame, back.frame)
        #expect((b.width, b.height) == (a.width, a.height))
        #expect(b.activeArea == a.activeArea)
        #expect(b.defaultCrop == a.defaultCrop)
        #expect(b.defaultScale == a.defaultScale)
        #expect(b.cfa == a.cfa)
        #expect(b.blackLevels.values.allSatisfy { $0 == 32 })
        #expect(b.whiteLevel == a.whiteLevel)
        #expect(b.bitsPerSample == a.bitsPerSample)
        #expect(memcmp(a.storage.baseAddress, b.storage.baseAddress, a.storage.count * 2) == 0)

        let (m, n) = (original.metadata, back.metadata)
        #expect(n.make == m.make)
        #expect(n.model == m.model)
        #expect(n.captureTime == m.captureTime)
        #expect(n.captureTime?.description == "2026-11-22T14:03:07.125-03:30")
        #expect(n.lens == m.lens)
        #expect(n.serialNumber == m.serialNumber)
        #expect(n.focusDistance == m.focusDistance)
        #expect(n.orientation == .mirrorHorizontalRotate90)
        #expect(n.iso == 200)
        #expect(n.exposureTime.map { abs($0 - 0.004) < 1e-9 } == true)
        #expect(n.fNumber.map { abs($0 - 5.6) < 1e-9 } == true)
        #expect(n.focalLength.map { abs($0 - 10.5) < 1e-9 } == true)
        let fix = try #require(n.gps)
        #expect(abs(fix.latitude - -33.856_8) < 1e-7)
        #expect(abs(fix.longitude - 151.215_3) < 1e-7)
        #expect(fix.altitude.map { abs($0 - -12.5) < 1e-6 } == true)
        #expect(fix.timestampMilliseconds == 1_795_356_187_500)

        let (c, d) = (try #require(original.calibration), try #require(back.calibration))
        func close(_ x: ColorMatrix?, _ y: ColorMatrix?) -> Bool {
            guard let x, let y else { return x == nil && y == nil }
            return x.rows == y.rows && x.columns == y.columns && zip(x.values, y.values).allSatisfy { abs($0 - $1) < 1e-6 }
        }
        #expect(close(d.colorMatrix1, c.colorMatrix1))
        #expect(close(d.colorMatrix2, c.colorMatrix2))
        #expect(close(d.forwardMatrix1, c.forwardMatrix1))
        #expect(close(d.forwardMatrix2, c.forwardMatrix2))
        #expect(d.illuminant1 == .standardLightA)
        #expect(d.illuminant2 == .d65)
        #expect(d.asShotNeutral.map { zip($0, [0.5, 1, 0.625]).allSatisfy { abs($0 - $1) < 1e-6 } } == true)
        #expect(abs(d.baselineExposure - 0.35) < 1e-6)
    }

    @Test func dngKeepsNonSquarePixels() throws {
        let original = try reader.read(path: Self.sample("kodak-dc120.kdc"))
        let tmp = try TemporaryDirectory()
        let path = tmp.file("kodak.dng").path
        try DNGWriter().write(original, to: path)
        let back = try reader.read(path: path)
        #expect(abs(back.frame.defaultScale.horizontal - original.frame.defaultScale.horizontal) < 1e-6)
        #expect(back.frame.defaultScale.vertical == 1)
        #expect(back.frame.cfa == .grbg)
        #expect(memcmp(original.frame.storage.baseAddress, back.frame.storage.baseAddress, 848 * 976 * 2) == 0)
    }

    // MARK: - Direct read of uncompressed DNGs

    /// DNGs the direct path takes: every CFA layout and depth the writer makes, non-square pixels, a simulator
    /// frame with all its tags, and Magic Lantern's packed 14-bit strips (unpacked by `PackedSamples` since issue
    /// #18: a packed file from a writer nobody here wrote, compared with LibRaw's own unpacking).
    static func directReadCases(in tmp: TemporaryDirectory) throws -> [(path: String, direct: Bool)] {
        var cases: [(String, Bool)] = []
        for (cfa, bits) in [(CFALayout.rggb, 10), (.grbg, 12), (.gbrg, 14), (.bggr, 16), (.xTrans, 14)] {
            let path = tmp.file("synthetic-\(cfa)-\(bits).dng").path
            try DNGWriter().write(try SyntheticRaw.image(cfa: cfa, bits: bits, width: 312, height: 204), to: path)
            cases.append((path, true))
        }
        let rich = tmp.file("rich.dng").path
        try DNGWriter().write(try Self.richImage(from: RawFileReader().read(path: Self.sample("canon-powershot-g2.crw"))),
                              to: rich)
        let kodak = tmp.file("kodak.dng").path
        try DNGWriter().write(try RawFileReader().read(path: Self.sample("kodak-dc120.kdc")), to: kodak)
        let sensor = try SimulatedSensor(profile: SensorProfile.builtIn(named: "phone-front")!,
                                         scene: SceneCatalog.scene(named: "depth"), seed: 3)
        try sensor.configure(CaptureSettings(iso: 400, shutter: 1.0 / 120, focus: .metres(1)))
        let simulated = tmp.file("phone-front.dng").path
        try DNGWriter().write(try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame)).image, to: simulated)
        return cases + [(rich, true), (kodak, true), (simulated, true), (Self.sample("canon-550d-magiclantern.dng"), true)]
    }

    @Test("uncompressed DNGs read from the file bytes give exactly the frame, metadata and calibration LibRaw's unpack gives")
    func directReadMatchesLibRaw() throws {
        let tmp = try TemporaryDirectory()
        for (path, direct) in try Self.directReadCases(in: tmp) {
            let name = (path as NSString).lastPathComponent
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let facts = try #require(try TIFFRawFacts.inspect(path: path, head: [UInt8](bytes.prefix(16))))
            #expect((UncompressedCFASamples(facts) != nil) == direct, "\(name): direct read \(direct ? "not " : "")taken")
            let fast = try RawFileReader().read(path: path)
            let slow = try RawFileReader(readsUncompressedDNGDirectly: false).read(path: path)
            let (a, b) = (fast.frame, slow.frame)
            #expect((a.width, a.height, a.rowStride) == (b.width, b.height, b.rowStride), "\(name)")
            #expect(a.activeArea == b.activeArea && a.defaultCrop == b.defaultCrop && a.cfa == b.cfa, "\(name)")
            #expect(a.defaultScale == b.defaultScale, "\(name)")
            #expect(a.blackLevels == b.blackLevels && a.whiteLevel == b.whiteLevel && a.bitsPerSample == b.bitsPerSample,
                    "\(name): levels \(a.blackLevels.values) \(a.whiteLevel) vs \(b.blackLevels.values) \(b.whiteLevel)")
            #expect(a.storage.count == b.storage.count
                    && memcmp(a.storage.baseAddress, b.storage.baseAddress, a.storage.count * 2) == 0, "\(name): samples differ")
            #expect(fast.metadata == slow.metadata, "\(name)")
            #expect(fast.calibration == slow.calibration, "\(name)")
        }
    }

    /// A strip that lies past the end or holds too few bytes leaves the read to LibRaw and the TIFF checks
    /// (which report the cut file), never to a copy out of bounds.
    @Test func directReadRefusesShortStrips() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("whole.dng").path
        try DNGWriter().write(SyntheticRaw.image(cfa: .rggb, bits: 12, width: 256, height: 512), to: path)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let structure = try TIFFStructure(bytes: bytes)
        let raw = try #require(structure.rawDirectory)
        #expect(UncompressedCFASamples(TIFFRawFacts(structure: structure)) != nil)
        // The last strip's byte count one short of its rows.
        var short = bytes
        let counts = try #require(raw[TIFFTag.stripByteCounts])
        let entries = try #require(raw.integers(TIFFTag.stripByteCounts))
        let size = counts.rawValue.count / counts.count   // 2 (SHORT) or 4 (LONG) bytes per count
        let last = (counts.valueOffset ?? counts.position + 8) + size * (entries.count - 1)
        let value = entries.last! - 1
        for k in 0..<size { short[last + k] = UInt8((value >> (8 * k)) & 0xFF) }
        let shortStructure = try TIFFStructure(bytes: short)
        #expect(shortStructure.rawDirectory?.integers(TIFFTag.stripByteCounts)?.last == value)
        #expect(UncompressedCFASamples(TIFFRawFacts(structure: shortStructure)) == nil)
        // The file one byte short of the last strip's end.
        let cut = Array(bytes.prefix(structure.dataSegments.filter { $0.directory == raw.path }.map(\.end).max()! - 1))
        if let cutStructure = try? TIFFStructure(bytes: cut) {
            #expect(UncompressedCFASamples(TIFFRawFacts(structure: cutStructure)) == nil)
        }
    }

    // MARK: - Errors

    /// Reads `path` and returns the error it must throw.
    func failure(_ path: String) throws -> RawReadError {
        switch Result(catching: { () throws(RawReadError) in try reader.read(path: path) }) {
        case .success(let image):
            Issue.record("\(path) read as a \(image.frame.width)x\(image.frame.height) frame instead of failing")
            throw CancellationError()
        case .failure(let error):
            #expect(error.path == path)
            #expect(error.description == "\(path): \(error.detail)")
            #expect(!error.detail.contains("\n"))
            return error
        }
    }

    @Test func missingFile() throws {
        let error = try failure(Self.sample("no-such-file.cr2"))
        #expect(error.kind == .fileNotFound)
        #expect(error.detail == "no such file")
    }

    @Test func directory() throws {
        let error = try failure(Self.sample("stubs"))
        #expect(error.kind == .notReadable)
        #expect(error.detail == "is a directory")
    }

    @Test func textFileIsNotARaw() throws {
        let tmp = try TemporaryDirectory()
        let file = tmp.file("notes.dng")
        try Data("This is a text file, not a photograph.\n".utf8).write(to: file)
        let error = try failure(file.path)
        #expect(error.kind == .notARaw)
        #expect(error.detail == "not a raw file LibRaw recognises")
    }

    @Test func emptyFileIsNotARaw() throws {
        let tmp = try TemporaryDirectory()
        let file = tmp.file("empty.nef")
        try Data().write(to: file)
        #expect(try failure(file.path).kind == .notARaw)
    }

    @Test func headerOnlyRAFIsTruncated() throws {
        let error = try failure(Self.sample("stubs/header-only.raf"))
        #expect(error.kind == .truncated)
        #expect(error.detail == "image data ends at byte 116335104 but the file has only 128 bytes")
    }

    /// Every cut copy of a real raw is reported as truncated; damaged headers never crash the reader.
    @Test(arguments: realSamples) func cutAndDamagedCopies(_ name: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.sample(name)))
        let tmp = try TemporaryDirectory()
        for fraction in [0.001, 0.01, 0.1, 0.5, 0.9, 0.999] {
            let path = tmp.file("cut-\(fraction)-\(name)").path
            try data.prefix(Int(Double(data.count) * fraction)).write(to: URL(fileURLWithPath: path))
            let error = try failure(path)
            #expect(error.kind == .truncated, "\(fraction): \(error)")
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for round in 0..<16 {
            var damaged = [UInt8](data)
            for _ in 0..<8 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                damaged[Int(state >> 33) % min(damaged.count, 4096)] = UInt8(truncatingIfNeeded: state >> 20)
            }
            let path = tmp.file("damaged-\(round)-\(name)").path
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            // Either outcome is fine; what matters is an answer instead of a crash.
            _ = try? reader.read(path: path)
        }
    }

    /// The stubs on which LibRaw 0.20 returns success and zero-fills, the cut NEF and the GoPro VC-5 file:
    /// each refused with its own one-line reason, before LibRaw decodes anything.
    @Test(arguments: [
        ("stubs/truncated-canon-350d.dng", RawReadError.Kind.truncated, "image data has 1 of 140 tiles (the file was cut short)"),
        ("stubs/truncated-panasonic-lx3.rw2", .truncated,
         "image data starts at byte 4294967295 but the file has only 12344 bytes (1 strip of IFD0 missing or cut)"),
        ("stubs/truncated-nikon-d70.nef", .truncated,
         "image data is 18 bytes, too few for a 3040x2014 image (at least 765320): the file was cut short"),
        ("gopro-hero7.gpr", .unsupported,
         "unsupported compression: the DNG's raw image uses compression 9, GoPro VC-5, which LibRaw 0.20 cannot decode"),
    ])
    func refusedSamples(_ name: String, _ kind: RawReadError.Kind, _ detail: String) throws {
        let error = try failure(Self.sample(name))
        #expect(error.kind == kind)
        #expect(error.detail == detail)
    }

    /// A DNG of our own with one strip cut off the end, and one whose strip count was lowered in place.
    @Test func cutDNGOfOurOwn() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("whole.dng").path
        try DNGWriter().write(SyntheticRaw.image(cfa: .gbrg, bits: 12, width: 512, height: 4096), to: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let structure = try TIFFStructure(data: data)
        let raw = try #require(structure.rawDirectory)
        let strips = try #require(raw.integers(TIFFTag.stripOffsets))
        #expect(strips.count > 1)
        // Cut inside the last strip: the raw directory, written after its strips, goes with it.
        let lastEnd = structure.dataSegments.filter { $0.directory == raw.path }.map(\.end).max()!
        let cut = tmp.file("cut.dng").path
        try data.prefix(lastEnd - 1000).write(to: URL(fileURLWithPath: cut))
        let error = try failure(cut)
        #expect(error.kind == .truncated)
        #expect(error.detail.hasPrefix("the file was cut short: IFD0.SubIFD0: directory at offset "), "\(error)")

        // The directory intact but one strip fewer listed than the image needs.
        var fewer = [UInt8](data)
        let entry = try #require(raw[TIFFTag.stripOffsets])
        let countPosition = entry.position + 4
        let count = Int(fewer[countPosition]) | Int(fewer[countPosition + 1]) << 8
        #expect(count == strips.count)
        fewer[countPosition] = UInt8((count - 1) & 0xFF)
        fewer[countPosition + 1] = UInt8((count - 1) >> 8)
        let missing = tmp.file("missing-strip.dng").path
        try Data(fewer).write(to: URL(fileURLWithPath: missing))
        let error2 = try failure(missing)
        #expect(error2.kind == .truncated)
        #expect(error2.detail == "image data has \(count - 1) of \(count) strips (the file was cut short)")
    }

    /// A DNG from an independent writer (PiDNG: raw in IFD0, one tile, bit-packed 10 and 12 bits) reads
    /// with exactly the samples, levels, pattern and calibration it was written with.
    @Test(.enabled(if: ToolAvailability.hasPythonModules("pidng", "numpy")),
          arguments: [("RGGB", 10), ("GRBG", 12), ("GBRG", 16), ("BGGR", 10)])
    func pidngSource(_ pattern: String, _ bits: Int) throws {
        let tmp = try TemporaryDirectory()
        let fixture = try PiDNG.make(in: tmp.url, pattern: pattern, bits: bits, width: 128, height: 80, seed: 7)
        let image = try reader.read(path: fixture.dng.path)
        let f = image.frame
        #expect((f.width, f.height) == (128, 80))
        #expect(f.cfa == (try CFALayout(pattern)))
        #expect(f.whiteLevel == UInt32(fixture.white))
        #expect(f.blackLevels.values.allSatisfy { $0 == Double(fixture.black) })
        #expect(f.activeSamples() == fixture.samples)
        #expect(image.metadata.make == "PiDNG")
        let cal = try #require(image.calibration)
        #expect(cal.colorMatrix1.values == [1.9549, -0.7877, -0.2582, -0.5724, 1.0121, 0.1917, -0.1267, -0.011, 0.6621])
        #expect(cal.illuminant1 == .d65)
        #expect(cal.asShotNeutral == [0.5, 1, 2.0 / 3])
        #expect(cal.baselineExposure == -1.5)
    }

    // MARK: - Concurrency

    @Test func parallelReadsMatchSequentialOnes() async throws {
        let names = ["canon-powershot-g2.crw", "canon-550d-magiclantern.dng", "kodak-dc120.kdc",
                     "canon-powershot-g2.crw", "canon-550d-magiclantern.dng", "kodak-dc120-jpeg.kdc"]
        let sequential = try names.map { try reader.read(path: Self.sample($0)).frame.activeSamples() }
        let shared = reader
        let parallel = try await withThrowingTaskGroup(of: (Int, [UInt16]).self) { group in
            for (i, name) in names.enumerated() {
                group.addTask { (i, try shared.read(path: Self.sample(name)).frame.activeSamples()) }
            }
            var out = [[UInt16]](repeating: [], count: names.count)
            for try await (i, samples) in group { out[i] = samples }
            return out
        }
        #expect(parallel == sequential)
    }

    // MARK: - Helpers

    @Test func periodFinder() {
        let bayer: [Int] = (0..<8).flatMap { r in (0..<8).map { c in (r % 2) * 2 + c % 2 } }
        #expect(PeriodFinder.smallestPeriod(of: bayer, rows: 8, columns: 8, limit: 4) == (2, 2))
        let stripes: [Int] = (0..<12).flatMap { r in (0..<12).map { _ in r % 3 } }
        #expect(PeriodFinder.smallestPeriod(of: stripes, rows: 12, columns: 12, limit: 16) == (3, 1))
        #expect(PeriodFinder.lcm(6, 4) == 12)
    }

    @Test func defaultScaleFromPixelAspect() {
        #expect(RawFrameParts.defaultScale(pixelAspect: 1) == (1, 1))
        #expect(RawFrameParts.defaultScale(pixelAspect: 2) == (2, 1))
        #expect(RawFrameParts.defaultScale(pixelAspect: 0.5) == (1, 2))
        #expect(RawFrameParts.defaultScale(pixelAspect: .nan) == (1, 1))
    }

    @Test func asShotNeutralFromMultipliers() {
        #expect(LibRawMetadata.asShotNeutral(cameraMultipliers: [2, 1, 4]) == [0.5, 1, 0.25])
        #expect(LibRawMetadata.asShotNeutral(cameraMultipliers: [0, 1, 0]) == nil)
        #expect(LibRawMetadata.asShotNeutral(cameraMultipliers: [1, 1]) == nil)
    }
}
