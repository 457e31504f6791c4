/// Uncompressed samples packed at their bit depth, as TIFF and DNG store them when `BitsPerSample` is not 8 or 16.
///
/// The rule (TIFF 6.0, Compression 1; DNG 1.6, BitsPerSample): samples follow each other with no unused bits,
/// each sample's most significant bit first, bytes filled from their most significant bit (FillOrder 1) — in every
/// file, whatever its byte order; each row starts on a byte boundary, the last byte of a row padded with zero bits.
/// A row of `width` samples at `bits` bits is `(width * bits + 7) / 8` bytes.
///
/// `pack` and `unpack` work on one row. Whole groups of samples that end on a byte boundary (4 samples at even
/// depths, 8 at odd ones) are built in one or two 64-bit words and moved with 8-byte big-endian stores and loads, a
/// loop with no carried state that is specialised per depth; the last samples of a row (those whose 8- or 16-byte
/// access would pass the row's end) go through a bit accumulator.
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
        case 8:
            for i in 0..<count { destination[i] = UInt8(truncatingIfNeeded: source[i]) }
            done = count
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
        case 8:
            for i in 0..<count { destination[i] = UInt16(source[i]) }
            done = count
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

    /// Groups of `size` samples (`bytes` bytes each) from the start of a row of `count` samples whose `access`-byte
    /// load or store from the group's first byte stays inside the row.
    @inline(__always)
    private static func wholeGroups(_ count: Int, of size: Int, bytes: Int, access: Int, bits: Int) -> Int {
        let room = rowBytes(width: count, bits: bits) - access
        return room < 0 ? 0 : min(count / size, room / bytes + 1)
    }

    // MARK: - Even depths: 4 samples (4 * bits ≤ 56 bits) are bits / 2 bytes, moved as one 8-byte word.

    /// Packs whole groups while a group's 8-byte store stays inside the row (its bytes past the group are rewritten
    /// by the next group or the tail); returns the samples done.
    @inline(__always)
    private static func packEven(_ src: UnsafePointer<UInt16>, _ count: Int, _ dst: UnsafeMutablePointer<UInt8>,
                                 bits: Int) -> Int {
        let bytes = bits / 2
        let groups = wholeGroups(count, of: 4, bytes: bytes, access: 8, bits: bits)
        let m = UInt16(truncatingIfNeeded: 1 << bits - 1)
        let out = UnsafeMutableRawPointer(dst)
        for g in 0..<groups {
            let s = src + 4 * g
            let word = UInt64(s[0] & m) << (3 * bits) | UInt64(s[1] & m) << (2 * bits) | UInt64(s[2] & m) << bits
                | UInt64(s[3] & m)
            out.storeBytes(of: (word << (64 - 4 * bits)).bigEndian, toByteOffset: bytes * g, as: UInt64.self)
        }
        return groups * 4
    }

    /// Unpacks whole groups while a group's 8-byte load stays inside the row; returns the samples done.
    @inline(__always)
    private static func unpackEven(_ src: UnsafePointer<UInt8>, _ count: Int, _ dst: UnsafeMutablePointer<UInt16>,
                                   bits: Int) -> Int {
        let bytes = bits / 2
        let groups = wholeGroups(count, of: 4, bytes: bytes, access: 8, bits: bits)
        let mask = UInt64(1) << bits - 1
        let input = UnsafeRawPointer(src)
        for g in 0..<groups {
            let word = UInt64(bigEndian: input.loadUnaligned(fromByteOffset: bytes * g, as: UInt64.self)) >> (64 - 4 * bits)
            let d = dst + 4 * g
            d[0] = UInt16(truncatingIfNeeded: word >> (3 * bits))
            d[1] = UInt16(truncatingIfNeeded: (word >> (2 * bits)) & mask)
            d[2] = UInt16(truncatingIfNeeded: (word >> bits) & mask)
            d[3] = UInt16(truncatingIfNeeded: word & mask)
        }
        return groups * 4
    }

    // MARK: - Odd depths: 8 samples (8 * bits ≤ 120 bits) are bits bytes, moved as two 8-byte words.

    @inline(__always)
    private static func packOdd(_ src: UnsafePointer<UInt16>, _ count: Int, _ dst: UnsafeMutablePointer<UInt8>,
                                bits: Int) -> Int {
        let groups = wholeGroups(count, of: 8, bytes: bits, access: 16, bits: bits)
        let m = UInt16(truncatingIfNeeded: 1 << bits - 1)
        let out = UnsafeMutableRawPointer(dst)
        for g in 0..<groups {
            let s = src + 8 * g
            let high = UInt64(s[0] & m) << (3 * bits) | UInt64(s[1] & m) << (2 * bits) | UInt64(s[2] & m) << bits
                | UInt64(s[3] & m)
            let low = UInt64(s[4] & m) << (3 * bits) | UInt64(s[5] & m) << (2 * bits) | UInt64(s[6] & m) << bits
                | UInt64(s[7] & m)
            // The 8 * bits-bit group, left-aligned in 128 bits: its first 64 bits, then the rest.
            let first = high << (64 - 4 * bits) | low >> (8 * bits - 64)
            let rest = low << (128 - 8 * bits)
            out.storeBytes(of: first.bigEndian, toByteOffset: bits * g, as: UInt64.self)
            out.storeBytes(of: rest.bigEndian, toByteOffset: bits * g + 8, as: UInt64.self)
        }
        return groups * 8
    }

    @inline(__always)
    private static func unpackOdd(_ src: UnsafePointer<UInt8>, _ count: Int, _ dst: UnsafeMutablePointer<UInt16>,
                                  bits: Int) -> Int {
        let groups = wholeGroups(count, of: 8, bytes: bits, access: 16, bits: bits)
        let mask = UInt64(1) << bits - 1
        let input = UnsafeRawPointer(src)
        for g in 0..<groups {
            let first = UInt64(bigEndian: input.loadUnaligned(fromByteOffset: bits * g, as: UInt64.self))
            let rest = UInt64(bigEndian: input.loadUnaligned(fromByteOffset: bits * g + 8, as: UInt64.self))
            let high = first >> (64 - 4 * bits)
            let low = (first & (UInt64(1) << (64 - 4 * bits) - 1)) << (8 * bits - 64) | rest >> (128 - 8 * bits)
            let d = dst + 8 * g
            d[0] = UInt16(truncatingIfNeeded: high >> (3 * bits))
            d[1] = UInt16(truncatingIfNeeded: (high >> (2 * bits)) & mask)
            d[2] = UInt16(truncatingIfNeeded: (high >> bits) & mask)
            d[3] = UInt16(truncatingIfNeeded: high & mask)
            d[4] = UInt16(truncatingIfNeeded: low >> (3 * bits))
            d[5] = UInt16(truncatingIfNeeded: (low >> (2 * bits)) & mask)
            d[6] = UInt16(truncatingIfNeeded: (low >> bits) & mask)
            d[7] = UInt16(truncatingIfNeeded: low & mask)
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
