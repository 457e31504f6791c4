/// A spectral function (power distribution, reflectance or sensitivity) sampled every 10 nm from
/// 380 to 730 nm: 36 samples, the grid of ``Spectrum/wavelengths``.
///
/// Integrals are plain Riemann sums, `Σ a(λ)·b(λ)·Δλ` with Δλ = 10 nm, as CIE 15 and ASTM E308 do
/// for colorimetry at a 10 nm interval.
public struct Spectrum: Sendable, Hashable {
    /// First sampled wavelength, nm.
    public static let startWavelength = 380.0
    /// Sampling interval Δλ, nm.
    public static let interval = 10.0
    /// Number of samples.
    public static let count = 36
    /// The sampled wavelengths: 380, 390, …, 730 nm.
    public static let wavelengths: [Double] = (0..<count).map { startWavelength + interval * Double($0) }

    /// One value per wavelength of ``wavelengths``.
    public var values: [Double]

    /// Creates a spectrum from its 36 samples (a programming error otherwise).
    public init(values: [Double]) {
        precondition(values.count == Spectrum.count,
                     "a Spectrum has \(Spectrum.count) samples (380...730 nm every 10 nm), not \(values.count)")
        self.values = values
    }

    /// Samples `f(λ)` (λ in nm) at each of ``wavelengths``.
    public init(_ f: (Double) -> Double) {
        self.values = Spectrum.wavelengths.map(f)
    }

    /// A spectrum with the same value everywhere.
    public static func constant(_ value: Double) -> Spectrum {
        Spectrum(values: [Double](repeating: value, count: count))
    }

    /// `Σ self(λ)·other(λ)·Δλ` over the sampled wavelengths.
    public func integrated(with other: Spectrum) -> Double {
        var sum = 0.0
        for i in 0..<Spectrum.count { sum += values[i] * other.values[i] }
        return sum * Spectrum.interval
    }

    /// `Σ self(λ)·Δλ`.
    public var integral: Double { values.reduce(0, +) * Spectrum.interval }

    /// The value at `wavelength` (nm), linearly interpolated between samples; 0 outside 380...730 nm.
    public func value(at wavelength: Double) -> Double {
        let position = (wavelength - Spectrum.startWavelength) / Spectrum.interval
        guard position >= 0, position <= Double(Spectrum.count - 1) else { return 0 }
        let i = min(Int(position), Spectrum.count - 2)
        let t = position - Double(i)
        return values[i] * (1 - t) + values[i + 1] * t
    }

    /// The largest sample.
    public var maximum: Double { values.max() ?? 0 }

    /// Sample-by-sample product (e.g. an illuminant times a reflectance).
    public static func * (lhs: Spectrum, rhs: Spectrum) -> Spectrum {
        Spectrum(values: zip(lhs.values, rhs.values).map { $0 * $1 })
    }

    /// The spectrum scaled by a constant.
    public static func * (lhs: Double, rhs: Spectrum) -> Spectrum {
        Spectrum(values: rhs.values.map { lhs * $0 })
    }

    /// The spectrum scaled by a constant.
    public static func * (lhs: Spectrum, rhs: Double) -> Spectrum {
        rhs * lhs
    }

    /// Sample-by-sample sum.
    public static func + (lhs: Spectrum, rhs: Spectrum) -> Spectrum {
        Spectrum(values: zip(lhs.values, rhs.values).map { $0 + $1 })
    }

    /// Sample-by-sample difference.
    public static func - (lhs: Spectrum, rhs: Spectrum) -> Spectrum {
        Spectrum(values: zip(lhs.values, rhs.values).map { $0 - $1 })
    }
}
