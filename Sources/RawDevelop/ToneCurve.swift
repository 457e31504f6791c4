import RawCore

/// The base tone curve, before a look's contrast.
public enum ToneCurve: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A gentle S-curve (contrast 1.12 about mid grey) with a highlight shoulder that rolls values above
    /// white (highlight reconstruction, positive exposure) smoothly into white instead of clipping them.
    case standard
    /// No curve: scene-linear values are encoded as they are and clipped at white (colorimetric renderings,
    /// measurements, comparisons with other developers).
    case linear

    /// Contrast exponent of the base S-curve.
    var contrast: Double { self == .standard ? 1.12 : 1 }
    /// Linear level where the highlight shoulder starts (values between it and the headroom are rolled into white).
    var shoulderStart: Double? { self == .standard ? 0.7 : nil }

    public var description: String { rawValue }

    /// Parses `standard` or `linear` (`none` is linear).
    public init(parsing text: String) throws(InvalidValueError) {
        let t = text.lowercased()
        guard let curve = ToneCurve(rawValue: t == "none" ? "linear" : t) else {
            throw InvalidValueError("tone curve", "\"\(text)\" is not standard or linear")
        }
        self = curve
    }
}
