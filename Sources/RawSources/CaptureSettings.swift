import Foundation
import RawCore

/// The camera controls a capture asks for. Every setting may be left automatic.
///
/// Settings are checked against a source's capabilities by `validated(for:)`, which names the first setting
/// out of range; a source applies only validated settings.
public struct CaptureSettings: Sendable, Hashable, Codable {
    /// ISO speed, or nil for automatic (chosen by auto exposure).
    public var iso: Double?
    /// Exposure time in seconds, or nil for automatic.
    public var shutter: Double?
    /// f-number, or nil for the lens's widest aperture.
    public var aperture: Double?
    /// Focus distance, or nil for autofocus.
    public var focus: FocusDistance?
    /// Exposure compensation in EV for auto exposure, −3...+3 in 0.1 steps.
    public var exposureCompensation: Double
    /// How auto exposure measures the scene.
    public var metering: MeteringMode
    /// Where autofocus looks, in normalised image coordinates (0...1; default the centre): a square 8 % of
    /// the frame's width around it.
    public var focusPoint: NormalisedPoint
    /// When set, autofocus looks at this zone of the 3x3 grid (0...8, row by row) instead of `focusPoint`.
    public var focusZone: Int?
    /// White balance recorded as AsShotNeutral (the raw data is never changed by it).
    public var whiteBalance: WhiteBalanceSetting
    /// Lens name, or nil for the source's first lens.
    public var lens: String?
    /// Keep the exposure found for the first frame for all later frames.
    public var autoExposureLock: Bool
    /// Keep the focus found for the first frame for all later frames.
    public var autoFocusLock: Bool

    /// Creates settings; everything automatic by default.
    public init(iso: Double? = nil, shutter: Double? = nil, aperture: Double? = nil, focus: FocusDistance? = nil,
                exposureCompensation: Double = 0, metering: MeteringMode = .matrix,
                focusPoint: NormalisedPoint = .centre, whiteBalance: WhiteBalanceSetting = .auto, lens: String? = nil,
                autoExposureLock: Bool = false, autoFocusLock: Bool = false, focusZone: Int? = nil) {
        self.iso = iso
        self.shutter = shutter
        self.aperture = aperture
        self.focus = focus
        self.exposureCompensation = exposureCompensation
        self.metering = metering
        self.focusPoint = focusPoint
        self.focusZone = focusZone
        self.whiteBalance = whiteBalance
        self.lens = lens
        self.autoExposureLock = autoExposureLock
        self.autoFocusLock = autoFocusLock
    }

    /// The lens these settings select from `capabilities`, or the error naming the unknown lens.
    public func selectedLens(in capabilities: SourceCapabilities) throws(CaptureSettingsError) -> LensCapabilities {
        guard let name = lens else { return capabilities.lenses[0] }
        guard let found = capabilities.lenses.first(where: { $0.name == name }) else {
            throw CaptureSettingsError(setting: "lens", "'\(name)' is not a lens of \(capabilities.name) (it has: "
                                           + capabilities.lenses.map(\.name).joined(separator: ", ") + ")")
        }
        return found
    }

    /// The farthest focus distance a setting may name, in metres; farther is `inf`.
    public static let farthestFocusMetres = 1_000_000.0

