/// The decoder of the Raspberry Pi PiSP compressed raw format in its mode 1 (`PISP_COMP1`, the quantisation and delta
/// scheme without companding), written from the format's description in the Linux media documentation
/// (pixfmt-srggb8-pisp-comp). docs/frame-sources.md describes the format in full; in short:
///
/// - A row is coded in blocks of 8 pixels in 8 bytes: the little-endian 32-bit word of the even pixels (0, 2, 4, 6)
///   first, then the word of the odd ones (1, 3, 5, 7). Each word codes its four pixels `q0...q3` on its own.
/// - Bits 1-0 of a word are its quantisation mode. Modes 0-2 hold, from bit 2 up, a 9-bit field `f0`, then 7-bit
///   fields `f1`, `f2`, `f3`: `f0` is the smaller of the inner levels `q1`, `q2` and `f1 = q2 - q1 + 64`; in mode 2
///   with `f0 >= 384` instead `q1 = f0` and `q2 = 384 + f1`. An outer level is its field plus `max(0, inner - 64)`
///   (`q0` next to `q1`, `q3` next to `q2`), or plus 384 in mode 2 when the inner level is 448 or more.
/// - Mode 3 holds two 15-bit fields from bit 2 up, `(q0, q1)` then `(q2, q3)`, each `2816 * (a >> 4) + 16 * b +
///   (a & 15)`; its levels run 0...175, so a field above 30975 is no valid code.
/// - A level is a 16-bit value: mode 0: 16 q up to level 320, then 32 (q - 160); mode 1: 64 q; mode 2: 128 q; mode 3:
///   256 q up to level 94, then 512 (q - 47). Every mode's two steps meet at the change, so the value is the larger
///   of `s * q` and `2 s * q - k` (`s` the first step, `k` where the second starts; no second step in modes 1 and 2).
/// - The compressor subtracted ``offset`` before coding; the decoder adds it back and saturates at 65535.
///
/// The hot loop is branch-free integer arithmetic over unsafe pointers: conditions become all-ones/all-zero masks, so
/// that no jump depends on the data and the compiler vectorises the loop across blocks (a table of values would need
/// gathers, which SSE2 lacks). Only a row with an invalid code takes a second pass, to say where.
enum PISPDecoder {
    /// The offset libcamera's PiSP pipeline handler gives every compressed buffer (its `DefaultCompressionOffset`):
    /// subtracted from the 16-bit samples before compression, added back to the decoded levels.
    static let offset: Int32 = 2048

