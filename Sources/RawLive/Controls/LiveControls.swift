import RawCapture
import RawCore
import RawSources
import Dispatch
import Synchronization

/// The viewfinder's controls: the settings the page asks for, the AE and AF locks, and the running burst's trigger,
/// pause and stop. It is the page's `LiveCommandHandler` and the burst's `BurstSettingsFeed`: a change is checked
/// against the source's ranges at once (refused with the reason, as the command line refuses it), then picked up by
/// the sensor thread before the next trigger, so it applies from the next frame; what the source refuses there is
/// reported back and the previous settings stay. Every accepted change is saved (`LiveSettingsStore`).
///
/// Who owns what: everything that changes sits in `state`, shared by the server's tasks (commands), the sensor
/// thread (`pendingSettings`, `settingsApplied`), the preview thread (`observe`) and the command line (`attach`).
public final class LiveControls: BurstSettingsFeed, LiveCommandHandler, Sendable {
    private struct State {
        /// What the page asked for last (checked against the ranges), and what the source accepted last.
        var requested: CaptureSettings
        var accepted: CaptureSettings
        /// Asked for and not yet picked up by the sensor thread.
        var pending: CaptureSettings?
        var autoExposureLock = false
        var autoFocusLock = false
        var lastRefusal: String?
        /// The newest frame's settings (what AE and AF lock keep).
        var newest: AppliedSettings?
        /// The burst the trigger, pause and stop go to (nil between recordings).
        var session: BurstSession?
        var quit = false
        /// Record was pressed while no burst was running (between recordings): the next one starts recording at once.
        var pendingTrigger = false
        /// Settings waiting to be saved (the save runs on `saveQueue`, the newest wins).
        var unsaved: CaptureSettings?
        /// Why the last save failed, once (nil when saving works).
        var saveProblem: String?
    }

    private let state: Mutex<State>
    /// The first sensor's ranges (two sensors share settings; the source checks both).
    let capabilities: SourceCapabilities
    /// Why the settings cannot change while the burst runs (a replay, a stream, a bracketing plan, a free-running
    /// camera), nil when they can.
    public let fixedBecause: String?
    /// Whether the settings can change while the burst runs.
    public var adjustable: Bool { fixedBecause == nil }
    let presets: [LivePreset]
    let store: LiveSettingsStore?

    /// Controls starting from `initial` (the settings the source was configured with); `fixedBecause` says why the page
    /// may not change them, nil when it may.
    public init(initial: CaptureSettings, capabilities: SourceCapabilities, fixedBecause: String?, presets: [LivePreset],
                store: LiveSettingsStore?) {
        state = Mutex(State(requested: initial, accepted: initial))
        self.capabilities = capabilities
        self.fixedBecause = fixedBecause
        self.presets = presets
        self.store = store
    }

    /// `auto` when ISO, shutter, focus and white balance are all automatic, else `manual`.
    public static func mode(of settings: CaptureSettings) -> String {
        settings.iso == nil && settings.shutter == nil && settings.focus == nil && settings.whiteBalance == .auto ? "auto" : "manual"
    }

    // MARK: - The command line's side

    /// The burst the page's trigger, pause and stop go to, or nil between recordings. A quit asked for between
    /// recordings stops the next one at once; a Record pressed between them triggers it at once.
    public func attach(_ session: BurstSession?) {
        let (quit, trigger) = state.withLock { s in
            s.session = session
            defer { if session != nil { s.pendingTrigger = false } }
            return (s.quit, s.pendingTrigger)
        }
        guard let session else { return }
        if quit { session.stop(reason: "quit on the page") } else if trigger { session.trigger() }
    }

    /// Whether the page asked to quit.
    public var quitRequested: Bool { state.withLock { $0.quit } }

    /// Why saving the settings failed, if it did (said once by the caller).
    public var saveProblem: String? { state.withLock { $0.saveProblem } }

    /// Notes the newest frame's settings (the AE and AF locks keep them).
    public func observe(_ settings: AppliedSettings) { state.withLock { $0.newest = settings } }