    /// Checks every setting against `capabilities`; throws for the first one out of range.
    public func validated(for capabilities: SourceCapabilities) throws(CaptureSettingsError) -> CaptureSettings {
        let lens = try selectedLens(in: capabilities)
        let format = SettingText.number
        if let iso {
            guard iso.isFinite, capabilities.isoRange.contains(iso) else {
                throw CaptureSettingsError(setting: "ISO", "\(format(iso)) is outside \(format(capabilities.isoRange.lowerBound))"
                                               + "...\(format(capabilities.isoRange.upperBound)) for \(capabilities.name)")
            }
        }
        if let shutter {
            guard shutter.isFinite, capabilities.shutterRange.contains(shutter) else {
                throw CaptureSettingsError(setting: "shutter", "\(ShutterSpeed.describe(shutter)) is outside "
                                               + "\(ShutterSpeed.describe(capabilities.shutterRange.lowerBound))..."
                                               + "\(ShutterSpeed.describe(capabilities.shutterRange.upperBound))")
            }
        }
        if let aperture {
            guard aperture.isFinite, lens.apertureRange.contains(aperture) else {
                throw CaptureSettingsError(setting: "aperture", "f/\(format(aperture)) is outside f/"
                                               + "\(format(lens.apertureRange.lowerBound))...f/\(format(lens.apertureRange.upperBound))"
                                               + " for the \(lens.name) lens")
            }
        }
        if case .metres(let metres) = focus {
            // Beyond the farthest a lens is at infinity anyway; the depth-of-field arithmetic would overflow there.
            if metres > Self.farthestFocusMetres {
                throw CaptureSettingsError(setting: "focus", "\(format(metres)) m is farther than \(Int(Self.farthestFocusMetres)) m "
                                               + "(give inf to focus at infinity)")
            }
            if metres < lens.minimumFocusDistance {
                throw CaptureSettingsError(setting: "focus", "\(format(metres)) m is closer than the \(lens.name) lens's "
                                               + "minimum focus distance of \(format(lens.minimumFocusDistance)) m")
            }
        }
        guard exposureCompensation.isFinite, abs(exposureCompensation) <= 3 + 1e-9,
              abs(exposureCompensation * 10 - (exposureCompensation * 10).rounded()) < 1e-6 else {
            throw CaptureSettingsError(setting: "exposure compensation",
                                       "\(exposureCompensation) EV is not within −3...+3 EV in 0.1 EV steps")
        }
        try focusPoint.validate(setting: "focus point")
        if case .spot(let point) = metering { try point.validate(setting: "spot metering point") }
        if let zone = focusZone, !(0..<9).contains(zone) {
            throw CaptureSettingsError(setting: "focus zone", "\(zone) is not a zone of the 3x3 grid (0...8)")
        }
        if case .zone(let index) = metering, !(0..<9).contains(index) {
            throw CaptureSettingsError(setting: "metering zone", "\(index) is not a zone of the 3x3 grid (0...8)")
        }
        try whiteBalance.validate()
        return self
    }
}

extension NormalisedPoint {
    func validate(setting: String) throws(CaptureSettingsError) {
        guard x.isFinite, y.isFinite, (0...1).contains(x), (0...1).contains(y) else {
            throw CaptureSettingsError(setting: setting, "(\(x), \(y)) is outside the image (0...1, 0...1)")
        }
    }
}

/// A setting that cannot be applied, named, with the reason in one line.
public struct CaptureSettingsError: RawBurstError, Hashable {
    /// The setting ("ISO", "shutter", ...).
    public let setting: String
    /// Why it cannot be applied.
    public let reason: String
    /// Creates an error.
    public init(setting: String, _ reason: String) {
        self.setting = setting
        self.reason = reason
    }
    /// The reason (the description is "SETTING: REASON").
    public var message: String { reason }
    /// The setting.
    public var subject: String? { setting }
}

/// Shutter speeds as photographers write them.
public enum ShutterSpeed {
    /// "1/250 s", "1/3 s", "2 s", "30 s".
    public static func describe(_ seconds: Double) -> String {
        if seconds >= 1 || seconds <= 0 || !seconds.isFinite { return SettingText.number(seconds) + " s" }
        let denominator = 1 / seconds
        if abs(denominator - denominator.rounded()) < 1e-6 * denominator {
            return "1/\(SettingText.number(denominator.rounded())) s"
        }
        return String(seconds) + " s"
    }

    /// A shutter time for people, rounded as a camera shows it: "1/773 s" below one second, "2.5 s" above.
    public static func display(_ seconds: Double) -> String {
        if seconds <= 0 || !seconds.isFinite { return describe(seconds) }
        if seconds < 0.95 { return "1/\(SettingText.number((1 / seconds).rounded())) s" }
        return SettingText.number((seconds * 10).rounded() / 10) + " s"
    }

    /// Parses "1/250", "1/250s", "0.004", "2", "2s", "30 s".
    public static func parse(_ text: String) -> Double? {
        var t = text.replacingOccurrences(of: " ", with: "")
        if t.hasSuffix("s") { t.removeLast() }
        if let slash = t.firstIndex(of: "/") {
            guard let n = Double(t[..<slash]), let d = Double(t[t.index(after: slash)...]), d > 0 else { return nil }
            return n / d
        }
        return Double(t)
    }
}
