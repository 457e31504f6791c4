extension ColorCalibration {
    /// XYZ (D65) → linear sRGB, as a DNG ColorMatrix1: the calibration written for a camera whose colour is not known
    /// (its raw RGB taken as linear sRGB, so colours are approximate), with `asShotNeutral` when one is known.
    public static func linearSRGB(asShotNeutral: [Double]? = nil) throws(InvalidValueError) -> ColorCalibration {
        let xyzToSRGB = try ColorMatrix([3.2404542, -1.5371385, -0.4985314],
                                        [-0.9692660, 1.8760108, 0.0415560],
                                        [0.0556434, -0.2040259, 1.0572252])
        return try ColorCalibration(colorMatrix1: xyzToSRGB, illuminant1: .d65, asShotNeutral: asShotNeutral)
    }

    /// This calibration with `neutral` as its AsShotNeutral (checked as the initialiser checks it).
    public func replacingAsShotNeutral(_ neutral: [Double]?) throws(InvalidValueError) -> ColorCalibration {
        try ColorCalibration(colorMatrix1: colorMatrix1, illuminant1: illuminant1, colorMatrix2: colorMatrix2,
                             illuminant2: illuminant2, forwardMatrix1: forwardMatrix1, forwardMatrix2: forwardMatrix2,
                             asShotNeutral: neutral, baselineExposure: baselineExposure)
    }
}
