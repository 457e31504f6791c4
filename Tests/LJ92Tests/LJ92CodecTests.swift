import Foundation
@testable import LJ92
import RawCore
import TestSupport
import Testing

/// The lossless-JPEG codec: bit-exact round trips for every predictor, precision and component count, the
/// Huffman tables it builds, streams exchanged with an independent implementation (imagecodecs' ljpeg, the
/// lj92 lineage PiDNG ships), and malformed input.
@Suite("Lossless JPEG (LJ92) codec")
struct LJ92CodecTests {
    static func randomSamples(_ count: Int, bits: Int, seed: UInt64) -> [UInt16] {
        var rng = SplitMix64(seed: seed)
        let mask = UInt64((1 << bits) - 1)
        return (0..<count).map { _ in UInt16(rng.next() & mask) }
    }

    /// A smooth ramp with noise, like a raw frame (small differences, so the Huffman table matters).
    static func cameraLike(width: Int, height: Int, components: Int, bits: Int, seed: UInt64) -> [UInt16] {
        var rng = SplitMix64(seed: seed)
        let maxValue = (1 << bits) - 1
        var out = [UInt16](repeating: 0, count: width * height * components)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<components {
                    let base = Double(maxValue) * (0.2 + 0.5 * Double(x + y) / Double(width + height)) * (1 - 0.15 * Double(c))
                    let noise = Double(Int(rng.next() % 33) - 16)
                    out[(y * width + x) * components + c] = UInt16(max(0, min(Double(maxValue), base + noise)))
                }
            }
        }
        return out
    }

    private func roundTrip(_ samples: [UInt16], width: Int, height: Int, components: Int, precision: Int,
                           predictor: LJ92Predictor) throws -> [UInt8] {
        let encoder = try LJ92Encoder(precision: precision, predictor: predictor)
        let stream = try samples.withUnsafeBufferPointer {
            try encoder.encode($0, width: width, height: height, components: components)
        }
        let image = try LJ92Decoder().decode(stream)
        #expect(image.frame.width == width && image.frame.height == height && image.frame.components == components)
        #expect(image.frame.precision == precision && image.frame.predictor == predictor)
        #expect(image.samples == samples, "predictor \(predictor.rawValue), \(components) components, \(precision) bits")
        return stream
    }

    @Test("every predictor and component count round-trips bit-exactly", arguments: LJ92Predictor.allCases)
    func predictors(_ predictor: LJ92Predictor) throws {
        for components in 1...4 {
            let samples = Self.cameraLike(width: 37, height: 23, components: components, bits: 14, seed: UInt64(components))
            _ = try roundTrip(samples, width: 37, height: 23, components: components, precision: 14, predictor: predictor)
        }
    }

    @Test("every precision 2...16 round-trips random samples, full range included")
    func precisions() throws {
        for bits in 2...16 {
            for predictor in [LJ92Predictor.left, .plane, .average] {
                let samples = Self.randomSamples(64 * 9 * 2, bits: bits, seed: UInt64(bits))
                _ = try roundTrip(samples, width: 64, height: 9, components: 2, precision: bits, predictor: predictor)
            }
        }
    }

    @Test("degenerate shapes and extreme differences (category 16, flat images)")
    func extremes() throws {
        // 0 and 65535 alternating: the first difference is 32768 from the initial prediction (category 16, no
        // additional bits), the others wrap around 2^16.
        let alternating = (0..<(16 * 4)).map { UInt16($0 % 2 == 0 ? 0 : 65535) }
        _ = try roundTrip(alternating, width: 16, height: 4, components: 1, precision: 16, predictor: .left)
        let steps = (0..<(16 * 4)).map { UInt16(($0 * 32768) & 0xFFFF) }
        _ = try roundTrip(steps, width: 8, height: 4, components: 2, precision: 16, predictor: .plane)
        for (w, h) in [(1, 1), (1, 7), (7, 1), (2, 2)] {
            for predictor in LJ92Predictor.allCases {
                let s = Self.randomSamples(w * h, bits: 12, seed: UInt64(w * 31 + h))
                _ = try roundTrip(s, width: w, height: h, components: 1, precision: 12, predictor: predictor)
            }
        }
        // A flat image: one category only; its code is one bit, so 4096 samples take 512 bytes.
        let flat = [UInt16](repeating: 2048, count: 64 * 64)
        let stream = try roundTrip(flat, width: 64, height: 64, components: 1, precision: 12, predictor: .left)
        let headers = 2 + (4 + 17 + 1) + (2 + 8 + 3) + (2 + 6 + 2) + 2
        #expect(stream.count == headers + 512)
    }

    @Test("the Huffman table is optimal and never uses more than 16 bits or the all-ones code")
    func huffmanTables() throws {
        // Geometric counts force long codes in an unrestricted Huffman tree (it would need 17 levels).
        var counts = (0..<17).map { 1 << (17 - $0) }
        let table = counts.withUnsafeBufferPointer { LJ92HuffmanTable.optimal(for: $0.baseAddress!) }
        #expect(table.values.count == 17)
        #expect(table.lengths.allSatisfy { $0 >= 1 && $0 <= 16 })
        // Kraft sum strictly below 1: a code is left for the reserved all-ones pattern.
        let kraft = table.lengths.reduce(0.0) { $0 + pow(2.0, -Double($1)) }
        #expect(kraft < 1)
        for s in 0..<17 where table.lengths[s] > 0 {
            #expect(table.codes[s] != (UInt32(1) << UInt32(table.lengths[s])) - 1)
        }
        // Two symbols with counts 3:1: one bit for the frequent one, two for the other (the all-ones code of two
        // bits stays reserved).
        counts = [Int](repeating: 0, count: 17)
        counts[0] = 3; counts[5] = 1
        let two = counts.withUnsafeBufferPointer { LJ92HuffmanTable.optimal(for: $0.baseAddress!) }
        #expect(two.lengths[0] == 1 && two.lengths[5] == 2)
        // Optimal: no other length assignment (with the reserved code) is shorter; here, the Huffman lengths of
        // counts 8,4,2,1,1 (+ reserved 1) are 1,2,3,4,5 (reserved 5).
        counts = [Int](repeating: 0, count: 17)
        counts[0] = 8; counts[1] = 4; counts[2] = 2; counts[3] = 1; counts[4] = 1
        let five = counts.withUnsafeBufferPointer { LJ92HuffmanTable.optimal(for: $0.baseAddress!) }
        #expect(Array(five.lengths[0...4]) == [1, 2, 3, 4, 5])
    }

    @Test("streams are exchanged with imagecodecs' ljpeg (the lj92 lineage), both ways",
          .enabled(if: Python.hasModule("imagecodecs")))
    func independentCodec() throws {
        let tmp = try TemporaryDirectory()
        for (components, bits) in [(1, 12), (2, 14), (1, 16), (3, 10)] {
            let w = 61, h = 29
            let samples = Self.cameraLike(width: w, height: h, components: components, bits: bits, seed: UInt64(bits))
            let ours = try samples.withUnsafeBufferPointer {
                try LJ92Encoder(precision: bits).encode($0, width: w, height: h, components: components)
            }
            let ourStream = tmp.url.appendingPathComponent("ours-\(components)-\(bits).ljpeg")
            try Data(ours).write(to: ourStream)
            let raw = tmp.url.appendingPathComponent("samples-\(components)-\(bits).u16")
            try samples.withUnsafeBytes { try Data($0).write(to: raw) }
            let theirs = tmp.url.appendingPathComponent("theirs-\(components)-\(bits).ljpeg")
            let info = try Python.json(script: """
                import sys, json, numpy as np, imagecodecs
                ours, raw, theirs, w, h, c, bits = sys.argv[1], sys.argv[2], sys.argv[3], *map(int, sys.argv[4:])
                expected = np.fromfile(raw, dtype='<u2')
                decoded = imagecodecs.ljpeg_decode(open(ours, 'rb').read())
                same = decoded.size == expected.size and bool((decoded.reshape(-1) == expected).all())
                # imagecodecs encodes one component only: the rows as they are.
                open(theirs, 'wb').write(imagecodecs.ljpeg_encode(expected.reshape(h, w * c), bitspersample=bits))
                print(json.dumps({"same": same, "shape": list(decoded.shape)}))
                """, arguments: [ourStream.path, raw.path, theirs.path, "\(w)", "\(h)", "\(components)", "\(bits)"])
            #expect(info["same"]?.bool == true, "imagecodecs decodes our \(components)-component \(bits)-bit stream: \(info)")
            let decoded = try LJ92Decoder().decode([UInt8](try Data(contentsOf: theirs)))
            #expect(decoded.frame.width == w * components && decoded.frame.components == 1)
            #expect(decoded.samples == samples, "we decode imagecodecs' \(components)-component \(bits)-bit stream")
        }
    }

    @Test("malformed streams give one-line errors, never a crash")
    func malformed() throws {
        let samples = Self.cameraLike(width: 64, height: 32, components: 2, bits: 12, seed: 9)
        let stream = try samples.withUnsafeBufferPointer {
            try LJ92Encoder(precision: 12).encode($0, width: 64, height: 32, components: 2)
        }
        // Every truncation is an error, not a crash or a silent success.
        for cut in stride(from: 0, to: stream.count - 2, by: 7) {
            #expect(throws: LJ92Error.self) { try LJ92Decoder().decode(Array(stream[..<cut])) }
        }
        func message(_ bytes: [UInt8]) -> String {
            do { _ = try LJ92Decoder().decode(bytes); return "" } catch { return error.description }
        }
        #expect(message([0x00, 0x01, 0x02, 0x03]).contains("no SOI"))
        #expect(message(Array(stream[..<(stream.count / 2)])).contains("truncated"))
        var baseline = stream
        if let sof = (0..<(stream.count - 1)).first(where: { stream[$0] == 0xFF && stream[$0 + 1] == 0xC3 }) {
            baseline[sof + 1] = 0xC0
            #expect(message(baseline).contains("SOF0: not lossless"))
            // Another JPEG process is "unsupported" (a reader may try another decoder); a cut stream is not.
            #expect(throws: LJ92Error.self) { try LJ92Decoder().decode(baseline) }
            do { _ = try LJ92Decoder().decode(baseline) } catch { #expect(error.isUnsupported) }
            do { _ = try LJ92Decoder().decode(Array(stream[..<(stream.count / 2)])) } catch { #expect(!error.isUnsupported) }
            var badPrecision = stream
            badPrecision[sof + 4] = 17
            #expect(message(badPrecision).contains("precision 17"))
        } else {
            Issue.record("no SOF3 in the stream")
        }
        // Random bit flips anywhere: errors or (if the flip lands in the data) other pixels, never a crash.
        var rng = SplitMix64(seed: 42)
        for _ in 0..<300 {
            var corrupt = stream
            for _ in 0..<3 {
                let i = Int(rng.next() % UInt64(corrupt.count))
                corrupt[i] ^= UInt8(1 << (rng.next() % 8))
            }
            _ = try? LJ92Decoder().decode(corrupt)
        }
    }
    @Test("streams the fuzzer found (truncated entropy data in wide rows) are errors, not reads past the buffer")
    func fuzzerFindings() throws {
        // Found by `make fuzz` (ASan: heap-buffer-overflow in the bit reader, which was checked once per row).
        let findings = [
            "/9j/xAAYAAEBAQEBAAAAAAAAAAAAAAAFBggHA//DABQIABAAEAQAEQABEQACEQADEQD/2gAOBAAAAQACAAMABwAAz/y2V9KmmpqiloaSmoamroKanpMR1VFiCnoMSU9Niakp6OppKKjpaqnp3qWhpqWhpsSU9LiakpsSUlJiinqap+lo6Rxpxh+gbfeco3qGjoMNPv4adcaonXuQO0XIH26FyjdeoHHqF9qgw0/Q4foKHEL7zrj7nG6Bl51+iaXRXXZoaF+gbaYdon+RuvcdbdxA1S4eZdeoKB91p59tuhdcebe5FRPccduuUD79A7x6gd49QMcZdew9Q0LtE+26yxQUFE9Q4dfebccc4623xx6h5DRUDaazq3H23HHqFx9l9x1557ENHQYddfw023h6kfoHnKGgeoHX3HaBx+hf4085hqkosR0j2GnGqB5p93C66qtE02+63ROvv0OH338PO0LlA63xt+j47QULrjjz71C45ROtYcdew1RPvUL7/GqBvkFE5Qvu0TbSqybFHQvPOUFI5RvcYfb41RuYcaaxA+9RPO0LNBQNUVFQO4gffpXWmuPvUOHn3MOPOUbNC4/RuOuprsuOuvUVG+/hht7Drz+GmnXKOjoONtuMt0TtFRN0Lj7TnHHm8QPu4gaosQUTrr77rbrlDQN0dA0syyzRMtYZeosQOvttv0XHX3sP0TdA26+9RNvOuvuYdfocRtvvMUTnIHXOMUFE629RUVE/QOUDreI//9k=",
            "/9j/xAAWAAEBAQAAAAAAAAAAAAAAAAANDg//wwALEAARACEBABEA/9oACAEAAAcAAMBFKS/pqeim6cVpBuj0qYspv2iOKbGph6lB6NVpW+ldqJkpqqk8aV+pt2kCqNQpoaj5aa2pA6le6TLoo6muKMuqDNcGfGXnx8cdMXXJ6Rx0WdPHj15Gc23Nh6Sx7qcdqAGdtHSh4ReuMdznS9z4fZnYZ0Aev3K59oesXrx08WHaBzeh3kR12d4HpV4DoPxuued3e9/MbknZR2kdC3SB+Ee83Pt3qfkXxVvrf73wZeVna1wKdIXgmg5nll3kbOqBYcgaBJfG8e7XDp8VdkWFvHs52Wdonut7UeCnStzYdwKBpeEXDx4ZdcXi16EoLJ8zemaBRaq3Nh7aoBVuaf3nQtxIdd38JxxeYVltyseFHCl4YennYzH15ywdpX/Rq6fk3FHHdd1zdP3Cp5KcQHkzHMKgfHGpxhdmnhR4px/KcF3hd7kdCVoN56dBnkV31eoXGCgL3tVyHdw3VV2ffIXXZ51fE3WF6Cc9nSygc25R3XoEx4pdFXzh2voCVzBdlnJhhucZaCVbjXZt3Ax4ld4HPp/icgn9597eB3ll/ifiXyt8lfHHKZzsoH1+5a+6AZeqnOx+YclX69t6eKlAqgQnE16poNh0bf8AFyDf43jR8Be5Mby3Gh/9eaW/h4Teasc5XxOgDnKxwNdvXYLHb56hcuH8hyUfaXrdeVez3lp+bc7XnZt6ewW+x4tet3UJ/ZcxXEN/AdtnwZtRoBxs6fAXNJ7rfBnHmggXPZ9pbmncJ0xekv/Z",
        ]
        for text in findings {
            let bytes = [UInt8](try #require(Data(base64Encoded: text)))
            #expect(throws: LJ92Error.self) { try LJ92Decoder().decode(bytes) }
        }
    }
}
