import Foundation
import RawCore

/// The per-channel curves that turn linear output-space light into code values: the tone curve's exposure, black
/// cut, highlight shoulder (``ToneShoulder``), transfer function, the look's contrast S-curve, lift and split toning, in
/// that order, tabulated.
///
/// Tables are indexed by `sqrt(x / inputMaximum)`, which spaces the entries densely near black where the
/// transfer curves bend most; values between entries are interpolated linearly. 4096 entries keep every
/// curve within 1e-5 of its exact value.
struct FinishTable: Sendable {
    static let entries = 4096
    /// Linear value that maps to the last entry; larger values get the last entry.
    let inputMaximum: Float
    /// `entries + 1` values per channel (the last repeated so that interpolation never reads past the end).
    let tables: [[Float]]

    /// Builds the curves.
    /// - Parameters:
    ///   - headroom: the largest linear value worth distinguishing (1 when highlights are clipped and exposure
    ///     is not raised). The standard curve raises everything by its ``ToneCurve/exposure`` and then rolls values
    ///     above its shoulder's knee off so that `headroom` (so raised) lands exactly on white.
    ///   - toned: whether the look's split toning applies (false for a grey picture, which has no colour to tone:
    ///     the three tables are then the same curve).
    init(tone: ToneCurve, look: Look, transfer: TransferFunction, headroom: Double, toned: Bool = true) {
        let maximum = max(1, headroom)
        inputMaximum = Float(maximum)
        let n = FinishTable.entries
        let contrast = look.contrast
        let pivot = transfer.encode(0.18)
        let cut = look.blackCut
        let lift = pow(2, tone.exposure)
        let shoulder = tone == .standard ? ToneShoulder(white: (lift * maximum - cut) / (1 - cut)) : nil
        var tables: [[Float]] = []
        for channel in 0..<3 {
            var t = [Float](repeating: 0, count: n + 1)
            for i in 0...n {
                let u = Double(i) / Double(n)
                let x = u * u * maximum
                var linear = max(0, (lift * x - cut) / (1 - cut))
                if let shoulder { linear = shoulder.apply(linear) }
                var e = transfer.encode(min(linear, 1))
                e = FinishTable.sCurve(e, pivot: pivot, contrast: contrast)
                e = look.lift + (1 - look.lift) * e
                if toned { e += look.shadowTint[channel] * (1 - e) * (1 - e) + look.highlightTint[channel] * e * e }
                t[i] = Float(min(1, max(0, e)))
            }
            tables.append(t)
        }
        self.tables = tables
    }

    /// A power S-curve about `pivot`: 0, `pivot` and 1 stay; the slope at the pivot is `contrast`.
    static func sCurve(_ e: Double, pivot: Double, contrast: Double) -> Double {
        guard contrast != 1, pivot > 0, pivot < 1 else { return e }
        if e <= pivot { return pivot * pow(max(0, e) / pivot, contrast) }
        return 1 - (1 - pivot) * pow(max(0, 1 - e) / (1 - pivot), contrast)
    }
}
