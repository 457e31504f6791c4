import Foundation
import RawCore

extension ColorPlan {
    /// The plan of a monochrome frame (`CFALayout/monochrome`): no colour at all. Each pixel's sample, less its
    /// black level over the range black...white, is its own linear luminance; the exposure (settings, the file's
    /// BaselineExposure when it carries one, the look's) scales it, and the tone curve, the look's black cut,
    /// contrast and lift and the transfer curve finish it into one grey code value. The neutral and the gains are 1,
    /// the matrix is the exposure gain times the identity, there is no white point, and nothing is clipped before
    /// the curves (a clipped sample is 1, white, in every highlight mode).
    ///
    /// White balance and the look's split toning need colour: anything but as-shot white balance, and a toned look,
    /// are left out with a warning (the picture is still developed; a batch of colour and monochrome raws developed
    /// with one white balance does not fail on the monochrome ones).
    public init(monochrome image: RawImage, settings: DevelopSettings) {
        var warnings: [String] = []
        if settings.whiteBalance != .asShot {
            warnings.append("the frame is monochrome (no colour filters): white balance \(settings.whiteBalance) does not apply")
        }
        let look = settings.look
        if look.shadowTint.contains(where: { $0 != 0 }) || look.highlightTint.contains(where: { $0 != 0 }) {
            warnings.append("the frame is monochrome: the picture is grey, so the \(look.name) look's toning does not apply "
                            + "(its contrast and lift do)")
        }
        neutral = [1, 1, 1]
        white = nil
        gains = [1, 1, 1]
        let baseline = settings.applyBaselineExposure ? (image.calibration?.baselineExposure ?? image.metadata.baselineExposure ?? 0) : 0
        exposure = settings.exposure + baseline + look.exposure
        let gain = pow(2, exposure)
        matrix = [gain, 0, 0, 0, gain, 0, 0, 0, gain]
        ceilings = [1, 1, 1]
        let transfer = settings.linearOutput ? TransferFunction.linear : settings.colorSpace.transfer
        table = FinishTable(tone: settings.tone, look: look, transfer: transfer, headroom: gain, toned: false)
        self.warnings = warnings
    }

    /// The plan of `image` with `settings`: ``init(monochrome:settings:)`` for a monochrome frame,
    /// ``init(image:settings:)`` otherwise.
    static func of(_ image: RawImage, settings: DevelopSettings) throws(DevelopError) -> ColorPlan {
        image.frame.cfa.isMonochrome ? ColorPlan(monochrome: image, settings: settings) : try ColorPlan(image: image, settings: settings)
    }
}
