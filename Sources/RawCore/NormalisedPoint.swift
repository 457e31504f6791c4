/// A point of the image in normalised coordinates: (0, 0) top-left, (1, 1) bottom-right.
public struct NormalisedPoint: Sendable, Hashable, Codable {
    /// Horizontal position, 0...1.
    public var x: Double
    /// Vertical position, 0...1.
    public var y: Double
    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    /// The centre of the image.
    public static let centre = NormalisedPoint(x: 0.5, y: 0.5)
}
