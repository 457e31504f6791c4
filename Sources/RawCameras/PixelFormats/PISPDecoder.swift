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
/// The hot loop is branch-free 16-bit integer arithmetic over unsafe pointers: each word is read as two 16-bit halves,
/// conditions become all-ones/all-zero masks, and every intermediate is a 16-bit lane (a value past 65535 wraps and is
/// replaced by 65535, found by a limit on its level), so no jump depends on the data and the compiler vectorises the
/// loop across blocks eight lanes wide even with SSE2 alone. Checking for invalid codes is a second, separate loop over
/// the row's words (a flag gathered inside the first stops the vectoriser); only a row with one takes a third pass, to
/// say where.
enum PISPDecoder {
    /// The offset libcamera's PiSP pipeline handler gives every compressed buffer (its `DefaultCompressionOffset`):
    /// subtracted from the 16-bit samples before compression, added back to the decoded levels.
    static let offset: Int16 = 2048

    /// Decodes one row of `width` pixels from `(width + 7) / 8` blocks at `source`. Returns the first pixel (column)
    /// of the first block holding an invalid code, or nil when the whole row decoded.
    static func decodeRow(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt16>, width: Int) -> Int? {
        let whole = width / 8
        for block in 0..<whole {
            decodeBlock(UnsafeRawPointer(source + 8 * block), into: target + 8 * block)
        }
        let rest = width - 8 * whole
        if rest > 0 {
            // The last block is cut short by the row's end: decode all 8 pixels aside and keep those that exist.
            withUnsafeTemporaryAllocation(of: UInt16.self, capacity: 8) { block in
                decodeBlock(UnsafeRawPointer(source + 8 * whole), into: block.baseAddress!)
                (target + 8 * whole).update(from: block.baseAddress!, count: rest)
            }
        }
        let blocks = (width + 7) / 8
        guard containsInvalidCode(UnsafeRawPointer(source), words: 2 * blocks) else { return nil }
        return firstInvalidBlock(source, blocks: blocks).map { 8 * $0 }
    }

    /// Whether `word` is a mode-3 word with a level above 175 (the only bit pattern that is no valid code).
    static func isInvalid(_ word: UInt32) -> Bool {
        word & 3 == 3 && (word >> 2 & 0x7FFF >= 30976 || word >> 17 >= 30976)
    }

    /// ``isInvalid(_:)`` for any of `words` little-endian words, as one loop without branches: mode 3 is the only one
    /// with `(mode + 1) >> 2` set, and a field of 30976 or more reaches bit 15 once 1792 is added.
    private static func containsInvalidCode(_ source: UnsafeRawPointer, words: Int) -> Bool {
        var invalid: UInt32 = 0
        for index in 0..<words {
            let word = UInt32(littleEndian: source.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self))
            let escape = (word & 3 &+ 1) >> 2
            invalid |= escape & ((word >> 2 & 0x7FFF &+ 1792) >> 15 | (word >> 17 &+ 1792) >> 15)
        }
        return invalid != 0
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

    /// One block: the even pixels' word, then the odd pixels'.
    @inline(__always)
    private static func decodeBlock(_ bytes: UnsafeRawPointer, into out: UnsafeMutablePointer<UInt16>) {
        decodeWord(low: bytes.loadUnaligned(as: UInt16.self),
                   high: bytes.loadUnaligned(fromByteOffset: 2, as: UInt16.self), into: out)
        decodeWord(low: bytes.loadUnaligned(fromByteOffset: 4, as: UInt16.self),
                   high: bytes.loadUnaligned(fromByteOffset: 6, as: UInt16.self), into: out + 1)
    }

