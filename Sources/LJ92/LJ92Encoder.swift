/// Encodes images as lossless JPEG (ITU T.81 process 14: SOF3, Huffman coding, one scan, no restart markers),
/// the compression DNG calls 7.
///
/// An image is `height` rows of `width` pixels of `components` interleaved samples (a Bayer tile is usually
/// coded as two components per pixel, so each colour is predicted from its own neighbour). Each encoded image
/// gets its own Huffman table, the optimal one for its differences (T.81 K.2, lengths ≤ 16). Point transform 0.
public struct LJ92Encoder: Sendable {
    /// Sample precision in bits (2...16); samples must be below 2^precision.
    public let precision: Int
    /// The predictor for all but the first row and column.
    public let predictor: LJ92Predictor

    /// Creates an encoder, checking the precision.
    public init(precision: Int, predictor: LJ92Predictor = .left) throws(LJ92Error) {
        guard (2...16).contains(precision) else {
            throw LJ92Error("lossless JPEG: precision \(precision) bits is outside 2...16")
        }
        self.precision = precision
        self.predictor = predictor
    }

    /// Encodes the samples and returns the JPEG stream (SOI to EOI).
    public func encode(_ samples: UnsafeBufferPointer<UInt16>, width: Int, height: Int,
                       components: Int) throws(LJ92Error) -> [UInt8] {
        try checkShape(width: width, height: height, components: components)
        guard samples.count >= width * height * components, let base = samples.baseAddress else {
            throw LJ92Error("lossless JPEG: \(samples.count) samples given for a \(width)x\(height)x\(components) image")
        }
        let workspace = LJ92Workspace()
        let count = encode(base, rowStride: width * components, width: width, height: height,
                           components: components, workspace: workspace)
        return Array(UnsafeBufferPointer(start: workspace.output, count: count))
    }

