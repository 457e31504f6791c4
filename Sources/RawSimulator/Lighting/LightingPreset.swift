import Foundation
import RawCore
import RawSources

/// A named starting point for the exposure controls under one kind of light: an ISO (or leave it as it is),
/// an exposure bias, a white balance and a metering mode, as camera apps offer "cloudy", "sunny", "stage".
///
/// Applying a preset to `CaptureSettings` sets the exposure compensation, white balance and metering, and the
/// ISO when the preset has one; shutter, aperture, focus, lens and the locks stay as they are.
///
/// In JSON (user preset files, docs/lighting-presets.md) a preset is an object with the keys `name`,
/// `description`, `iso` (a number, or null for "leave ISO as the settings have it"), `evBias`, `whiteBalance`
/// (`"auto"`, a preset such as `"daylight"`, or `"5600K"` / `"5600K+10"`) and `metering` (`"matrix"`,
/// `"centre-weighted"`, `"spot:0.5,0.5"`, `"zone:4"`). Only `name` is required.
public struct LightingPreset: Sendable, Hashable, Codable {
    /// Name as users type it (`--lighting snow`).
    public var name: String
    /// One line saying what light the preset is for.
    public var description: String
    /// ISO speed, or nil to leave the ISO as the settings have it (automatic unless fixed).
    public var iso: Double?
    /// Exposure bias in EV for auto exposure, −3...+3 in 0.1 EV steps.
    public var evBias: Double
    /// White balance to record.
    public var whiteBalance: WhiteBalanceSetting
    /// How auto exposure measures the scene.
    public var metering: MeteringMode

    /// Creates a preset (not validated; `validate()` checks the values).
    public init(name: String, description: String, iso: Double? = nil, evBias: Double = 0,
                whiteBalance: WhiteBalanceSetting = .auto, metering: MeteringMode = .matrix) {
        self.name = name
        self.description = description
        self.iso = iso
        self.evBias = evBias
        self.whiteBalance = whiteBalance
        self.metering = metering
    }

    /// Overcast daylight: ISO left automatic, +0.3 EV against the grey sky fooling the meter, cloudy white balance.
    public static let cloudy = LightingPreset(
        name: "cloudy", description: "Overcast daylight: ISO automatic, +0.3 EV, cloudy white balance, matrix metering",
        iso: nil, evBias: 0.3, whiteBalance: .preset(.cloudy), metering: .matrix)
    /// Bright sun: base ISO, −0.3 EV to protect highlights, daylight white balance.
    public static let sunny = LightingPreset(
        name: "sunny", description: "Bright sun: ISO 100, -0.3 EV to keep highlights, daylight white balance, matrix metering",
        iso: 100, evBias: -0.3, whiteBalance: .preset(.daylight), metering: .matrix)
    /// Stadium or stage floodlights: high ISO, −0.7 EV against bright lit subjects on dark surroundings, 3200 K.
    public static let floodlight = LightingPreset(
        name: "floodlight", description: "Stadium or stage floodlights: ISO 800, -0.7 EV, 3200 K, centre-weighted metering",
        iso: 800, evBias: -0.7, whiteBalance: .kelvin(3200, tint: 0), metering: .centreWeighted)
    /// The neutral preset: ISO left as it is, 0 EV, automatic white balance, matrix metering.
    public static let manual = LightingPreset(
        name: "manual", description: "No lighting assumptions: ISO as set, 0 EV, auto white balance, matrix metering",
        iso: nil, evBias: 0, whiteBalance: .auto, metering: .matrix)

    /// `settings` with this preset's ISO (when it has one), exposure bias, white balance and metering.
    public func applied(to settings: CaptureSettings) -> CaptureSettings {
        var s = settings
        if let iso { s.iso = iso }
        s.exposureCompensation = evBias
        s.whiteBalance = whiteBalance
        s.metering = metering
        return s
    }

