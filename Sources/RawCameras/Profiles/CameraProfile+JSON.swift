import Foundation
import RawCore

extension CameraProfile {
    /// The fields of a camera profile file (docs/sensor-profiles.md); any other is refused, so a misspelt optional
    /// field is an error rather than silently missing.
    public static let fieldNames: Set<String> = [
        "name", "make", "model", "comment", "colorMatrix1", "illuminant1", "colorMatrix2", "illuminant2",
        "forwardMatrix1", "forwardMatrix2", "baselineExposure", "blackLevel", "whiteLevel", "bitsPerSample", "gain",
    ]
    /// The fields of the `gain` object.
    public static let gainFieldNames: Set<String> = ["unit", "baseISO", "points"]

    /// Reads a camera profile from JSON and checks every value. Errors name the field, e.g.
    /// `invalid colorMatrix1: needs 9 numbers (3x3, XYZ → camera, row by row), not 8`.
    public init(json data: Data) throws(InvalidValueError) {
        try Self.checkFieldNames(data)
        let file: CameraProfileFile
        do {
            file = try JSONDecoder().decode(CameraProfileFile.self, from: data)
        } catch let DecodingError.typeMismatch(type, context) {
            throw InvalidValueError(Self.path(context.codingPath), "has the wrong type (expected \(Self.kind(type)))")
        } catch let DecodingError.valueNotFound(type, context) {
            throw InvalidValueError(Self.path(context.codingPath), "is null (expected \(Self.kind(type)))")
        } catch let DecodingError.keyNotFound(key, context) {
            throw InvalidValueError(Self.path(context.codingPath + [key]), "is missing")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw InvalidValueError(Self.path(context.codingPath), "is not a value this field can hold")
        } catch {
            throw InvalidValueError("camera profile", "is not valid JSON")
        }
        self = try file.profile()
    }

    /// Refuses fields a camera profile does not have, at the top and in `gain` and its points.
    private static func checkFieldNames(_ data: Data) throws(InvalidValueError) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw InvalidValueError("camera profile", "is not a JSON object")
        }
        func check(_ keys: some Collection<String>, known: Set<String>, prefix: String) throws(InvalidValueError) {
            if let unknown = keys.sorted().first(where: { !known.contains($0) }) {
                throw InvalidValueError(prefix + unknown, "is not a field of a camera profile (known: "
                                        + known.sorted().joined(separator: ", ") + ")")
            }
        }
        try check(object.keys, known: fieldNames, prefix: "")
        guard let gain = object["gain"] as? [String: Any] else { return }
        try check(gain.keys, known: gainFieldNames, prefix: "gain.")
        for (index, point) in (gain["points"] as? [Any] ?? []).enumerated() {
            if let point = point as? [String: Any] {
                try check(point.keys, known: ["gain", "iso"], prefix: "gain.points[\(index)].")
            }
        }
    }

    /// `colorMatrix1`, `gain.points[2].iso`.
    static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text.isEmpty ? "camera profile" : text
    }

    /// What a value of `type` is, in a user's words.
    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type: "a number"
        case is [Double].Type: "a list of numbers"
        case is String.Type: "text"
        case is [Any].Type: "a list"
        default: "an object"
        }
    }
}

/// A camera profile file as written: every field optional, checked by ``profile()``.
struct CameraProfileFile: Decodable {
    /// An illuminant as a profile gives it: an EXIF LightSource code or a name.
    enum Illuminant: Decodable {
        /// A number as written (checked to be a whole EXIF code when used).
        case code(Double)
        case name(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let name = try? container.decode(String.self) { self = .name(name) } else {
                self = .code(try container.decode(Double.self))
            }
        }
    }

    struct Gain: Decodable {
        struct Point: Decodable {
            let gain: Double
            let iso: Double
        }
        let unit: String?
        let baseISO: Double?
        let points: [Point]?
    }

    let name, make, model, comment: String?
    let colorMatrix1, colorMatrix2, forwardMatrix1, forwardMatrix2: [Double]?
    let illuminant1, illuminant2: Illuminant?
    /// Numbers all (a whole number is checked as such: JSON does not tell 12 from 12.0).
    let baselineExposure, blackLevel, whiteLevel, bitsPerSample: Double?
    let gain: Gain?

    /// The checked profile; errors name the file's field.
    func profile() throws(InvalidValueError) -> CameraProfile {
        if let name {
            try FileNameComponent.check(name, field: "name")
            try require(!name.contains(","), "name", "\(String(reflecting: name)) may not contain ','")
            try require(name != ColorCalibration.uncalibratedProfileName, "name", "is the name of the stand-in matrix")
        }
        for (field, text) in [("make", make), ("model", model)] {
            if let text {
                try require(!text.isEmpty && text.utf8.count <= 255 && text.oneLine == text, field, "must be one line of 1...255 bytes")
            }
        }
        let calibration = try colour()
        var bits: Int?
        if let bitsPerSample {
            try require(bitsPerSample == bitsPerSample.rounded() && (8...16).contains(bitsPerSample), "bitsPerSample",
                        "\(SettingText.number(bitsPerSample)) is not a whole number within 8...16")
            bits = Int(bitsPerSample)
        }
        return try CameraProfile(name: name, make: make, model: model, calibration: calibration, blackLevel: blackLevel,
                                 whiteLevel: whiteLevel, levelBits: bits, gainTable: try gainTable())
    }

