import RawCore
import RawSources

/// What a settings command makes of the current settings and locks: a pure function of them (so it is tested
/// without a burst); the result is checked against the source's ranges by `LiveControls`.
struct LiveSettingsChange: Hashable {
    var settings: CaptureSettings
    var autoExposureLock: Bool
    var autoFocusLock: Bool
    /// What was done, in a few words, for the page.
    var summary: String

    /// The change `command` makes; throws when it cannot be made (a lock without a frame, an unknown preset).
    static func make(_ command: LiveCommand, settings current: CaptureSettings, newest: AppliedSettings?,
                     locks: (exposure: Bool, focus: Bool), presets: [LivePreset]) throws(CaptureSettingsError) -> LiveSettingsChange {
        var s = current
        var (ae, af) = locks
        let summary: String
        switch command {
        case .setISO(let iso):
            s.iso = iso
            ae = false
            summary = iso.map { "ISO \(SettingText.number($0))" } ?? "ISO automatic"
        case .setShutter(let shutter):
            s.shutter = shutter
            ae = false
            summary = shutter.map { "shutter \(ShutterSpeed.describe($0))" } ?? "shutter automatic"
        case .setAperture(let aperture):
            s.aperture = aperture
            summary = aperture.map { "f/\(SettingText.number($0))" } ?? "widest aperture"
        case .setFocus(let focus):
            s.focus = focus
            af = false
            summary = focus.map { "focus \($0)" } ?? "autofocus"
        case .setWhiteBalance(let wb):
            s.whiteBalance = wb
            summary = "white balance \(wb)"
        case .setExposureCompensation(let ev):
            s.exposureCompensation = (ev * 10).rounded() / 10
            summary = "exposure compensation \(SettingText.number(s.exposureCompensation)) EV"
        case .setMetering(let mode):
            s.metering = mode
            summary = "metering \(mode)"
        case .auto:
            s = CaptureSettings(aperture: current.aperture, lens: current.lens)
            (ae, af) = (false, false)
            summary = "everything automatic"
        case .autoExposureLock(let on):
            if on {
                guard let newest else { throw CaptureSettingsError(setting: "AE lock", "no frame has been metered yet") }
                guard current.iso == nil || current.shutter == nil else {
                    throw CaptureSettingsError(setting: "AE lock", "the exposure is manual (ISO and shutter are both set)")
                }
                (s.iso, s.shutter) = (newest.iso, newest.shutter)
                summary = "exposure locked at ISO \(SettingText.number(newest.iso)), \(ShutterSpeed.describe(newest.shutter))"
            } else {
                if ae { (s.iso, s.shutter) = (nil, nil) }
                summary = "exposure automatic"
            }
            ae = on
        case .autoFocusLock(let on):
            if on {
                guard let newest else { throw CaptureSettingsError(setting: "AF lock", "no frame has been focused yet") }
                s.focus = newest.focus
                summary = "focus locked at \(newest.focus)"
            } else {
                if af { s.focus = nil }
                summary = "autofocus"
            }
            af = on
        case .tap(let point):
            s.focusPoint = point
            s.focusZone = nil
            s.metering = .spot(point)
            s.focus = nil
            af = false
            if ae { (s.iso, s.shutter, ae) = (nil, nil, false) }
            summary = "focus and metering at \(SettingText.number(point.x)),\(SettingText.number(point.y))"
        case .meteringZone(let zone):
            s.metering = .zone(zone)
            summary = "metering zone \(zone)"
        case .preset(let name):
            guard let preset = presets.first(where: { $0.name == name }) else {
                throw CaptureSettingsError(setting: "preset", "'\(name)' is not a preset (there are: "
                                               + presets.map(\.name).joined(separator: ", ") + ")")
            }
            s = preset.applied(s)
            summary = "preset \(name)"
        case .trigger, .pause, .resume, .stop, .quit:
            throw CaptureSettingsError(setting: "command", "\(command) changes no setting")
        }
        return LiveSettingsChange(settings: s, autoExposureLock: ae, autoFocusLock: af, summary: summary)
    }
}