    /// Decodes one row of `width` pixels from `(width + 7) / 8` blocks at `source`. Returns the first pixel (column)
    /// of the first block holding an invalid code, or nil when the whole row decoded.
    static func decodeRow(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt16>, width: Int) -> Int? {
        let whole = width / 8
        var invalid: UInt32 = 0
        for block in 0..<whole {
            let bytes = UnsafeRawPointer(source + 8 * block)
            let out = target + 8 * block
            invalid |= decodeWord(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)), into: out)
            invalid |= decodeWord(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
                                  into: out + 1)
        }
        let rest = width - 8 * whole
        if rest > 0 {
            // The last block is cut short by the row's end: decode all 8 pixels aside and keep those that exist.
            let bytes = UnsafeRawPointer(source + 8 * whole)
            invalid |= withUnsafeTemporaryAllocation(of: UInt16.self, capacity: 8) { block in
                let out = block.baseAddress!
                let flag = decodeWord(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)), into: out)
                    | decodeWord(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
                                 into: out + 1)
                (target + 8 * whole).update(from: out, count: rest)
                return flag
            }
        }
        return invalid == 0 ? nil : firstInvalidBlock(source, blocks: (width + 7) / 8).map { 8 * $0 }
    }

    /// Whether `word` is a mode-3 word with a level above 175 (the only bit pattern that is no valid code).
    static func isInvalid(_ word: UInt32) -> Bool {
        word & 3 == 3 && (word >> 2 & 0x7FFF >= 30976 || word >> 17 >= 30976)
    }

    private static func firstInvalidBlock(_ source: UnsafePointer<UInt8>, blocks: Int) -> Int? {
        for block in 0..<blocks {
            let bytes = UnsafeRawPointer(source + 8 * block)
            if isInvalid(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
                || isInvalid(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))) {
                return block
            }
        }
        return nil
    }

    /// Decodes one word's four pixels to `out[0]`, `out[2]`, `out[4]`, `out[6]`. Returns 1 for an invalid code (its
    /// pixels are then saturated), else 0.
    @inline(__always)
    static func decodeWord(_ word: UInt32, into out: UnsafeMutablePointer<UInt16>) -> UInt32 {
        let mode = Int32(word & 3)
        let wide = ones(when: mode ^ 2 == 0), escape = ones(when: mode ^ 3 == 0)
        // Modes 0-2: the inner pair from the minimum and the difference, the outer samples from their neighbours.
        let f0 = Int32(word >> 2 & 511), f1 = Int32(word >> 11 & 127)
        let f2 = Int32(word >> 18 & 127), f3 = Int32(word >> 25)
        let highPair = wide & negative(383 &- f0)
        let difference = f1 &- 64
        let inner1 = select(highPair, f0, f0 &+ positive(0 &- difference))
        let inner2 = select(highPair, 384 &+ f1, f0 &+ positive(difference))
        let outer0 = f2 &+ select(wide & negative(447 &- inner1), 384, positive(inner1 &- 64))
        let outer3 = f3 &+ select(wide & negative(447 &- inner2), 384, positive(inner2 &- 64))
        // Mode 3: two 15-bit fields, each 176 * (a >> 4) + b after dropping the low 4 bits of a; x * 745 >> 17 is
        // x / 176 for every x below 2048.
        let e01 = Int32(word >> 2 & 0x7FFF), e23 = Int32(word >> 17)
        let h01 = ((e01 >> 4) &* 745) >> 17, h23 = ((e23 >> 4) &* 745) >> 17
        let q0 = select(escape, h01 << 4 | e01 & 15, outer0)
        let q1 = select(escape, (e01 >> 4) &- 176 &* h01, inner1)
        let q2 = select(escape, h23 << 4 | e23 & 15, inner2)
        let q3 = select(escape, (e23 >> 4) &- 176 &* h23, outer3)
        // Values: a level above the mode's knee (320 in mode 0, 94 in mode 3) counts double past it; then the step
        // (16, 64, 128, 256: shifts by constants, cheaper than a multiply), the offset, saturation.
        let mode0 = ones(when: mode == 0), mode1 = ones(when: mode == 1)
        let knee = select(mode0, 320, select(escape, 94, 1 << 20))
        out[0] = value(q0, knee: knee, mode0: mode0, mode1: mode1, mode2: wide)
        out[2] = value(q1, knee: knee, mode0: mode0, mode1: mode1, mode2: wide)
        out[4] = value(q2, knee: knee, mode0: mode0, mode1: mode1, mode2: wide)
        out[6] = value(q3, knee: knee, mode0: mode0, mode1: mode1, mode2: wide)
        return UInt32(bitPattern: escape & (negative(10 &- h01) | negative(10 &- h23))) & 1
    }

    /// The decoded value of `level`: `max(level, 2 level - knee)` times the mode's step, plus ``offset``, at most
    /// 65535.
    @inline(__always)
    private static func value(_ level: Int32, knee: Int32, mode0: Int32, mode1: Int32, mode2: Int32) -> UInt16 {
        let bent = level << 1 &- knee
        let steps = select(negative(bent &- level), level, bent)
        let scaled = select(mode0, steps << 4, select(mode1, steps << 6, select(mode2, steps << 7, steps << 8)))
        let result = scaled &+ offset
        return UInt16(truncatingIfNeeded: select(negative(65535 &- result), 65535, result))
    }

    /// All ones when `condition` holds, else 0.
    @inline(__always)
    private static func ones(when condition: Bool) -> Int32 { 0 &- Int32(condition ? 1 : 0) }

    /// All ones when `x` is negative, else 0.
    @inline(__always)
    private static func negative(_ x: Int32) -> Int32 { x >> 31 }

    /// `max(0, x)`.
    @inline(__always)
    private static func positive(_ x: Int32) -> Int32 { x & ~(x >> 31) }

    /// `a` where `mask` is all ones, `b` where it is 0.
    @inline(__always)
    private static func select(_ mask: Int32, _ a: Int32, _ b: Int32) -> Int32 { b ^ (a ^ b) & mask }
}
