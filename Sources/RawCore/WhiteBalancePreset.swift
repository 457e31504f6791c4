/// White balance presets: each a colour temperature and a tint, as cameras define them. Capture records
/// them as the as-shot neutral; the developer turns the same temperature and tint into a white point.
public enum WhiteBalancePreset: String, Sendable, Hashable, Codable, CaseIterable {
    case daylight, cloudy, shade, tungsten, fluorescent, flash

    /// Correlated colour temperature in kelvin.
    public var kelvin: Double {
        switch self {
        case .daylight: 5500
        case .cloudy: 6500
        case .shade: 7500
        case .tungsten: 2850
        case .fluorescent: 4000
        case .flash: 5900
        }
    }

    /// Green (−) / magenta (+) tint: fluorescent tubes are greenish, so the preset adds magenta.
    public var tint: Double { self == .fluorescent ? 10 : 0 }
}
