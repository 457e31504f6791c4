import Foundation
import RawBurst

/// `FuzzLJ92 --make-corpus DIR`: valid LJ92 streams of many shapes, made with LJ92Encoder, as libFuzzer's
/// starting points. Besides plain encoder output (1x1 to 64x64, precisions 2...16, 1...4 components, all seven
/// predictors) it splices two kinds the encoder cannot write: a point transform (a stream encoded at precision
/// P - Pt, relabelled as precision P with Pt) and restart intervals (an image of identical strips, so every
/// interval has the same entropy-coded bytes and the same Huffman table). Every seed is decoded back and
/// checked before it is written.
enum SeedCorpus {
    struct Seed {
        var width: Int, height: Int, components: Int, precision: Int
        var predictor: LJ92Predictor
        /// Sample pattern: a smooth gradient with this much noise (bits); ≥ precision gives full-range noise.
        var noiseBits: Int
        var pointTransform = 0
        /// Restart intervals: the image is `strips` copies of a `height`-row strip, one interval each.
        var strips = 1
    }

    static let seeds: [Seed] = [
        Seed(width: 1, height: 1, components: 1, precision: 2, predictor: .left, noiseBits: 1),
        Seed(width: 1, height: 1, components: 4, precision: 16, predictor: .average, noiseBits: 16),
        Seed(width: 2, height: 2, components: 1, precision: 8, predictor: .above, noiseBits: 2),
        Seed(width: 3, height: 5, components: 2, precision: 12, predictor: .aboveLeft, noiseBits: 3),
        Seed(width: 7, height: 3, components: 3, precision: 2, predictor: .plane, noiseBits: 2),
        Seed(width: 8, height: 8, components: 1, precision: 14, predictor: .plane, noiseBits: 4),
        Seed(width: 8, height: 8, components: 3, precision: 16, predictor: .leftPlusHalfVertical, noiseBits: 6),
        Seed(width: 5, height: 5, components: 4, precision: 14, predictor: .abovePlusHalfHorizontal, noiseBits: 5),
        Seed(width: 16, height: 16, components: 2, precision: 12, predictor: .abovePlusHalfHorizontal, noiseBits: 4),
        Seed(width: 16, height: 16, components: 4, precision: 8, predictor: .average, noiseBits: 3),
        Seed(width: 20, height: 20, components: 2, precision: 12, predictor: .leftPlusHalfVertical, noiseBits: 5),
        Seed(width: 12, height: 12, components: 1, precision: 16, predictor: .left, noiseBits: 16),
        Seed(width: 33, height: 17, components: 1, precision: 16, predictor: .average, noiseBits: 10),
        Seed(width: 32, height: 32, components: 2, precision: 14, predictor: .left, noiseBits: 3),
        Seed(width: 64, height: 1, components: 1, precision: 12, predictor: .above, noiseBits: 4),
        Seed(width: 1, height: 64, components: 1, precision: 12, predictor: .left, noiseBits: 4),
        Seed(width: 64, height: 64, components: 1, precision: 8, predictor: .left, noiseBits: 2),
        Seed(width: 64, height: 64, components: 1, precision: 16, predictor: .plane, noiseBits: 3),
        Seed(width: 8, height: 8, components: 1, precision: 12, predictor: .left, noiseBits: 3, pointTransform: 2),
        Seed(width: 4, height: 4, components: 3, precision: 16, predictor: .average, noiseBits: 4, pointTransform: 4),
        Seed(width: 8, height: 2, components: 1, precision: 12, predictor: .left, noiseBits: 3, strips: 4),
        Seed(width: 4, height: 1, components: 2, precision: 16, predictor: .plane, noiseBits: 5, strips: 10),
        Seed(width: 6, height: 3, components: 4, precision: 14, predictor: .aboveLeft, noiseBits: 4, strips: 3),
    ]