    func checkShape(width: Int, height: Int, components: Int) throws(LJ92Error) {
        guard (1...4).contains(components) else {
            throw LJ92Error("lossless JPEG: \(components) components (1...4 are possible)")
        }
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw LJ92Error("lossless JPEG: a \(width)x\(height) image is outside 1...65535 in each direction")
        }
    }

    /// Encodes rows of `width * components` samples, `rowStride` samples apart, into `workspace.output` and
    /// returns the byte count. The shape must already be checked.
    package func encode(_ samples: UnsafePointer<UInt16>, rowStride: Int, width: Int, height: Int, components: Int,
                workspace: LJ92Workspace) -> Int {
        let rowLength = width * components
        let n = rowLength * height
        workspace.reserve(samples: n)
        computeDifferences(samples, rowStride: rowStride, rowLength: rowLength, height: height,
                           components: components, into: workspace.differences)
        Self.categorise(workspace.differences, count: n, categories: workspace.categories, extra: workspace.extraBits)
        var counts = [Int](repeating: 0, count: LJ92HuffmanTable.symbolCount)
        Self.countCategories(workspace.categories, count: n, into: &counts)
        let table = counts.withUnsafeBufferPointer { LJ92HuffmanTable.optimal(for: $0.baseAddress!) }
        var at = writeHeaders(workspace.output, table: table, width: width, height: height, components: components)
        at += Self.writeEntropyData(workspace.categories, workspace.extraBits, count: n, table: table,
                                    into: workspace.output + at)
        workspace.output[at] = 0xFF
        workspace.output[at + 1] = 0xD9
        return at + 2
    }

    // MARK: - Prediction

    /// Differences (sample − prediction) modulo 2^16, as values in −32768...32767 (−32768 stands for +32768:
    /// both have category 16 and no additional bits).
    private func computeDifferences(_ samples: UnsafePointer<UInt16>, rowStride: Int, rowLength: Int, height: Int,
                                    components c: Int, into d: UnsafeMutablePointer<Int32>) {
        let initial = Int32(1) << Int32(precision - 1)
        for y in 0..<height {
            let row = samples + y * rowStride
            let out = d + y * rowLength
            if y == 0 {
                // First row: the first pixel is predicted by 2^(P-1), the rest by Ra.
                for k in 0..<min(c, rowLength) { out[k] = Int32(row[k]) &- initial }
                if rowLength > c { Self.diffLeft(row + c, row, count: rowLength - c, out: out + c) }
                continue
            }
            let up = row - rowStride
            // First pixel of a row: predicted by Rb.
            for k in 0..<min(c, rowLength) { out[k] = Int32(row[k]) &- Int32(up[k]) }
            let m = rowLength - c
            guard m > 0 else { continue }
            let x = row + c, ra = row, rb = up + c, rc = up, o = out + c
            switch predictor {
            case .left: Self.diffLeft(x, ra, count: m, out: o)
            case .above: Self.diffLeft(x, rb, count: m, out: o)
            case .aboveLeft: Self.diffLeft(x, rc, count: m, out: o)
            case .plane: Self.diff(x, ra, rb, rc, count: m, out: o) { $0 &+ $1 &- $2 }
            case .leftPlusHalfVertical: Self.diff(x, ra, rb, rc, count: m, out: o) { $0 &+ (($1 &- $2) >> 1) }
            case .abovePlusHalfHorizontal: Self.diff(x, ra, rb, rc, count: m, out: o) { $1 &+ (($0 &- $2) >> 1) }
            case .average: Self.diff(x, ra, rb, rc, count: m, out: o) { a, b, _ in (a &+ b) >> 1 }
            }
        }
        // Wrap to 16 bits in one vectorised pass.
        let n = rowLength * height
        for i in 0..<n { d[i] = ((d[i] & 0xFFFF) ^ 0x8000) &- 0x8000 }
    }

    @inline(__always)
    private static func diffLeft(_ x: UnsafePointer<UInt16>, _ p: UnsafePointer<UInt16>, count: Int,
                                 out: UnsafeMutablePointer<Int32>) {
        for i in 0..<count { out[i] = Int32(x[i]) &- Int32(p[i]) }
    }

    @inline(__always)
    private static func diff(_ x: UnsafePointer<UInt16>, _ ra: UnsafePointer<UInt16>, _ rb: UnsafePointer<UInt16>,
                             _ rc: UnsafePointer<UInt16>, count: Int, out: UnsafeMutablePointer<Int32>,
                             _ predict: (Int32, Int32, Int32) -> Int32) {
        for i in 0..<count { out[i] = Int32(x[i]) &- predict(Int32(ra[i]), Int32(rb[i]), Int32(rc[i])) }
    }

    // MARK: - Categories

    /// SSSS (the bit length of |d|, 0 for 0) from the exponent of |d| as a float, and the additional bits (d, or
    /// d − 1 when negative, of which the low SSSS bits are written). Vectorises: no branches, no checked casts.
    static func categorise(_ d: UnsafePointer<Int32>, count: Int, categories: UnsafeMutablePointer<UInt8>,
                           extra: UnsafeMutablePointer<UInt16>) {
        for i in 0..<count {
            let v = d[i]
            let sign = v >> 31
            let magnitude = (v ^ sign) &- sign
            let exponent = Int32(bitPattern: Float(magnitude).bitPattern) >> 23
            let s = exponent &- 126
            categories[i] = UInt8(truncatingIfNeeded: s < 0 ? 0 : s)
            extra[i] = UInt16(truncatingIfNeeded: v &+ sign)
        }
    }

    static func countCategories(_ categories: UnsafePointer<UInt8>, count: Int, into counts: inout [Int]) {
        // Four sub-histograms hide the store-to-load latency of repeated categories.
        var h = [Int](repeating: 0, count: 4 * 32)
        h.withUnsafeMutableBufferPointer { h in
            let p = h.baseAddress!
            var i = 0
            while i + 4 <= count {
                p[Int(categories[i])] += 1
                p[32 + Int(categories[i + 1])] += 1
                p[64 + Int(categories[i + 2])] += 1
                p[96 + Int(categories[i + 3])] += 1
                i += 4
            }
            while i < count { p[Int(categories[i])] += 1; i += 1 }
        }
        for s in 0..<LJ92HuffmanTable.symbolCount { counts[s] = h[s] + h[32 + s] + h[64 + s] + h[96 + s] }
    }

    // MARK: - Stream

    private func writeHeaders(_ out: UnsafeMutablePointer<UInt8>, table: LJ92HuffmanTable, width: Int, height: Int,
                              components: Int) -> Int {
        var at = 0
        func byte(_ v: Int) { out[at] = UInt8(truncatingIfNeeded: v); at += 1 }
        func word(_ v: Int) { byte(v >> 8); byte(v) }
        word(0xFFD8)                                    // SOI
        word(0xFFC4); word(2 + 1 + 16 + table.values.count) // DHT
        byte(0x00)                                      // class 0 (DC/lossless), table 0
        for l in 1...16 { byte(Int(table.bits[l])) }
        for v in table.values { byte(Int(v)) }
        word(0xFFC3); word(8 + 3 * components)          // SOF3
        byte(precision); word(height); word(width); byte(components)
        for c in 0..<components { byte(c); byte(0x11); byte(0) }
        word(0xFFDA); word(6 + 2 * components)          // SOS
        byte(components)
        for c in 0..<components { byte(c); byte(0x00) }
        byte(predictor.rawValue); byte(0); byte(0)       // Ss = predictor, Se = 0, Ah/Al = 0 (no point transform)
        return at
    }

    /// Huffman-codes the categories and appends the additional bits, with 0xFF bytes stuffed; pads the last
    /// byte with 1 bits. Returns the byte count.
    static func writeEntropyData(_ categories: UnsafePointer<UInt8>, _ extra: UnsafePointer<UInt16>, count: Int,
                                 table: LJ92HuffmanTable, into out: UnsafeMutablePointer<UInt8>) -> Int {
        // Per category, one word: the code shifted left by the additional-bit count (bits 0-31), the mask of
        // the additional bits (32-47) and the total length (48-55).
        var entries = [UInt64](repeating: 0, count: 32)
        for s in 0..<LJ92HuffmanTable.symbolCount {
            let extraLength = UInt64(s & 15)           // category 16 has no additional bits
            let code = UInt64(table.codes[s]) << extraLength
            let mask = (UInt64(1) << extraLength) - 1
            entries[s] = code | mask << 32 | (UInt64(table.lengths[s]) + extraLength) << 48
        }
        var at = 0
        var acc: UInt64 = 0
        var bits: UInt64 = 0
        entries.withUnsafeBufferPointer { entries in
            let table = entries.baseAddress!
            for i in 0..<count {
                let e = table[Int(categories[i])]
                let n = e &>> 48
                acc = (acc &<< n) | (e & 0xFFFF_FFFF) | (UInt64(extra[i]) & (e &>> 32) & 0xFFFF)
                bits &+= n
                if bits >= 32 {
                    bits &-= 32
                    let word = UInt32(truncatingIfNeeded: acc &>> bits)
                    at = put(word, out, at)
                }
            }
        }
        // Flush whole bytes, then pad the last partial byte with ones.
        while bits >= 8 {
            bits -= 8
            at = putByte(UInt8(truncatingIfNeeded: acc >> bits), out, at)
        }
        if bits > 0 {
            let pad = 8 - bits
            at = putByte(UInt8(truncatingIfNeeded: (acc << pad) | ((1 << pad) - 1)), out, at)
        }
        return at
    }

    @inline(__always)
    private static func put(_ word: UInt32, _ out: UnsafeMutablePointer<UInt8>, _ at: Int) -> Int {
        // Fast path: no 0xFF byte in the word (a zero byte in ~word).
        let inverted = ~word
        if (inverted &- 0x0101_0101) & word & 0x8080_8080 == 0 {
            UnsafeMutableRawPointer(out + at).storeBytes(of: word.bigEndian, as: UInt32.self)
            return at + 4
        }
        var at = at
        at = putByte(UInt8(truncatingIfNeeded: word >> 24), out, at)
        at = putByte(UInt8(truncatingIfNeeded: word >> 16), out, at)
        at = putByte(UInt8(truncatingIfNeeded: word >> 8), out, at)
        return putByte(UInt8(truncatingIfNeeded: word), out, at)
    }

    @inline(__always)
    private static func putByte(_ b: UInt8, _ out: UnsafeMutablePointer<UInt8>, _ at: Int) -> Int {
        out[at] = b
        if b == 0xFF {
            out[at + 1] = 0
            return at + 2
        }
        return at + 1
    }
}
