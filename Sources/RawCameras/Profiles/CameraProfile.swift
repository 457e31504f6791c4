import Foundation
import RawCore

/// A real camera as a profile describes it: measured colour matrices as DNG defines them, levels, a Gain → ISO
/// table, and names — no spectral data and nothing of the simulator's (docs/sensor-profiles.md, "Camera profiles").
///
/// Read from JSON with ``init(json:)``, or made from values (a simulated sensor profile's derived calibration, for
/// instance). Every field but the calibration is optional: a camera profile may be just `colorMatrix1` and
/// `illuminant1`.
public struct CameraProfile: Sendable, Hashable {
    /// The profile's name: the DNG's `ProfileName`, and a raw stream's file prefix (nil: neither).
    public var name: String?
    /// DNG Make and Model, in place of what the camera reports (nil: the camera's own).
    public var make: String?
    public var model: String?
    /// The colour matrices and illuminants (DNG ColorMatrix1/2, CalibrationIlluminant1/2, ForwardMatrix1/2,
    /// BaselineExposure), named ``name`` when the profile has one.
    public var calibration: ColorCalibration
    /// Black and white level (DN), in ``levelBits``-bit terms, or nil (the source's own).
    public var blackLevel: Double?
    public var whiteLevel: Double?
    /// The bit depth the levels are given in (nil: the frames' own depth, whatever it is).
    public var levelBits: Int?
    /// Gain → ISO (nil: the source's own rule).
    public var gainTable: GainTable?

    /// A profile of values; levels are checked (against ``levelBits`` when given).
    public init(name: String? = nil, make: String? = nil, model: String? = nil, calibration: ColorCalibration,
                blackLevel: Double? = nil, whiteLevel: Double? = nil, levelBits: Int? = nil,
                gainTable: GainTable? = nil) throws(InvalidValueError) {
        if let levelBits {
            try require((8...16).contains(levelBits), "bitsPerSample", "\(levelBits) is outside 8...16")
        }
        let top = Double((1 << (levelBits ?? 16)) - 1)
        if let blackLevel {
            try require(blackLevel.isFinite && blackLevel >= 0 && blackLevel < top, "blackLevel",
                        "\(SettingText.number(blackLevel)) is outside 0...\(SettingText.number(top - 1))")
        }
        if let whiteLevel {
            try require(whiteLevel.isFinite && whiteLevel >= 1 && whiteLevel <= top && whiteLevel == whiteLevel.rounded(),
                        "whiteLevel", "\(SettingText.number(whiteLevel)) must be a whole number within 1...\(SettingText.number(top))"
                            + (levelBits.map { " (\($0)-bit levels)" } ?? ""))
            try require(whiteLevel > (blackLevel ?? 0), "whiteLevel",
                        "\(SettingText.number(whiteLevel)) is not above the blackLevel \(SettingText.number(blackLevel ?? 0))")
        }
        self.name = name
        self.make = make
        self.model = model
        self.calibration = calibration
        self.blackLevel = blackLevel
        self.whiteLevel = whiteLevel
        self.levelBits = levelBits
        self.gainTable = gainTable
    }

    /// The black and white level for frames of `bitsPerSample` bits: the profile's, scaled by 2^(bits − levelBits)
    /// when the profile gives its depth (the white level rounded down: 4095 at 12 bits is 1023 at 10); nil where the
    /// profile gives none. Throws (naming the field) when a level does not fit such frames.
    public func levels(bitsPerSample bits: Int) throws(InvalidValueError) -> (black: Double?, white: UInt32?) {
        let scale = levelBits.map { pow(2, Double(bits - $0)) } ?? 1
        let top = Double((1 << bits) - 1)
        let black = blackLevel.map { $0 * scale }
        var white: UInt32?
        if let whiteLevel {
            let scaled = (whiteLevel * scale).rounded(.down)
            try require(scaled <= top, "whiteLevel", "\(SettingText.number(whiteLevel)) is above \(SettingText.number(top)), "
                        + "the largest \(bits)-bit sample (give bitsPerSample when the levels are in other terms)")
            white = UInt32(scaled)
        }
        if let black {
            let ceiling = white.map(Double.init) ?? top
            try require(black < ceiling, "blackLevel", "\(SettingText.number(blackLevel ?? 0)) is not below the white level "
                        + "\(SettingText.number(ceiling)) of \(bits)-bit samples")
        }
        return (black, white)
    }
}