    /// The matrices and illuminants.
    private func colour() throws(InvalidValueError) -> ColorCalibration {
        guard let values1 = colorMatrix1 else {
            throw InvalidValueError("colorMatrix1", "is missing: a camera profile needs its XYZ → camera matrix (9 numbers)")
        }
        let m1 = try Self.matrix("colorMatrix1", values1, inverse: true)
        let i1 = try Self.light("illuminant1", illuminant1, for: "colorMatrix1")
        var m2: ColorMatrix?, i2: LightSource?
        if let values2 = colorMatrix2 {
            m2 = try Self.matrix("colorMatrix2", values2, inverse: true)
            let light2 = try Self.light("illuminant2", illuminant2, for: "colorMatrix2")
            try require(i1.temperature != nil && light2.temperature != nil && i1.temperature != light2.temperature, "illuminant2",
                        "\(light2) and illuminant1 \(i1) must be two lights of different, known colour temperatures "
                        + "(readers interpolate between them)")
            i2 = light2
        } else {
            try require(illuminant2 == nil, "illuminant2", "is given without colorMatrix2")
            try require(forwardMatrix2 == nil, "forwardMatrix2", "is given without colorMatrix2")
        }
        let f1 = try forwardMatrix1.map { v throws(InvalidValueError) in try Self.forward("forwardMatrix1", v) }
        let f2 = try forwardMatrix2.map { v throws(InvalidValueError) in try Self.forward("forwardMatrix2", v) }
        if m2 != nil {
            try require((f1 == nil) == (f2 == nil), f1 == nil ? "forwardMatrix1" : "forwardMatrix2",
                        "is missing: with two colour matrices, give both forward matrices or neither")
        }
        if let baselineExposure {
            try require(baselineExposure.isFinite && abs(baselineExposure) <= 16, "baselineExposure",
                        "\(baselineExposure) EV is outside ±16")
        }
        return try ColorCalibration(colorMatrix1: m1, illuminant1: i1, colorMatrix2: m2, illuminant2: i2, forwardMatrix1: f1,
                                    forwardMatrix2: f2, baselineExposure: baselineExposure ?? 0, profileName: name)
    }

    /// The gain table, or nil without `gain`.
    private func gainTable() throws(InvalidValueError) -> GainTable? {
        guard let gain else { return nil }
        guard let unitText = gain.unit else { throw InvalidValueError("gain.unit", "is missing: \"dB\" or \"raw\"") }
        guard let unit = GainTable.Unit(rawValue: unitText) else {
            throw InvalidValueError("gain.unit", "\(String(reflecting: unitText)) is neither \"dB\" nor \"raw\"")
        }
        switch (gain.baseISO, gain.points) {
        case (.some, .some):
            throw InvalidValueError("gain", "give baseISO or points, not both")
        case (.some(let base), nil):
            try require(unit == .decibels, "gain.baseISO",
                        "the base-ISO shorthand is for dB (ISO = baseISO × 10^(gain/20)); raw units need points")
            return try GainTable(baseISO: base)
        case (nil, .some(let points)):
            return try GainTable(unit: unit, points: points.map { GainTable.Point(gain: $0.gain, iso: $0.iso) })
        case (nil, nil):
            throw InvalidValueError("gain", "needs baseISO (dB only) or points [{\"gain\": G, \"iso\": ISO}, ...]")
        }
    }

    /// A 3x3 matrix from 9 numbers; colour matrices must be invertible (readers invert them).
    private static func matrix(_ field: String, _ values: [Double], inverse: Bool) throws(InvalidValueError) -> ColorMatrix {
        try require(values.count == 9, field, "needs 9 numbers (3x3, row by row), not \(values.count)")
        let matrix: ColorMatrix
        do throws(InvalidValueError) { matrix = try ColorMatrix(rows: 3, columns: 3, values: values) } catch {
            throw InvalidValueError(field, error.reason)
        }
        if inverse {
            do throws(InvalidValueError) { _ = try matrix.inverted() } catch { throw InvalidValueError(field, error.reason) }
        }
        return matrix
    }

    /// A forward matrix: DNG requires it to map the camera's white (1, 1, 1) to the D50 white (readers refuse or
    /// rescale one that does not); its rows must sum to D50's XYZ within 0.01.
    private static func forward(_ field: String, _ values: [Double]) throws(InvalidValueError) -> ColorMatrix {
        let matrix = try Self.matrix(field, values, inverse: false)
        let white = matrix.apply([1, 1, 1]), d50 = [0.9642, 1, 0.8249]
        try require(zip(white, d50).allSatisfy { abs($0 - $1) <= 0.01 }, field,
                    "maps camera white (1, 1, 1) to XYZ " + white.map { String(format: "%.4f", $0) }.joined(separator: ", ")
                    + ", not to D50 (0.9642, 1, 0.8249) as DNG requires (its rows must sum to those)")
        return matrix
    }

    /// The light a matrix was measured under: required with it; a known EXIF LightSource other than Other (255, which
    /// needs IlluminantData).
    private static func light(_ field: String, _ value: Illuminant?, for matrix: String) throws(InvalidValueError) -> LightSource {
        let hint = "(e.g. \"D65\", \"StandardLightA\" or an EXIF LightSource code such as 21)"
        let light: LightSource
        switch value {
        case nil:
            throw InvalidValueError(field, "is missing: the light \(matrix) was measured under \(hint)")
        case .code(let code)?:
            var known: LightSource?
            if code == code.rounded(), abs(code) <= 65535 { known = try? LightSource(code: Int(code)) }
            guard let known else { throw InvalidValueError(field, "\(SettingText.number(code)) is not an EXIF LightSource code") }
            light = known
        case .name(let name)?:
            guard let named = LightSource(name: name) else {
                throw InvalidValueError(field, "\(String(reflecting: name)) is not a light source name \(hint)")
            }
            light = named
        }
        try require(light != .other, field, "Other (255) needs IlluminantData, which rawburst does not write; name the light")
        return light
    }
}
