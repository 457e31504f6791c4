/// A linear raw frame (DNG `PhotometricInterpretation` 34892, LinearRaw): three samples per pixel in camera RGB,
/// already demosaiced (phone raws, "linear" DNG conversions, lossy DNGs, scanners), with a black and a white level
/// per channel.
///
/// Samples are 16-bit, interleaved (R, G, B of one pixel next to each other), row by row without padding: sample
/// `c` of the pixel at `row`, `column` is `storage[(row * width + column) * 3 + c]`. The levels apply after any
/// linearization table, as in DNG.
public struct LinearRawFrame: Sendable, ImageFraming {
    /// Samples per pixel.
    public static let channels = 3
    /// Width of the buffer in pixels.
    public let width: Int
    /// Height of the buffer in pixels.
    public let height: Int
    /// The samples, `width * height * 3` of them.
    public let storage: PixelStorage
    /// The part of the buffer that holds image pixels (DNG `ActiveArea`).
    public let activeArea: PixelRect
    /// The part of the active area meant to be shown, relative to the active area's top-left (DNG `DefaultCrop`).
    public let defaultCrop: PixelRect
    /// Horizontal and vertical scale to square pixels (DNG `DefaultScale`).
    public let defaultScale: (horizontal: Double, vertical: Double)
    /// Black level of each channel (R, G, B).
    public let blackLevels: [Double]
    /// Saturation level of each channel (R, G, B), per DNG `WhiteLevel`.
    public let whiteLevels: [UInt32]

    /// Creates a frame over existing storage, checking that every value is consistent.
    public init(width: Int, height: Int, storage: PixelStorage, activeArea: PixelRect? = nil, defaultCrop: PixelRect? = nil,
                defaultScale: (horizontal: Double, vertical: Double) = (1, 1), blackLevels: [Double],
                whiteLevels: [UInt32]) throws(InvalidValueError) {
        try require(width > 0 && height > 0 && width <= 65535 && height <= 65535, "frame size",
                    "\(width)x\(height) is empty or exceeds 65535 pixels on a side")
        try require(storage.count >= width * height * Self.channels, "frame storage",
                    "\(storage.count) samples cannot hold \(width)x\(height) pixels of 3 samples")
        try require(blackLevels.count == Self.channels && whiteLevels.count == Self.channels, "levels",
                    "\(blackLevels.count) black and \(whiteLevels.count) white levels for 3 channels")
        for c in 0..<Self.channels {
            try require(whiteLevels[c] > 0 && whiteLevels[c] <= 65535, "white level",
                        "\(whiteLevels[c]) is outside 1...65535")
            try require(blackLevels[c].isFinite && blackLevels[c] >= 0 && blackLevels[c] < Double(whiteLevels[c]),
                        "black levels", "black level \(blackLevels[c]) is not below the white level \(whiteLevels[c])")
        }
        let (area, crop) = try checkedFraming(width: width, height: height, activeArea: activeArea, defaultCrop: defaultCrop,
                                              defaultScale: defaultScale)
        self.width = width
        self.height = height
        self.storage = storage
        self.activeArea = area
        self.defaultCrop = crop
        self.defaultScale = defaultScale
        self.blackLevels = blackLevels
        self.whiteLevels = whiteLevels
    }

    /// Sample `channel` (0 red, 1 green, 2 blue) of the pixel at `row`, `column` of the buffer.
    @inlinable
    public subscript(row: Int, column: Int, channel: Int) -> UInt16 {
        storage.baseAddress[(row * width + column) * 3 + channel]
    }

    /// Pointer to the first sample of `row`.
    @inlinable
    public func row(_ row: Int) -> UnsafePointer<UInt16> {
        UnsafePointer(storage.baseAddress + row * width * 3)
    }
}
