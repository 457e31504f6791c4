import RawCore

/// Deterministic raw images for tests: every value is derived from a seed, so a test can recompute
/// what any pixel must be.
public enum SyntheticRaw {
    /// A frame whose sample at (row, column) is `value(row, column)`: a smooth gradient plus a CFA-dependent
    /// offset plus seeded noise, between black and white.
    public static func frame(width: Int = 256, height: Int = 192, cfa: CFALayout = .rggb, bits: Int = 12,
                             black: [Double]? = nil, white: UInt32? = nil, margins: (top: Int, left: Int) = (0, 0),
                             crop: PixelRect? = nil, defaultScale: (Double, Double) = (1, 1), seed: UInt64 = 1) throws -> RawFrame {
        let whiteLevel = white ?? UInt32((1 << bits) - 1)
        let blackValues = black ?? [Double](repeating: Double(whiteLevel / 16), count: 4)
        let blackSide = Int(Double(blackValues.count).squareRoot())
        let levels = try BlackLevels(rows: blackSide, columns: blackSide, values: blackValues)
        let storage = PixelStorage(count: width * height)
        var rng = SplitMix64(seed: seed)
        let range = Double(whiteLevel) - levels.maximum
        for r in 0..<height {
            for c in 0..<width {
                let base = levels.maximum + range * (0.05 + 0.8 * Double(c + r) / Double(width + height))
                let v = base + Double(rng.next() % 64)
                storage.baseAddress[r * width + c] = UInt16(min(Double(whiteLevel), v))
            }
        }
        let area = try PixelRect(top: margins.top, left: margins.left, height: height - margins.top, width: width - margins.left)
        return try RawFrame(width: width, height: height, storage: storage, cfa: cfa, activeArea: area, defaultCrop: crop,
                            defaultScale: defaultScale, blackLevels: levels, whiteLevel: whiteLevel, bitsPerSample: bits)
    }

    /// Metadata with every field set, including a southern/western GPS fix and a negative altitude.
    public static func fullMetadata() throws -> FrameMetadata {
        try FrameMetadata(make: "rawburst", model: "Synthetic 12", serialNumber: "RB-000123", lens: "Simulated 26mm f/1.8",
                          captureTime: CaptureTime(exifDateTime: "2026:11:22 14:03:07", subSeconds: "125", offset: "-03:30"),
                          sequenceNumber: 42, exposureTime: 1.0 / 250, fNumber: 1.8, iso: 400, focalLength: 26,
                          focusDistance: .metres(2.5), orientation: .rotate90,
                          gps: GPSFix(latitude: -33.856784, longitude: -70.648270, altitude: -12.25,
                                      timestampMilliseconds: 1_795_363_387_125))
    }

    /// A two-illuminant calibration with forward matrices, as a phone DNG has. The forward matrices map camera
    /// neutral (1, 1, 1) to the D50 white (0.9642, 1, 0.8249), as DNG requires (Adobe's SDK refuses the file
    /// otherwise).
    public static func calibration() throws -> ColorCalibration {
        try ColorCalibration(
            colorMatrix1: ColorMatrix([0.9, -0.3, -0.1], [-0.4, 1.2, 0.2], [-0.05, 0.15, 0.6]), illuminant1: .standardLightA,
            colorMatrix2: ColorMatrix([0.8, -0.25, -0.08], [-0.45, 1.25, 0.22], [-0.1, 0.2, 0.55]), illuminant2: .d65,
            forwardMatrix1: ColorMatrix([0.6142, 0.3, 0.05], [0.25, 0.7, 0.05], [0.05, 0.05, 0.7249]),
            forwardMatrix2: ColorMatrix([0.6042, 0.31, 0.05], [0.26, 0.69, 0.05], [0.04, 0.06, 0.7249]),
            asShotNeutral: [0.5, 1, 0.7], baselineExposure: 0.25)
    }

    /// A full image: frame + `fullMetadata()` + `calibration()`.
    public static func image(cfa: CFALayout = .rggb, bits: Int = 12, width: Int = 256, height: Int = 192) throws -> RawImage {
        try RawImage(frame: frame(width: width, height: height, cfa: cfa, bits: bits), metadata: fullMetadata(),
                     calibration: calibration())
    }
}
