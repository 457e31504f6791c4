/// The hot loops: one row of `count` pixels from packed bytes to 16-bit samples. Plain scalar loops over unsafe
/// pointers that the compiler vectorises (no SIMD types: their conversion initialisers are not inlined). Each reads
/// only the bytes of its row that hold the row's pixels (``PixelPacking/bytesPerRow(width:)``); the bit layouts are
/// documented on ``PixelPacking``. The caller has checked the sizes.
enum RowUnpackers {
    /// One byte per sample.
    static func eightBit(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt16>, count: Int) {
        for i in 0..<count {
            target[i] = UInt16(source[i])
        }
    }

    /// 16-bit little-endian words; bits above `bits` are cleared.
    static func littleEndian16(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt16>, count: Int,
                               bits: Int) {
        UnsafeMutableRawPointer(target).copyMemory(from: source, byteCount: 2 * count)
        clearHighBits(target, count: count, bits: bits)
    }

    /// Clears the bits above `bits` of `count` little-endian 16-bit words where they lie (a 16-bit format unpacked in
    /// place); nothing to do at 16 bits.
    static func clearHighBits(_ words: UnsafeMutablePointer<UInt16>, count: Int, bits: Int) {
        #if _endian(big)
        for i in 0..<count {
            words[i] = UInt16(littleEndian: words[i])
        }
        #endif
        guard bits < 16 else { return }
        let mask = UInt16(truncatingIfNeeded: (1 << bits) - 1)
        for i in 0..<count {
            words[i] &= mask
        }
    }

    /// MIPI CSI-2 RAW12: P0[11:4], P1[11:4], then P1[3:0] << 4 | P0[3:0].
    static func csi2Raw12(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt16>, count: Int) {
        let pairs = count / 2
        for i in 0..<pairs {
            let b = source + 3 * i
            let low = UInt16(b[2])
            target[2 * i] = UInt16(b[0]) << 4 | low & 0xF
            target[2 * i + 1] = UInt16(b[1]) << 4 | low >> 4
        }
        if count & 1 != 0 {
            let b = source + 3 * pairs
            target[count - 1] = UInt16(b[0]) << 4 | UInt16(b[2]) & 0xF
        }
    }

    /// MIPI CSI-2 RAW10: P0..P3[9:2], then P3[1:0] << 6 | P2[1:0] << 4 | P1[1:0] << 2 | P0[1:0].
    static func csi2Raw10(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt16>, count: Int) {
        let quads = count / 4
        for i in 0..<quads {
            let b = source + 5 * i
            let t = target + 4 * i
            let low = UInt16(b[4])
            t[0] = UInt16(b[0]) << 2 | low & 3
            t[1] = UInt16(b[1]) << 2 | low >> 2 & 3
            t[2] = UInt16(b[2]) << 2 | low >> 4 & 3
            t[3] = UInt16(b[3]) << 2 | low >> 6
        }
        let b = source + 5 * quads
        for k in 0..<(count - 4 * quads) {
            target[4 * quads + k] = UInt16(b[k]) << 2 | UInt16(b[4]) >> (2 * k) & 3
        }
    }

    /// MIPI CSI-2 RAW14: P0..P3[13:6], then P1[1:0] << 6 | P0[5:0], P2[3:0] << 4 | P1[5:2], P3[5:0] << 2 | P2[5:4].
    static func csi2Raw14(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt16>, count: Int) {
        let quads = count / 4
        for i in 0..<quads {
            let b = source + 7 * i
            let t = target + 4 * i
            let b4 = UInt16(b[4]), b5 = UInt16(b[5]), b6 = UInt16(b[6])
            t[0] = UInt16(b[0]) << 6 | b4 & 0x3F
            t[1] = UInt16(b[1]) << 6 | (b5 & 0xF) << 2 | b4 >> 6
            t[2] = UInt16(b[2]) << 6 | (b6 & 0x3) << 4 | b5 >> 4
            t[3] = UInt16(b[3]) << 6 | b6 >> 2
        }
        let rest = count - 4 * quads
        guard rest > 0 else { return }
        // A group cut short by the row's end is still whole in the bytes (7 of them); the missing pixels are not read.
        let b = source + 7 * quads
        let low = UInt64(b[4]) | UInt64(b[5]) << 8 | UInt64(b[6]) << 16
        for k in 0..<rest {
            target[4 * quads + k] = UInt16(b[k]) << 6 | UInt16(truncatingIfNeeded: low >> (6 * k) & 0x3F)
        }
    }

