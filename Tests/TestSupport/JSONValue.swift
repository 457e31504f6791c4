import Foundation

/// A JSON document as a `Sendable` value, for tool outputs such as `exiftool -j` or a Python script's
/// `json.dumps` (where `[String: Any]` would not survive Swift 6 strict concurrency).
///
/// Integers that fit in `Int64` stay exact (`.int`); other numbers are `.double`.
public enum JSONValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses a JSON document.
    public init(parsing data: Data) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Parses a JSON document from text.
    public init(parsing text: String) throws {
        try self.init(parsing: Data(text.utf8))
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let v): try container.encode(v)
        case .int(let v): try container.encode(v)
        case .double(let v): try container.encode(v)
        case .string(let v): try container.encode(v)
        case .array(let v): try container.encode(v)
        case .object(let v): try container.encode(v)
        }
    }

    /// The string, if this is a string.
    public var string: String? {
        if case .string(let v) = self { return v }
        return nil
    }

    /// The number as a `Double`, if this is a number (integers included).
    public var double: Double? {
        switch self {
        case .int(let v): Double(v)
        case .double(let v): v
        default: nil
        }
    }

    /// The number as an integer, if this is an integer or a `Double` with no fractional part.
    public var int: Int? {
        switch self {
        case .int(let v): Int(exactly: v)
        case .double(let v): Int(exactly: v)
        default: nil
        }
    }

    /// The Boolean, if this is `true` or `false`.
    public var bool: Bool? {
        if case .bool(let v) = self { return v }
        return nil
    }

    /// The elements, if this is an array.
    public var array: [JSONValue]? {
        if case .array(let v) = self { return v }
        return nil
    }

    /// The members, if this is an object.
    public var object: [String: JSONValue]? {
        if case .object(let v) = self { return v }
        return nil
    }

    /// True for `null`.
    public var isNull: Bool { self == .null }

    /// A list of numbers however the tool wrote it: a number, an array of numbers, or a string of
    /// numbers separated by spaces or commas (exiftool `-n` writes `"1 2.477 1.462"` for arrays).
    public var numbers: [Double]? {
        switch self {
        case .int, .double:
            return [double!]
        case .array(let items):
            let values = items.compactMap(\.double)
            return values.count == items.count ? values : nil
        case .string(let text):
            let words = text.split(whereSeparator: { $0 == " " || $0 == "," })
            let values = words.compactMap { Double($0) }
            return !words.isEmpty && values.count == words.count ? values : nil
        default:
            return nil
        }
    }

    /// Member `key` of an object (nil for other values or a missing key).
    public subscript(key: String) -> JSONValue? {
        object?[key]
    }

    /// Element `index` of an array (nil for other values or an index out of range).
    public subscript(index: Int) -> JSONValue? {
        guard let items = array, items.indices.contains(index) else { return nil }
        return items[index]
    }

    /// Compact JSON text.
    public var description: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "<unencodable JSON>" }
        return String(decoding: data, as: UTF8.self)
    }
}