    /// Writes every seed into `directory` (created if needed); false if a seed failed its check.
    static func write(to directory: String) -> Bool {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            print("make-corpus: cannot create \(directory): \(error)")
            return false
        }
        var ok = true
        for seed in seeds {
            var name = "seed-\(seed.width)x\(seed.height * seed.strips)x\(seed.components)-p\(seed.precision)"
                + "-pred\(seed.predictor.rawValue)"
            if seed.pointTransform > 0 { name += "-pt\(seed.pointTransform)" }
            if seed.strips > 1 { name += "-rst\(seed.strips)" }
            do {
                let (stream, expected) = try make(seed)
                let image = try LJ92Decoder().decode(stream)
                guard image.samples == expected else { throw LJ92Error("decodes to different samples") }
                let path = directory + "/" + name + ".ljpg"
                try Data(stream).write(to: URL(fileURLWithPath: path))
                print("\(path)  \(stream.count) bytes")
            } catch {
                print("make-corpus: seed \(name) failed: \(error)")
                ok = false
            }
        }
        return ok
    }

    /// The stream and the samples it must decode to.
    static func make(_ seed: Seed) throws -> (stream: [UInt8], samples: [UInt16]) {
        let codedPrecision = seed.precision - seed.pointTransform
        let strip = samples(seed, precision: codedPrecision)
        let encoder = try LJ92Encoder(precision: codedPrecision, predictor: seed.predictor)
        var stream = try strip.withUnsafeBufferPointer { buffer throws(LJ92Error) in
            try encoder.encode(buffer, width: seed.width, height: seed.height, components: seed.components)
        }
        if seed.pointTransform > 0 {
            // SOF3: precision P (the encoder wrote P - Pt); SOS: Al = Pt (its last byte).
            let sof = try segment(0xC3, in: stream), sos = try segment(0xDA, in: stream)
            stream[sof.body] = UInt8(seed.precision)
            stream[sos.end - 1] = UInt8(seed.pointTransform)
        }
        var expected = strip.map { $0 << UInt16(seed.pointTransform) }
        if seed.strips > 1 {
            let sof = try segment(0xC3, in: stream), sos = try segment(0xDA, in: stream)
            let entropy = Array(stream[sos.end..<(stream.count - 2)])
            var out = Array(stream[0..<sos.start])
            let height = seed.height * seed.strips
            out[sof.body + 1] = UInt8(height >> 8)
            out[sof.body + 2] = UInt8(height & 0xFF)
            let interval = seed.width * seed.height
            out += [0xFF, 0xDD, 0x00, 0x04, UInt8(interval >> 8), UInt8(interval & 0xFF)]   // DRI
            out += stream[sos.start..<sos.end]
            for k in 0..<seed.strips {
                if k > 0 { out += [0xFF, UInt8(0xD0 + (k - 1) % 8)] }                         // RSTn
                out += entropy
            }
            out += [0xFF, 0xD9]
            stream = out
            expected = Array((0..<seed.strips).map { _ in expected }.joined())
        }
        return (stream, expected)
    }

    /// The marker segment `marker` (FFxx) of an encoder-written stream: where its marker starts, where its
    /// body (after the length) starts, and where it ends.
    static func segment(_ marker: UInt8, in s: [UInt8]) throws -> (start: Int, body: Int, end: Int) {
        var at = 2
        while at + 4 <= s.count, s[at] == 0xFF {
            let length = Int(s[at + 2]) << 8 | Int(s[at + 3])
            if s[at + 1] == marker { return (at, at + 4, at + 2 + length) }
            if s[at + 1] == 0xDA { break }
            at += 2 + length
        }
        throw LJ92Error(String(format: "no FF%02X segment", marker))
    }

    /// A deterministic gradient plus noise, below 2^precision.
    static func samples(_ seed: Seed, precision: Int) -> [UInt16] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(seed.width * 131 + seed.height * 7 + seed.precision)
        let mask = (1 << precision) - 1
        let noiseMask = (1 << min(seed.noiseBits, precision)) - 1
        var out: [UInt16] = []
        out.reserveCapacity(seed.width * seed.height * seed.components)
        for y in 0..<seed.height {
            for x in 0..<seed.width {
                for c in 0..<seed.components {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    let noise = Int(truncatingIfNeeded: state >> 33) & noiseMask
                    let base = (x * 37 + y * 23 + c * 811) << max(0, precision - 8)
                    out.append(UInt16((base + noise) & mask))
                }
            }
        }
        return out
    }
}