    /// Checks every value; the error names the preset and the field, in one line.
    public func validate() throws(LightingPresetError) {
        let label = "preset '\(name)'"
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw LightingPresetError("a preset has an empty name")
        }
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw LightingPresetError("\(label): name may hold only letters, digits, '-' and '_'")
        }
        if let iso {
            guard iso.isFinite, (1...409_600).contains(iso) else {
                throw LightingPresetError("\(label): iso \(SettingText.number(iso)) is outside 1...409600")
            }
        }
        guard evBias.isFinite, abs(evBias) <= 3 + 1e-9 else {
            throw LightingPresetError("\(label): evBias \(SettingText.number(evBias)) is outside -3...3 EV")
        }
        guard abs(evBias * 10 - (evBias * 10).rounded()) < 1e-6 else {
            throw LightingPresetError("\(label): evBias \(SettingText.number(evBias)) is not in 0.1 EV steps")
        }
        do throws(CaptureSettingsError) {
            try whiteBalance.validate()
        } catch {
            throw LightingPresetError("\(label): whiteBalance \(error.reason)")
        }
        if let problem = LightingPresetCodec.meteringProblem(metering) {
            throw LightingPresetError("\(label): metering \(problem)")
        }
    }

    // MARK: - Codable

    private enum Key: String, CodingKey, CaseIterable {
        case name, description, iso, evBias, whiteBalance, metering
    }

    /// Any key, to find keys a user misspelled.
    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes a preset, throwing `LightingPresetError` (naming the preset and the field) for any bad value.
    public init(from decoder: any Decoder) throws {
        let position = decoder.codingPath.last?.intValue.map { "preset \($0 + 1)" } ?? "preset"
        let all: KeyedDecodingContainer<AnyKey>
        do {
            all = try decoder.container(keyedBy: AnyKey.self)
        } catch {
            throw LightingPresetError("\(position): expected an object with a \"name\"")
        }
        let c = try decoder.container(keyedBy: Key.self)
        guard c.contains(.name) else { throw LightingPresetError("\(position): name is missing") }
        guard let name = try? c.decode(String.self, forKey: .name) else {
            throw LightingPresetError("\(position): name must be a string")
        }
        let label = "preset '\(name)'"
        let known = Set(Key.allCases.map(\.rawValue))
        if let unknown = all.allKeys.map(\.stringValue).sorted().first(where: { !known.contains($0) }) {
            throw LightingPresetError("\(label): unknown field '\(unknown)' (fields: "
                                      + Key.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        func optional<T: Decodable>(_ type: T.Type, _ key: Key, _ what: String) throws(LightingPresetError) -> T? {
            guard c.contains(key), (try? c.decodeNil(forKey: key)) != true else { return nil }
            guard let value = try? c.decode(T.self, forKey: key) else {
                throw LightingPresetError("\(label): \(key.rawValue) must be \(what)")
            }
            return value
        }
        let description = try optional(String.self, .description, "a string") ?? ""
        let iso = try optional(Double.self, .iso, "a number, or null for automatic")
        let evBias = try optional(Double.self, .evBias, "a number of EV") ?? 0
        var whiteBalance = WhiteBalanceSetting.auto
        if let text = try optional(String.self, .whiteBalance, "a string such as \"auto\", \"daylight\" or \"5600K+10\"") {
            guard let parsed = WhiteBalanceSetting.parse(text.trimmingCharacters(in: .whitespaces)) else {
                throw LightingPresetError("\(label): whiteBalance \"\(text)\" is not auto, "
                                          + WhiteBalancePreset.allCases.map(\.rawValue).joined(separator: ", ")
                                          + " or a temperature such as 5600K or 5600K+10")
            }
            whiteBalance = parsed
        }
        var metering = MeteringMode.matrix
        if let text = try optional(String.self, .metering, "a string such as \"matrix\"") {
            guard let parsed = LightingPresetCodec.parseMetering(text) else {
                throw LightingPresetError("\(label): metering \"\(text)\" is not matrix, centre-weighted, "
                                          + "spot:X,Y or zone:N")
            }
            metering = parsed
        }
        self.init(name: name, description: description, iso: iso, evBias: evBias, whiteBalance: whiteBalance,
                  metering: metering)
        try validate()
    }

    /// Encodes every key (`iso` as null when automatic), white balance and metering as their string forms.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(name, forKey: .name)
        try c.encode(description, forKey: .description)
        if let iso { try c.encode(iso, forKey: .iso) } else { try c.encodeNil(forKey: .iso) }
        try c.encode(evBias, forKey: .evBias)
        try c.encode(whiteBalance.description, forKey: .whiteBalance)
        try c.encode(LightingPresetCodec.meteringText(metering), forKey: .metering)
    }
}

