import RawCore
import RawSources

/// A lighting preset as the page offers it: ISO (or automatic), exposure bias, white balance and metering set together.
/// The command line turns its presets (RawSimulator's `LightingPreset`, built in or from `--presets`) into these.
public struct LivePreset: Sendable, Hashable {
    public var name: String
    public var iso: Double?
    public var exposureCompensation: Double
    public var whiteBalance: WhiteBalanceSetting
    public var metering: MeteringMode

    /// A preset.
    public init(name: String, iso: Double?, exposureCompensation: Double, whiteBalance: WhiteBalanceSetting,
                metering: MeteringMode) {
        self.name = name
        self.iso = iso
        self.exposureCompensation = exposureCompensation
        self.whiteBalance = whiteBalance
        self.metering = metering
    }

    /// `settings` with the preset's values (an automatic ISO in the preset leaves the ISO as it was).
    public func applied(to settings: CaptureSettings) -> CaptureSettings {
        var s = settings
        if let iso { s.iso = iso }
        s.exposureCompensation = exposureCompensation
        s.whiteBalance = whiteBalance
        s.metering = metering
        return s
    }
}
