import RawCore

extension DNGWriter {
    /// The calibration to write: the image's own, or (with a warning) ``ColorCalibration/standIn`` when unknown —
    /// linear sRGB primaries, named "Uncalibrated: no camera profile" in ProfileName (docs/dng-tags.md); nil for a
    /// monochrome frame, which has no colour to describe (a calibration it carries is not written). Also checks that
    /// a NoiseProfile has one plane or one per CFA plane.
    func resolvedCalibration(_ image: RawImage, path: String, warnings: inout [String]) throws(DNGWriteError) -> ColorCalibration? {
        let planes = image.frame.cfa.planeColors.count
        if let noise = image.metadata.noiseProfile, noise.planes.count != 1, noise.planes.count != planes {
            throw DNGWriteError(path: path, "the noise profile has \(noise.planes.count) planes but the "
                                + (image.frame.cfa.isMonochrome ? "sensor is monochrome (1 plane)" : "CFA has \(planes) colours"))
        }
        if image.frame.cfa.isMonochrome { return nil }
        if let cal = image.calibration {
            guard cal.cameraChannels == planes else {
                throw DNGWriteError(path: path, "the colour matrix has \(cal.cameraChannels) rows but the CFA has \(planes) colours")
            }
            // The stand-in given with a white balance (a camera's BalanceRatio, a stream's ColourGains) is as
            // uncalibrated as the one written for no calibration at all.
            if cal.isStandIn { warnings.append(Self.standInWarning) }
            return cal
        }
        guard planes == 3 else {
            throw DNGWriteError(path: path, "no colour matrix is known for this \(planes)-colour sensor")
        }
        warnings.append(Self.standInWarning)
        return .standIn
    }

    /// What the writer says when a DNG carries the stand-in calibration.
    static let standInWarning = "no colour matrix is known for this camera; wrote the sRGB (D65) matrix, colours will be approximate"
}
