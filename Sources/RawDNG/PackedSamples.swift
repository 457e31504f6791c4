/// Uncompressed samples packed at their bit depth, as TIFF and DNG store them when `BitsPerSample` is not 8 or 16.
///
/// The rule (TIFF 6.0, Compression 1; DNG 1.6, BitsPerSample): samples follow each other with no unused bits,
/// each sample's most significant bit first, bytes filled from their most significant bit (FillOrder 1) — in every
/// file, whatever its byte order; each row starts on a byte boundary, the last byte of a row padded with zero bits.
/// A row of `width` samples at `bits` bits is `(width * bits + 7) / 8` bytes.
///
/// `pack` and `unpack` work on one row. Whole groups of samples that end on a byte boundary (2 samples at 12 bits,
/// 4 at 10 and 14, 8 at odd depths) are built in one 64- or 128-bit word and stored byte by byte, a loop with no
/// carried state that LLVM unrolls per depth; the last few samples of a row (fewer than a group) go through a bit
/// accumulator.
public enum PackedSamples {
    /// The depths `pack` and `unpack` take.
    public static let depths: ClosedRange<Int> = 1...16

    /// Bytes in one row of `width` samples at `bits` bits per sample.
    @inlinable
    public static func rowBytes(width: Int, bits: Int) -> Int { (width * bits + 7) / 8 }

    /// Packs `count` samples from `source` into `rowBytes(width: count, bits: bits)` bytes at `destination`.
    /// Bits of a sample above `bits` are cut off (the writer packs at a depth that holds every sample); `bits` is in
    /// `depths`.
    public static func pack(_ source: UnsafePointer<UInt16>, count: Int, bits: Int,
                            into destination: UnsafeMutablePointer<UInt8>) {
        precondition(depths.contains(bits), "PackedSamples.pack: \(bits) bits per sample")
        let done: Int
        switch bits {
        case 10: done = packEven(source, count, destination, bits: 10)
        case 12: done = packEven(source, count, destination, bits: 12)
        case 14: done = packEven(source, count, destination, bits: 14)
        case 9: done = packOdd(source, count, destination, bits: 9)
        case 11: done = packOdd(source, count, destination, bits: 11)
        case 13: done = packOdd(source, count, destination, bits: 13)
        case 15: done = packOdd(source, count, destination, bits: 15)
        default: done = 0
        }
        packTail(source + done, count: count - done, bits: bits, into: destination + done * bits / 8)
    }

    /// Unpacks `count` samples of `bits` bits from `source` (at least `rowBytes(width: count, bits: bits)` bytes)
    /// into `destination`; `bits` is in `depths`.
    public static func unpack(_ source: UnsafePointer<UInt8>, count: Int, bits: Int,
                              into destination: UnsafeMutablePointer<UInt16>) {
        precondition(depths.contains(bits), "PackedSamples.unpack: \(bits) bits per sample")
        let done: Int
        switch bits {
        case 10: done = unpackEven(source, count, destination, bits: 10)
        case 12: done = unpackEven(source, count, destination, bits: 12)
        case 14: done = unpackEven(source, count, destination, bits: 14)
        case 9: done = unpackOdd(source, count, destination, bits: 9)
        case 11: done = unpackOdd(source, count, destination, bits: 11)
        case 13: done = unpackOdd(source, count, destination, bits: 13)
        case 15: done = unpackOdd(source, count, destination, bits: 15)
        default: done = 0
        }
        unpackTail(source + done * bits / 8, count: count - done, bits: bits, into: destination + done)
    }

    // MARK: - Even depths: 4 samples (4 * bits ≤ 56 bits) are bits / 2 bytes.

    @inline(__always)
    private static func packEven(_ src: UnsafePointer<UInt16>, _ count: Int, _ dst: UnsafeMutablePointer<UInt8>,
                                 bits: Int) -> Int {
        let groups = count / 4, bytes = bits / 2
        let m = UInt16(truncatingIfNeeded: 1 << bits - 1)
        for g in 0..<groups {
            let s = src + 4 * g, d = dst + bytes * g
            let word = UInt64(s[0] & m) << (3 * bits) | UInt64(s[1] & m) << (2 * bits) | UInt64(s[2] & m) << bits
                | UInt64(s[3] & m)
            for j in 0..<bytes { d[j] = UInt8(truncatingIfNeeded: word >> (4 * bits - 8 - 8 * j)) }
        }
        return groups * 4
    }

