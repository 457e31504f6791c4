import Foundation
import RawCore
import RawDNG
import RawDevelop
@testable import RawImageIO
import TestSupport
import Testing

/// JPEGs encoded in bands on several cores and joined (JPEGEncoder, JPEGBandJoiner).
@Suite("JPEG encoded in bands")
struct JPEGBandTests {
    /// Textured 8-bit samples (ramps and a deterministic noise), so that every MCU row codes differently.
    static func image(width: Int, height: Int) throws -> DevelopedImage {
        var rng = SplitMix64(seed: UInt64(width * 7919 + height))
        var s = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                let n = UInt8(truncatingIfNeeded: rng.next() & 31)
                s[i] = UInt8(truncatingIfNeeded: x * 255 / max(1, width - 1)) &+ n
                s[i + 1] = UInt8(truncatingIfNeeded: y * 255 / max(1, height - 1)) &- n
                s[i + 2] = UInt8(truncatingIfNeeded: (x ^ y) & 0xFF)
            }
        }
        return try DevelopedImage(width: width, height: height, samples: .uint8(s), colorSpace: .sRGB,
                                  metadata: EncoderFixtures.metadata())
    }

    @Test("bands joined are byte for byte the single pass with the same restart interval",
          arguments: [(173, 1000), (64, 2049), (301, 300), (40, 129), (517, 1536)])
    func bandsEqualOnePass(width: Int, height: Int) throws {
        let image = try Self.image(width: width, height: height)
        let encoder = JPEGEncoder(quality: 90)
        let reference = try encoder.encode(image, bands: 1)
        for bands in [2, 3, 5] {
            let joined = try encoder.encode(image, bands: bands)
            #expect(joined == reference, "\(width)x\(height) in \(bands) bands: \(joined.count) vs \(reference.count) bytes")
        }
    }

    @Test("a banded JPEG decodes (libjpeg, Pillow) to exactly the pixels of one pass without restart markers",
          .enabled(if: ToolAvailability.hasPythonModules("PIL", "numpy")))
    func bandsDecodeLikeOnePass() throws {
        let tmp = try TemporaryDirectory()
        let image = try Self.image(width: 333, height: 1100)
        let encoder = JPEGEncoder(quality: 85)
        let plain = try encoder.encode(image, bands: 0), banded = try encoder.encode(image, bands: 3)
        #expect(plain != banded)
        // Restart markers: none in one pass, one after every MCU row but the last with bands (RST0...RST7 in turn).
        func restarts(_ bytes: [UInt8]) -> [UInt8] {
            (0..<(bytes.count - 1)).compactMap { bytes[$0] == 0xFF && (0xD0...0xD7).contains(bytes[$0 + 1]) ? bytes[$0 + 1] : nil }
        }
        #expect(restarts(plain).isEmpty)
        let mcuRows = (1100 + 15) / 16
        #expect(restarts(banded) == (0..<(mcuRows - 1)).map { 0xD0 + UInt8($0 % 8) })
        try Data(plain).write(to: tmp.file("plain.jpg"))
        try Data(banded).write(to: tmp.file("banded.jpg"))
        let a = try ImageFileReader.read(path: tmp.file("plain.jpg").path)
        let b = try ImageFileReader.read(path: tmp.file("banded.jpg").path)
        #expect(a.width == 333 && a.height == 1100 && a.samples == b.samples)
        let info = try Python.json(script: """
            import json, sys, numpy
            from PIL import Image
            a = numpy.asarray(Image.open(sys.argv[1]).convert("RGB")).astype(int)
            b = numpy.asarray(Image.open(sys.argv[2]).convert("RGB")).astype(int)
            print(json.dumps({"shape": list(b.shape), "maxdiff": int(abs(a - b).max())}))
            """, arguments: [tmp.file("plain.jpg").path, tmp.file("banded.jpg").path])
        #expect(info["shape"]?.numbers == [1100, 333, 3] && info["maxdiff"]?.int == 0, "\(info)")
    }

    @Test("fewer than 1024 rows: one pass without restart markers")
    func shortImagesHaveNoRestartMarkers() throws {
        let bytes = try JPEGEncoder(quality: 90).encode(try Self.image(width: 120, height: 1000))
        // Neither a restart interval (DRI, FF DD) nor restart markers (FF D0...D7).
        let markers = (0..<(bytes.count - 1)).filter { bytes[$0] == 0xFF && (0xD0...0xD7).contains(bytes[$0 + 1]) }
        let intervals = (0..<(bytes.count - 1)).filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDD }
        #expect(markers.isEmpty && intervals.isEmpty, "\(markers.count) restart markers, \(intervals.count) DRI")
    }

    @Test("the joiner refuses bands that are not JPEGs or do not start on 128-row boundaries")
    func joinerRefusesBadBands() throws {
        let image = try Self.image(width: 50, height: 300)
        let band = try JPEGEncoder(quality: 90).encode(image, bands: 1)
        #expect(JPEGBandJoiner.join([band, band], startingAt: [0, 128], height: 600) != nil)
        #expect(JPEGBandJoiner.join([band, band], startingAt: [0, 100], height: 600) == nil)
        #expect(JPEGBandJoiner.join([band, Array(band.dropLast(2))], startingAt: [0, 128], height: 600) == nil)
        #expect(JPEGBandJoiner.join([band, [0xFF, 0xD8, 0xFF, 0xD9]], startingAt: [0, 128], height: 600) == nil)
        #expect(JPEGBandJoiner.join([band], startingAt: [0], height: 70_000) == nil)
    }
}
