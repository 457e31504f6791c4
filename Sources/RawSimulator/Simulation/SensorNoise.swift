import Foundation
import RawCore
import RawSources

/// Turns expected signal into recorded digital numbers the way a sensor does: photon shot noise
/// (variance = signal in electrons), read noise, analogue gain, black offset, rounding to whole DN and
/// clipping to 0...white level.
///
/// Noise is Gaussian with the Poisson variance (accurate from a few electrons up), drawn from a table of
/// 65 536 equally probable normal deviates indexed by a xorshift generator; the generator is seeded from the
/// frame's seed, so a seed gives the same bytes on every run and machine.
struct SensorNoise: Sendable {
    /// Electrons per unit of scene-plane response for this exposure.
    let electronsPerUnit: Float
    /// Analogue gain in DN per electron.
    let gain: Float
    /// Black level in DN.
    let black: Float
    /// White level in DN.
    let white: Float
    /// Read noise variance in electrons².
    let readVariance: Float
    /// Whether noise is added (false for the noise-free images metering and tests use).
    let noisy: Bool

    /// The normal deviates: the inverse normal CDF at the centres of 65 536 equal-probability bins (tails to
    /// ±4.3 σ), scaled to a variance of exactly 1 (the bins' centres alone fall slightly short).
    static let normalTable: [Float] = {
        let raw = (0..<65_536).map { inverseNormal((Double($0) + 0.5) / 65_536) }
        let variance = raw.reduce(0) { $0 + $1 * $1 } / 65_536
        return raw.map { Float($0 / variance.squareRoot()) }
    }()

    /// Writes `count` samples of `signal` (scene-plane units) into `output` as DN.
    func synthesize(_ signal: UnsafePointer<Float>, count: Int, into output: UnsafeMutablePointer<UInt16>, seed: UInt64) {
        let k = electronsPerUnit, g = gain, b = black, top = white, r2 = readVariance
        if !noisy {
            for i in 0..<count { output[i] = Self.roundedDN(b + g * (signal[i] * k), top: top) }
            return
        }
        Self.normalTable.withUnsafeBufferPointer { table in
            let deviates = table.baseAddress!
            var state = seed | 1
            // One generator step gives four 16-bit table indices: four samples per step, then the tail.
            @inline(__always) func next() -> UInt64 {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                return state &* 0x2545_F491_4F6C_DD1D
            }
            @inline(__always) func sample(_ i: Int, _ index: UInt64) {
                let z = deviates[Int(truncatingIfNeeded: index & 0xFFFF)]
                let m = signal[i] * k
                output[i] = Self.roundedDN(b + g * (m + (m + r2).squareRoot() * z), top: top)
            }
            let whole = count / 4
            for group in 0..<whole {
                let bits = next(), i = group * 4
                sample(i, bits)
                sample(i + 1, bits >> 16)
                sample(i + 2, bits >> 32)
                sample(i + 3, bits >> 48)
            }
            if whole * 4 < count {
                var bits = next()
                for i in (whole * 4)..<count {
                    sample(i, bits)
                    bits >>= 16
                }
            }
        }
    }

    /// `value` clipped to 0...`top` (at most 65535) and rounded to the nearest whole DN (ties to even).
    ///
    /// Adding 1.5 × 2²³ leaves the rounded integer in the low mantissa bits of the sum, so the conversion is
    /// plain bit operations, which vectorise (a checked `UInt16(_: Float)` does not). NaN becomes 0.
    @inline(__always)
    static func roundedDN(_ value: Float, top: Float) -> UInt16 {
        // Written as comparisons and selects (which become maxss/minss) rather than `min`/`max`, whose NaN
        // rules cost compares and branches on every sample.
        let floor: Float = value > 0 ? value : 0
        let clipped: Float = floor < top ? floor : top
        return UInt16(truncatingIfNeeded: (clipped + 12_582_912).bitPattern)
    }

    /// The quantile function of the standard normal distribution (Acklam's rational approximation with one
    /// Newton step, relative error below 1e-12).
    static func inverseNormal(_ p: Double) -> Double {
        let a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                 6.680131188771972e+01, -1.328068155288572e+01]
        let c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                 -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        var x: Double
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        } else if p <= 1 - low {
            let q = p - 0.5, r = q * q
            x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
                / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
        } else {
            let q = (-2 * log(1 - p)).squareRoot()
            x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        // One Newton step on Φ(x) − p = 0.
        let e = 0.5 * erfc(-x / 2.0.squareRoot()) - p
        let u = e * (2 * Double.pi).squareRoot() * exp(x * x / 2)
        return x - u / (1 + x * u / 2)
    }
}
