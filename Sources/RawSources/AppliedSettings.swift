import RawCore

/// A camera control left automatic and resolved by the source; its name is the one reports print.
public enum AutomaticControl: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Autofocus chose the focus distance.
    case focus
    /// Auto exposure chose the ISO speed.
    case iso
    /// Auto exposure chose the exposure time.
    case shutter
    /// Automatic white balance chose the neutral.
    case whiteBalance = "white balance"

    /// `focus`, `iso`, `shutter`, `white balance`.
    public var description: String { rawValue }
}

/// The settings a frame was actually taken with, automatic ones resolved.
public struct AppliedSettings: Sendable, Hashable, Codable {
    /// ISO speed.
    public var iso: Double
    /// Exposure time in seconds.
    public var shutter: Double
    /// f-number.
    public var aperture: Double
    /// Focus distance.
    public var focus: FocusDistance
    /// Exposure compensation asked for (EV).
    public var exposureCompensation: Double
    /// Lens name.
    public var lens: String
    /// Focal length in millimetres.
    public var focalLength: Double
    /// White balance as asked for.
    public var whiteBalance: WhiteBalanceSetting
    /// The camera neutral recorded as AsShotNeutral.
    public var asShotNeutral: [Double]
    /// Which controls were automatic, in the order the source resolved them (written as `automatic`).
    public var automaticControls: [AutomaticControl]
    /// How the frame was metered (when auto exposure ran; otherwise the mode that was set).
    public var metering: MeteringMode
    /// The metered brightness of the scene in EV at ISO 100 (EV100), when auto exposure ran.
    public var meteredEV100: Double?

    /// The names of the automatic controls ("focus", "iso", "shutter", "white balance"), for reports.
    public var automatic: [String] { automaticControls.map(\.rawValue) }

    private enum CodingKeys: String, CodingKey {
        case iso, shutter, aperture, focus, exposureCompensation, lens, focalLength, whiteBalance, asShotNeutral
        case automaticControls = "automatic"
        case metering, meteredEV100
    }

    /// Creates a record.
    public init(iso: Double, shutter: Double, aperture: Double, focus: FocusDistance, exposureCompensation: Double,
                lens: String, focalLength: Double, whiteBalance: WhiteBalanceSetting, asShotNeutral: [Double],
                automatic: [AutomaticControl], metering: MeteringMode = .matrix, meteredEV100: Double?) {
        self.iso = iso
        self.shutter = shutter
        self.aperture = aperture
        self.focus = focus
        self.exposureCompensation = exposureCompensation
        self.lens = lens
        self.focalLength = focalLength
        self.whiteBalance = whiteBalance
        self.asShotNeutral = asShotNeutral
        self.automaticControls = automatic
        self.metering = metering
        self.meteredEV100 = meteredEV100
    }
}
