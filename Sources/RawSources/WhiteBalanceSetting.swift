import RawCore

/// The white balance a capture records (DNG AsShotNeutral). Raw data is never changed by it; developers use it.
public enum WhiteBalanceSetting: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Estimated from the frame (grey world over unclipped pixels).
    case auto
    /// A named light.
    case preset(WhiteBalancePreset)
    /// A colour temperature in kelvin (2000...12000) and a green (−) / magenta (+) tint (−100...100).
    case kelvin(Double, tint: Double)

    /// Checks the temperature and tint ranges.
    public func validate() throws(CaptureSettingsError) {
        if case .kelvin(let k, let tint) = self {
            guard k.isFinite, (2000...12000).contains(k) else {
                throw CaptureSettingsError(setting: "white balance", "\(SettingText.number(k)) K is outside 2000...12000 K")
            }
            guard tint.isFinite, (-100...100).contains(tint) else {
                throw CaptureSettingsError(setting: "white balance", "tint \(SettingText.number(tint)) is outside −100...100")
            }
        }
    }

    /// A number without a needless ".0".

    /// Parses `auto`, a preset name, `5600K`, `5600K+10`, `5600K-15`.
    public static func parse(_ text: String) -> WhiteBalanceSetting? {
        let t = text.lowercased()
        if t == "auto" { return .auto }
        if let preset = WhiteBalancePreset(rawValue: t) { return .preset(preset) }
        guard let k = t.firstIndex(of: "k"), let kelvin = Double(t[..<k]) else { return nil }
        let rest = t[t.index(after: k)...]
        if rest.isEmpty { return .kelvin(kelvin, tint: 0) }
        guard let tint = Double(rest.hasPrefix("+") ? String(rest.dropFirst()) : String(rest)) else { return nil }
        return .kelvin(kelvin, tint: tint)
    }

    /// `auto`, `daylight`, `5600K+10`.
    public var description: String {
        switch self {
        case .auto: "auto"
        case .preset(let p): p.rawValue
        case .kelvin(let k, let tint):
            "\(SettingText.number(k))K" + (tint == 0 ? "" : (tint > 0 ? "+" : "") + SettingText.number(tint))
        }
    }
}

extension WhiteBalanceSetting {
    /// Decodes the string forms ``parse(_:)`` accepts ("auto", "daylight", "5600K+10").
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self.parse(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "\"\(text)\" is not a white balance"))
        }
        self = value
    }

    /// Encodes the string form (``description``).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
