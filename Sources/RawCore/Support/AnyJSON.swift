import Foundation

/// Any JSON value, typed as JSON types it — a number is not a string, `true` is not 1, `null` is not missing — for
/// input whose keys and kinds are checked by hand (the viewfinder's commands, the worker's manifest lines).
public enum AnyJSON: Decodable, Equatable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([AnyJSON].self) { self = .array(a) }
        else { self = .object(try c.decode([String: AnyJSON].self)) }
    }

    /// The value as a message names it: a number or 'text', or what kind of value it is.
    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let n): SettingText.number(n)
        case .string(let s): "'\(s)'"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
