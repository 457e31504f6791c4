#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A CIE 1931 XYZ tristimulus value. By convention in RawCore a white has `Y = 1` (not 100).
public struct CIEXYZ: Sendable, Hashable {
    public var X: Double
    public var Y: Double
    public var Z: Double

    /// Creates a tristimulus value.
    public init(X: Double, Y: Double, Z: Double) {
        self.X = X
        self.Y = Y
        self.Z = Z
    }

    /// The value as an `(X, Y, Z)` vector, for the 3x3 helpers of ``ColorSpaceMath``.
    public var vector: (Double, Double, Double) { (X, Y, Z) }

    /// Creates a tristimulus value from an `(X, Y, Z)` vector.
    public init(_ v: (Double, Double, Double)) {
        self.init(X: v.0, Y: v.1, Z: v.2)
    }
}

/// A CIE 1976 L\*a\*b\* colour (L in 0...100), relative to a reference white given where it is used.
public struct CIELab: Sendable, Hashable {
    public var L: Double
    public var a: Double
    public var b: Double

    /// Creates a CIELAB colour.
    public init(L: Double, a: Double, b: Double) {
        self.L = L
        self.a = a
        self.b = b
    }
}

/// Colorimetric conversions and small 3x3 linear algebra, all in `Double`.
///
/// Matrices are row-major arrays of 9 values; vectors are column vectors, so `apply(m, v)` is `m · v`.
/// Formulas: CIELAB as defined by CIE 15 (with the exact ε = 216/24389 and κ = 24389/27 constants
/// Bruce Lindbloom recommends), Bradford chromatic adaptation, sRGB as in IEC 61966-2-1, and
/// CIEDE2000 as written out by Sharma, Wu and Dalal (2005).
public enum ColorSpaceMath {
    /// The D50 white of ICC profiles and of published ColorChecker references (Y = 1).
    public static let d50White = CIEXYZ(X: 0.96422, Y: 1, Z: 0.82521)
    /// The D65 white used to build the sRGB matrices (Y = 1).
    public static let d65White = CIEXYZ(X: 0.95047, Y: 1, Z: 1.08883)

    // MARK: CIELAB

    /// CIE ε = (6/29)³: below this, the cube root of L\*a\*b\* is replaced by a straight line.
    private static let epsilon = 216.0 / 24389.0
    /// CIE κ = (29/3)³.
    private static let kappa = 24389.0 / 27.0

    /// XYZ of a CIELAB colour relative to `white`.
    public static func xyz(fromLab lab: CIELab, white: CIEXYZ) -> CIEXYZ {
        let fy = (lab.L + 16) / 116
        let fx = fy + lab.a / 500
        let fz = fy - lab.b / 200
        func finv(_ f: Double) -> Double {
            let f3 = f * f * f
            return f3 > epsilon ? f3 : (116 * f - 16) / kappa
        }
        let yr = lab.L > kappa * epsilon ? fy * fy * fy : lab.L / kappa
        return CIEXYZ(X: finv(fx) * white.X, Y: yr * white.Y, Z: finv(fz) * white.Z)
    }

