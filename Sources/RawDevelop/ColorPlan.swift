import Foundation
import RawCore

/// Everything the developer needs to know about colour for one frame and one set of settings, worked out
/// once before any pixel is touched: white-balance gains, the 3x3 matrix from white-balanced camera RGB to
/// linear output RGB (exposure and saturation folded in) and the finishing curves.
public struct ColorPlan: Sendable {
    /// The camera neutral used (largest component 1).
    public let neutral: [Double]
    /// The white of that neutral in the DNG colour model (nil without a calibration).
    public let white: WhitePoint?
    /// Per camera channel (R, G, B) gains applied to the normalised mosaic; the smallest is 1.
    public let gains: [Double]
    /// White-balanced camera RGB → linear output RGB (row-major 3x3).
    public let matrix: [Double]
    /// Total exposure change in EV (settings + BaselineExposure + look).
    public let exposure: Double
    /// Things the user should know (e.g. no colour matrix, white balance fell back).
    public let warnings: [String]
    /// The finishing curves.
    let table: FinishTable
    /// Largest value each channel of the normalised, white-balanced mosaic can take.
    let ceilings: [Float]

    /// Works the plan out for `image` (whose mosaic is read only for automatic white balance).
    public init(image: RawImage, settings: DevelopSettings) throws(DevelopError) {
        try self.init(calibration: image.calibration, settings: settings) { ColorPlan.greyWorldNeutral(image.frame) }
    }

    /// Works the plan out for an image calibrated by `calibration`; `greyWorld` gives the neutral of its pixels and is
    /// called only for automatic white balance.
    init(calibration: ColorCalibration?, settings: DevelopSettings, greyWorld: () -> [Double]) throws(DevelopError) {
        var warnings: [String] = []
        let model: CameraColorModel?
        if let calibration {
            model = try CameraColorModel(calibration: calibration)
            if calibration.isStandIn {
                warnings.append("the file has no colour calibration (its matrix is a stand-in); camera RGB is taken as linear sRGB")
            }
        } else {
            model = nil
            warnings.append("no colour matrix is known for this camera; camera RGB is taken as linear sRGB")
        }

        // The neutral.
        var neutral: [Double]
        switch settings.whiteBalance {
        case .asShot:
            if let n = calibration?.asShotNeutral, n.count == 3 {
                neutral = n
            } else if let model {
                neutral = model.neutral(for: try! WhitePoint(kelvin: WhiteBalancePreset.daylight.kelvin)) // in range
                warnings.append("the file has no as-shot white balance; used daylight (5500K)")
            } else {
                neutral = [1, 1, 1]
            }
        case .auto:
            neutral = greyWorld()
        case .preset(let p):
            neutral = try ColorPlan.neutral(model, kelvin: p.kelvin, tint: p.tint)
        case .kelvin(let k, let tint):
            neutral = try ColorPlan.neutral(model, kelvin: k, tint: tint)
        case .neutral(let n):
            neutral = n
        }
        let top = neutral.max() ?? 1
        neutral = neutral.map { max($0 / top, 1e-4) }
        self.neutral = neutral

        // Camera → XYZ D50 for unbalanced camera RGB.
        let cameraToXYZ: [Double]
        if let model {
            cameraToXYZ = try model.cameraToXYZD50(neutral: neutral)
            white = try model.white(forNeutral: neutral)
        } else {
            let adapt = ColorSpaceMath.bradford(from: OutputColorSpace.xyz(OutputColorSpace.d65Chromaticity), to: OutputColorSpace.pcsWhite)
            let srgb = ColorSpaceMath.multiply(adapt, OutputColorSpace.sRGB.rgbToXYZ)
            cameraToXYZ = ColorSpaceMath.multiply(srgb, [neutral[0], 0, 0, 0, neutral[1], 0, 0, 0, neutral[2]])
            white = nil
        }

        // Gains: 1/neutral, the smallest 1 (neutral's largest component is 1, so its gain is 1).
        gains = neutral.map { 1 / $0 }
        let unbalance: [Double] = [1 / gains[0], 0, 0, 0, 1 / gains[1], 0, 0, 0, 1 / gains[2]]

        // Exposure and look.
        let baseline = settings.applyBaselineExposure ? (calibration?.baselineExposure ?? 0) : 0
        exposure = settings.exposure + baseline + settings.look.exposure
        let gain = pow(2, exposure)
        let space = settings.colorSpace
        let w = space.luminanceWeights
        let s = settings.look.saturation
        let saturation: [Double] = [
            s + (1 - s) * w.0, (1 - s) * w.1, (1 - s) * w.2,
            (1 - s) * w.0, s + (1 - s) * w.1, (1 - s) * w.2,
            (1 - s) * w.0, (1 - s) * w.1, s + (1 - s) * w.2,
        ]
        let toOutput = ColorSpaceMath.multiply(space.fromXYZD50, ColorSpaceMath.multiply(cameraToXYZ, unbalance))
        matrix = ColorSpaceMath.multiply(saturation, toOutput).map { $0 * gain }
        guard matrix.allSatisfy(\.isFinite) else { throw DevelopError("the colour matrix for this frame is not finite") }

        // A saturated pixel is 1 in clip mode; reconstruction lets each channel go up to its gain.
        let reconstruct = settings.highlights == .reconstruct
        ceilings = gains.map { Float(reconstruct ? $0 : 1) }
        let headroom = gain * (reconstruct ? (gains.max() ?? 1) : 1)
        let transfer = settings.linearOutput ? TransferFunction.linear : space.transfer
        table = FinishTable(tone: settings.tone, look: settings.look, transfer: transfer, headroom: headroom)
        self.warnings = warnings
    }

    private static func neutral(_ model: CameraColorModel?, kelvin: Double, tint: Double) throws(DevelopError) -> [Double] {
        guard let model else {
            throw DevelopError("a white balance by temperature needs the camera's colour matrix, and this file has none")
        }
        do { return model.neutral(for: try WhitePoint(kelvin: kelvin, tint: tint)) } catch {
            throw DevelopError(error.description)
        }
    }

    /// Grey world: the mean of each colour over pixels that are neither clipped nor within 2 % of black,
    /// sampled on every fourth CFA period; the largest mean is 1.
    static func greyWorldNeutral(_ frame: RawFrame) -> [Double] {
        var sums = [0.0, 0.0, 0.0], counts = [0.0, 0.0, 0.0]
        let a = frame.activeArea
        let pr = frame.cfa.rows, pc = frame.cfa.columns
        let white = Double(frame.whiteLevel)
        var y = a.top
        while y < a.bottom {
            for dy in 0..<pr where y + dy < a.bottom {
                var x = a.left
                while x < a.right {
                    for dx in 0..<pc where x + dx < a.right {
                        let colour = frame.color(row: y + dy, column: x + dx)
                        let c: Int
                        switch colour { case .red: c = 0; case .green: c = 1; case .blue: c = 2; default: continue }
                        let black = frame.blackLevel(row: y + dy, column: x + dx)
                        let v = Double(frame[y + dy, x + dx])
                        let range = white - black
                        guard v < white - 0.02 * range, v > black + 0.02 * range else { continue }
                        sums[c] += v - black
                        counts[c] += 1
                    }
                    x += 4 * pc
                }
            }
            y += 4 * pr
        }
        let means = (0..<3).map { counts[$0] > 0 ? sums[$0] / counts[$0] : 0 }
        let top = means.max() ?? 0
        guard top > 0 else { return [1, 1, 1] }
        return means.map { max($0 / top, 1e-3) }
    }
}
