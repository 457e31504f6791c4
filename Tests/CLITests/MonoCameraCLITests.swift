import Foundation
import TestSupport
import Testing

/// `rawburst capture --camera` from monochrome GenICam cameras: Aravis's in-process fake described as a 1280x1024
/// monochrome sensor (`samples/genicam/rawburst-fake-mono-camera.xml`, every sample a known function of its position
/// and frame id) in each of its eight formats (the stock GigE fake, which starts in Mono8: MonoGigECameraCLITests.swift).
/// Every DNG is read back with LibRaw (rawpy): one colour, each sample the one the camera sent.
@Suite(.enabled(if: Python.hasModule("rawpy") && Python.hasModule("numpy"), "rawpy and numpy are needed"))
struct MonoCameraCLITests {
    static let xml = TestPaths.samples.appendingPathComponent("genicam/rawburst-fake-mono-camera.xml").path
    static var environment: [String: String] { ["RAWBURST_FAKE_CAMERA_XML": xml] }

    /// The DNG tags that tell a monochrome DNG: the raw image's photometric interpretation, samples and bits, and the
    /// colour tags it must not have.
    static func expectMonochromeTags(_ path: String, bits: Int, _ label: String) throws {
        let tags = try ExifTool.tags(of: path, extraArguments: ["-n"])
        #expect(tags["SubIFD:PhotometricInterpretation"]?.int == 34892, "\(label): \(tags)")
        #expect(tags["SubIFD:SamplesPerPixel"]?.int == 1 && tags["SubIFD:BitsPerSample"]?.int == bits, "\(label)")
        for absent in ["SubIFD:CFAPattern", "SubIFD:CFARepeatPatternDim", "SubIFD:CFAPattern2", "IFD0:ColorMatrix1",
                       "IFD0:AsShotNeutral", "IFD0:CalibrationIlluminant1", "IFD0:ForwardMatrix1"] {
            #expect(tags[absent] == nil, "\(label): \(absent) = \(String(describing: tags[absent]))")
        }
    }

    /// Each format with the compression its DNGs are written with (all three kinds are exercised).
    static let formats: [(name: String, bits: Int, compression: String)] = [
        ("Mono8", 8, "none"), ("Mono10", 10, "packed"), ("Mono12", 12, "lj92"), ("Mono16", 16, "none"),
        ("Mono10p", 10, "lj92"), ("Mono12p", 12, "packed"), ("Mono10Packed", 10, "none"), ("Mono12Packed", 12, "lj92"),
    ]