    /// The controls' part of the page's status.
    public var status: LiveStatus.Controls {
        state.withLock { s in
            LiveStatus.Controls(settings: s.requested, mode: Self.mode(of: s.requested), autoExposureLock: s.autoExposureLock,
                                autoFocusLock: s.autoFocusLock, presets: presets.map(\.name), lastRefusal: s.lastRefusal)
        }
    }

    // MARK: - The sensor thread's side (BurstSettingsFeed)

    /// Settings asked for since the last call.
    public func pendingSettings() -> CaptureSettings? {
        state.withLock { s in
            defer { s.pending = nil }
            return s.pending
        }
    }

    /// Applied from the next frame, or refused by the source (the page is told; the previous settings stay).
    public func settingsApplied(_ settings: CaptureSettings, refusal: CaptureSettingsError?) {
        state.withLock { s in
            if let refusal {
                s.lastRefusal = "\(refusal)"
                if s.requested == settings && s.pending == nil { s.requested = s.accepted }
            } else {
                s.accepted = settings
            }
        }
    }

    // MARK: - The page's side (LiveCommandHandler)

    /// Carries out a page's command.
    public func handle(_ command: LiveCommand) -> LiveReply {
        switch command {
        case .trigger, .pause, .resume, .stop, .quit:
            return control(command)
        default:
            if let fixedBecause {
                return refuse(CaptureSettingsError(setting: "settings", "cannot change while the burst runs: \(fixedBecause)"))
            }
            let current = state.withLock { ($0.requested, $0.newest, $0.autoExposureLock, $0.autoFocusLock) }
            let change: LiveSettingsChange
            do throws(CaptureSettingsError) {
                change = try LiveSettingsChange.make(command, settings: current.0, newest: current.1,
                                                     locks: (current.2, current.3), presets: presets)
                _ = try change.settings.validated(for: capabilities)
            } catch {
                return refuse(error)
            }
            state.withLock { s in
                s.requested = change.settings
                s.pending = change.settings
                s.autoExposureLock = change.autoExposureLock
                s.autoFocusLock = change.autoFocusLock
                s.lastRefusal = nil
            }
            save(change.settings)
            return .done(change.summary)
        }
    }

    private func refuse(_ error: CaptureSettingsError) -> LiveReply {
        state.withLock { $0.lastRefusal = "\(error)" }
        return .refused(setting: error.setting, reason: error.reason)
    }

    private func control(_ command: LiveCommand) -> LiveReply {
        // Stop and quit let the burst go at once: a Record pressed while it is still being written waits for the next.
        let session = state.withLock { s -> BurstSession? in
            let session = s.session
            switch command {
            case .quit: (s.quit, s.session) = (true, nil)
            case .stop: s.session = nil
            case .trigger where session == nil: s.pendingTrigger = true
            default: break
            }
            return session
        }
        switch (command, session) {
        case (.trigger, nil): return .done("recording starts with the next burst")
        case (.quit, nil): return .done("quitting")
        case (_, nil): return .refused(setting: "burst", reason: "no burst is running")
        case (.trigger, let session?): session.trigger(); return .done("triggered")
        case (.pause, let session?): session.pause(); return .done("paused")
        case (.resume, let session?): session.resume(); return .done("resumed")
        case (.stop, let session?): session.stop(reason: "stopped on the page"); return .done("stopping")
        case (_, let session?): session.stop(reason: "quit on the page"); return .done("quitting")
        }
    }

    /// Saves on a queue of its own (the server's thread never waits for the disk); saves asked for while one is
    /// pending are coalesced into the newest.
    private func save(_ settings: CaptureSettings) {
        guard let store else { return }
        let first = state.withLock { s in
            defer { s.unsaved = settings }
            return s.unsaved == nil
        }
        guard first else { return }
        Self.saveQueue.async { [self] in
            guard let newest = state.withLock({ s in defer { s.unsaved = nil }; return s.unsaved }) else { return }
            do { try store.save(newest) } catch {
                state.withLock { $0.saveProblem = "\(error)" }
            }
        }
    }

    /// Waits for the saves asked for so far (at the end of a run, so the file is complete before the process exits).
    public func flushSaves() { Self.saveQueue.sync {} }

    private static let saveQueue = DispatchQueue(label: "rawburst.live.settings")
}
