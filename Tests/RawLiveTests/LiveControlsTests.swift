import Foundation
import RawCore
import RawLive
import RawSources
import Testing

/// The viewfinder's controls: what each command does to the settings and locks, refusals with the command line's
/// reasons, the hand-over to the sensor thread, and the settings kept between runs.
@Suite struct LiveControlsTests {
    static let capabilities = SourceCapabilities(
        name: "test", width: 64, height: 48, bitsPerSample: 12, cfaPattern: "RGGB", maximumFrameRate: 30,
        isoRange: 50...6400, shutterRange: 1.0 / 8000...30,
        lenses: [LensCapabilities(name: "wide", focalLength: 4, apertureRange: 1.8...1.8, minimumFocusDistance: 0.1,
                                  horizontalFieldOfView: 70)])
    static let presets = [LivePreset(name: "sunny", applied: { settings in
        var s = settings
        (s.iso, s.exposureCompensation, s.whiteBalance) = (50, -0.3, .preset(.daylight))
        return s
    })]

    static func applied(iso: Double = 320, shutter: Double = 1.0 / 120, focus: FocusDistance = .metres(1.5)) -> AppliedSettings {
        AppliedSettings(iso: iso, shutter: shutter, aperture: 1.8, focus: focus, exposureCompensation: 0, lens: "wide",
                        focalLength: 4, whiteBalance: .auto, asShotNeutral: [0.5, 1, 0.6],
                        automatic: [.iso, .shutter, .focus, .whiteBalance], meteredEV100: 8)
    }

    func controls(_ initial: CaptureSettings = CaptureSettings(), fixedBecause: String? = nil, store: LiveSettingsStore? = nil) -> LiveControls {
        LiveControls(initial: initial, capabilities: Self.capabilities, fixedBecause: fixedBecause, presets: Self.presets, store: store)
    }

    @Test func aSettingReachesTheSensorThreadOnceAndOutOfRangeIsRefusedWithTheCommandLinesReason() {
        let c = controls()
        #expect(c.pendingSettings() == nil)
        #expect(c.handle(.setISO(400)) == .done("ISO 400"))
        #expect(c.pendingSettings()?.iso == 400)
        #expect(c.pendingSettings() == nil)  // taken once
        guard case .refused(let setting, let reason) = c.handle(.setISO(12800)) else { Issue.record("12800 accepted"); return }
        #expect(setting == "ISO")
        #expect(reason == "12800 is outside 50...6400 for test")
        #expect(c.pendingSettings() == nil)
        #expect(c.status.settings.iso == 400)
        #expect(c.status.lastRefusal == "ISO: 12800 is outside 50...6400 for test")
        guard case .refused(let focusSetting, _) = c.handle(.setFocus(.metres(0.05))) else { Issue.record("0.05 m accepted"); return }
        #expect(focusSetting == "focus")
        #expect(c.status.mode == "manual")
    }

    @Test func theSourcesRefusalRestoresWhatItAcceptedLast() {
        let c = controls(CaptureSettings(iso: 100))
        _ = c.handle(.setISO(800))
        let asked = c.pendingSettings()!
        c.settingsApplied(asked, refusal: CaptureSettingsError(setting: "ISO", "the camera says no"))
        #expect(c.status.settings.iso == 100)
        #expect(c.status.lastRefusal == "ISO: the camera says no")
    }

    @Test func autoExposureLockKeepsTheNewestFramesExposureAndUnlocksToAutomatic() {
        let c = controls()
        guard case .refused(let setting, _) = c.handle(.autoExposureLock(true)) else { Issue.record("locked without a frame"); return }
        #expect(setting == "AE lock")
        c.observe(Self.applied(iso: 320, shutter: 1.0 / 120))
        #expect(c.handle(.autoExposureLock(true)) == .done("exposure locked at ISO 320, 1/120 s"))
        var s = c.pendingSettings()!
        #expect(s.iso == 320 && s.shutter == 1.0 / 120)
        #expect(c.status.autoExposureLock)
        _ = c.handle(.autoExposureLock(false))
        s = c.pendingSettings()!
        #expect(s.iso == nil && s.shutter == nil)
        #expect(!c.status.autoExposureLock)
        // Both set by hand: nothing to lock.
        _ = c.handle(.setISO(200)); _ = c.handle(.setShutter(0.01))
        guard case .refused = c.handle(.autoExposureLock(true)) else { Issue.record("locked a manual exposure"); return }
    }

