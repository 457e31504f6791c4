/// A PiSP compressor (mode 1, `PISP_COMP1`) written for the tests from the format's published description (Linux
/// media documentation, pixfmt-srggb8-pisp-comp) and libcamera's offset of 2048, independently of the decoder: it
/// lists every quantisation level as a value, quantises each sample to the nearest level by search, tries the
/// quantisation modes 0, 1, 2 in turn and falls back to the escape mode 3, and packs the fields with a bit writer.
/// Its model of the result (``Encoded/decoded``) is the level values it chose plus the offset, saturated at 65535:
/// what a correct decoder must give back exactly.
public enum PISPReferenceEncoder {
    /// The offset the compressor subtracts before coding (libcamera's `DefaultCompressionOffset`).
    public static let offset = 2048

    /// The value (out of 65536) of every level of each quantisation mode, in order. Mode 0: 321 levels that are
    /// multiples of 65536/4096, then successive multiples of 65536/2048; modes 1 and 2: multiples of 65536/1024 and
    /// 65536/512; mode 3: 95 multiples of 65536/256, then multiples of 65536/128 up to 176 levels in all.
    public static let levels: [[Int]] = {
        let mode0 = (0..<321).map { 16 * $0 } + stride(from: 16 * 320 + 32, to: 65536, by: 32).map { $0 }
        let mode1 = stride(from: 0, to: 65536, by: 64).map { $0 }
        let mode2 = stride(from: 0, to: 65536, by: 128).map { $0 }
        let mode3 = (0..<95).map { 256 * $0 } + (1...81).map { 256 * 94 + 512 * $0 }
        return [mode0, mode1, mode2, mode3]
    }()

    /// The level of `mode` nearest to `value` (the lower one on a tie).
    public static func quantise(_ value: Int, mode: Int) -> Int {
        let table = levels[mode]
        var low = 0, high = table.count - 1
        while low < high {  // the first level >= value
            let middle = (low + high) / 2
            if table[middle] < value { low = middle + 1 } else { high = middle }
        }
        if low > 0, value - table[low - 1] <= table[low] - value { return low - 1 }
        return low
    }

    /// One 32-bit word for four samples (one phase of a block): the word and the four decoded values it stands for.
    public static func encodeWord(_ samples: [Int]) -> (word: UInt32, decoded: [UInt16]) {
        let values = samples.map { max(0, $0 - offset) }
        for mode in 0..<3 {
            let q = values.map { quantise($0, mode: mode) }
            if let fields = deltaFields(q, mode: mode) {
                return (pack([(mode, 2), (fields[0], 9), (fields[1], 7), (fields[2], 7), (fields[3], 7)]),
                        q.map { decodedValue(level: $0, mode: mode) })
            }
        }
        let q = values.map { quantise($0, mode: 3) }
        let joint = [(q[0], q[1]), (q[2], q[3])].map { 2816 * ($0.0 >> 4) + 16 * $0.1 + ($0.0 & 15) }
        return (pack([(3, 2), (joint[0], 15), (joint[1], 15)]), q.map { decodedValue(level: $0, mode: 3) })
    }

    /// The 9-, 7-, 7- and 7-bit fields of levels `q` in quantisation mode 0, 1 or 2, or nil when they do not fit.
    public static func deltaFields(_ q: [Int], mode: Int) -> [Int]? {
        let inner: [Int]
        if mode == 2, (384...511).contains(q[1]), (384...511).contains(q[2]) {
            inner = [q[1], q[2] & 127]
        } else {
            inner = [min(q[1], q[2]), q[2] - q[1] + 64]
            guard (0...511).contains(inner[0]), (0...127).contains(inner[1]) else { return nil }
        }
        let outer = [(q[0], q[1]), (q[3], q[2])].map { sample, neighbour in
            mode == 2 && (448...511).contains(neighbour) ? sample - 384 : sample - max(0, neighbour - 64)
        }
        guard outer.allSatisfy({ (0...127).contains($0) }) else { return nil }
        return inner + outer
    }

    /// A level's value plus the offset, saturated to 16 bits.
    public static func decodedValue(level: Int, mode: Int) -> UInt16 {
        UInt16(min(65535, levels[mode][level] + offset))
    }

    /// Fields (value, width) packed from bit 0 up into a 32-bit word.
    public static func pack(_ fields: [(Int, Int)]) -> UInt32 {
        var word: UInt32 = 0, shift = 0
        for (value, width) in fields {
            precondition(value >= 0 && value < 1 << width, "field \(value) does not fit \(width) bits")
            word |= UInt32(value) << shift
            shift += width
        }
        precondition(shift == 32)
        return word
    }

    /// An encoded frame and the samples a decoder must give back.
    public struct Encoded: Sendable {
        /// The frame's bytes.
        public var bytes: [UInt8]
        /// The samples a decoder must give back, row-major.
        public var decoded: [UInt16]
    }

    /// A frame: each row padded to whole blocks of 8 with `padValue` pixels (which take part in their block's coding),
    /// each block the even pixels' word then the odd pixels' word, little-endian, and the row padded to `stride`
    /// bytes with `garbage` (nil: no padding).
    public static func frame(_ samples: [UInt16], width: Int, height: Int, stride: Int? = nil, padValue: UInt16 = 0,
                      garbage: UInt8 = 0xFF) -> Encoded {
        let blocks = (width + 7) / 8
        var encoded = Encoded(bytes: [], decoded: [])
        for y in 0..<height {
            var row = samples[y * width..<(y + 1) * width].map { Int($0) }
            row += [Int](repeating: Int(padValue), count: 8 * blocks - width)
            var decodedRow: [UInt16] = []
            for block in 0..<blocks {
                let pixels = Array(row[8 * block..<8 * block + 8])
                let even = encodeWord([pixels[0], pixels[2], pixels[4], pixels[6]])
                let odd = encodeWord([pixels[1], pixels[3], pixels[5], pixels[7]])
                for word in [even.word, odd.word] {
                    encoded.bytes += (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }
                }
                for k in 0..<4 { decodedRow += [even.decoded[k], odd.decoded[k]] }
            }
            encoded.decoded += decodedRow.prefix(width)
            if let stride {
                precondition(stride >= 8 * blocks)
                encoded.bytes += [UInt8](repeating: garbage, count: stride - 8 * blocks)
            }
        }
        return encoded
    }
}
