#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How an output colour space encodes linear light into code values, as an ICC parametric curve.
///
/// The decoding direction is the ICC `parametricCurveType` function 4 (LittleCMS type 4):
/// `linear = (a·V + b)^gamma` for `V ≥ d`, `linear = c·V` for `V < d`. ``encode(_:)`` is its inverse.
/// The same five numbers build the ICC profile's tone curves, so the pixels and the embedded profile
/// describe one curve.
public struct TransferFunction: Sendable, Hashable {
    /// Exponent of the power segment.
    public let gamma: Double
    /// Scale inside the power segment.
    public let a: Double
    /// Offset inside the power segment.
    public let b: Double
    /// Slope of the linear toe.
    public let c: Double
    /// Code value where the toe ends.
    public let d: Double

    /// Creates a curve from its ICC type-4 parameters.
    public init(gamma: Double, a: Double, b: Double, c: Double, d: Double) {
        self.gamma = gamma
        self.a = a
        self.b = b
        self.c = c
        self.d = d
    }

    /// Linear light: code value = linear value.
    public static let linear = TransferFunction(gamma: 1, a: 1, b: 0, c: 1, d: 0)
    /// IEC 61966-2-1 (sRGB and Display P3): 2.4 power with a 12.92 toe below 0.04045.
    public static let sRGB = TransferFunction(gamma: 2.4, a: 1 / 1.055, b: 0.055 / 1.055, c: 1 / 12.92, d: 0.04045)
    /// Adobe RGB (1998): a pure power of 563/256.
    public static let adobeRGB = TransferFunction(gamma: 563.0 / 256.0, a: 1, b: 0, c: 0, d: 0)
    /// ITU-R BT.2020 (10-bit constants; the same curve as BT.709): 1/0.45 power with a 4.5 toe below 0.081.
    public static let rec2020 = TransferFunction(gamma: 1 / 0.45, a: 1 / 1.099_296_826_809_44,
                                                 b: 0.099_296_826_809_44 / 1.099_296_826_809_44,
                                                 c: 1 / 4.5, d: 4.5 * 0.018_053_968_510_807)
    /// ROMM RGB (ProPhoto): 1.8 power with a slope-16 toe below 1/32 (linear 1/512).
    public static let proPhoto = TransferFunction(gamma: 1.8, a: 1, b: 0, c: 1 / 16, d: 1.0 / 32)

    /// Linear light of code value `v` (0...1).
    public func decode(_ v: Double) -> Double {
        if v < d { return c * v }
        let base = a * v + b
        return base <= 0 ? 0 : pow(base, gamma)
    }

    /// Code value (0...1) of linear light `linear`, clamped to 0...1.
    public func encode(_ linear: Double) -> Double {
        guard linear > 0 else { return 0 }   // also NaN
        if linear >= 1 { return 1 }
        if d > 0 && c > 0 && linear < c * d { return linear / c }
        return max(0, min(1, (pow(linear, 1 / gamma) - b) / a))
    }
}
