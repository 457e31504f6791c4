import RawCore

/// The chromaticity of a white: colour temperature and tint ↔ CIE 1931 xy, the same for every camera.
///
/// A temperature picks a point on the CIE daylight locus from 4000 K up and on the Planckian (blackbody)
/// locus below 4000 K — the lights the simulated sensor and the presets are defined with
/// (`StandardIlluminant.forKelvin`). The tint moves the point along the isotemperature line (normal to
/// the Planckian locus in the CIE 1960 uv plane): +1 tint is +1/3000 in Δuv towards green, so a positive
/// ("magenta") tint describes greener light, which the developer then corrects with magenta — as raw
/// developers present it. Temperatures are correlated colour temperatures found on the Planckian locus.
public struct WhitePoint: Sendable, Hashable, CustomStringConvertible {
    /// CIE 1931 x.
    public let x: Double
    /// CIE 1931 y.
    public let y: Double

    /// Creates a white from its chromaticity (both in (0, 1), x + y < 1).
    public init(x: Double, y: Double) throws(InvalidValueError) {
        try require(x.isFinite && y.isFinite && x > 0 && y > 0 && x + y < 1, "white point",
                    "chromaticity (\(x), \(y)) is not a colour")
        self.x = x
        self.y = y
    }

    private init(unchecked x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    /// The white of light at `kelvin` (1000...50000) with `tint` (−150...150).
    public init(kelvin: Double, tint: Double = 0) throws(InvalidValueError) {
        try require(kelvin.isFinite && (1000...50000).contains(kelvin), "colour temperature",
                    "\(kelvin) K is outside 1000...50000 K")
        try require(tint.isFinite && (-150...150).contains(tint), "tint", "\(tint) is outside −150...150")
        let base = WhitePoint.baseUV(kelvin: kelvin)
        let normal = PlanckianLocus.normal(mired: 1e6 / kelvin)
        let duv = tint / WhitePoint.tintScale
        let xy = WhitePoint.xy(fromUV: (base.u + duv * normal.u, base.v + duv * normal.v))
        self.init(unchecked: xy.x, xy.y)
    }

    /// XYZ with Y = 1.
    public var xyz: CIEXYZ { CIEXYZ(X: x / y, Y: 1, Z: (1 - x - y) / y) }

    /// The white of an XYZ colour (nil for black or non-finite values).
    public init?(xyz: CIEXYZ) {
        let sum = xyz.X + xyz.Y + xyz.Z
        guard sum.isFinite, sum > 0, xyz.Y > 0 else { return nil }
        self.init(unchecked: xyz.X / sum, xyz.Y / sum)
    }

    /// Correlated colour temperature (on the Planckian locus) and tint relative to the base locus
    /// (daylight from 4000 K, Planckian below), the inverse of ``init(kelvin:tint:)``.
    public var temperatureAndTint: (kelvin: Double, tint: Double) {
        let uv = WhitePoint.uv(x: x, y: y)
        let mired = PlanckianLocus.closestMired(u: uv.u, v: uv.v)
        let kelvin = 1e6 / mired
        let normal = PlanckianLocus.normal(mired: mired)
        let base = WhitePoint.baseUV(kelvin: min(max(kelvin, 1000), 50000))
        let duv = (uv.u - base.u) * normal.u + (uv.v - base.v) * normal.v
        return (kelvin, duv * WhitePoint.tintScale)
    }

    /// `5600K+10`, as `--wb` takes it. A white further from the Planckian locus than `--wb`'s tint range (±100: an
    /// as-shot white of a camera whose neutral is far from any light on the locus) says so rather than giving a value
    /// `--wb` would refuse: `2594K, tint -112 (off the locus; beyond --wb's ±100)`.
    public var description: String {
        let t = temperatureAndTint
        let kelvin = Int(t.kelvin.rounded()), tint = Int(t.tint.rounded())
        guard Double(abs(tint)) <= Self.settableTint else {
            return "\(kelvin)K, tint \(tint) (off the locus; beyond --wb's ±\(Int(Self.settableTint)))"
        }
        return "\(kelvin)K" + (tint == 0 ? "" : (tint > 0 ? "+\(tint)" : "\(tint)"))
    }

    /// The tint range `--wb KELVIN±TINT` takes.
    public static let settableTint = 100.0

    /// Tint units per unit of Δuv.
    static let tintScale = 3000.0

    /// uv (CIE 1960) of the base locus at `kelvin`: CIE daylight from 4000 K, Planckian below.
    static func baseUV(kelvin: Double) -> (u: Double, v: Double) {
        if kelvin >= 4000 {
            let d = StandardIlluminant.daylightChromaticity(kelvin: kelvin)
            return uv(x: d.x, y: d.y)
        }
        return PlanckianLocus.uv(mired: 1e6 / kelvin)
    }

    static func uv(x: Double, y: Double) -> (u: Double, v: Double) {
        let d = -2 * x + 12 * y + 3
        return (4 * x / d, 6 * y / d)
    }

    static func xy(fromUV uv: (u: Double, v: Double)) -> (x: Double, y: Double) {
        let d = 2 * uv.u - 8 * uv.v + 4
        return (3 * uv.u / d, 2 * uv.v / d)
    }
}

/// The Planckian locus in the CIE 1960 uv plane, tabulated from Planck's law and the CIE 1931 observer
/// every 2 mired from 2 to 1000 mired (500 000 K to 1000 K) and interpolated linearly between entries.
enum PlanckianLocus {
    static let step = 2.0
    static let first = 2.0
    static let table: [(u: Double, v: Double)] = stride(from: first, through: 1000, by: step).map { mired in
        let white = StandardIlluminant.whitePoint(of: StandardIlluminant.blackbody(kelvin: 1e6 / mired))
        let s = white.X + white.Y + white.Z
        return WhitePoint.uv(x: white.X / s, y: white.Y / s)
    }

