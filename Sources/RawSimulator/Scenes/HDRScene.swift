import Foundation
import RawCore
import RawSources

/// A high-dynamic-range daylight landscape: a bright sky with the sun in it, mid-tone fields, and a dark
/// shelter whose deep shadow is about 19 EV below the sun disc and 9 EV below the sky.
///
/// Reference-plane layout (x across -1...1, y down -0.75...0.75):
/// - sky above the horizon (the horizon undulates between y = -0.31 and -0.19, so the top third of the frame,
///   y < ``skyBottom``, is always sky): reflectance-equivalent 8 (horizon) to 16 (top), slightly blue, 1000 m
///   away; a sun disc of 200 centred at ``sunCentre`` with radius ``sunRadius``;
/// - fields below the horizon: mid tones (0.1–0.4) in bands, 50 m away at the horizon to 5 m at the bottom;
/// - a shelter on the right: a dark roof (0.04) on two posts over ``shadowRect``, a deep shadow of 0.01–0.03,
///   8 m away.
public struct HDRScene: Scene {
    public let name = "hdr"
    public let illuminantKelvin: Double
    public let illuminance: Double
    public let subjectDistance: Double

    /// Below this y (the top third of the reference frame) there is only sky.
    public static let skyBottom = -0.25
    /// Centre of the sun disc.
    public static let sunCentre = (x: -0.55, y: -0.55)
    /// Radius of the sun disc.
    public static let sunRadius = 0.035
    /// Reflectance-equivalent of the sun disc.
    public static let sunLevel: Float = 200
    /// The shadow under the shelter's roof (x0, y0, x1, y1 in reference-plane coordinates).
    public static let shadowRect = (x0: 0.3, y0: 0.0, x1: 0.85, y1: 0.5)
    /// The shelter's roof.
    public static let roofRect = (x0: 0.22, y0: -0.1, x1: 0.93, y1: 0.0)
    /// Distance of the sky and sun in metres.
    public static let skyDistance: Float = 1000
    /// Distance of the shelter in metres.
    public static let shelterDistance: Float = 8

    private let sun: ScenePoint
    private let sunCentre: (x: Double, y: Double)
    private let sunRadiusSquared: Double
    private let shadow: (x0: Double, y0: Double, x1: Double, y1: Double)
    private let roof: (x0: Double, y0: Double, x1: Double, y1: Double)

    /// Creates the scene.
    /// - Parameters:
    ///   - illuminantKelvin: colour temperature of the light (default 5500 K, daylight; clamped to 2000...12000).
    ///   - illuminance: light on the ground in lux (default 20000, a bright overcast-to-sunny day).
    ///   - subjectDistance: where the camera focuses by default (default 20 m, the middle of the fields).
    public init(illuminantKelvin: Double = 5500, illuminance: Double = 20000, subjectDistance: Double = 20) {
        self.illuminantKelvin = min(max(illuminantKelvin, 2000), 12000)
        self.illuminance = max(illuminance, 0)
        self.subjectDistance = max(subjectDistance, 0.01)
        sun = ScenePoint(grey: Self.sunLevel, depth: Self.skyDistance)
        sunCentre = Self.sunCentre
        sunRadiusSquared = Self.sunRadius * Self.sunRadius
        shadow = Self.shadowRect
        roof = Self.roofRect
    }

    /// The y of the horizon at `x` (between -0.31 and -0.19).
    public static func horizon(atX x: Double) -> Double {
        -0.25 + 0.04 * sin(3 * x + 0.5) + 0.02 * sin(7.3 * x + 1.1)
    }

    public func sample(x: Double, y: Double) -> ScenePoint {
        let horizon = Self.horizon(atX: x)
        if y < horizon {
            let dx = x - sunCentre.x, dy = y - sunCentre.y
            if dx * dx + dy * dy <= sunRadiusSquared { return sun }
            // t = 0 at the horizon, 1 at the top of the frame and above.
            let t = Float(min(max((horizon - y) / (horizon + 0.75), 0), 1))
            return ScenePoint(red: 8 + 4 * t, green: 9 + 5 * t, blue: 11 + 5 * t, depth: Self.skyDistance)
        }
        // The shelter: roof, two posts, shadow beneath.
        if x >= roof.x0, x < roof.x1, y >= roof.y0, y < shadow.y1 {
            if y < roof.y1 { return ScenePoint(grey: 0.04, depth: Self.shelterDistance) }
            if x < shadow.x0 || x >= shadow.x1 { return ScenePoint(red: 0.05, green: 0.04, blue: 0.035, depth: Self.shelterDistance) }
            // Darkest (0.01) at the back under the roof, 0.03 towards the open bottom edge.
            let t = Float((y - shadow.y0) / (shadow.y1 - shadow.y0))
            return ScenePoint(red: 0.01 + 0.02 * t, green: 0.01 + 0.02 * t, blue: 0.011 + 0.019 * t,
                              depth: Self.shelterDistance)
        }
        // Fields: depth from 50 m at the horizon to 5 m at the bottom of the frame (and nearer below it).
        let below = min(max(y - horizon, 0) / (0.75 - horizon), 1.5) // nearest ground 1.6 m, far below the frame
        let depth = Float(50 * pow(0.1, below))
        // Bands that run towards the camera, with a little ripple.
        let band = Int(((x * (1.5 - 0.8 * below)) * 4 + 0.3 * sin(9 * y)).rounded(.down)) & 3
        switch band {
        case 0: return ScenePoint(red: 0.16, green: 0.22, blue: 0.08, depth: depth)  // grass
        case 1: return ScenePoint(red: 0.32, green: 0.27, blue: 0.16, depth: depth)  // stubble
        case 2: return ScenePoint(red: 0.12, green: 0.17, blue: 0.1, depth: depth)   // pasture
        default: return ScenePoint(red: 0.4, green: 0.38, blue: 0.34, depth: depth)  // track
        }
    }
}
