import Foundation
import RawAnalysis
import RawCore
import RawSources

/// Chooses ISO and shutter so that the metered brightness lands on the exposure target.
///
/// Target: the metered mean sits at 12.5 % of the range between black and white level, times 2^EV
/// compensation — where an 18 % grey card lands with a standard exposure, three stops below clipping.
/// Program when both are automatic: base ISO, shutter as needed down to 1/60 s (a hand-holdable speed);
/// below that light, ISO rises to the maximum, then the shutter lengthens to the longest allowed. A fixed
/// ISO or shutter is kept and the other is solved; results are clamped to the sensor's ranges (then the
/// frame is over- or under-exposed, and `evError` says by how much).
struct AutoExposure: Sendable {
    /// Fraction of the DN range the metered mean is placed at (without compensation).
    static let targetFraction = 0.125
    /// Slowest shutter the program uses before raising the ISO.
    static let handheldShutter = 1.0 / 60

    let model: ExposureModel

    /// The resolved exposure and how far it is from the target (EV, positive = brighter than asked).
    struct Result: Sendable {
        let iso: Double
        let shutter: Double
        let evError: Double
        let ev100: Double
    }

    /// Solves the exposure for `plane` metered with `mode`. The meter sees the signal as the frame will
    /// record it, clipped at the white level, so bright areas that clip cannot pull the result off target.
    func solve(plane: FloatPlane, mode: MeteringMode, aperture: Double, iso fixedISO: Double?, shutter fixedShutter: Double?,
               compensation: Double) -> Result {
        let profile = model.profile
        let range = Double(profile.whiteLevel - profile.blackLevel)
        let target = Self.targetFraction * range * pow(2, compensation)
        // DN above black per unit response: linear first, then (when clipping lowers the reading) bisection
        // in log space up to 6 EV more.
        let linear = ExposureMeter.meter(plane, mode: mode)
        var scale = target / max(linear, 1e-30)
        if ExposureMeter.meter(plane, mode: mode, scale: scale, clip: range) < target * 0.995 {
            var lo = log2(scale), hi = lo + 6
            for _ in 0..<24 {
                let mid = (lo + hi) / 2
                if ExposureMeter.meter(plane, mode: mode, scale: pow(2, mid), clip: range) < target { lo = mid } else { hi = mid }
            }
            scale = pow(2, (lo + hi) / 2)
        }
        // DN above black per (unit response · second · ISO).
        let perSecondISO = model.dnPerUnit(iso: 1, shutter: 1, aperture: aperture)
        let needed = scale / perSecondISO // = shutter × ISO
        let isoRange = profile.baseISO...profile.maximumISO
        let shutterRange = profile.shortestShutter...profile.longestShutter
        func clamp(_ v: Double, _ r: ClosedRange<Double>) -> Double { min(max(v, r.lowerBound), r.upperBound) }
        var iso: Double, shutter: Double
        switch (fixedISO, fixedShutter) {
        case let (i?, s?):
            (iso, shutter) = (i, s)
        case let (i?, nil):
            iso = i
            shutter = clamp(needed / i, shutterRange)
        case let (nil, s?):
            shutter = s
            iso = clamp(needed / s, isoRange)
        case (nil, nil):
            iso = profile.baseISO
            shutter = needed / iso
            if shutter > Self.handheldShutter {
                shutter = max(Self.handheldShutter, shutterRange.lowerBound)
                iso = clamp(needed / shutter, isoRange)
                shutter = clamp(needed / iso, shutterRange)
            } else {
                shutter = clamp(shutter, shutterRange)
            }
        }
        let evError = log2(shutter * iso / needed)
        // The scene's EV100 at this metering: the exposure that would hit the target without compensation.
        let plain = target * pow(2, -compensation) / max(linear, 1e-30) / perSecondISO
        let ev100 = ExposureModel.ev100(iso: 100, shutter: plain / 100, aperture: aperture)
        return Result(iso: iso, shutter: shutter, evError: evError, ev100: ev100)
    }
}
