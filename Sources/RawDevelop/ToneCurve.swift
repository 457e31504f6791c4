import RawCore

/// The base tone curve, before a look's contrast.
public enum ToneCurve: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The default rendering (docs/develop.md, "Default rendering"): +0.5 EV, so that a grey card exposed as a
    /// meter says (about 12.5 % of clipping, ISO 12232's saturation-based speed) comes out near 18 %, L* 50; light
    /// below the shoulder's knee as it is (colorimetric); above it a highlight shoulder (`ToneShoulder`) that
    /// rolls everything up to the frame's largest value smoothly into white instead of clipping it.
    case standard
    /// No curve: scene-linear values are encoded as they are and clipped at white (colorimetric renderings,
    /// measurements, comparisons with other developers).
    case linear

    /// Exposure in EV the curve adds to the settings' and the file's (0.5 for the standard curve): the half stop
    /// between where ISO 12232's saturation-based speed puts a metered grey card (18 %/√2 of clipping) and 18 %.
    public var exposure: Double { self == .standard ? 0.5 : 0 }

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
