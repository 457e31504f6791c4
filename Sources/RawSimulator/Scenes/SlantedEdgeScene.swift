import Foundation
import RawCore
import RawSources

/// A slanted-edge target in the style of ISO 12233: a dark square, rotated by a few degrees, centred on a
/// light background, so that each of its four edges gives an edge spread function for MTF measurement.
///
/// The square is rotated clockwise on the image (x right, y down) by ``angleDegrees``: a point belongs to it
/// when `|x cos a + y sin a| <= s/2` and `|-x sin a + y cos a| <= s/2`, with `s` the ``side``.
public struct SlantedEdgeScene: Scene {
    public let name = "slanted-edge"
    public let illuminantKelvin: Double
    public let illuminance: Double
    public let subjectDistance: Double

    /// Reflectance of the square.
    public static let darkReflectance: Float = 0.05
    /// Reflectance of the background.
    public static let lightReflectance: Float = 0.8

    /// Rotation of the square in degrees.
    public let angleDegrees: Double
    /// Side of the square in reference-plane units (the frame is 2 wide, 1.5 high).
    public let side: Double

    private let cosine: Double
    private let sine: Double
    private let half: Double
    private let dark: ScenePoint
    private let light: ScenePoint

    /// Creates the scene.
    /// - Parameters:
    ///   - angleDegrees: rotation of the square (default 5°).
    ///   - side: side of the square in reference-plane units (default 0.7; at least 0.01).
    ///   - illuminantKelvin: colour temperature of the light (default 5600 K; clamped to 2000...12000).
    ///   - illuminance: light on the chart in lux (default 1000).
    ///   - distance: distance of the chart in metres (default 2; at least 0.01).
    public init(angleDegrees: Double = 5, side: Double = 0.7, illuminantKelvin: Double = 5600,
                illuminance: Double = 1000, distance: Double = 2) {
        self.angleDegrees = angleDegrees.isFinite ? angleDegrees : 5
        self.side = max(side, 0.01)
        self.illuminantKelvin = min(max(illuminantKelvin, 2000), 12000)
        self.illuminance = max(illuminance, 0)
        self.subjectDistance = max(distance, 0.01)
        let radians = self.angleDegrees * Double.pi / 180
        cosine = cos(radians)
        sine = sin(radians)
        half = self.side / 2
        let depth = Float(subjectDistance)
        dark = ScenePoint(grey: Self.darkReflectance, depth: depth)
        light = ScenePoint(grey: Self.lightReflectance, depth: depth)
    }

    public func sample(x: Double, y: Double) -> ScenePoint {
        let u = x * cosine + y * sine
        let v = y * cosine - x * sine
        return abs(u) <= half && abs(v) <= half ? dark : light
    }
}