    /// CIELAB of an XYZ value relative to `white`.
    public static func lab(fromXYZ xyz: CIEXYZ, white: CIEXYZ) -> CIELab {
        func f(_ t: Double) -> Double {
            t > epsilon ? cbrt(t) : (kappa * t + 16) / 116
        }
        let fx = f(xyz.X / white.X), fy = f(xyz.Y / white.Y), fz = f(xyz.Z / white.Z)
        return CIELab(L: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    // MARK: Chromatic adaptation

    /// The Bradford cone-response matrix (XYZ → "sharpened" LMS), as published by Lam (1985).
    public static let bradfordCone: [Double] = [
        0.8951, 0.2664, -0.1614,
        -0.7502, 1.7135, 0.0367,
        0.0389, -0.0685, 1.0296,
    ]

    /// Bradford chromatic adaptation matrix (3x3 row-major) from one white to another.
    ///
    /// The linearised Bradford transform: `M⁻¹ · diag(ρd/ρs, γd/γs, βd/βs) · M`. It maps `source` to
    /// `destination` exactly (up to rounding).
    public static func bradford(from source: CIEXYZ, to destination: CIEXYZ) -> [Double] {
        let m = bradfordCone
        // The cone matrix is well conditioned; its inverse always exists.
        let mInverse = inverse(m)!
        let s = apply(m, source.vector)
        let d = apply(m, destination.vector)
        let scale: [Double] = [d.0 / s.0, 0, 0, 0, d.1 / s.1, 0, 0, 0, d.2 / s.2]
        return multiply(mInverse, multiply(scale, m))
    }

    // MARK: sRGB

    /// Linear sRGB (D65) → XYZ, derived from the sRGB primaries (IEC 61966-2-1: red 0.64, 0.33;
    /// green 0.30, 0.60; blue 0.15, 0.06) so that RGB (1, 1, 1) maps exactly onto ``d65White``.
    /// The result agrees with Lindbloom's published matrix (0.4124564, 0.3575761, …) to 7 digits.
    public static let srgbToXYZ: [Double] = {
        let primaries = [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)]
        // Columns: XYZ of each primary with Y = 1.
        var p = [Double](repeating: 0, count: 9)
        for (column, (x, y)) in primaries.enumerated() {
            p[column] = x / y
            p[3 + column] = 1
            p[6 + column] = (1 - x - y) / y
        }
        let s = apply(inverse(p)!, d65White.vector)
        let scale: [Double] = [s.0, 0, 0, 0, s.1, 0, 0, 0, s.2]
        return multiply(p, scale)
    }()

    /// XYZ (D65) → linear sRGB: the inverse of ``srgbToXYZ``.
    public static let xyzToSRGB: [Double] = inverse(srgbToXYZ)!

    /// XYZ (relative to ``d65White``) of a linear sRGB colour.
    public static func xyzD65(fromLinearSRGB red: Double, _ green: Double, _ blue: Double) -> CIEXYZ {
        CIEXYZ(apply(srgbToXYZ, (red, green, blue)))
    }

    /// Linear sRGB of an XYZ colour (relative to ``d65White``); not clipped, so out-of-gamut colours
    /// have components below 0 or above 1.
    public static func linearSRGB(fromXYZD65 xyz: CIEXYZ) -> (red: Double, green: Double, blue: Double) {
        let v = apply(xyzToSRGB, xyz.vector)
        return (v.0, v.1, v.2)
    }

    /// Bradford D50 → D65 (``d50White`` → ``d65White``).
    public static let bradfordD50ToD65: [Double] = bradford(from: d50White, to: d65White)
    /// Bradford D65 → D50 (``d65White`` → ``d50White``).
    public static let bradfordD65ToD50: [Double] = bradford(from: d65White, to: d50White)

    /// Lab relative to D50 (as ColorChecker references are published) → linear sRGB (D65), through Bradford D50→D65.
    public static func linearSRGB(fromLabD50 lab: CIELab) -> (red: Double, green: Double, blue: Double) {
        let xyz50 = xyz(fromLab: lab, white: d50White)
        return linearSRGB(fromXYZD65: CIEXYZ(apply(bradfordD50ToD65, xyz50.vector)))
    }

    /// Linear sRGB (D65) → Lab relative to D50, through Bradford D65→D50: the inverse of ``linearSRGB(fromLabD50:)``.
    public static func labD50(fromLinearSRGB red: Double, _ green: Double, _ blue: Double) -> CIELab {
        let xyz65 = xyzD65(fromLinearSRGB: red, green, blue)
        return lab(fromXYZ: CIEXYZ(apply(bradfordD65ToD50, xyz65.vector)), white: d50White)
    }

    /// The sRGB transfer function (IEC 61966-2-1): linear light → encoded value, clamped to 0...1.
    public static func srgbEncode(_ linear: Double) -> Double {
        guard linear > 0 else { return 0 }   // also maps NaN to 0
        if linear >= 1 { return 1 }
        return linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
    }

    /// The inverse sRGB transfer function: encoded value → linear light (clamped to 0...1 like the input range).
    public static func srgbDecode(_ encoded: Double) -> Double {
        guard encoded > 0 else { return 0 }
        if encoded >= 1 { return 1 }
        return encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
    }

    // MARK: CIEDE2000

    /// CIEDE2000 colour difference (kL = kC = kH = 1).
    ///
    /// Follows the formulation of Sharma, Wu and Dalal, "The CIEDE2000 colour-difference formula:
    /// implementation notes, supplementary test data, and mathematical observations" (2005),
    /// including their conventions for hue angles of achromatic colours and for the mean hue.
    public static func deltaE2000(_ a: CIELab, _ b: CIELab) -> Double {
        let degree = Double.pi / 180
        let c1 = (a.a * a.a + a.b * a.b).squareRoot()
        let c2 = (b.a * b.a + b.b * b.b).squareRoot()
        let cMean = (c1 + c2) / 2
        let cMean7 = pow(cMean, 7)
        let g = 0.5 * (1 - (cMean7 / (cMean7 + pow(25, 7))).squareRoot())
        let a1p = (1 + g) * a.a, a2p = (1 + g) * b.a
        let c1p = (a1p * a1p + a.b * a.b).squareRoot()
        let c2p = (a2p * a2p + b.b * b.b).squareRoot()
        func hueAngle(_ b: Double, _ ap: Double) -> Double {
            if b == 0 && ap == 0 { return 0 }
            let h = atan2(b, ap) / degree
            return h < 0 ? h + 360 : h
        }
        let h1p = hueAngle(a.b, a1p), h2p = hueAngle(b.b, a2p)

        let dLp = b.L - a.L
        let dCp = c2p - c1p
        var dhp = 0.0
        if c1p * c2p != 0 {
            dhp = h2p - h1p
            if dhp > 180 { dhp -= 360 } else if dhp < -180 { dhp += 360 }
        }
        let dHp = 2 * (c1p * c2p).squareRoot() * sin(dhp / 2 * degree)

        let lMean = (a.L + b.L) / 2
        let cpMean = (c1p + c2p) / 2
        var hpMean = h1p + h2p
        if c1p * c2p != 0 {
            if abs(h1p - h2p) <= 180 {
                hpMean /= 2
            } else {
                hpMean = h1p + h2p < 360 ? (h1p + h2p + 360) / 2 : (h1p + h2p - 360) / 2
            }
        }
        let t1: Double = 0.17 * cos((hpMean - 30) * degree)
        let t2: Double = 0.24 * cos(2 * hpMean * degree)
        let t3: Double = 0.32 * cos((3 * hpMean + 6) * degree)
        let t4: Double = 0.20 * cos((4 * hpMean - 63) * degree)
        let t = 1 - t1 + t2 + t3 - t4
        let hueOffset = (hpMean - 275) / 25
        let dTheta = 30 * exp(-hueOffset * hueOffset)
        let cpMean7 = pow(cpMean, 7)
        let rc = 2 * (cpMean7 / (cpMean7 + pow(25, 7))).squareRoot()
        let l50 = (lMean - 50) * (lMean - 50)
        let sl = 1 + 0.015 * l50 / (20 + l50).squareRoot()
        let sc = 1 + 0.045 * cpMean
        let sh = 1 + 0.015 * cpMean * t
        let rt = -sin(2 * dTheta * degree) * rc
        let termL = dLp / sl, termC = dCp / sc, termH = dHp / sh
        let sumOfSquares: Double = termL * termL + termC * termC + termH * termH
        return (sumOfSquares + rt * termC * termH).squareRoot()
    }

    // MARK: 3x3 helpers

    /// Product `a · b` of two 3x3 row-major matrices.
    public static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        var out = [Double](repeating: 0, count: 9)
        for r in 0..<3 {
            for c in 0..<3 {
                out[r * 3 + c] = a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c]
            }
        }
        return out
    }

    /// Inverse of a 3x3 row-major matrix by cofactors, or nil when it is singular (or not finite).
    public static func inverse(_ m: [Double]) -> [Double]? {
        guard m.count == 9 else { return nil }
        let c00 = m[4] * m[8] - m[5] * m[7]
        let c01 = m[5] * m[6] - m[3] * m[8]
        let c02 = m[3] * m[7] - m[4] * m[6]
        let det = m[0] * c00 + m[1] * c01 + m[2] * c02
        let scale = m.reduce(0) { max($0, abs($1)) }
        guard det.isFinite, scale > 0, abs(det) > 1e-14 * scale * scale * scale else { return nil }
        let adjugate = [
            c00, m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            c01, m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            c02, m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        return adjugate.map { $0 / det }
    }

    /// `m · v` for a 3x3 row-major matrix and a column vector.
    public static func apply(_ m: [Double], _ v: (Double, Double, Double)) -> (Double, Double, Double) {
        (m[0] * v.0 + m[1] * v.1 + m[2] * v.2,
         m[3] * v.0 + m[4] * v.1 + m[5] * v.2,
         m[6] * v.0 + m[7] * v.1 + m[8] * v.2)
    }

    /// The transpose of a 3x3 row-major matrix.
    public static func transpose(_ m: [Double]) -> [Double] {
        [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]]
    }
}
