#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a linear-sRGB reflectance triplet into a smooth reflectance spectrum.
///
/// The basis is three smooth, non-negative bands that sum to exactly 1 at every wavelength (a
/// partition of unity), so the perfectly flat reflector is the coefficient vector (1, 1, 1):
/// - red: `σ((λ − 580) / 8)`, high above 580 nm;
/// - green: `σ((λ − 490) / 8) − σ((λ − 580) / 8)`, the 490…580 nm band;
/// - blue: `1 − σ((λ − 490) / 8)`, high below 490 nm;
///
/// where σ is the logistic function. The edges were placed so that all 24 ColorChecker patches get
/// non-negative reflectances (the cyan patch, slightly outside sRGB, has a negative red coefficient but
/// still a non-negative spectrum). Saturated sRGB colours far from the chart's can still need negative
/// coefficients, and so a spectrum that dips below 0 somewhere: no smooth three-band basis reproduces
/// the whole sRGB gamut with physical reflectances.
///
/// Coefficients are chosen so that the reconstructed spectrum, lit by CIE D65
/// (``StandardIlluminant/d65``) and seen by the CIE 1931 observer, has exactly the XYZ (relative to a
/// Y = 1 white) that ``ColorSpaceMath/xyzD65(fromLinearSRGB:_:_:)`` gives the triplet. Because the 10 nm
/// D65 white (0.9501, 1, 1.0885) differs slightly from the sRGB white (0.95047, 1, 1.08883), sRGB white
/// (1, 1, 1) maps to coefficients within 1e-3 of (1, 1, 1), not exactly to them.
public enum ReflectanceBasis {
    /// Centre of the blue/green edge, nm.
    public static let blueGreenEdge = 490.0
    /// Centre of the green/red edge, nm.
    public static let greenRedEdge = 580.0
    /// Logistic scale of both edges, nm.
    public static let edgeSoftness = 8.0

    private static func logistic(_ x: Double) -> Double { 1 / (1 + exp(-x)) }

    /// The red, green and blue basis spectra, in that order (the order of the coefficients). They sum
    /// to 1 at every wavelength.
    public static let functions: [Spectrum] = {
        let blue = Spectrum { 1 - logistic(($0 - blueGreenEdge) / edgeSoftness) }
        let red = Spectrum { logistic(($0 - greenRedEdge) / edgeSoftness) }
        let green = Spectrum { logistic(($0 - blueGreenEdge) / edgeSoftness) - logistic(($0 - greenRedEdge) / edgeSoftness) }
        return [red, green, blue]
    }()

    /// XYZ (relative to the Y of a perfect white under the same light) of each basis function lit by
    /// `illuminant`: a 3x3 row-major matrix whose columns are the three basis functions.
    public static func tristimulusMatrix(illuminant: Spectrum) -> [Double] {
        responseMatrix(sensitivities: [CIE1931Observer.xBar, CIE1931Observer.yBar, CIE1931Observer.zBar],
                       illuminant: illuminant)
    }

    /// `∫ S_row(λ)·L(λ)·B_column(λ) dλ / ∫ ȳ(λ)·L(λ) dλ`: the response of each sensor (rows) to each
    /// basis function (columns) under `illuminant`, relative to the luminance of a perfect white.
    public static func responseMatrix(sensitivities: [Spectrum], illuminant: Spectrum) -> [Double] {
        let whiteLuminance = illuminant.integrated(with: CIE1931Observer.yBar)
        var m = [Double](repeating: 0, count: 9)
        for (row, sensitivity) in sensitivities.prefix(3).enumerated() {
            let weighted = sensitivity * illuminant
            for (column, basis) in functions.enumerated() {
                m[row * 3 + column] = weighted.integrated(with: basis) / whiteLuminance
            }
        }
        return m
    }

    /// Linear sRGB → basis coefficients: `T⁻¹ · M_sRGB`, where T is ``tristimulusMatrix(illuminant:)`` under D65.
    public static let coefficientMatrix: [Double] = {
        // The basis is chosen so that T is well conditioned (condition number ≈ 3.7).
        let t = tristimulusMatrix(illuminant: StandardIlluminant.d65)
        return ColorSpaceMath.multiply(ColorSpaceMath.inverse(t)!, ColorSpaceMath.srgbToXYZ)
    }()

    /// Coefficients (red, green, blue basis) of the spectrum that has, under D65, the XYZ of the
    /// linear-sRGB triplet.
    public static func coefficients(linearSRGB red: Double, _ green: Double, _ blue: Double) -> (Double, Double, Double) {
        ColorSpaceMath.apply(coefficientMatrix, (red, green, blue))
    }

    /// The reflectance spectrum `c.0·B_red + c.1·B_green + c.2·B_blue`.
    public static func spectrum(_ c: (Double, Double, Double)) -> Spectrum {
        let f = functions
        return Spectrum(values: (0..<Spectrum.count).map { i in
            c.0 * f[0].values[i] + c.1 * f[1].values[i] + c.2 * f[2].values[i]
        })
    }

    /// The reflectance spectrum of a linear-sRGB triplet (``coefficients(linearSRGB:_:_:)`` then ``spectrum(_:)``).
    public static func spectrum(linearSRGB red: Double, _ green: Double, _ blue: Double) -> Spectrum {
        spectrum(coefficients(linearSRGB: red, green, blue))
    }
}
