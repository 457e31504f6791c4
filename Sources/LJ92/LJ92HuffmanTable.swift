/// A Huffman table for lossless-JPEG difference categories (SSSS 0...16), in the JPEG form: BITS (how many
/// codes of each length 1...16) and HUFFVAL (the symbols in code order), plus the canonical codes.
public struct LJ92HuffmanTable: Sendable, Hashable {
    /// `bits[l]` codes have length `l` (index 0 unused).
    public let bits: [UInt8]
    /// Symbols in order of increasing code length.
    public let values: [UInt8]
    /// Per symbol 0...16: its code (right-aligned) and length in bits; length 0 when the symbol has no code.
    let codes: [UInt32]
    let lengths: [UInt8]

    /// The number of difference categories of lossless JPEG (SSSS 0...16).
    static let symbolCount = 17

    /// Builds the table from BITS and HUFFVAL with the canonical codes (T.81 C.2). Only `optimal(for:)` makes
    /// tables, valid by construction (each symbol 0...16 at most once, codes fitting their lengths); the decoder
    /// checks the tables it reads in `LJ92DecodingTable`.
    private init(bits: [UInt8], values: [UInt8]) {
        var codes = [UInt32](repeating: 0, count: Self.symbolCount)
        var lengths = [UInt8](repeating: 0, count: Self.symbolCount)
        var code: UInt32 = 0
        var k = 0
        for length in 1...16 {
            for _ in 0..<Int(bits[length]) {
                let symbol = Int(values[k])
                codes[symbol] = code
                lengths[symbol] = UInt8(length)
                code += 1
                k += 1
            }
            code <<= 1
        }
        self.bits = bits
        self.values = values
        self.codes = codes
        self.lengths = lengths
    }

    /// The optimal table (code lengths limited to 16, no all-ones code) for the given category counts, by the
    /// procedure of T.81 Annex K.2–K.3. Symbols that never occur get no code.
    static func optimal(for counts: UnsafePointer<Int>) -> LJ92HuffmanTable {
        // 17 categories plus one reserved symbol (index 17) with count 1, so no real symbol gets all ones.
        let n = symbolCount + 1
        var freq = [Int](repeating: 0, count: n)
        for s in 0..<symbolCount { freq[s] = counts[s] }
        freq[symbolCount] = 1
        var codeSize = [Int](repeating: 0, count: n)
        var others = [Int](repeating: -1, count: n)
        while true {
            // v1: least nonzero frequency (ties: the largest symbol); v2: the next least, other than v1.
            var v1 = -1, v2 = -1
            for s in 0..<n where freq[s] > 0 && (v1 < 0 || freq[s] <= freq[v1]) { v1 = s }
            for s in 0..<n where s != v1 && freq[s] > 0 && (v2 < 0 || freq[s] <= freq[v2]) { v2 = s }
            if v2 < 0 { break }
            freq[v1] += freq[v2]
            freq[v2] = 0
            codeSize[v1] += 1
            while others[v1] >= 0 { v1 = others[v1]; codeSize[v1] += 1 }
            others[v1] = v2
            codeSize[v2] += 1
            while others[v2] >= 0 { v2 = others[v2]; codeSize[v2] += 1 }
        }
        var bits = [Int](repeating: 0, count: 33)
        for s in 0..<n where codeSize[s] > 0 { bits[codeSize[s]] += 1 }
        // Limit the lengths to 16 (K.3): move pairs of long codes up the tree.
        var i = 32
        while i > 16 {
            while bits[i] > 0 {
                var j = i - 2
                while bits[j] == 0 { j -= 1 }
                bits[i] -= 2
                bits[i - 1] += 1
                bits[j + 1] += 2
                bits[j] -= 1
            }
            i -= 1
        }
        // Remove the reserved symbol's code (one of the longest).
        i = 16
        while bits[i] == 0 { i -= 1 }
        bits[i] -= 1
        // HUFFVAL: real symbols by code size, then symbol. The reserved symbol is the last of the longest, so
        // sorting the real ones by their (pre-limit) sizes keeps the order K.3 assumes.
        var order = (0..<symbolCount).filter { codeSize[$0] > 0 }
        order.sort { (codeSize[$0], $0) < (codeSize[$1], $1) }
        let bits17 = [UInt8(0)] + (1...16).map { UInt8(bits[$0]) }
        return LJ92HuffmanTable(bits: bits17, values: order.map(UInt8.init))
    }
}
