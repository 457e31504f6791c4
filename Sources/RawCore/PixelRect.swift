/// A rectangle of pixels: `top`/`left` inclusive, `height`/`width` in pixels.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    public let top: Int
    public let left: Int
    public let height: Int
    public let width: Int

    /// Creates a rectangle with non-negative origin and positive size.
    public init(top: Int, left: Int, height: Int, width: Int) throws(InvalidValueError) {
        try require(top >= 0 && left >= 0, "rectangle", "origin (\(top), \(left)) is negative")
        try require(height > 0 && width > 0, "rectangle", "size \(width)x\(height) is empty")
        self.top = top
        self.left = left
        self.height = height
        self.width = width
    }

    /// The rectangle covering a whole `width` x `height` image.
    public static func whole(width: Int, height: Int) throws(InvalidValueError) -> PixelRect {
        try PixelRect(top: 0, left: 0, height: height, width: width)
    }

    public var bottom: Int { top + height }
    public var right: Int { left + width }

    /// True when `other` lies entirely inside this rectangle.
    public func contains(_ other: PixelRect) -> Bool {
        other.top >= top && other.left >= left && other.bottom <= bottom && other.right <= right
    }

    public var description: String { "\(width)x\(height)+\(left)+\(top)" }
}
