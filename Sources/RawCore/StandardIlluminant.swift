#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Relative spectral power distributions of light sources, all normalised to 1 at 560 nm.
///
/// - Blackbodies follow Planck's law with the second radiation constant c₂ = 1.4388 × 10⁻² m·K that
///   CIE 15 uses for illuminant A (so `blackbody(kelvin: 2856)` is CIE illuminant A).
/// - Daylight follows the CIE D-series method (CIE 15:2004 §3.1): the chromaticity of the phase of
///   daylight from the correlated colour temperature, then `S = S₀ + M₁·S₁ + M₂·S₂`, with M₁ and M₂
///   rounded to three decimals as the CIE recommends so that D50 and D65 reproduce the CIE tables.
public enum StandardIlluminant {
    /// Second radiation constant c₂ used for illuminant A, in nm·K.
    public static let secondRadiationConstant = 1.4388e7

    /// Planck's law, relative: a blackbody at `kelvin`, normalised to 1 at 560 nm.
    public static func blackbody(kelvin: Double) -> Spectrum {
        func planck(_ lambda: Double) -> Double {
            1 / (pow(lambda, 5) * expm1(secondRadiationConstant / (lambda * kelvin)))
        }
        let reference = planck(560)
        return Spectrum { planck($0) / reference }
    }

    /// The CIE daylight basis S₀, S₁, S₂ at 380...730 nm, 10 nm (CIE 15:2004 Table T.2).
    public static let daylightBasis: (s0: Spectrum, s1: Spectrum, s2: Spectrum) = (
        Spectrum(values: [
            63.4, 65.8, 94.8, 104.8, 105.9, 96.8,  // 380–430 nm
            113.9, 125.6, 125.5, 121.3, 121.3, 113.5,  // 440–490 nm
            113.1, 110.8, 106.5, 108.8, 105.3, 104.4,  // 500–550 nm
            100.0, 96.0, 95.1, 89.1, 90.5, 90.3,  // 560–610 nm
            88.4, 84.0, 85.1, 81.9, 82.6, 84.9,  // 620–670 nm
            81.3, 71.9, 74.3, 76.4, 63.3, 71.7,  // 680–730 nm
        ]),
        Spectrum(values: [
            38.5, 35.0, 43.4, 46.3, 43.9, 37.1,  // 380–430 nm
            36.7, 35.9, 32.6, 27.9, 24.3, 20.1,  // 440–490 nm
            16.2, 13.2, 8.6, 6.1, 4.2, 1.9,  // 500–550 nm
            0.0, -1.6, -3.5, -3.5, -5.8, -7.2,  // 560–610 nm
            -8.6, -9.5, -10.9, -10.7, -12.0, -14.0,  // 620–670 nm
            -13.6, -12.0, -13.3, -12.9, -10.6, -11.6,  // 680–730 nm
        ]),
        Spectrum(values: [
            3.0, 1.2, -1.1, -0.5, -0.7, -1.2,  // 380–430 nm
            -2.6, -2.9, -2.8, -2.6, -2.6, -1.8,  // 440–490 nm
            -1.5, -1.3, -1.2, -1.0, -0.5, -0.3,  // 500–550 nm
            0.0, 0.2, 0.5, 2.1, 3.2, 4.1,  // 560–610 nm
            4.7, 5.1, 6.7, 7.3, 8.6, 9.8,  // 620–670 nm
            10.2, 8.3, 9.6, 8.5, 7.0, 7.6,  // 680–730 nm
        ])
    )

    /// The CIE 1931 chromaticity (x, y) of the CIE daylight phase at `kelvin` (clamped to 4000...25000 K).
    public static func daylightChromaticity(kelvin: Double) -> (x: Double, y: Double) {
        let t = min(max(kelvin, 4000), 25000)
        let x = t <= 7000
            ? -4.6070e9 / (t * t * t) + 2.9678e6 / (t * t) + 0.09911e3 / t + 0.244063
            : -2.0064e9 / (t * t * t) + 1.9018e6 / (t * t) + 0.24748e3 / t + 0.237040
        let y = -3.000 * x * x + 2.870 * x - 0.275
        return (x, y)
    }

    /// CIE daylight (D-series) at a correlated colour temperature, normalised to 1 at 560 nm.
    ///
    /// Defined for 4000...25000 K; temperatures outside that range are clamped to it.
    public static func daylight(kelvin: Double) -> Spectrum {
        let (x, y) = daylightChromaticity(kelvin: kelvin)
        let m = 0.0241 + 0.2562 * x - 0.7341 * y
        func roundedTo3(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
        let m1 = roundedTo3((-1.3515 - 1.7703 * x + 5.9114 * y) / m)
        let m2 = roundedTo3((0.0300 - 31.4424 * x + 30.0717 * y) / m)
        let basis = daylightBasis
        // S₁ and S₂ are 0 at 560 nm, so S₀(560) = 100 is the whole value there.
        return Spectrum(values: (0..<Spectrum.count).map { i in
            (basis.s0.values[i] + m1 * basis.s1.values[i] + m2 * basis.s2.values[i]) / 100
        })
    }

    /// CIE standard illuminant A (incandescent tungsten): a 2856 K blackbody.
    ///
    /// CIE 15 defines A with c₂ = 1.435 × 10⁻² m·K at 2848 K; with the c₂ used here the 2856 K blackbody
    /// differs from the CIE table by less than 0.07 % (at 380 nm: 9.8018 against 9.7951).
    public static let a = blackbody(kelvin: 2856)

    /// The correlated colour temperature at which CIE D65 was defined: 6500 K on the temperature scale
    /// of c₂ = 1.4380 × 10⁻² m·K, that is 6500 × 1.4388 / 1.4380 ≈ 6503.6 K (usually quoted as 6504 K).
    /// Computing D65 at this temperature, with M₁ and M₂ rounded, reproduces the CIE's tabulated D65
    /// (49.9755 at 380 nm, 117.812 at 460 nm); at exactly 6504 K M₁ rounds differently and values
    /// differ by up to 0.04 %.
    public static let d65Kelvin = 6500 * 1.4388 / 1.4380
    /// The correlated colour temperature at which CIE D50 was defined: 5000 × 1.4388 / 1.4380 ≈ 5002.8 K.
    public static let d50Kelvin = 5000 * 1.4388 / 1.4380

    /// CIE illuminant D50 (daylight at ≈ 5003 K, ``d50Kelvin``), the white of ICC profile connection space.
    public static let d50 = daylight(kelvin: d50Kelvin)
    /// CIE standard illuminant D65 (average daylight at ≈ 6504 K, ``d65Kelvin``), reproducing the CIE table.
    public static let d65 = daylight(kelvin: d65Kelvin)

    /// A plausible light at a colour temperature: a blackbody below 4000 K, CIE daylight from 4000 K on.
    public static func forKelvin(_ kelvin: Double) -> Spectrum {
        kelvin < 4000 ? blackbody(kelvin: kelvin) : daylight(kelvin: kelvin)
    }

    /// XYZ of a perfect white reflector lit by `illuminant`, for the CIE 1931 observer, with Y = 1.
    public static func whitePoint(of illuminant: Spectrum) -> CIEXYZ {
        let xyz = CIE1931Observer.tristimulus(of: illuminant)
        return CIEXYZ(X: xyz.X / xyz.Y, Y: 1, Z: xyz.Z / xyz.Y)
    }
}
