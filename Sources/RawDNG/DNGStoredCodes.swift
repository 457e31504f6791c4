import RawCore

/// A raw image as a DNG stores it when its samples are codes that a `LinearizationTable` maps to linear values (a
/// Blackmagic camera's log-like 12-bit codes, for one): the codes, their stored width and the table.
///
/// ``DNGWriter`` writes such an image with its codes and table untouched (``DNGWriter/write(_:codes:to:)``), so that a
/// DNG converted from a DNG source is bit-exact to the source's stored data and about its size, instead of holding the
/// 16-bit linear values one decoder's reading of the table gives. The frame the codes go with (its levels, crop and
/// calibration) is in linear units, as the DNG's BlackLevel and WhiteLevel are (they apply after linearization).
public struct DNGStoredCodes: Sendable {
    /// The codes, `width` x `height`, tight rows, each below 2^`bitsPerSample`.
    public let samples: PixelStorage
    /// Width of the raw image in samples.
    public let width: Int
    /// Height of the raw image in rows.
    public let height: Int
    /// Bits per code as stored (1...16).
    public let bitsPerSample: Int
    /// The largest code: the codes are written as wide as it needs (at least 8 bits), which may be narrower than they
    /// were stored (12-bit codes in 16-bit samples).
    public let largestCode: UInt16
    /// `LinearizationTable`: the linear value of code `c` is `table[min(c, table.count - 1)]` (1...65536 entries).
    public let table: [UInt16]

    /// Creates stored codes, checking the sizes, the width of the codes and the table.
    public init(samples: PixelStorage, width: Int, height: Int, bitsPerSample: Int,
                table: [UInt16]) throws(InvalidValueError) {
        try require(width > 0 && height > 0 && samples.count >= width * height, "stored codes",
                    "\(samples.count) samples cannot hold a \(width)x\(height) image")
        try require((1...16).contains(bitsPerSample), "stored codes", "\(bitsPerSample) bits per sample is outside 1...16")
        try require((1...65536).contains(table.count), "LinearizationTable", "has \(table.count) entries, not 1...65536")
        var largest: UInt16 = 0
        let p = samples.baseAddress
        for i in 0..<(width * height) { largest = max(largest, p[i]) }
        if bitsPerSample < 16 {
            try require(Int(largest) < 1 << bitsPerSample, "stored codes", "code \(largest) does not fit in \(bitsPerSample) bits")
        }
        self.largestCode = largest
        self.samples = samples
        self.width = width
        self.height = height
        self.bitsPerSample = bitsPerSample
        self.table = table
    }

    /// The codes as a frame `frame`'s size and CFA layout, for the sample writers: levels 0 and 2^bits - 1, as many
    /// bits as the largest code needs, at least 8 (the frame's smallest sample width).
    func dataFrame(like frame: RawFrame) throws(InvalidValueError) -> RawFrame {
        try require(frame.width == width && frame.height == height, "stored codes",
                    "are \(width)x\(height), the frame \(frame.width)x\(frame.height)")
        var bits = 8
        while bits < 16 && Int(largestCode) >= 1 << bits { bits += 1 }
        return try RawFrame(width: width, height: height, storage: samples, cfa: frame.cfa, activeArea: frame.activeArea,
                            blackLevels: try BlackLevels(rows: 1, columns: 1, values: [0]),
                            whiteLevel: UInt32((1 << bits) - 1), bitsPerSample: bits)
    }
}