    /// Decodes the word whose bits 0-15 are `low` and 16-31 `high` (both little-endian in memory) to `out[0]`,
    /// `out[2]`, `out[4]`, `out[6]`. An invalid code decodes to saturated or meaningless values (checked apart).
    @inline(__always)
    static func decodeWord(low lowBits: UInt16, high highBits: UInt16, into out: UnsafeMutablePointer<UInt16>) {
        let low = Int16(bitPattern: UInt16(littleEndian: lowBits))
        let high = Int16(bitPattern: UInt16(littleEndian: highBits))
        let mode = low & 3
        let wide = ones(when: mode == 2), escape = ones(when: mode == 3)
        // Modes 0-2: the fields (bits 2-10, 11-17, 18-24, 25-31), the inner pair from the minimum and the difference,
        // the outer samples from their neighbours.
        let f0 = low >> 2 & 511
        let f1 = Int16(bitPattern: UInt16(bitPattern: low) >> 11) | (high & 3) << 5
        let f2 = high >> 2 & 127, f3 = Int16(bitPattern: UInt16(bitPattern: high) >> 9)
        let highPair = wide & negative(383 &- f0)
        let difference = f1 &- 64
        let inner1 = select(highPair, f0, f0 &+ positive(0 &- difference))
        let inner2 = select(highPair, 384 &+ f1, f0 &+ positive(difference))
        let outer0 = f2 &+ select(wide & negative(447 &- inner1), 384, positive(inner1 &- 64))
        let outer3 = f3 &+ select(wide & negative(447 &- inner2), 384, positive(inner2 &- 64))
        // Mode 3: fields e01 (bits 2-16) and e23 (bits 17-31), each 176 * (a >> 4) + b after dropping its low 4 bits
        // (s01, s23 below); s / 176 = (s >> 4) / 11 = ((s >> 4) * 187) >> 11 for every s below 2048.
        let s01 = Int16(bitPattern: UInt16(bitPattern: low) >> 6) | (high & 1) << 10
        let s23 = Int16(bitPattern: UInt16(bitPattern: high) >> 5)
        let h01 = ((s01 >> 4) &* 187) >> 11, h23 = ((s23 >> 4) &* 187) >> 11
        let q0 = select(escape, h01 << 4 | low >> 2 & 15, outer0)
        let q1 = select(escape, s01 &- 176 &* h01, inner1)
        let q2 = select(escape, h23 << 4 | high >> 1 & 15, inner2)
        let q3 = select(escape, s23 &- 176 &* h23, outer3)
        // Values: a level above the mode's knee (320 in mode 0, 94 in mode 3) counts double past it; then the step
        // (16, 64, 128, 256), the offset; past the mode's limit (495 steps in mode 2, 247 in mode 3) the value would
        // exceed 65535 and saturates.
        let mode0 = ones(when: mode == 0), mode1 = ones(when: mode == 1)
        let scale = Scale(knee: select(mode0, 320, select(escape, 94, .max)),
                          limit: select(wide, 495, select(escape, 247, .max)),
                          step: select(mode0, 16, select(mode1, 64, select(wide, 128, 256))))
        out[0] = scale.value(q0)
        out[2] = scale.value(q1)
        out[4] = scale.value(q2)
        out[6] = scale.value(q3)
    }

    /// How one word's levels become values.
    private struct Scale {
        let knee: Int16, limit: Int16, step: Int16

        /// `max(level, 2 level - knee)` times the mode's step, plus ``offset``; 65535 past the limit.
        @inline(__always)
        func value(_ level: Int16) -> UInt16 {
            let bent = level << 1 &- knee
            let steps = select(negative(bent &- level), level, bent)
            let scaled = steps &* step  // as a 16-bit pattern, exact up to the limit
            return UInt16(bitPattern: select(negative(limit &- steps), -1, scaled &+ offset))
        }
    }
}

/// All ones when `condition` holds, else 0.
@inline(__always)
private func ones(when condition: Bool) -> Int16 { 0 &- Int16(condition ? 1 : 0) }

/// All ones when `x` is negative, else 0.
@inline(__always)
private func negative(_ x: Int16) -> Int16 { x >> 15 }

/// `max(0, x)`.
@inline(__always)
private func positive(_ x: Int16) -> Int16 { x & ~(x >> 15) }

/// `a` where `mask` is all ones, `b` where it is 0.
@inline(__always)
private func select(_ mask: Int16, _ a: Int16, _ b: Int16) -> Int16 { b ^ (a ^ b) & mask }
