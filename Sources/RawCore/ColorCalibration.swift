/// How to turn a camera's raw colours into device-independent colour: the DNG colour tags.
///
/// `colorMatrix1` maps CIE XYZ to the camera's reference space under `illuminant1` (rows = camera colours,
/// 3 columns). An optional second calibration lets a reader interpolate by colour temperature.
/// Forward matrices map white-balanced camera colours to XYZ D50. A calibration may carry the name of the camera
/// profile it comes from (DNG `ProfileName`); ``standIn`` is the one calibration that is not the camera's
/// (docs/dng-tags.md).
public struct ColorCalibration: Sendable, Hashable {
    public let colorMatrix1: ColorMatrix
    public let illuminant1: LightSource
    public let colorMatrix2: ColorMatrix?
    public let illuminant2: LightSource?
    public let forwardMatrix1: ColorMatrix?
    public let forwardMatrix2: ColorMatrix?
    /// The white balance as shot, in camera colours (green ≈ 1), or nil.
    public let asShotNeutral: [Double]?
    /// How much to brighten (in EV) the default rendering (DNG `BaselineExposure`).
    public let baselineExposure: Double
    /// The name of the camera profile the matrices come from (DNG `ProfileName`), or nil (not written).
    public let profileName: String?

    /// The `ProfileName` that marks a file's matrices as a stand-in, not a calibration of its camera.
    public static let uncalibratedProfileName = "Uncalibrated: no camera profile"

    /// What a DNG writer puts in a colour DNG when the camera's colour response is unknown (DNG requires
    /// ColorMatrix1): XYZ → linear sRGB under D65, so camera RGB reads as linear sRGB, named
    /// ``uncalibratedProfileName`` so that readers can tell it is not a calibration. Its AsShotNeutral is (1, 1, 1):
    /// the camera's samples as they came, no white balance known (the stand-in's own white).
    public static let standIn: ColorCalibration = {
        do {
            let xyzToSRGB = try ColorMatrix([3.2404542, -1.5371385, -0.4985314],
                                            [-0.9692660, 1.8760108, 0.0415560],
                                            [0.0556434, -0.2040259, 1.0572252])
            return try ColorCalibration(colorMatrix1: xyzToSRGB, illuminant1: .d65, asShotNeutral: [1, 1, 1],
                                        profileName: uncalibratedProfileName)
        } catch {
            preconditionFailure("the sRGB matrix is a valid calibration: \(error)")
        }
    }()

    /// True when the matrices are a stand-in (``standIn``, or a file that carries its `ProfileName`), not a
    /// calibration of the camera.
    public var isStandIn: Bool { profileName == Self.uncalibratedProfileName }

    /// Creates a calibration, checking that the matrices agree with each other and with the camera colours.
    public init(colorMatrix1: ColorMatrix, illuminant1: LightSource, colorMatrix2: ColorMatrix? = nil,
                illuminant2: LightSource? = nil, forwardMatrix1: ColorMatrix? = nil, forwardMatrix2: ColorMatrix? = nil,
                asShotNeutral: [Double]? = nil, baselineExposure: Double = 0,
                profileName: String? = nil) throws(InvalidValueError) {
        let n = colorMatrix1.rows
        try require(colorMatrix1.columns == 3 && (3...4).contains(n), "ColorMatrix1",
                    "must be 3x3 or 4x3 (camera colours x XYZ), not \(n)x\(colorMatrix1.columns)")
        if let m = colorMatrix2 {
            try require(m.rows == n && m.columns == 3, "ColorMatrix2", "must be \(n)x3 like ColorMatrix1, not \(m.rows)x\(m.columns)")
            try require(illuminant2 != nil, "CalibrationIlluminant2", "is required with ColorMatrix2")
        } else {
            try require(illuminant2 == nil && forwardMatrix2 == nil, "ColorMatrix2",
                        "is required when a second illuminant or ForwardMatrix2 is given")
        }
        for (name, m) in [("ForwardMatrix1", forwardMatrix1), ("ForwardMatrix2", forwardMatrix2)] {
            if let m {
                try require(m.rows == 3 && m.columns == n, name, "must be 3x\(n) (XYZ x camera colours), not \(m.rows)x\(m.columns)")
            }
        }
        try require(forwardMatrix2 == nil || forwardMatrix1 != nil, "ForwardMatrix2", "needs ForwardMatrix1")
        if let neutral = asShotNeutral {
            try require(neutral.count == n, "AsShotNeutral", "has \(neutral.count) values for \(n) camera colours")
            try require(neutral.allSatisfy { $0.isFinite && $0 > 0 && $0 <= 16 }, "AsShotNeutral",
                        "values \(neutral) must be in (0, 16]")
        }
        try require(baselineExposure.isFinite && abs(baselineExposure) <= 16, "BaselineExposure",
                    "\(baselineExposure) EV is outside ±16")
        if let profileName {
            try require(!profileName.isEmpty && profileName.utf8.count <= 255 && profileName.oneLine == profileName,
                        "ProfileName", "must be one line of 1...255 bytes")
        }
        self.colorMatrix1 = colorMatrix1
        self.illuminant1 = illuminant1
        self.colorMatrix2 = colorMatrix2
        self.illuminant2 = illuminant2
        self.forwardMatrix1 = forwardMatrix1
        self.forwardMatrix2 = forwardMatrix2
        self.asShotNeutral = asShotNeutral
        self.baselineExposure = baselineExposure
        self.profileName = profileName
    }

    /// The same calibration with the as-shot white balance `neutral` (nil: none).
    public func withAsShotNeutral(_ neutral: [Double]?) throws(InvalidValueError) -> ColorCalibration {
        try ColorCalibration(colorMatrix1: colorMatrix1, illuminant1: illuminant1, colorMatrix2: colorMatrix2,
                             illuminant2: illuminant2, forwardMatrix1: forwardMatrix1, forwardMatrix2: forwardMatrix2,
                             asShotNeutral: neutral, baselineExposure: baselineExposure, profileName: profileName)
    }

    /// Number of camera colour channels (3 for RGB CFAs).
    public var cameraChannels: Int { colorMatrix1.rows }
}
