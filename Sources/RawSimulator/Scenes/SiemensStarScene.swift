import Foundation
import RawCore
import RawSources

/// A Siemens star for resolution and focus checks: alternating black and white wedges around the centre of
/// the frame, on a grey surround.
///
/// With the default 36 cycles there are 72 wedges of 5° each (36 white, 36 black), so a circle around the
/// centre crosses 72 black/white edges. Wedge `k` (counting from the +x axis towards +y, i.e. clockwise on
/// the image) covers angles `k * 5°` to `(k + 1) * 5°` and is white when `k` is even.
public struct SiemensStarScene: Scene {
    public let name = "siemens-star"
    public let illuminantKelvin: Double
    public let illuminance: Double
    public let subjectDistance: Double

    /// Reflectance of the white wedges.
    public static let whiteReflectance: Float = 0.9
    /// Reflectance of the black wedges.
    public static let blackReflectance: Float = 0.03
    /// Reflectance of the surround.
    public static let surroundReflectance: Float = 0.18

    /// Number of black/white cycles around the star (twice as many wedges).
    public let cycles: Int
    /// Radius of the star in reference-plane units (the frame is 2 wide, 1.5 high).
    public let radius: Double

    private let wedgesPerRadian: Double
    private let wedgeCount: Int
    private let radiusSquared: Double
    private let white: ScenePoint
    private let black: ScenePoint
    private let surround: ScenePoint

    /// Creates the scene.
    /// - Parameters:
    ///   - cycles: black/white cycles around the star (default 36; at least 2).
    ///   - radius: star radius in reference-plane units (default 0.6; at least 0.01).
    ///   - illuminantKelvin: colour temperature of the light (default 5600 K; clamped to 2000...12000).
    ///   - illuminance: light on the chart in lux (default 1000).
    ///   - distance: distance of the chart in metres (default 2; at least 0.01).
    public init(cycles: Int = 36, radius: Double = 0.6, illuminantKelvin: Double = 5600,
                illuminance: Double = 1000, distance: Double = 2) {
        self.cycles = max(cycles, 2)
        self.radius = max(radius, 0.01)
        self.illuminantKelvin = min(max(illuminantKelvin, 2000), 12000)
        self.illuminance = max(illuminance, 0)
        self.subjectDistance = max(distance, 0.01)
        wedgeCount = 2 * self.cycles
        wedgesPerRadian = Double(wedgeCount) / (2 * Double.pi)
        radiusSquared = self.radius * self.radius
        let depth = Float(subjectDistance)
        white = ScenePoint(grey: Self.whiteReflectance, depth: depth)
        black = ScenePoint(grey: Self.blackReflectance, depth: depth)
        surround = ScenePoint(grey: Self.surroundReflectance, depth: depth)
    }

    public func sample(x: Double, y: Double) -> ScenePoint {
        guard x * x + y * y <= radiusSquared else { return surround }
        var angle = atan2(y, x)
        if angle < 0 { angle += 2 * Double.pi }
        let wedge = Int(angle * wedgesPerRadian) % wedgeCount
        return wedge & 1 == 0 ? white : black
    }
}
