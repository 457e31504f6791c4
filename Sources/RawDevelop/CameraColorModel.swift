import RawCore

/// The DNG colour model of one camera: its colour matrices interpolated by colour temperature, the
/// camera neutral of any white, the white of any neutral, and the camera → XYZ (D50) matrix for a white
/// balance, following the DNG 1.6 specification's "Mapping Camera Color Space to CIE XYZ Space".
///
/// - Matrices of the two calibrations are weighted by inverse temperature between the two calibration
///   illuminants' temperatures and the nearer one is used alone outside that range.
/// - A white is turned into a camera neutral with the ColorMatrix interpolated at that white's temperature;
///   a neutral into a white by iterating that, as the specification describes.
/// - With ForwardMatrices, camera → XYZ D50 is `ForwardMatrix · diag(neutral)⁻¹`; without them,
///   `Bradford(white → D50) · ColorMatrix⁻¹`, scaled so the neutral maps onto the D50 white.
public struct CameraColorModel: Sendable {
    /// The calibration the model interprets.
    public let calibration: ColorCalibration

    /// Creates the model; the camera must have three colours (RGB CFAs, X-Trans).
    public init(calibration: ColorCalibration) throws(DevelopError) {
        guard calibration.cameraChannels == 3 else {
            throw DevelopError("the camera has \(calibration.cameraChannels) colour channels; only 3-colour sensors can be developed")
        }
        for m in [calibration.colorMatrix1, calibration.colorMatrix2].compactMap({ $0 }) {
            guard ColorSpaceMath.inverse(m.values) != nil else {
                throw DevelopError("the camera's colour matrix is singular and cannot be inverted")
            }
        }
        self.calibration = calibration
    }

    /// The weight of calibration 1 at `kelvin` (1 when there is one calibration).
    public func weightOfFirstCalibration(kelvin: Double) -> Double {
        guard calibration.colorMatrix2 != nil,
              let t1 = calibration.illuminant1.temperature,
              let t2 = calibration.illuminant2?.temperature, t1 != t2 else {
            // One calibration, or temperatures unknown: DNG readers use the first.
            return 1
        }
        let (low, high) = t1 < t2 ? (t1, t2) : (t2, t1)
        let g: Double
        if kelvin <= low {
            g = 1
        } else if kelvin >= high {
            g = 0
        } else {
            g = (1 / kelvin - 1 / high) / (1 / low - 1 / high)
        }
        // g is the weight of the lower-temperature calibration.
        return t1 < t2 ? g : 1 - g
    }

    /// `ColorMatrix` (XYZ → camera) at `kelvin`.
    public func colorMatrix(kelvin: Double) -> [Double] {
        let g = weightOfFirstCalibration(kelvin: kelvin)
        guard let m2 = calibration.colorMatrix2?.values, g < 1 else { return calibration.colorMatrix1.values }
        return zip(calibration.colorMatrix1.values, m2).map { g * $0 + (1 - g) * $1 }
    }

    /// `ForwardMatrix` (white-balanced camera → XYZ D50) at `kelvin`, or nil without forward matrices.
    public func forwardMatrix(kelvin: Double) -> [Double]? {
        guard let f1 = calibration.forwardMatrix1?.values else { return nil }
        let g = weightOfFirstCalibration(kelvin: kelvin)
        guard let f2 = calibration.forwardMatrix2?.values, g < 1 else { return f1 }
        return zip(f1, f2).map { g * $0 + (1 - g) * $1 }
    }

    /// The camera neutral (largest component 1) of light with white `white`.
    public func neutral(for white: WhitePoint) -> [Double] {
        let kelvin = white.temperatureAndTint.kelvin
        let n = ColorSpaceMath.apply(colorMatrix(kelvin: kelvin), white.xyz.vector)
        let top = max(n.0, n.1, n.2)
        return [n.0, n.1, n.2].map { max($0 / top, 1e-6) }
    }

    /// The white whose camera neutral is `neutral` (iterated from D50 until it settles).
    public func white(forNeutral neutral: [Double]) throws(DevelopError) -> WhitePoint {
        guard neutral.count == 3, neutral.allSatisfy({ $0.isFinite && $0 > 0 }) else {
            throw DevelopError("camera neutral \(neutral) is not three positive numbers")
        }
        var white = try! WhitePoint(x: OutputColorSpace.d50Chromaticity.x, y: OutputColorSpace.d50Chromaticity.y)
        for _ in 0..<50 {
            let kelvin = min(max(white.temperatureAndTint.kelvin, 1000), 50000)
            guard let inverse = ColorSpaceMath.inverse(colorMatrix(kelvin: kelvin)),
                  let next = WhitePoint(xyz: CIEXYZ(ColorSpaceMath.apply(inverse, (neutral[0], neutral[1], neutral[2])))),
                  next.x > 0.05, next.y > 0.05, next.x + next.y < 0.95 else {
                throw DevelopError("camera neutral \(neutral) does not correspond to a white")
            }
            let moved = abs(next.x - white.x) + abs(next.y - white.y)
            white = next
            if moved < 1e-9 { break }
        }
        return white
    }

    /// Camera RGB (not white-balanced) → XYZ relative to D50, for light whose camera neutral is `neutral`:
    /// the neutral maps exactly onto the D50 white (Y = 1).
    public func cameraToXYZD50(neutral: [Double]) throws(DevelopError) -> [Double] {
        let white = try self.white(forNeutral: neutral)
        let kelvin = white.temperatureAndTint.kelvin
        let inverseNeutral: [Double] = [1 / neutral[0], 0, 0, 0, 1 / neutral[1], 0, 0, 0, 1 / neutral[2]]
        if let forward = forwardMatrix(kelvin: kelvin) {
            return ColorSpaceMath.multiply(forward, inverseNeutral)
        }
        guard let cameraToXYZ = ColorSpaceMath.inverse(colorMatrix(kelvin: kelvin)) else {
            throw DevelopError("the interpolated colour matrix is singular")
        }
        let adapt = ColorSpaceMath.bradford(from: white.xyz, to: OutputColorSpace.pcsWhite)
        var m = ColorSpaceMath.multiply(adapt, cameraToXYZ)
        // Scale so the neutral lands on Y = 1 exactly.
        let y = ColorSpaceMath.apply(m, (neutral[0], neutral[1], neutral[2])).1
        if y > 0 { m = m.map { $0 / y } }
        return m
    }
}
