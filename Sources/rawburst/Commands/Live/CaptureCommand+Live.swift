import ArgumentParser
import Foundation
import RawBurst

extension CaptureCommand {
    /// `capture --live` (one burst under the viewfinder) and `rawburst live` (`takes`: recordings one after another,
    /// each into OUT/take-NNN after the last one there, each waiting for the page's Record; one only with a camera or a
    /// stream). The viewfinder starts from the saved settings unless `--ignore-saved-settings`; options given on the
    /// command line win over them.
    func runWithViewfinder(at endpoint: LiveEndpoint, takes: Bool) throws {
        let name = takes ? "live" : "capture"
        let store = LiveSettingsStore.standard()
        let (setup, resolved, settings) = try resolveStartingFromSaved(store: store, command: name)
        if let note = setup.cameraNote { Terminal.error("rawburst \(name): \(note)") }
        let first = takes ? firstFreeTake() : 1
        let viewfinder = try LiveViewfinder(
            endpoint: endpoint, token: liveOptions.effectiveToken(at: endpoint), setup: setup, settings: settings,
            fixedBecause: settingsFixed(setup: setup, plan: resolved.configuration.plan != nil), presets: try pagePresets(),
            store: store, folder: takes ? takeFolder(first) : output, previewSize: liveOptions.previewSize,
            sideBySide: compositeOptions.stack == "horizontal",
            mirrored: framingOptions.mirroredSensors(setup.source.sensorNames))
        defer { viewfinder.close() }
        Terminal.error("live viewfinder: \(viewfinder.address.url)"
                       + (takes ? " — press Record on the page to record into \(output)/take-NNN/" : ""))
        guard takes else {
            try prepareOutput(setup: setup, configuration: resolved.configuration)
            let chartFiles = try writeCharts(setup: setup)
            let burst = planTime(resolved, setup: setup)
            try runBurst(setup: setup, burst: burst, settings: settings, chartFiles: chartFiles,
                         live: LiveTake(viewfinder: viewfinder, number: 1, folder: output))
            return
        }
        var worst: ExitCode?
        // A camera or a stream is finished with at the end of a burst (acquisition stopped, the pipe read): one recording.
        let oneRecording = setup.source.pacedBySource
        for number in first...max(first, 999) {
            if viewfinder.controls.quitRequested { break }
            var command = self
            command.outputOption = takeFolder(number)
            var configuration = resolved.configuration
            configuration.outputDirectory = command.output
            configuration.waitForTrigger = true
            let take = LiveTake(viewfinder: viewfinder, number: number, folder: command.output)
            do {
                try command.prepareOutput(setup: setup, configuration: configuration)
                let chartFiles = number == 1 ? try command.writeCharts(setup: setup) : []
                let burst = command.planTime(ResolvedBurst(configuration: configuration, options: resolved.options), setup: setup)
                // The settings the page has set so far are those this recording starts with.
                try command.runBurst(setup: setup, burst: burst, settings: viewfinder.controls.status.settings,
                                     chartFiles: chartFiles, live: take)
            } catch let code as ExitCode {
                if worst.map({ code.rawValue > $0.rawValue }) ?? true { worst = code }
            }
            if !take.allowsAnother || oneRecording { break }
        }
        if let saveProblem = viewfinder.controls.saveProblem {
            Terminal.error("rawburst \(name): warning: the viewfinder's settings were not saved: \(saveProblem)")
        }
        if let worst { throw worst }
    }

    /// Why the page may not change the settings while a burst runs, nil when it may.
    private func settingsFixed(setup: CaptureSetup, plan: Bool) -> String? {
        if setup.replayedFiles != nil { return "replayed files keep the settings they were taken with" }
        if setup.stream != nil { return "a raw stream's settings are its sender's" }
        if plan { return "the bracketing plan sets the settings (--bracket)" }
        if cameraOptions.camera != nil, let trigger = cameraOptions.trigger, trigger != .software {
            return "with --trigger \(trigger) the camera exposes frames before a new setting could reach them; "
                + "use --trigger software to change settings from the page"
        }
        return nil
    }

    /// The first take number with no folder in OUT yet (so that a second `live -o OUT` adds to the first's takes).
    func firstFreeTake() -> Int {
        (1...999).first { !FileManager.default.fileExists(atPath: takeFolder($0)) } ?? 1000
    }

    /// `OUT/take-NNN`.
    func takeFolder(_ number: Int) -> String {
        (output as NSString).appendingPathComponent(String(format: "take-%03d", number))
    }

    /// The source and settings over the saved settings; saved settings that do not fit this source (another sensor's
    /// lens, a range it does not have) are said and left out.
    private func resolveStartingFromSaved(store: LiveSettingsStore?, command: String) throws
        -> (CaptureSetup, ResolvedBurst, CaptureSettings) {
        guard !liveOptions.ignoreSavedSettings, let store else { return try resolve() }
        let saved: CaptureSettings?
        do { saved = try store.load()?.settings } catch {
            Terminal.error("rawburst \(command): warning: \(error); starting from automatic")
            return try resolve()
        }
        guard let saved else { return try resolve() }
        do {
            return try resolve(base: saved)
        } catch {
            let reason = BadValue.unwrap(error).map { $0.value.message } ?? "\(error)"
            Terminal.error("rawburst \(command): warning: the saved settings in \(store.path) do not fit (\(reason)); "
                           + "starting from automatic")
            return try resolve()
        }
    }

    /// The lighting presets the page offers: the built-in ones and --presets's.
    private func pagePresets() throws -> [LivePreset] {
        var all = LightingPresetCatalog.builtIn
        if let presets {
            do { all += try LightingPresetCatalog.load(userFile: presets) } catch { throw BadValue("--presets: \(error)") }
        }
        return all.map { preset in LivePreset(name: preset.name, applied: { preset.applied(to: $0) }) }
    }
}