/// String forms of the values in preset files.
public enum LightingPresetCodec {
    /// `matrix`, `centre-weighted`, `spot:0.5,0.5`, `zone:4` (`MeteringMode/text`).
    public static func meteringText(_ mode: MeteringMode) -> String { mode.text }

    /// Parses the forms `meteringText` writes (also `center-weighted`); nil for anything else.
    public static func parseMetering(_ text: String) -> MeteringMode? { MeteringMode(parsing: text) }

    /// Why `mode` is out of range, or nil.
    static func meteringProblem(_ mode: MeteringMode) -> String? {
        switch mode {
        case .matrix, .centreWeighted: return nil
        case .spot(let p):
            guard p.x.isFinite, p.y.isFinite, (0...1).contains(p.x), (0...1).contains(p.y) else {
                return "spot point (\(SettingText.number(p.x)), \(SettingText.number(p.y))) is outside the image (0...1, 0...1)"
            }
            return nil
        case .zone(let index):
            return (0..<9).contains(index) ? nil : "zone \(index) is not a zone of the 3x3 grid (0...8)"
        }
    }
}

/// The domain of `LightingPresetError`.
public enum LightingPresetErrorDomain {}

/// A lighting preset file or name that cannot be used, in one line naming the file, the preset and the field.
public typealias LightingPresetError = MessageError<LightingPresetErrorDomain>

/// The built-in lighting presets and user preset files.
public enum LightingPresetCatalog {
    /// `cloudy`, `sunny`, `floodlight`, `manual`.
    public static let builtIn: [LightingPreset] = [.cloudy, .sunny, .floodlight, .manual]

    /// Reads a user preset file: a JSON array of presets, or an object `{"presets": [...]}` (which may also hold a
    /// `"comment"` string for the reader).
    /// Each preset is validated; names must be unique and must not repeat a built-in name.
    /// Errors are one line starting with the path, naming the preset and the field.
    public static func load(userFile path: String) throws(LightingPresetError) -> [LightingPreset] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
            throw LightingPresetError("\(path): \(reason)")
        }
        let top: Any
        do {
            top = try JSONSerialization.jsonObject(with: data)
        } catch {
            var detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? ""
            if detail.hasSuffix(".") { detail.removeLast() }
            throw LightingPresetError("\(path): not valid JSON" + (detail.isEmpty ? "" : " (\(detail.lowercased()))"))
        }
        let presets: [LightingPreset]
        do {
            if top is [Any] {
                presets = try JSONDecoder().decode([LightingPreset].self, from: data)
            } else if let object = top as? [String: Any], object["presets"] is [Any],
                      Set(object.keys).isSubset(of: ["presets", "comment"]) {
                presets = try JSONDecoder().decode(PresetFile.self, from: data).presets
            } else {
                throw LightingPresetError("expected a JSON array of presets or an object {\"presets\": [...]} "
                                          + "(with an optional \"comment\")")
            }
        } catch let error as LightingPresetError {
            throw LightingPresetError("\(path): \(error.message)")
        } catch {
            throw LightingPresetError("\(path): \(error)")
        }
        var seen: Set<String> = []
        let builtInNames = Set(builtIn.map { $0.name.lowercased() })
        for preset in presets {
            let key = preset.name.lowercased()
            if builtInNames.contains(key) {
                throw LightingPresetError("\(path): preset '\(preset.name)': name is already a built-in preset")
            }
            if !seen.insert(key).inserted {
                throw LightingPresetError("\(path): preset '\(preset.name)': name is used twice")
            }
        }
        return presets
    }

    private struct PresetFile: Decodable {
        let presets: [LightingPreset]
    }

    /// The preset called `name` (case-insensitive) among the built-ins and `userPresets`.
    public static func preset(named name: String, userPresets: [LightingPreset] = []) throws(LightingPresetError)
        -> LightingPreset {
        let all = builtIn + userPresets
        if let exact = all.first(where: { $0.name == name }) { return exact }
        if let found = all.first(where: { $0.name.lowercased() == name.lowercased() }) { return found }
        throw LightingPresetError("unknown lighting preset '\(name)' (known: "
                                  + all.map(\.name).joined(separator: ", ") + ")")
    }
}
