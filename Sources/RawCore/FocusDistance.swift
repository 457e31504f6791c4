import Foundation

/// Where the lens is focused.
public enum FocusDistance: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A distance in metres, greater than zero.
    case metres(Double)
    /// Focused at infinity.
    case infinity

    /// Creates a finite distance, rejecting zero, negative and non-finite values.
    public static func finite(_ metres: Double) throws(InvalidValueError) -> FocusDistance {
        try require(metres.isFinite && metres > 0, "focus distance", "\(metres) m must be a positive number")
        return .metres(metres)
    }

    /// Parses `1.5m`, `0.8` (metres), `inf` or `infinity`; nil for anything else or a distance that is not
    /// a positive number.
    public init?(parsing text: String) {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t == "inf" || t == "infinity" {
            self = .infinity
            return
        }
        guard let metres = Double(t.hasSuffix("m") ? String(t.dropLast()) : t), metres > 0, metres.isFinite else {
            return nil
        }
        self = .metres(metres)
    }

    /// The distance in metres (`Double.infinity` at infinity).
    public var metresValue: Double {
        switch self {
        case .metres(let m): m
        case .infinity: .infinity
        }
    }

    /// `1.5 m` (to the millimetre, without trailing zeros: a distance read back from EXIF's rational SubjectDistance,
    /// 1.500006, is 1.5 m), or `infinity`.
    public var description: String {
        switch self {
        case .metres(let m): "\(Self.millimetreText(m)) m"
        case .infinity: "infinity"
        }
    }

    /// `metres` rounded to the millimetre, without trailing zeros (at least one digit after a point is never kept as 0:
    /// 2.0 is `2`); below a millimetre, as it is.
    static func millimetreText(_ metres: Double) -> String {
        guard metres >= 0.001, metres < 1e12 else { return "\(metres)" }
        var text = String(format: "%.3f", metres)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

extension FocusDistance {
    /// Decodes a number of metres or the string "infinity".
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let metres = try? c.decode(Double.self) {
            guard metres.isFinite, metres > 0 else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "focus distance \(metres) m must be positive"))
            }
            self = .metres(metres)
            return
        }
        guard try c.decode(String.self) == "infinity" else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "focus distance must be metres or \"infinity\""))
        }
        self = .infinity
    }

    /// Encodes metres as a number, infinity as the string "infinity".
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .metres(let m): try c.encode(m)
        case .infinity: try c.encode("infinity")
        }
    }
}
