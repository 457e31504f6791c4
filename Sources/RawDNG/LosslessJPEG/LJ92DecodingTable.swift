/// A Huffman table prepared for decoding: a 10-bit lookup table for the common short codes and the canonical
/// ranges (T.81 F.2.2.3) for longer ones.
struct LJ92DecodingTable {
    static let lookupBits = 10
    /// Indexed by the next 10 bits: `length << 8 | symbol`, or 0 when the code is longer than 10 bits.
    var lookup: [UInt16]
    /// Per length 1...16: the largest code of that length, or -1 when there is none.
    var maxCode: [Int32]
    /// Per length: the first code and the index of its symbol in `values`.
    var minCode: [Int32]
    var firstIndex: [Int32]
    var values: [UInt8]

    init(_ table: LJ92HuffmanTable) {
        lookup = [UInt16](repeating: 0, count: 1 << Self.lookupBits)
        maxCode = [Int32](repeating: -1, count: 18)
        minCode = [Int32](repeating: 0, count: 18)
        firstIndex = [Int32](repeating: 0, count: 18)
        values = table.values
        var code: Int32 = 0
        var k: Int32 = 0
        for length in 1...16 {
            let n = Int32(table.bits[length])
            if n > 0 {
                firstIndex[length] = k
                minCode[length] = code
                code += n
                k += n
                maxCode[length] = code - 1
            }
            code <<= 1
        }
        for symbol in 0..<LJ92HuffmanTable.symbolCount {
            let length = Int(table.lengths[symbol])
            guard length > 0, length <= Self.lookupBits else { continue }
            let shift = Self.lookupBits - length
            let first = Int(table.codes[symbol]) << shift
            for j in 0..<(1 << shift) { lookup[first + j] = UInt16(length << 8 | symbol) }
        }
    }

    /// The symbol of a code longer than the lookup's 10 bits that starts `bits` (left-aligned), and its
    /// length, or nil when no code matches.
    func decodeLong(_ bits: UInt32) -> (symbol: Int, length: Int)? {
        for length in (Self.lookupBits + 1)...16 {
            let code = Int32(bits &>> UInt32(32 - length))
            if maxCode[length] >= 0, code <= maxCode[length], code >= minCode[length] {
                return (Int(values[Int(firstIndex[length] + code - minCode[length])]), length)
            }
        }
        return nil
    }
}
