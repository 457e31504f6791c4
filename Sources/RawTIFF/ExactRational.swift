/// The simplest fraction for a real number, as TIFF RATIONAL/SRATIONAL need it.
///
/// libtiff stores most rational tags through `float`, so 1/250 s would be written as 0.00400000019. The
/// writer instead rewrites them with these fractions: continued fractions, stopping at the first convergent
/// within 1e-12 (relative) of the value, with numerator and denominator within 32 bits (both within Int32 for
/// SRATIONAL). The one continued-fraction routine of the package: EXIF blocks of developed pictures use it too.
package enum ExactRational {
    /// (numerator, denominator) closest to `x`; `signed` (SRATIONAL) limits both to Int32.
    package static func make(_ x: Double, signed: Bool) -> (numerator: Int64, denominator: Int64) {
        guard x.isFinite else { return (0, 1) }
        let limit: Double = signed ? Double(Int32.max) : Double(UInt32.max)
        if !signed && x < 0 { return (0, 1) }
        let magnitude = abs(x)
        if magnitude >= limit { return (Int64(x < 0 ? -limit : limit), 1) }
        var (h0, h1): (Double, Double) = (0, 1)
        var (k0, k1): (Double, Double) = (1, 0)
        var value = magnitude
        var best: (Double, Double) = (magnitude.rounded(), 1)
        for _ in 0..<40 {
            let a = value.rounded(.down)
            let h2 = a * h1 + h0
            let k2 = a * k1 + k0
            if h2 > limit || k2 > limit { break }
            best = (h2, k2)
            if abs(h2 / k2 - magnitude) <= 1e-12 * max(magnitude, 1e-300) { break }
            (h0, h1, k0, k1) = (h1, h2, k1, k2)
            let fraction = value - a
            if fraction < 1e-15 { break }
            value = 1 / fraction
        }
        let numerator = Int64(best.0) * (x < 0 ? -1 : 1)
        return (numerator, Int64(best.1))
    }
}
