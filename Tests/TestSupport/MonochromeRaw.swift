import RawCore

/// Monochrome raw images for tests (``CFALayout/monochrome``: one unfiltered plane, no calibration), built straight
/// from a function of the pixel's position, so a test can compute what every developed or analysed pixel must be.
public enum MonochromeRaw {
    /// The sample a light level `light` (0 = black, 1 = white; above 1 clips at white) becomes between `black` and
    /// `white`, rounded to the nearest code value.
    public static func sample(_ light: Double, black: Double, white: UInt32) -> UInt16 {
        UInt16(min(Double(white), max(0, black + light * (Double(white) - black))).rounded())
    }

    /// A `width` x `height` monochrome image whose sample at active-area pixel (x, y) is `sample(light(x, y), ...)`;
    /// masked pixels (left of and above the active area, `margins`) hold `black / 2`. `bits` per sample, one black
    /// level (or a repeating pattern of `blackPattern` columns), white `2^bits − 1` unless given. The metadata
    /// carries `orientation` and a camera name; there is no calibration (a monochrome frame has no colour).
    public static func image(width: Int = 96, height: Int = 64, bits: Int = 12, black: Double = 256, white: UInt32? = nil,
                             blackPattern: [Double]? = nil, margins: (top: Int, left: Int) = (0, 0), crop: PixelRect? = nil,
                             orientation: Orientation = .normal,
                             light: (_ x: Int, _ y: Int) -> Double) throws -> RawImage {
        let whiteLevel = white ?? UInt32((1 << bits) - 1)
        let blacks = blackPattern ?? [black]
        let levels = try BlackLevels(rows: 1, columns: blacks.count, values: blacks)
        let storage = PixelStorage(count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let ax = x - margins.left, ay = y - margins.top
                let value: UInt16
                if ax < 0 || ay < 0 {
                    value = UInt16(blacks[0] / 2)
                } else {
                    value = sample(light(ax, ay), black: blacks[ax % blacks.count], white: whiteLevel)
                }
                storage.baseAddress[y * width + x] = value
            }
        }
        let area = try PixelRect(top: margins.top, left: margins.left, height: height - margins.top, width: width - margins.left)
        let frame = try RawFrame(width: width, height: height, storage: storage, cfa: .monochrome, activeArea: area,
                                 defaultCrop: crop, blackLevels: levels, whiteLevel: whiteLevel, bitsPerSample: bits)
        var metadata = try FrameMetadata(make: "rawburst", model: "Mono Test")
        metadata.orientation = orientation
        return RawImage(frame: frame, metadata: metadata, calibration: nil)
    }
}
