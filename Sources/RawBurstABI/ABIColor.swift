import CRawBurst
import RawCore

/// The colour calibration a DNG written from a caller's buffer carries: the caller's ColorMatrix1, one derived from
/// a camera → sRGB matrix (CCM), or the library's stand-in that says the colours are uncalibrated.
enum ABIColor {
    static func calibration(_ params: rawburst_dng_params) throws(ABIFailure) -> ColorCalibration {
        var neutral: [Double] = [1, 1, 1]
        if let pointer = params.as_shot_neutral {
            neutral = values(pointer, count: 3)
            guard neutral.allSatisfy({ $0.isFinite && $0 > 0 && $0 <= 16 }) else {
                throw .argument("as_shot_neutral", "\(neutral) must be 3 values in (0, 16]")
            }
        }
        let illuminantCode = params.illuminant == 0 ? Int(LightSource.d65.rawValue) : Int(params.illuminant)
        let matrix = try params.color_matrix.map { pointer throws(ABIFailure) in try finite(values(pointer, count: 9), "color_matrix") }
        let ccm = try params.ccm.map { pointer throws(ABIFailure) in try finite(values(pointer, count: 9), "ccm") }
        var derived: [Double]?
        if matrix == nil, let ccm { derived = try colorMatrix(cameraToSRGB: ccm, neutral: neutral) }
        do {
            let standIn = ColorCalibration.standIn
            guard let chosen = matrix ?? derived else {
                return try ColorCalibration(colorMatrix1: standIn.colorMatrix1, illuminant1: standIn.illuminant1,
                                            asShotNeutral: neutral, baselineExposure: params.baseline_exposure,
                                            profileName: standIn.profileName)
            }
            let illuminant = matrix == nil ? LightSource.d65 : try LightSource(code: illuminantCode)
            return try ColorCalibration(colorMatrix1: try ColorMatrix(rows: 3, columns: 3, values: chosen), illuminant1: illuminant,
                                        asShotNeutral: neutral, baselineExposure: params.baseline_exposure)
        } catch { throw .invalid(error) }
    }

    /// ColorMatrix1 (XYZ → camera, under D65) of a camera whose white-balanced RGB becomes linear sRGB through
    /// `ccm`, white balanced by gains 1/neutral: camera = diag(neutral) · ccm⁻¹ · (XYZ → sRGB) · XYZ, so that D65 white
    /// maps to `neutral` (when the CCM keeps white, its rows summing to 1).
    static func colorMatrix(cameraToSRGB ccm: [Double], neutral: [Double]) throws(ABIFailure) -> [Double] {
        guard let inverse = ColorSpaceMath.inverse(ccm) else { throw .argument("ccm", "\(ccm) has no inverse") }
        let toCamera = ColorSpaceMath.multiply(inverse, ColorSpaceMath.xyzToSRGB)
        return (0..<9).map { toCamera[$0] * neutral[$0 / 3] }
    }

    private static func values(_ pointer: UnsafePointer<Double>, count: Int) -> [Double] {
        Array(UnsafeBufferPointer(start: pointer, count: count))
    }

    private static func finite(_ values: [Double], _ name: String) throws(ABIFailure) -> [Double] {
        guard values.allSatisfy(\.isFinite) else { throw .argument(name, "\(values) has a value that is not finite") }
        return values
    }
}
