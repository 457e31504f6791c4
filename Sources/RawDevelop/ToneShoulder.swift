import Foundation

/// The highlight shoulder of the standard tone curve: linear light up to a knee, then a curve whose slope falls as
/// a power of the value, reaching white exactly at `white`, the largest value the frame can produce after exposure.
///
/// Above the knee `k` the slope is `(k / x)^p`, so the curve meets the identity with slope 1 (C1) and stays strictly
/// increasing and concave: `y = k + k · (1 − (x / k)^−q) / q` with `q = p − 1 = 1 / (2 · log2(white))`. With little
/// headroom (half an EV: `p` = 2) the slope falls fast and the knee stays high (0.65), so the top of the ordinary
/// range is barely touched; with a lot (+3 EV: `p` ≈ 1.16, close to a logarithm, where every EV gets the same share)
/// the knee is low (0.27) and the compression spreads over all the EVs above it instead of piling them into the
/// last few codes. The knee is the one value in (0, 1) for which the curve is 1 at `white`; only values within
/// about a tenth of an EV of `white` (the sensor's clipping point) come out as 8-bit white.
struct ToneShoulder: Sendable, Hashable {
    /// Linear level where the shoulder starts; values at or below it are left alone.
    let knee: Double
    /// Linear level that becomes white (1).
    let white: Double
    /// `p − 1`, where the slope above the knee is `(knee / x)^p`.
    let q: Double

    /// The shoulder for a frame whose largest value is `white`; nil when `white` is not above 1 (nothing to roll off).
    init?(white: Double) {
        guard white.isFinite, white > 1 else { return nil }
        let q = 1 / (2 * log2(white))
        // The curve's value at `white` rises with the knee (its derivative is (1 + q)/q · (1 − (k/white)^q) > 0),
        // from 0 to more than 1 at k = 1: one root in (0, 1), found by bisection to double precision.
        var lo = 0.0, hi = 1.0
        for _ in 0..<64 {
            let k = (lo + hi) / 2
            if ToneShoulder.curve(white, knee: k, q: q) < 1 { lo = k } else { hi = k }
        }
        knee = (lo + hi) / 2
        self.white = white
        self.q = q
    }

    /// The shoulder applied to linear value `x`.
    func apply(_ x: Double) -> Double {
        guard x > knee else { return x }
        guard x < white else { return 1 }
        return min(1, ToneShoulder.curve(x, knee: knee, q: q))
    }

    /// `k + k · (1 − (x / k)^−q) / q` for `x ≥ k`.
    private static func curve(_ x: Double, knee k: Double, q: Double) -> Double {
        k - k * expm1(-q * log(x / k)) / q
    }
}