    @inline(__always)
    private static func unpackEven(_ src: UnsafePointer<UInt8>, _ count: Int, _ dst: UnsafeMutablePointer<UInt16>,
                                   bits: Int) -> Int {
        let groups = count / 4, bytes = bits / 2
        let mask = UInt64(1) << bits - 1
        for g in 0..<groups {
            let s = src + bytes * g, d = dst + 4 * g
            var word: UInt64 = 0
            for j in 0..<bytes { word = word << 8 | UInt64(s[j]) }
            d[0] = UInt16(truncatingIfNeeded: word >> (3 * bits))
            d[1] = UInt16(truncatingIfNeeded: (word >> (2 * bits)) & mask)
            d[2] = UInt16(truncatingIfNeeded: (word >> bits) & mask)
            d[3] = UInt16(truncatingIfNeeded: word & mask)
        }
        return groups * 4
    }

    // MARK: - Odd depths: 8 samples (8 * bits ≤ 120 bits) are bits bytes.

    @inline(__always)
    private static func packOdd(_ src: UnsafePointer<UInt16>, _ count: Int, _ dst: UnsafeMutablePointer<UInt8>,
                                bits: Int) -> Int {
        let groups = count / 8
        let m = UInt16(truncatingIfNeeded: 1 << bits - 1)
        for g in 0..<groups {
            let s = src + 8 * g, d = dst + bits * g
            let high = UInt64(s[0] & m) << (3 * bits) | UInt64(s[1] & m) << (2 * bits) | UInt64(s[2] & m) << bits
                | UInt64(s[3] & m)
            let low = UInt64(s[4] & m) << (3 * bits) | UInt64(s[5] & m) << (2 * bits) | UInt64(s[6] & m) << bits
                | UInt64(s[7] & m)
            let word = UInt128(high) << (4 * bits) | UInt128(low)
            for j in 0..<bits { d[j] = UInt8(truncatingIfNeeded: word >> (8 * bits - 8 - 8 * j)) }
        }
        return groups * 8
    }

    @inline(__always)
    private static func unpackOdd(_ src: UnsafePointer<UInt8>, _ count: Int, _ dst: UnsafeMutablePointer<UInt16>,
                                  bits: Int) -> Int {
        let groups = count / 8
        let mask = UInt128(1) << bits - 1
        for g in 0..<groups {
            let s = src + bits * g, d = dst + 8 * g
            var word: UInt128 = 0
            for j in 0..<bits { word = word << 8 | UInt128(s[j]) }
            for k in 0..<8 { d[k] = UInt16(truncatingIfNeeded: (word >> (7 * bits - k * bits)) & mask) }
        }
        return groups * 8
    }

    // MARK: - The rest of a row, through a bit accumulator.

    private static func packTail(_ src: UnsafePointer<UInt16>, count: Int, bits: Int,
                                 into dst: UnsafeMutablePointer<UInt8>) {
        let mask = UInt32(1) << bits - 1
        var accumulator: UInt32 = 0, held = 0, out = 0
        for i in 0..<count {
            accumulator = accumulator << bits | (UInt32(src[i]) & mask)
            held += bits
            while held >= 8 {
                held -= 8
                dst[out] = UInt8(truncatingIfNeeded: accumulator >> held)
                out += 1
            }
        }
        if held > 0 { dst[out] = UInt8(truncatingIfNeeded: accumulator << (8 - held)) }
    }

    private static func unpackTail(_ src: UnsafePointer<UInt8>, count: Int, bits: Int,
                                   into dst: UnsafeMutablePointer<UInt16>) {
        let mask = UInt32(1) << bits - 1
        var accumulator: UInt32 = 0, held = 0, next = 0
        for i in 0..<count {
            while held < bits {
                accumulator = accumulator << 8 | UInt32(src[next])
                next += 1
                held += 8
            }
            held -= bits
            dst[i] = UInt16(truncatingIfNeeded: (accumulator >> held) & mask)
        }
    }
}