    @Test func aTapFocusesAndMetersThereAndReleasesTheLocks() {
        let c = controls()
        c.observe(Self.applied(focus: .metres(2)))
        _ = c.handle(.autoFocusLock(true))
        _ = c.handle(.autoExposureLock(true))
        #expect(c.pendingSettings()?.focus == .metres(2))
        #expect(c.handle(.tap(NormalisedPoint(x: 0.25, y: 0.75))) == .done("focus and metering at 0.25,0.75"))
        let s = c.pendingSettings()!
        #expect(s.focusPoint == NormalisedPoint(x: 0.25, y: 0.75))
        #expect(s.metering == .spot(NormalisedPoint(x: 0.25, y: 0.75)))
        #expect(s.focus == nil && s.iso == nil && s.shutter == nil)
        #expect(!c.status.autoFocusLock && !c.status.autoExposureLock)
        guard case .refused(let setting, _) = c.handle(.tap(NormalisedPoint(x: 1.5, y: 0.5))) else { Issue.record("tap outside"); return }
        #expect(setting == "focus point")
        #expect(c.handle(.meteringZone(4)) == .done("metering zone 4"))
        #expect(c.pendingSettings()?.metering == .zone(4))
        guard case .refused = c.handle(.meteringZone(9)) else { Issue.record("zone 9 accepted"); return }
    }

    @Test func autoResetsEverythingButTheLensAndPresetsSetTheirValues() {
        let c = controls(CaptureSettings(iso: 800, shutter: 0.01, focus: .infinity, exposureCompensation: 1, whiteBalance: .preset(.tungsten),
                                         lens: "wide"))
        #expect(c.status.mode == "manual")
        _ = c.handle(.auto)
        let s = c.pendingSettings()!
        #expect(s == CaptureSettings(lens: "wide"))
        #expect(c.status.mode == "auto")
        _ = c.handle(.preset("sunny"))
        let p = c.pendingSettings()!
        #expect(p.iso == 50 && p.exposureCompensation == -0.3 && p.whiteBalance == .preset(.daylight))
        guard case .refused(let setting, let reason) = c.handle(.preset("moonlight")) else { Issue.record("unknown preset"); return }
        #expect(setting == "preset" && reason.contains("sunny"))
    }

    @Test func aSourceThatCannotChangeRefusesSettingsButNotTheBurstsControls() {
        let c = controls(fixedBecause: "the bracketing plan sets the settings")
        guard case .refused(let setting, let reason) = c.handle(.setISO(400)) else { Issue.record("a plan's ISO changed"); return }
        #expect(setting == "settings")
        #expect(reason == "cannot change while the burst runs: the bracketing plan sets the settings")
        #expect(c.pendingSettings() == nil)
        // Between bursts: Record waits for the next one; pause has nothing to pause.
        #expect(c.handle(.trigger) == .done("recording starts with the next burst"))
        guard case .refused(let burst, _) = c.handle(.pause) else { Issue.record("paused nothing"); return }
        #expect(burst == "burst")
        #expect(c.handle(.quit) == .done("quitting"))
        #expect(c.quitRequested)
    }

    @Test func settingsAreKeptBetweenRunsAndABrokenFileIsNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-store-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try #require(LiveSettingsStore.standard(environment: ["XDG_CONFIG_HOME": folder, "HOME": "/nonexistent"]))
        #expect(store.path == folder + "/rawburst/live.json")
        #expect(try store.load() == nil)
        let c = controls(store: store)
        _ = c.handle(.setISO(640))
        _ = c.handle(.setWhiteBalance(.kelvin(4300, tint: 5)))
        c.flushSaves()
        let saved = try #require(try store.load())
        #expect(saved.settings.iso == 640)
        #expect(saved.settings.whiteBalance == .kelvin(4300, tint: 5))
        #expect(saved.mode == "manual")
        _ = c.handle(.auto)
        c.flushSaves()
        #expect(try store.load()?.mode == "auto")
        try "{not json".write(toFile: store.path, atomically: true, encoding: .utf8)
        #expect(throws: FileError.self) { try store.load() }
        #expect(LiveSettingsStore.standard(environment: ["HOME": "/home/x"])?.path == "/home/x/.config/rawburst/live.json")
        #expect(LiveSettingsStore.standard(environment: ["XDG_CONFIG_HOME": "relative"]) == nil)
    }
}
