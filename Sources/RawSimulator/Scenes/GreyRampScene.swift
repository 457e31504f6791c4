import RawCore
import RawSources
/// A tone-reproduction target: a step wedge of ``steps`` equal-width patches from reflectance 0 to 1
/// (linear), and below it a smooth linear ramp from 0 to 1, both across the central 80 % of the frame, on a
/// mid-grey (0.18) surround.
///
/// Reference-plane coordinates (x across -1...1, y down -0.75...0.75): the wedge fills
/// x ∈ ``rampLeft``...``rampRight`` × y ∈ ``wedgeTop``...``wedgeBottom``, step `k` (0-based, from the left)
/// having reflectance `k / (steps - 1)`; the smooth ramp fills the same x range × y ∈
/// ``rampTop``...``rampBottom`` with reflectance `(x - rampLeft) / (rampRight - rampLeft)`.
public struct GreyRampScene: Scene {
    public let name = "grey-ramp"
    public let illuminantKelvin: Double
    public let illuminance: Double
    public let subjectDistance: Double

    /// Reflectance around the wedge and ramp.
    public static let surroundReflectance: Float = 0.18
    /// Left end of the wedge and ramp.
    public static let rampLeft = -0.8
    /// Right end of the wedge and ramp.
    public static let rampRight = 0.8
    /// Top of the step wedge.
    public static let wedgeTop = -0.45
    /// Bottom of the step wedge.
    public static let wedgeBottom = 0.05
    /// Top of the smooth ramp.
    public static let rampTop = 0.15
    /// Bottom of the smooth ramp.
    public static let rampBottom = 0.45

    /// Number of steps in the wedge.
    public let steps: Int

    private let left: Double
    private let wedgeRows: (top: Double, bottom: Double)
    private let rampRows: (top: Double, bottom: Double)
    private let width: Double
    private let levels: [Float]
    private let depth: Float
    private let surround: ScenePoint

    /// Creates the scene.
    /// - Parameters:
    ///   - steps: number of steps in the wedge (default 32; at least 2).
    ///   - illuminantKelvin: colour temperature of the light (default 5600 K; clamped to 2000...12000).
    ///   - illuminance: light on the chart in lux (default 1000).
    ///   - distance: distance of the chart in metres (default 2; at least 0.01).
    public init(steps: Int = 32, illuminantKelvin: Double = 5600, illuminance: Double = 1000, distance: Double = 2) {
        self.steps = max(steps, 2)
        self.illuminantKelvin = min(max(illuminantKelvin, 2000), 12000)
        self.illuminance = max(illuminance, 0)
        self.subjectDistance = max(distance, 0.01)
        left = Self.rampLeft
        wedgeRows = (Self.wedgeTop, Self.wedgeBottom)
        rampRows = (Self.rampTop, Self.rampBottom)
        width = Self.rampRight - Self.rampLeft
        let count = max(steps, 2)
        levels = (0..<count).map { Float(Double($0) / Double(count - 1)) }
        depth = Float(subjectDistance)
        surround = ScenePoint(grey: Self.surroundReflectance, depth: depth)
    }

    /// The reflectance of every step, from the left (0 first, 1 last).
    public var stepLevels: [Float] { levels }

    public func sample(x: Double, y: Double) -> ScenePoint {
        let t = (x - left) / width
        guard t >= 0, t < 1 else { return surround }
        if y >= wedgeRows.top, y < wedgeRows.bottom {
            let step = min(Int(t * Double(steps)), steps - 1)
            return ScenePoint(grey: levels[step], depth: depth)
        }
        if y >= rampRows.top, y < rampRows.bottom {
            return ScenePoint(grey: Float(t), depth: depth)
        }
        return surround
    }
}
