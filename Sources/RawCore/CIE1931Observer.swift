/// The CIE 1931 2° standard colorimetric observer: colour-matching functions x̄, ȳ, z̄ at 10 nm.
///
/// Values are the CIE's tabulated ones (CIE 15:2004 Table T.4 / CIE 018:2019, six decimals, as also
/// distributed by the Colour & Vision Research Laboratory, UCL), taken every 10 nm from 380 to 730 nm.
/// Beyond 730 nm the functions are below 0.0015 and are not sampled by ``Spectrum``.
public enum CIE1931Observer {
    /// x̄(λ).
    public static let xBar = Spectrum(values: [
        0.001368, 0.004243, 0.014310, 0.043510, 0.134380, 0.283900,  // 380–430 nm
        0.348280, 0.336200, 0.290800, 0.195360, 0.095640, 0.032010,  // 440–490 nm
        0.004900, 0.009300, 0.063270, 0.165500, 0.290400, 0.433450,  // 500–550 nm
        0.594500, 0.762100, 0.916300, 1.026300, 1.062200, 1.002600,  // 560–610 nm
        0.854450, 0.642400, 0.447900, 0.283500, 0.164900, 0.087400,  // 620–670 nm
        0.046770, 0.022700, 0.011359, 0.005790, 0.002899, 0.001440,  // 680–730 nm
    ])

    /// ȳ(λ), the photopic luminous efficiency function V(λ).
    public static let yBar = Spectrum(values: [
        0.000039, 0.000120, 0.000396, 0.001210, 0.004000, 0.011600,  // 380–430 nm
        0.023000, 0.038000, 0.060000, 0.090980, 0.139020, 0.208020,  // 440–490 nm
        0.323000, 0.503000, 0.710000, 0.862000, 0.954000, 0.994950,  // 500–550 nm
        0.995000, 0.952000, 0.870000, 0.757000, 0.631000, 0.503000,  // 560–610 nm
        0.381000, 0.265000, 0.175000, 0.107000, 0.061000, 0.032000,  // 620–670 nm
        0.017000, 0.008210, 0.004102, 0.002091, 0.001047, 0.000520,  // 680–730 nm
    ])

    /// z̄(λ).
    public static let zBar = Spectrum(values: [
        0.006450, 0.020050, 0.067850, 0.207400, 0.645600, 1.385600,  // 380–430 nm
        1.747060, 1.772110, 1.669200, 1.287640, 0.812950, 0.465180,  // 440–490 nm
        0.272000, 0.158200, 0.078250, 0.042160, 0.020300, 0.008750,  // 500–550 nm
        0.003900, 0.002100, 0.001650, 0.001100, 0.000800, 0.000340,  // 560–610 nm
        0.000190, 0.000050, 0.000020, 0.000000, 0.000000, 0.000000,  // 620–670 nm
        0.000000, 0.000000, 0.000000, 0.000000, 0.000000, 0.000000,  // 680–730 nm
    ])

    /// XYZ of a stimulus (a light, or a reflectance times its illuminant): `Σ φ(λ)·x̄(λ)·Δλ`, … (unnormalised).
    public static func tristimulus(of stimulus: Spectrum) -> CIEXYZ {
        CIEXYZ(X: stimulus.integrated(with: xBar), Y: stimulus.integrated(with: yBar), Z: stimulus.integrated(with: zBar))
    }
}
