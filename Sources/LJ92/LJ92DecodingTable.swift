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

    /// Builds the table from a DHT segment's BITS (index 1...16) and HUFFVAL (as many symbols as BITS counts),
    /// checking what a decoder of untrusted data must: there are codes, symbols are categories 0...16 and the codes
    /// fit their lengths. Errors name `offset`, where the table starts. A symbol listed twice (PiDNG's lj92 writes
    /// such tables) simply has two codes, as in LibRaw.
    init(bits: [UInt8], values: [UInt8], at offset: Int) throws(LJ92Error) {
        guard !values.isEmpty else { throw LJ92Error.at(offset, "a Huffman table without codes") }
        if let bad = values.first(where: { Int($0) >= LJ92HuffmanTable.symbolCount }) {
            throw LJ92Error.at(offset, "Huffman symbol \(bad) is not a difference category (0...16)")
        }
        lookup = [UInt16](repeating: 0, count: 1 << Self.lookupBits)
        maxCode = [Int32](repeating: -1, count: 18)
        minCode = [Int32](repeating: 0, count: 18)
        firstIndex = [Int32](repeating: 0, count: 18)
        self.values = values
        var code: Int32 = 0
        var k: Int32 = 0
        for length in 1...16 {
            let n = Int32(bits[length])
            if n > 0 {
                guard code + n <= Int32(1) << Int32(length) else {
                    throw LJ92Error.at(offset, "the Huffman table has more codes than its lengths allow")
                }
                firstIndex[length] = k
                minCode[length] = code
                if length <= Self.lookupBits {
                    let shift = Self.lookupBits - length
                    for j in 0..<Int(n) {
                        let symbol = Int(values[Int(k) + j])
                        let first = Int(code + Int32(j)) << shift
                        for e in 0..<(1 << shift) { lookup[first + e] = UInt16(length << 8 | symbol) }
                    }
                }
                code += n
                k += n
                maxCode[length] = code - 1
            }
            code <<= 1
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