    /// uv at `mired` (clamped to the table).
    static func uv(mired: Double) -> (u: Double, v: Double) {
        let f = (min(max(mired, first), first + step * Double(table.count - 1)) - first) / step
        let i = min(Int(f), table.count - 2)
        let t = f - Double(i)
        return (table[i].u + t * (table[i + 1].u - table[i].u), table[i].v + t * (table[i + 1].v - table[i].v))
    }

    /// Unit normal to the locus at `mired`, pointing to larger v (towards green).
    static func normal(mired: Double) -> (u: Double, v: Double) {
        let a = uv(mired: max(first, mired - 1)), b = uv(mired: mired + 1)
        let du = b.u - a.u, dv = b.v - a.v
        let length = (du * du + dv * dv).squareRoot()
        var n = (u: -dv / length, v: du / length)
        if n.v < 0 { n = (-n.u, -n.v) }
        return n
    }

    /// The mired of the locus point closest to (u, v): a coarse scan of the table, then golden-section refinement.
    static func closestMired(u: Double, v: Double) -> Double {
        func distance(_ m: Double) -> Double {
            let p = uv(mired: m)
            return (p.u - u) * (p.u - u) + (p.v - v) * (p.v - v)
        }
        var best = 0
        var bestDistance = Double.infinity
        for (i, p) in table.enumerated() {
            let d = (p.u - u) * (p.u - u) + (p.v - v) * (p.v - v)
            if d < bestDistance { (best, bestDistance) = (i, d) }
        }
        var lo = first + step * Double(max(0, best - 1)), hi = first + step * Double(min(table.count - 1, best + 1))
        let ratio = (5.0.squareRoot() - 1) / 2
        for _ in 0..<60 {
            let m1 = hi - ratio * (hi - lo), m2 = lo + ratio * (hi - lo)
            if distance(m1) < distance(m2) { hi = m2 } else { lo = m1 }
        }
        return (lo + hi) / 2
    }
}
