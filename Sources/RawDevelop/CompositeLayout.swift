import Foundation
import RawCore

/// How two frames taken together (e.g. the back and the front camera) share one picture.
public enum CompositeLayout: Sendable, Hashable, CustomStringConvertible {
    /// One above the other (`vertical`) or side by side (`horizontal`); `split` is the share of the first frame
    /// (0.5, 0.6 or 0.7 for 50/50, 60/40, 70/30; any value in 0.2...0.8 works).
    case stacked(direction: StackDirection, split: Double)
    /// The second frame small, inset in a corner of the first; `size` is its width as a fraction of the whole
    /// (0.1...0.5).
    case pictureInPicture(corner: Corner, size: Double)

    /// Stacking direction.
    public enum StackDirection: String, Sendable, Hashable, CaseIterable {
        /// First frame on top, second below.
        case vertical
        /// First frame on the left, second on the right.
        case horizontal
    }

    /// Corner of an inset picture.
    public enum Corner: String, Sendable, Hashable, CaseIterable {
        case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"
    }

    /// Checks the numbers.
    public func validate() throws(InvalidValueError) {
        switch self {
        case .stacked(_, let split):
            try require(split.isFinite && (0.2...0.8).contains(split), "composite split",
                        "\(split) is outside 0.2...0.8 (50/50 is 0.5, 70/30 is 0.7)")
        case .pictureInPicture(_, let size):
            try require(size.isFinite && (0.1...0.5).contains(size), "picture-in-picture size",
                        "\(size) is outside 0.1...0.5 of the width")
        }
    }

    public var description: String {
        switch self {
        case .stacked(let d, let split):
            "stacked \(d.rawValue) \(Int((split * 100).rounded()))/\(100 - Int((split * 100).rounded()))"
        case .pictureInPicture(let corner, let size): "pip \(corner.rawValue) \(Int((size * 100).rounded()))%"
        }
    }

    /// The layout the command line's words describe: `kind` is `stacked` (with `stack`, `vertical` or
    /// `horizontal`, and `split`, e.g. `60/40`) or `pip` (with `corner`, e.g. `bottom-right`, and `size`, a
    /// fraction of the width); checked.
    public init(kind: String, stack: String, split: String, corner: String, size: Double) throws(InvalidValueError) {
        switch kind.lowercased() {
        case "stacked", "stack":
            guard let direction = StackDirection(rawValue: stack.lowercased()) else {
                throw InvalidValueError("composite stack", "\"\(stack)\" is not vertical or horizontal")
            }
            self = .stacked(direction: direction, split: try Self.parseSplit(split))
        case "pip", "picture-in-picture":
            guard let place = Corner(rawValue: corner.lowercased()) else {
                throw InvalidValueError("picture-in-picture corner",
                                        "\"\(corner)\" is not " + Corner.allCases.map(\.rawValue).joined(separator: ", "))
            }
            self = .pictureInPicture(corner: place, size: size)
        default:
            throw InvalidValueError("composite", "\"\(kind)\" is not stacked or pip")
        }
        try validate()
    }

    /// Parses a split: `50/50`, `60/40`, `70/30`, `60`, `0.6`.
    public static func parseSplit(_ text: String) throws(InvalidValueError) -> Double {
        let first = text.split(separator: "/").first.map(String.init) ?? text
        guard var value = Double(first.trimmingCharacters(in: .whitespaces)) else {
            throw InvalidValueError("composite split", "\"\(text)\" is not a split such as 50/50, 60/40, 70/30 or 0.6")
        }
        if value > 1 { value /= 100 }
        try require((0.2...0.8).contains(value), "composite split", "\"\(text)\" is outside 20/80...80/20")
        return value
    }
}

/// An RGB colour for borders, 0...1 per channel in the output space's encoding.
public struct BorderColor: Sendable, Hashable, CustomStringConvertible {
    public let red: Double, green: Double, blue: Double

    /// Creates a colour from 0...1 components.
    public init(red: Double, green: Double, blue: Double) throws(InvalidValueError) {
        try require([red, green, blue].allSatisfy { $0.isFinite && (0...1).contains($0) }, "border colour",
                    "components must be within 0...1")
        (self.red, self.green, self.blue) = (red, green, blue)
    }

    /// Parses `white`, `black`, `grey`, `#RRGGBB` or `#RGB`.
    public init(parsing text: String) throws(InvalidValueError) {
        let t = text.lowercased().trimmingCharacters(in: .whitespaces)
        switch t {
        case "white": try self.init(red: 1, green: 1, blue: 1)
        case "black": try self.init(red: 0, green: 0, blue: 0)
        case "grey", "gray": try self.init(red: 0.5, green: 0.5, blue: 0.5)
        default:
            var hex = t.hasPrefix("#") ? String(t.dropFirst()) : t
            if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
            guard hex.count == 6, let v = UInt32(hex, radix: 16) else {
                throw InvalidValueError("border colour", "\"\(text)\" is not white, black, grey or #RRGGBB")
            }
            try self.init(red: Double(v >> 16 & 0xFF) / 255, green: Double(v >> 8 & 0xFF) / 255, blue: Double(v & 0xFF) / 255)
        }
    }

    public var description: String {
        String(format: "#%02X%02X%02X", Int((red * 255).rounded()), Int((green * 255).rounded()), Int((blue * 255).rounded()))
    }

    /// White.
    public static let white = try! BorderColor(red: 1, green: 1, blue: 1)
}
