import Foundation
import RawCore
import RawDNG
@testable import RawFiles
import RawTIFF
import TestSupport
import Testing

/// Reading packed uncompressed DNGs: the direct path (`UncompressedCFASamples` unpacking the strips) gives exactly
/// the samples written and the same frame as LibRaw's own decoder; hostile packed files are refused in one line.
@Suite("Reading packed DNGs")
struct PackedReadTests {
    /// 248 wide: rows end on a byte at every depth, so the writer packs at the depth asked (DNGWriter.packedDepth).
    private func image(bits: Int, width: Int = 248, height: Int = 130, seed: UInt64 = 1) throws -> RawImage {
        let frame = try SyntheticRaw.frame(width: width, height: height, cfa: .grbg, bits: bits,
                                           black: [Double](repeating: Double(1 << (bits - 4)), count: 4),
                                           margins: (2, 4), seed: seed)
        var rng = SplitMix64(seed: seed)
        for i in stride(from: 0, to: width * height, by: 5) {
            frame.storage.baseAddress[i] = UInt16(rng.next() % (UInt64(1) << bits))
        }
        return RawImage(frame: frame, metadata: try SyntheticRaw.fullMetadata(), calibration: try SyntheticRaw.calibration())
    }

    private func write(_ image: RawImage, to path: String, _ compression: DNGCompression) throws {
        var options = DNGWriter.Options()
        options.compression = compression
        try DNGWriter(options: options).write(image, to: path)
    }

    private func samples(_ frame: RawFrame) -> [UInt16] {
        (0..<frame.height).flatMap { r in
            Array(UnsafeBufferPointer(start: frame.storage.baseAddress + r * frame.rowStride, count: frame.width))
        }
    }

    @Test("the direct reader, LibRaw and a re-write as none all give exactly the written samples",
          arguments: [9, 10, 11, 12, 13, 14, 15])
    func roundTrip(bits: Int) throws {
        let tmp = try TemporaryDirectory()
        let original = try image(bits: bits, seed: UInt64(bits))
        let packed = tmp.url.appendingPathComponent("packed.dng").path
        try write(original, to: packed, .packed)
        // The layout qualifies for the direct path.
        let head = RawFileAccess.bytes(of: packed, count: 16)
        let facts = try #require(try TIFFRawFacts.inspect(path: packed, head: head))
        let layout = try #require(UncompressedCFASamples(facts))
        #expect(layout.bits == bits)

        let direct = try RawFileReader().read(path: packed)
        let viaLibRaw = try RawFileReader(readsUncompressedDNGDirectly: false).read(path: packed)
        #expect(samples(direct.frame) == samples(original.frame), "\(bits)-bit: the direct reader")
        #expect(samples(viaLibRaw.frame) == samples(original.frame), "\(bits)-bit: LibRaw")
        #expect(direct.frame.bitsPerSample == bits && direct.frame.whiteLevel == original.frame.whiteLevel)
        #expect(direct.frame.activeArea == original.frame.activeArea && direct.frame.cfa == original.frame.cfa)

        // convert packed → none → packed: the same samples, and the same packed strips.
        let plain = tmp.url.appendingPathComponent("plain.dng").path
        try write(direct, to: plain, .none)
        let back = try RawFileReader().read(path: plain)
        #expect(samples(back.frame) == samples(original.frame), "\(bits)-bit: after none")
        let again = tmp.url.appendingPathComponent("again.dng").path
        try write(back, to: again, .packed)
        #expect(try stripBytes(again) == stripBytes(packed), "\(bits)-bit: re-packed strips differ")
    }

    private func stripBytes(_ path: String) throws -> [UInt8] {
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let raw = try #require(try TIFFStructure(bytes: file).rawDirectory)
        let offsets = try #require(raw.integers(TIFFTag.stripOffsets)), counts = try #require(raw.integers(TIFFTag.stripByteCounts))
        return zip(offsets, counts).flatMap { file[$0..<($0 + $1)] }
    }

    @Test("hostile packed DNGs are one-line errors: a short strip, a cut file, BitsPerSample 0 and 17")
    func hostile() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.url.appendingPathComponent("good.dng").path
        // 100 samples of 12 bits: 150 bytes a row, 40 rows in one strip of 6000 bytes.
        try write(try image(bits: 12, width: 100, height: 40), to: path, .packed)
        let good = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let raw = try #require(try TIFFStructure(bytes: good).rawDirectory)
        let stripEnd = try #require(raw.integers(TIFFTag.stripOffsets)?.first) + 6000

        var short = good
        try TIFFEntryPatch.replace(&short, tag: TIFFTag.stripByteCounts, value: 6000, with: 5000)
        var zeroBits = good, wideBits = good
        try TIFFEntryPatch.replace(&zeroBits, tag: TIFFTag.bitsPerSample, value: 12, with: 0)
        try TIFFEntryPatch.replace(&wideBits, tag: TIFFTag.bitsPerSample, value: 12, with: 17)
        let cases: [(String, [UInt8], RawReadError.Kind, String)] = [
            ("short", short, .truncated, "too few"),
            ("cut", Array(good[..<(stripEnd - 100)]), .truncated, "cut short"),
            ("zero", zeroBits, .corrupt, "BitsPerSample is 0"),
            ("wide", wideBits, .unsupported, "17 bits per sample"),
        ]
        for (name, bytes, kind, words) in cases {
            let file = tmp.url.appendingPathComponent("\(name).dng").path
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            do {
                _ = try RawFileReader().read(path: file)
                Issue.record("\(name): read without an error")
            } catch {
                #expect(error.kind == kind, "\(name): \(error)")
                #expect(error.description.contains(words) && !error.description.contains("\n"), "\(name): \(error)")
                #expect(error.description.hasPrefix(file), "\(name): \(error)")
            }
        }
    }
}
