/// A colour filter in a colour filter array, numbered as in the DNG `CFAPattern` tag (and EXIF).
public enum CFAColor: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case red = 0, green = 1, blue = 2, cyan = 3, magenta = 4, yellow = 5, white = 6

    /// The one-letter name used in pattern strings such as `"RGGB"`.
    public var letter: Character {
        switch self {
        case .red: "R"
        case .green: "G"
        case .blue: "B"
        case .cyan: "C"
        case .magenta: "M"
        case .yellow: "Y"
        case .white: "W"
        }
    }

    /// Parses a one-letter name (case-insensitive).
    public init?(letter: Character) {
        let upper = String(letter).uppercased()
        guard let match = CFAColor.allCases.first(where: { String($0.letter) == upper }) else {
            return nil
        }
        self = match
    }

    public var description: String { String(letter) }
}
