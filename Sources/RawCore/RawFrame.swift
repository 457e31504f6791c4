/// A raw sensor frame: a 16-bit mosaic with its colour filter layout and levels.
///
/// Samples are stored in 16-bit containers, row by row, `rowStride` samples apart; `bitsPerSample`
/// says how many of the 16 bits the sensor uses. `activeArea` is the part of the buffer that holds
/// image pixels (masked border pixels lie outside it). As in DNG, the CFA layout and the black levels
/// repeat from the top-left pixel of the active area, not of the buffer.
public struct RawFrame: Sendable {
    /// Width of the buffer in pixels, including masked areas.
    public let width: Int
    /// Height of the buffer in pixels, including masked areas.
    public let height: Int
    /// Distance between rows in samples (at least `width`).
    public let rowStride: Int
    /// The pixels.
    public let storage: PixelStorage
    /// Colour filter layout, repeating from the top-left of the active area.
    public let cfa: CFALayout
    /// The part of the buffer that holds image pixels.
    public let activeArea: PixelRect
    /// The part of the active area meant to be shown, relative to the active area's top-left (DNG `DefaultCrop`).
    public let defaultCrop: PixelRect
    /// Horizontal and vertical scale to square pixels (DNG `DefaultScale`); (1, 1) for square pixels.
    public let defaultScale: (horizontal: Double, vertical: Double)
    /// Black levels from the top-left of the active area (as DNG measures them).
    public let blackLevels: BlackLevels
    /// Largest code value of the sensor (saturation), per DNG `WhiteLevel`.
    public let whiteLevel: UInt32
    /// Significant bits per sample, 8...16.
    public let bitsPerSample: Int

    /// Creates a frame over existing storage, checking that every value is consistent.
    public init(width: Int, height: Int, rowStride: Int? = nil, storage: PixelStorage, cfa: CFALayout,
                activeArea: PixelRect? = nil, defaultCrop: PixelRect? = nil,
                defaultScale: (horizontal: Double, vertical: Double) = (1, 1),
                blackLevels: BlackLevels, whiteLevel: UInt32, bitsPerSample: Int) throws(InvalidValueError) {
        let stride = rowStride ?? width
        try require(width > 0 && height > 0, "frame size", "\(width)x\(height) is empty")
        try require(width <= 65535 && height <= 65535, "frame size", "\(width)x\(height) exceeds 65535 pixels on a side")
        try require(stride >= width, "row stride", "\(stride) samples is less than the width \(width)")
        try require(storage.count >= stride * (height - 1) + width, "frame storage",
                    "\(storage.count) samples cannot hold \(height) rows of stride \(stride)")
        try require((8...16).contains(bitsPerSample), "bits per sample", "\(bitsPerSample) is outside 8...16")
        let maxCode = UInt32((1 << bitsPerSample) - 1)
        try require(whiteLevel > 0 && whiteLevel <= maxCode, "white level",
                    "\(whiteLevel) is outside 1...\(maxCode) for \(bitsPerSample)-bit samples")
        let (area, crop) = try checkedFraming(width: width, height: height, activeArea: activeArea, defaultCrop: defaultCrop,
                                              defaultScale: defaultScale)
        try require(blackLevels.maximum < Double(whiteLevel), "black levels",
                    "black level \(blackLevels.maximum) is not below the white level \(whiteLevel)")
        self.width = width
        self.height = height
        self.rowStride = stride
        self.storage = storage
        self.cfa = cfa
        self.activeArea = area
        self.defaultCrop = crop
        self.defaultScale = defaultScale
        self.blackLevels = blackLevels
        self.whiteLevel = whiteLevel
        self.bitsPerSample = bitsPerSample
    }

    /// Allocates a zero-filled frame.
    public init(width: Int, height: Int, cfa: CFALayout, blackLevels: BlackLevels, whiteLevel: UInt32,
                bitsPerSample: Int, activeArea: PixelRect? = nil) throws(InvalidValueError) {
        try require(width > 0 && height > 0 && width <= 65535 && height <= 65535, "frame size",
                    "\(width)x\(height) is empty or exceeds 65535 pixels on a side")
        try self.init(width: width, height: height, storage: PixelStorage(count: width * height), cfa: cfa,
                      activeArea: activeArea, blackLevels: blackLevels, whiteLevel: whiteLevel,
                      bitsPerSample: bitsPerSample)
    }

    /// The sample at `row`, `column` of the buffer.
    ///
    /// The setter writes into the shared ``storage``, not into this value: every frame over the same storage
    /// sees the change, which is why it is `nonmutating`. Like any write to a ``PixelStorage``, it belongs to
    /// whoever owns the storage while it is being filled (a source filling a pool slot, a decoder, a test),
    /// before the frame is handed to readers on other threads; a frame that has been shared is only read.
    @inlinable
    public subscript(row: Int, column: Int) -> UInt16 {
        get { storage.baseAddress[row * rowStride + column] }
        nonmutating set { storage.baseAddress[row * rowStride + column] = newValue }
    }

    /// Calls `body` with the pixels of one row.
    @inlinable
    public func withRow<R>(_ row: Int, _ body: (UnsafeBufferPointer<UInt16>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.baseAddress + row * rowStride, count: width))
    }

    /// The colour of the pixel at `row`, `column` of the buffer.
    public func color(row: Int, column: Int) -> CFAColor {
        let r = ((row - activeArea.top) % cfa.rows + cfa.rows) % cfa.rows
        let c = ((column - activeArea.left) % cfa.columns + cfa.columns) % cfa.columns
        return cfa.color(row: r, column: c)
    }

    /// The black level of the pixel at `row`, `column` of the buffer.
    public func blackLevel(row: Int, column: Int) -> Double {
        let r = ((row - activeArea.top) % blackLevels.rows + blackLevels.rows) % blackLevels.rows
        let c = ((column - activeArea.left) % blackLevels.columns + blackLevels.columns) % blackLevels.columns
        return blackLevels.level(row: r, column: c)
    }

    /// A copy of the active area's samples, row by row without padding.
    public func activeSamples() -> [UInt16] {
        var out = [UInt16](repeating: 0, count: activeArea.width * activeArea.height)
        out.withUnsafeMutableBufferPointer { dst in
            for r in 0..<activeArea.height {
                let src = storage.baseAddress + (activeArea.top + r) * rowStride + activeArea.left
                (dst.baseAddress! + r * activeArea.width).update(from: src, count: activeArea.width)
            }
        }
        return out
    }
}