    /// GigE Vision 12Packed: P0[11:4], P1[3:0] << 4 | P0[3:0], P1[11:4].
    static func gigEVision12(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt16>, count: Int) {
        let pairs = count / 2
        for i in 0..<pairs {
            let b = source + 3 * i
            let low = UInt16(b[1])
            target[2 * i] = UInt16(b[0]) << 4 | low & 0xF
            target[2 * i + 1] = UInt16(b[2]) << 4 | low >> 4
        }
        if count & 1 != 0 {
            let b = source + 3 * pairs
            target[count - 1] = UInt16(b[0]) << 4 | UInt16(b[1]) & 0xF
        }
    }

    /// GigE Vision 10Packed: P0[9:2], P1[1:0] << 4 | P0[1:0], P1[9:2].
    static func gigEVision10(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt16>, count: Int) {
        let pairs = count / 2
        for i in 0..<pairs {
            let b = source + 3 * i
            let low = UInt16(b[1])
            target[2 * i] = UInt16(b[0]) << 2 | low & 3
            target[2 * i + 1] = UInt16(b[2]) << 2 | low >> 4 & 3
        }
        if count & 1 != 0 {
            let b = source + 3 * pairs
            target[count - 1] = UInt16(b[0]) << 2 | UInt16(b[1]) & 3
        }
    }

    /// PFNC 12p, LSB first: P0[7:0], P1[3:0] << 4 | P0[11:8], P1[11:4].
    static func lsbFirst12(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt16>, count: Int) {
        let pairs = count / 2
        for i in 0..<pairs {
            let b = source + 3 * i
            let middle = UInt16(b[1])
            target[2 * i] = UInt16(b[0]) | (middle & 0xF) << 8
            target[2 * i + 1] = middle >> 4 | UInt16(b[2]) << 4
        }
        if count & 1 != 0 {
            let b = source + 3 * pairs
            target[count - 1] = UInt16(b[0]) | (UInt16(b[1]) & 0xF) << 8
        }
    }

    /// PFNC 10p, LSB first: 4 pixels in 5 bytes, P0 in bits 9:0 of the little-endian 40-bit group, P1 in 19:10,
    /// P2 in 29:20, P3 in 39:30.
    static func lsbFirst10(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt16>, count: Int) {
        let quads = count / 4
        for i in 0..<quads {
            let b = source + 5 * i
            let t = target + 4 * i
            let b1 = UInt16(b[1]), b2 = UInt16(b[2]), b3 = UInt16(b[3])
            t[0] = UInt16(b[0]) | (b1 & 0x3) << 8
            t[1] = b1 >> 2 | (b2 & 0xF) << 6
            t[2] = b2 >> 4 | (b3 & 0x3F) << 4
            t[3] = b3 >> 6 | UInt16(b[4]) << 2
        }
        let rest = count - 4 * quads
        guard rest > 0 else { return }
        // A group cut short: only the bytes holding its bits exist (ceil(10 * rest / 8) of them).
        let b = source + 5 * quads
        var bits: UInt64 = 0
        for k in 0..<((10 * rest + 7) / 8) {
            bits |= UInt64(b[k]) << (8 * k)
        }
        for k in 0..<rest {
            target[4 * quads + k] = UInt16(truncatingIfNeeded: bits >> (10 * k) & 0x3FF)
        }
    }
}
