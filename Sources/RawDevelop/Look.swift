import Foundation
import RawCore

/// A rendering style applied after colour conversion: saturation, contrast, black point, monochrome and
/// split toning. Every look is a handful of numbers, so a custom one is a value like the built-in ones.
///
/// - Saturation and monochrome act on linear light of the output space, keeping each pixel's luminance.
/// - Contrast is an S-curve on the encoded values that pivots on mid grey (18 % linear), so mid grey,
///   black and white stay where they are.
/// - Black cut deepens the blacks (linear values below it become 0); lift raises black to a grey.
/// - Toning adds colour to a monochrome image: a tint in the shadows and another in the highlights.
public struct Look: Sendable, Hashable, CustomStringConvertible {
    /// Name as `--look` spells it.
    public let name: String
    /// 1 keeps colours, 0 is monochrome, above 1 is more saturated.
    public let saturation: Double
    /// Contrast exponent of the S-curve (1 leaves the tone curve alone).
    public let contrast: Double
    /// Exposure change in EV that comes with the look.
    public let exposure: Double
    /// Linear level that becomes black (0...0.2).
    public let blackCut: Double
    /// Encoded level black is lifted to (0...0.2).
    public let lift: Double
    /// Encoded RGB offsets added in the shadows and in the highlights (each component within ±0.1).
    public let shadowTint: [Double]
    public let highlightTint: [Double]

    /// Creates a look, checking every range.
    public init(name: String, saturation: Double = 1, contrast: Double = 1, exposure: Double = 0, blackCut: Double = 0,
                lift: Double = 0, shadowTint: [Double] = [0, 0, 0], highlightTint: [Double] = [0, 0, 0]) throws(InvalidValueError) {
        try require(saturation.isFinite && (0...3).contains(saturation), "look \(name)", "saturation \(saturation) is outside 0...3")
        try require(contrast.isFinite && (0.3...3).contains(contrast), "look \(name)", "contrast \(contrast) is outside 0.3...3")
        try require(exposure.isFinite && abs(exposure) <= 3, "look \(name)", "exposure \(exposure) EV is outside ±3")
        try require(blackCut.isFinite && (0...0.2).contains(blackCut), "look \(name)", "black cut \(blackCut) is outside 0...0.2")
        try require(lift.isFinite && (0...0.2).contains(lift), "look \(name)", "lift \(lift) is outside 0...0.2")
        for tint in [shadowTint, highlightTint] {
            try require(tint.count == 3 && tint.allSatisfy { $0.isFinite && abs($0) <= 0.1 }, "look \(name)",
                        "tint \(tint) must be three offsets within ±0.1")
        }
        self.name = name
        self.saturation = saturation
        self.contrast = contrast
        self.exposure = exposure
        self.blackCut = blackCut
        self.lift = lift
        self.shadowTint = shadowTint
        self.highlightTint = highlightTint
    }

    /// True for a black-and-white look.
    public var isMonochrome: Bool { saturation == 0 }

    public var description: String { name }

    /// No look: colours as the camera model and tone curve give them.
    public static let natural = try! Look(name: "natural")
    /// More saturation and contrast.
    public static let vivid = try! Look(name: "vivid", saturation: 1.35, contrast: 1.25)
    /// Strong contrast with muted colours and a little less exposure.
    public static let dramatic = try! Look(name: "dramatic", saturation: 0.75, contrast: 1.6, exposure: -0.15, blackCut: 0.003)
    /// Black and white from the output space's luminance.
    public static let mono = try! Look(name: "mono", saturation: 0, contrast: 1.1)
    /// Soft black and white with lifted blacks, cool shadows and warm highlights, like a toned silver print.
    public static let silvertone = try! Look(name: "silvertone", saturation: 0, contrast: 1.05, lift: 0.035,
                                             shadowTint: [-0.012, 0, 0.02], highlightTint: [0.025, 0.008, -0.02])
    /// Hard black and white: deep blacks, high contrast.
    public static let noir = try! Look(name: "noir", saturation: 0, contrast: 1.9, exposure: -0.1, blackCut: 0.01)

    /// The built-in looks.
    public static let builtIn: [Look] = [.natural, .vivid, .dramatic, .mono, .silvertone, .noir]

    /// The built-in look called `name` (`none` is `natural`).
    public init(parsing name: String) throws(InvalidValueError) {
        let n = name.lowercased()
        guard let look = Look.builtIn.first(where: { $0.name == n }) ?? (n == "none" ? .natural : nil) else {
            throw InvalidValueError("look", "\"\(name)\" is not one of " + Look.builtIn.map(\.name).joined(separator: ", "))
        }
        self = look
    }
}
