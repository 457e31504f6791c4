/// A calibration illuminant, coded as EXIF `LightSource` (used by DNG `CalibrationIlluminant1/2`).
public enum LightSource: UInt16, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case unknown = 0
    case daylight = 1
    case fluorescent = 2
    case tungsten = 3
    case flash = 4
    case fineWeather = 9
    case cloudyWeather = 10
    case shade = 11
    case daylightFluorescent = 12
    case dayWhiteFluorescent = 13
    case coolWhiteFluorescent = 14
    case whiteFluorescent = 15
    case warmWhiteFluorescent = 16
    case standardLightA = 17
    case standardLightB = 18
    case standardLightC = 19
    case d55 = 20
    case d65 = 21
    case d75 = 22
    case d50 = 23
    case isoStudioTungsten = 24
    case other = 255

    /// Parses an EXIF code, rejecting codes EXIF does not define.
    public init(code: Int) throws(InvalidValueError) {
        guard code >= 0, code <= 65535, let value = LightSource(rawValue: UInt16(code)) else {
            throw InvalidValueError("calibration illuminant", "\(code) is not an EXIF LightSource code")
        }
        self = value
    }

    /// Parses a name as profiles write it — the ``description`` in any case, with or without spaces (`D65`,
    /// `Standard Light A`, `standardLightA`, `Tungsten`), or `A`, `B`, `C` for the standard lights — or nil.
    public init?(name: String) {
        let key = Self.key(name)
        let aliases: [String: LightSource] = ["a": .standardLightA, "b": .standardLightB, "c": .standardLightC]
        guard let value = aliases[key] ?? Self.allCases.first(where: { Self.key($0.description) == key }) else { return nil }
        self = value
    }

    private static func key(_ text: String) -> String {
        String(text.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" })
    }

    /// Correlated colour temperature in kelvin, as the DNG specification assigns it, or nil when unknown.
    public var temperature: Double? {
        switch self {
        case .standardLightA, .tungsten, .isoStudioTungsten: 2850
        case .standardLightB: 4874
        case .standardLightC: 6774
        case .d50: 5003
        case .d55, .daylight, .fineWeather, .flash: 5503
        case .d65, .cloudyWeather: 6504
        case .d75, .shade: 7504
        case .daylightFluorescent: 6430
        case .dayWhiteFluorescent: 5020
        case .coolWhiteFluorescent, .fluorescent: 4230
        case .whiteFluorescent: 3450
        case .warmWhiteFluorescent: 2940
        case .unknown, .other: nil
        }
    }

    public var description: String {
        switch self {
        case .unknown: "Unknown"
        case .daylight: "Daylight"
        case .fluorescent: "Fluorescent"
        case .tungsten: "Tungsten"
        case .flash: "Flash"
        case .fineWeather: "Fine Weather"
        case .cloudyWeather: "Cloudy"
        case .shade: "Shade"
        case .daylightFluorescent: "Daylight Fluorescent"
        case .dayWhiteFluorescent: "Day White Fluorescent"
        case .coolWhiteFluorescent: "Cool White Fluorescent"
        case .whiteFluorescent: "White Fluorescent"
        case .warmWhiteFluorescent: "Warm White Fluorescent"
        case .standardLightA: "Standard Light A"
        case .standardLightB: "Standard Light B"
        case .standardLightC: "Standard Light C"
        case .d55: "D55"
        case .d65: "D65"
        case .d75: "D75"
        case .d50: "D50"
        case .isoStudioTungsten: "ISO Studio Tungsten"
        case .other: "Other"
        }
    }
}