    @Test("each monochrome format: one-colour DNGs whose every sample equals the pattern, white 2^bits - 1, zero copy",
          arguments: formats)
    func exactPixels(format: (name: String, bits: Int, compression: String)) throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--camera", "aravis:Fake_1", "--pixel-format", format.name, "--frames", "3",
                                  "--crop", "252x128+3+5", "--compression", format.compression, "--late", "wait",
                                  "-o", out.path, "--json"], timeout: 300, environment: Self.environment)
        #expect(result.exitStatus == 0, "\(result)")
        let books = try CameraCLITests.books(result.stdout)
        #expect(books.produced == 3 && books.written == [0, 1, 2] && books.drops.isEmpty, "\(books.drops)")
        // The camera wrote into pool slots and was unpacked where it lay, as for Bayer formats.
        let report = try JSONValue(parsing: Data(result.stdout.utf8))
        let memory = report["burst"]?["memory"]
        #expect((memory?["lentSlots"]?.int ?? 0) >= 4 && memory?["sourceBytes"]?.int == 0, "\(String(describing: memory))")
        let manifest = try JSONValue(parsing: Data(contentsOf: out.appendingPathComponent("manifest.json")))
        #expect(manifest["camera"]?["pixelFormat"]?.string == format.name && manifest["camera"]?["whiteBalance"] == nil)
        #expect(manifest["colorCalibration"]?["monochrome"]?.bool == true)
        let checked = try FakeCameraCLITests.check(out, numbers: books.written, bits: format.bits, region: (3, 5, 252, 128))
        FakeCameraCLITests.expectExact(checked.frames, format.name)
        #expect(checked.colors == 1 && checked.white == (1 << format.bits) - 1 && checked.shape == [128, 252])
        try Self.expectMonochromeTags(out.appendingPathComponent("camera-0000.dng").path,
                                      bits: Self.storedBits(manifest, number: 0, bits: format.bits), format.name)
        // 252 samples a row end on a byte at 10 and 12 bits: packed is packed (DNGWriter.packedDepth).
        #expect(manifest["frames"]?.array?.first?["compression"]?.string == format.compression)
    }

    @Test("colour options on a monochrome camera are said to have no effect, never refused; a Bayer format it lacks is")
    func colourOptions() throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let profile = TestPaths.samples.appendingPathComponent("genicam/rawburst-fake-camera-profile.json").path
        let result = try CLI.run(["capture", "--camera", "aravis:Fake_1", "--crop", "64x48+0+0", "--frames", "2", "--wb",
                                  "daylight", "--balance-ratio", "applied", "--profile", profile, "--late", "wait",
                                  "-o", out.path], timeout: 300, environment: Self.environment)
        #expect(result.exitStatus == 0, "\(result)")
        #expect(result.stderr.contains("Mono8 is monochrome: white balance (--wb), --balance-ratio, the profile's colour "
                                       + "matrices do not apply"), "\(result.stderr)")
        // The profile's levels still apply (black 64 and white 4095 of 12 bits, scaled to Mono8's 8: 4 and 255).
        let named = out.appendingPathComponent("camera-0000.dng")
        let manifest = try JSONValue(parsing: Data(contentsOf: out.appendingPathComponent("manifest.json")))
        try Self.expectMonochromeTags(named.path, bits: Self.storedBits(manifest, number: 0, bits: 8), "with colour options")
        let tags = try ExifTool.tags(of: named, extraArguments: ["-n"])
        #expect(tags["SubIFD:BlackLevel"]?.double == 4 && tags["SubIFD:WhiteLevel"]?.int == 255, "\(tags)")
        let refused = try CLI.run(["capture", "--camera", "aravis:Fake_1", "--pixel-format", "BayerRG12", "-o",
                                   tmp.url.appendingPathComponent("never").path], timeout: 60, environment: Self.environment)
        #expect(refused.exitStatus == 2 && refused.stderr.split(separator: "\n").count == 1, "\(refused)")
        #expect(refused.stderr.contains("does not offer BayerRG12 (it offers: Mono8, Mono10, Mono12, Mono16, Mono10p, "
                                        + "Mono12p, Mono10Packed, Mono12Packed)"), "\(refused.stderr)")
    }

    /// BitsPerSample of frame `number`'s DNG of `bits`-bit samples as the manifest says it was stored: 16
    /// uncompressed, the samples' own bits packed or in lossless JPEG.
    static func storedBits(_ manifest: JSONValue, number: Int, bits: Int) -> Int {
        let frame = manifest["frames"]?.array?.first { $0["sequenceNumber"]?.int == number }
        return frame?["compression"]?.string == "none" ? 16 : bits
    }

    /// Checks, with rawpy, that every pair of written frames two sequence numbers apart satisfies next(x, y) ==
    /// previous(x + 2, y) and that each DNG is one colour of `shape`; returns the number of pairs.
    static func checkShiftedPairs(_ directory: URL, written: [Int], shape: [Int]) throws -> Int {
        let result = try Python.json(script: """
            import json, sys, os, rawpy, numpy as np
            d, numbers = sys.argv[1], [int(n) for n in sys.argv[2].split(',')]
            frames, colors, shapes = {}, set(), set()
            for n in numbers:
                with rawpy.imread(os.path.join(d, 'camera-%04d.dng' % n)) as r:
                    frames[n] = r.raw_image.copy()
                    colors.add(int(r.num_colors))
                    shapes.add(tuple(r.raw_image.shape))
            pairs = [(n, n + 2) for n in numbers if n + 2 in frames]
            bad = [p for p in pairs if not np.array_equal(frames[p[1]][:, :-2], frames[p[0]][:, 2:])]
            print(json.dumps({'pairs': len(pairs), 'bad': bad, 'colors': sorted(colors), 'shapes': [list(s) for s in shapes],
                              'distinct': int(len(np.unique(frames[numbers[0]])))}))
            """, arguments: [directory.path, written.map(String.init).joined(separator: ",")], timeout: 300)
        #expect(result["bad"]?.array?.isEmpty == true, "pairs whose pattern does not follow: \(String(describing: result["bad"]))")
        #expect(result["colors"]?.array?.compactMap(\.int) == [1])
        #expect(result["shapes"]?.array?.map { $0.array?.compactMap(\.int) ?? [] } == [shape])
        // A ramp, not a flat frame (a shifted flat frame would pass the pair check).
        #expect((result["distinct"]?.int ?? 0) > 100)
        return Int(result["pairs"]?.int ?? 0)
    }
}
