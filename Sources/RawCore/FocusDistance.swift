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

    /// The distance in metres (`Double.infinity` at infinity).
    public var metresValue: Double {
        switch self {
        case .metres(let m): m
        case .infinity: .infinity
        }
    }

    public var description: String {
        switch self {
        case .metres(let m): "\(m) m"
        case .infinity: "infinity"
        }
    }
}
