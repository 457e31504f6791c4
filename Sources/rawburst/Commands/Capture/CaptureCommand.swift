import ArgumentParser
import Foundation
import RawBurst

/// `rawburst capture`: frames from the simulated sensor, written as DNGs with full metadata.
struct CaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Take frames with the simulated sensor (or replayed raw files) and write them as DNG.",
        discussion: """
        Every setting is optional: without --iso/--shutter auto exposure meters the scene, without --focus \
        contrast-detect autofocus focuses on --focus-point (or --focus-zone), without --wb the white balance is \
        estimated from the frame. Settings out of the sensor's range are refused before anything is captured.

        Scenes: colorchart, siemens-star, slanted-edge, grey-ramp, depth, hdr, or image:PATH (PNG, JPEG, TIFF). \
        Sensors: see `rawburst sensors`, or bring your own with --profile FILE.

        Lighting presets set ISO, exposure bias, white balance and metering together: cloudy, sunny, floodlight, \
        manual, or your own from --presets FILE (docs/lighting-presets.md). Options given explicitly override the \
        preset.

        --replay PATH replays raw files (a folder: its files) as the sensor instead, at --fps, looping.

        Files: OUT/<sensor>-<sequence>.dng (replay-<sequence>.dng for --replay); with the colorchart scene also \
        OUT/<sensor>-colorchart.json, the chart's reference values and each patch's rectangle in this camera's \
        frame, for measuring. Nothing is replaced without --overwrite.

        The burst engine: a frame pool within --memory-budget, --writers threads, an --overflow policy for when \
        every buffer is taken, and a governor that under pressure (queue filling, --simulate-thermal) first drops \
        previews, then compresses less, then halves the rate, before any frame is dropped. Every frame is written \
        or counted as dropped, and OUT/manifest.json says which. Two sensors are triggered together, each writing \
        its own files with the same sequence numbers.

        While it runs: Enter or SIGUSR1 triggers a --pre-record burst, p or SIGUSR2 pauses and resumes, q, \
        SIGINT or SIGTERM stops it cleanly (a second Ctrl-C kills it; `rawburst recover OUT` then rebuilds the \
        manifest from the journal).

        Exit status: 0 all frames written (or stopped on request), 1 a frame failed to write, 2 bad settings or \
        files in the way (nothing is captured then), 3 frames dropped or the burst stopped early by its policy, \
        the thermal state or the disk, 64 a malformed command line. Details: docs/capture.md.
        """
    )

    @Option(name: .customLong("sensor"),
            help: "Sensor profile (rawburst sensors lists them; default phone-wide). Give two for two sensors triggered together.")
    var sensors: [String] = []

    @Option(name: .customLong("profile"),
            help: "A sensor profile JSON file (the form of profiles/*.json), instead of or beside --sensor.")
    var profileFiles: [String] = []

    @Option(help: ArgumentHelp("Replay raw files (any LibRaw reads; a folder means its files) as the sensor, instead of "
                               + "simulating one; repeatable. Settings must match the files (automatic is fine).",
                               valueName: "path"))
    var replay: [String] = []

    @Option(help: "Lens of the profile (default: its first).")
    var lens: String?

    @Option(help: "Scene: colorchart, siemens-star, slanted-edge, grey-ramp, depth, hdr or image:PATH.")
    var scene = "colorchart"

    @Option(help: "ISO speed (default: automatic).")
    var iso: Double?

    @Option(help: "Exposure time, e.g. 1/100, 0.5, 2s (default: automatic).")
    var shutter: String?

    @Option(help: "f-number (default: the lens's widest).")
    var aperture: Double?

    @Option(help: "Focus distance: 1.5m, 0.8, inf (default: autofocus).")
    var focus: String?

    @Option(help: "Autofocus point as x,y in 0...1 (default: 0.5,0.5).")
    var focusPoint: String?

    @Option(help: "Autofocus on zone N (0...8, row by row) of the 3x3 grid instead of a point.")
    var focusZone: Int?

    @Option(name: .customLong("ev"), parsing: .unconditional,
            help: "Exposure compensation in EV, −3...+3 in 0.1 steps (default 0; --ev -0.7 works).")
    var exposureCompensation: Double?

    @Option(help: "Metering: matrix, centre-weighted, spot:X,Y or zone:N (0...8) (default matrix).")
    var metering: String?

    @Option(name: .customLong("wb"),
            help: "White balance: auto, daylight, cloudy, shade, tungsten, fluorescent, flash, or 5600K[+tint] (default auto).")
    var whiteBalance: String?

    @Option(help: "Lighting preset: cloudy, sunny, floodlight, manual, or one from --presets.")
    var preset: String?

    @Option(help: "A JSON file of your own lighting presets (docs/lighting-presets.md).")
    var presets: String?

    @Option(help: "Frame rate of a real-time capture (frames spaced by 1/fps; default: as fast as frames are made).")
    var fps: Double?

    @Option(help: "Time between frames for a timelapse, start to start: 2s, 500ms, 1m (instead of --fps).")
    var interval: String?

    @Option(help: "Capture for this long: 10s, 1m, 500ms (frames = duration × rate; needs --fps or --interval).")
    var duration: String?

    @Option(help: "Noise seed: the same seed gives byte-identical frames.")
    var seed: UInt64 = 0

    @Option(name: .customLong("frames"), help: "Number of frames (default 1, or every frame of the --bracket plan).")
    var framesOption: Int?

    @Option(help: ArgumentHelp("Bracketing plan: axes ev:, iso:, shutter:, focus: (0.3m..inf/7), wb: joined by ' x ', "
                               + "repeat:N; e.g. 'ev:-2,0,+2' or 'focus:0.3m..inf/7 x wb:3200K,5600K'.", valueName: "plan"))
    var bracket: String?

    @Option(help: "A JSON file {\"plan\": \"...\"} holding a bracketing plan in the same language (docs/capture.md).")
    var bracketFile: String?

    @Option(name: [.short, .customLong("output")],
            help: "Output directory, created if missing (default: burst-YYYYmmdd-HHMMSS in the current directory).")
    var outputOption: String?

    @Option(help: "Memory the burst may use, sensor and frame buffers included: 1GiB, 2GiB, 800MB ... (default 1GiB).")
    var memoryBudget = "1GiB"

    @Option(help: "When every frame buffer is taken: block (the sensor waits), drop-newest, drop-oldest or stop.")
    var overflow = "block"

    @Option(help: "Writer threads (default: the number of cores).")
    var writers: Int?

    @Option(help: ArgumentHelp("Inject storage faults, comma-separated: a rate (80MB/s), stall:2s@3s, stalls:300ms/10%, "
                               + "fail@N (disk full from write N), error@N (an I/O error at write N).", valueName: "faults"))
    var simulateDisk: String?

    @Option(help: ArgumentHelp("Simulate the device's thermal state over time, e.g. fair@2s,serious@5s,critical@20s "
                               + "(fair drops previews, serious halves the rate, critical stops the burst).", valueName: "schedule"))
    var simulateThermal: String?

    @Option(help: ArgumentHelp("Keep the last N seconds of frames until a trigger (SIGUSR1, Enter, or --trigger-after); "
                               + "needs --fps. Frames after the trigger follow as usual.", valueName: "time"))
    var preRecord: String?

    @Option(help: ArgumentHelp("Trigger a --pre-record burst by itself after this long (e.g. 3s).", valueName: "time"))
    var triggerAfter: String?

    @Option(name: .customLong("preview"),
            help: ArgumentHelp("Embed a preview of this long edge in each DNG (64...4096 px); the governor drops it first under pressure.",
                               valueName: "pixels"))
    var previewSize: Int?

    @Flag(help: "Turn off the pressure governor (no degradation: the overflow policy alone decides).")
    var noGovernor = false

    @Option(name: .customLong("name"),
            help: "File name template: %s sensor, %q sequence number, %n counter, %b bracket, %Y%m%d %H%M%S %L time; %4q pads (default %s-%4q).")
    var nameTemplate = Self.defaultNameTemplate
    static let defaultNameTemplate = "%s-%4q"

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Position for every frame: LAT,LON[,ALT] in degrees and metres, e.g. 48.8584,2.2945,35 "
                               + "(EXIF GPS in each DNG and in its sidecar).", valueName: "lat,lon[,alt]"))
    var gps: String?

    @Flag(help: "Write a JSON sidecar beside each DNG with the settings it was taken with.")
    var sidecar = false

    @Flag(help: ArgumentHelp("Analyse every written frame and add it to the manifest.", discussion: """
        Each frame's raw histograms (64 bins per colour), exposure statistics, sharpness (frame and 3x3 zones), \
        clipped cells and metering, computed on the writer that wrote it, from its slot. The governor skips \
        analysis (and counts the skips) once it has to degrade the burst, so analysing never costs frames.
        """))
    var analyze = false

    @OptionGroup(title: "DNG storage")
    var storageOptions: CaptureStorageOptions

    @OptionGroup(title: "Developed pictures and composites")
    var developOptions: CaptureDevelopOptions

    @Flag(help: "Replace existing DNGs (and developed pictures).")
    var overwrite = false

    @Flag(help: "Print a JSON report on standard output.")
    var json = false

    /// Checks the counts and rates (as settings: exit status 2).
    func checkCounts() throws {
        let frames = try frameCount()
        guard (1...100_000).contains(frames) else { throw ValidationError("--frames must be within 1...100000, not \(frames)") }
        if let fps, !(fps > 0 && fps <= 1000) {
            throw ValidationError("--fps must be within 0...1000 frames per second, not \(fps)")
        }
        _ = try frameRate()
        _ = try burstOptions()
    }

    /// The bracketing plan of --bracket or --bracket-file, if any.
    func bracketPlan() throws -> BracketPlan? {
        if bracket != nil && bracketFile != nil { throw ValidationError("give --bracket or --bracket-file, not both") }
        if let bracket {
            do { return try BracketPlan(parsing: bracket) } catch { throw ValidationError("--bracket: \(error)") }
        }
        guard let bracketFile else { return nil }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: bracketFile)) } catch {
            throw ValidationError("\(bracketFile): " + (FileManager.default.fileExists(atPath: bracketFile) ? "cannot be read" : "does not exist"))
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let text = object["plan"] as? String,
              Set(object.keys).isSubset(of: ["plan", "comment"]) else {
            throw ValidationError("\(bracketFile): expected a JSON object {\"plan\": \"ev:-2,0,+2\"} (and an optional \"comment\")")
        }
        do { return try BracketPlan(parsing: text) } catch { throw ValidationError("\(bracketFile): \(error)") }
    }

    /// --frames, or --duration × rate, or the plan's frame count, or 1.
    func frameCount() throws -> Int {
        if let duration {
            guard framesOption == nil else { throw ValidationError("give --frames or --duration, not both") }
            guard let seconds = BurstOptionError.seconds(duration), seconds > 0 else {
                throw ValidationError("--duration: '\(duration)' is not a duration (e.g. 10s, 1m, 500ms)")
            }
            guard let rate = try frameRate() else { throw ValidationError("--duration needs --fps or --interval") }
            return max(1, Int((seconds * rate - 1e-9).rounded(.up)))
        }
        if let framesOption { return framesOption }
        return try bracketPlan()?.frameCount ?? 1
    }

    /// Frames per second from --fps or --interval, nil for as fast as frames are made.
    func frameRate() throws -> Double? {
        guard let interval else { return fps }
        guard fps == nil else { throw ValidationError("give --fps or --interval, not both") }
        guard let seconds = BurstOptionError.seconds(interval), seconds >= 0.001, seconds <= 86_400 else {
            throw ValidationError("--interval: '\(interval)' is not a time between 1ms and 24h (e.g. 2s, 500ms, 1m)")
        }
        return 1 / seconds
    }

    /// The output directory: `-o`, or `burst-YYYYmmdd-HHMMSS` (the time this process started).
    var output: String { outputOption ?? Self.defaultOutput }

    /// `burst-YYYYmmdd-HHMMSS` of the local time when first asked.
    static let defaultOutput: String = {
        let c = CaptureTime.now().localComponents
        return String(format: "burst-%04d%02d%02d-%02d%02d%02d", c.year, c.month, c.day, c.hour, c.minute, c.second)
    }()

    /// The lighting preset asked for, if any (user presets from --presets first read).
    func lightingPreset() throws -> LightingPreset? {
        let user = try presets.map { path throws(LightingPresetError) in try LightingPresetCatalog.load(userFile: path) } ?? []
        guard let preset else {
            if presets != nil { throw ValidationError("--presets needs --preset NAME to choose one of its presets") }
            return nil
        }
        return try LightingPresetCatalog.preset(named: preset, userPresets: user)
    }

    /// The settings the options describe (over the preset's, when there is one); throws with the option named.
    func captureSettings(preset: LightingPreset?) throws -> CaptureSettings {
        var s = preset?.applied(to: CaptureSettings()) ?? CaptureSettings()
        if let iso { s.iso = iso }
        s.aperture = aperture
        s.lens = lens
        if let exposureCompensation { s.exposureCompensation = exposureCompensation }
        if let shutter {
            guard let seconds = ShutterSpeed.parse(shutter), seconds > 0 else {
                throw ValidationError("--shutter: '\(shutter)' is not an exposure time (e.g. 1/100, 0.5, 2s)")
            }
            s.shutter = seconds
        }
        if let focus {
            guard let distance = FocusDistance(parsing: focus) else {
                throw ValidationError("--focus: '\(focus)' is not a distance (e.g. 1.5m, 0.8, inf)")
            }
            s.focus = distance
        }
        if let focusPoint { s.focusPoint = try Self.point(focusPoint, option: "--focus-point") }
        s.focusZone = focusZone
        if let metering {
            switch metering.lowercased() {
            case "matrix": s.metering = .matrix
            case "centre-weighted", "center-weighted": s.metering = .centreWeighted
            case let m where m.hasPrefix("spot:"):
                s.metering = .spot(try Self.point(String(m.dropFirst(5)), option: "--metering spot"))
            case let m where m.hasPrefix("zone:"):
                guard let zone = Int(m.dropFirst(5)) else { throw ValidationError("--metering: '\(metering)' has no zone number") }
                s.metering = .zone(zone)
            default: throw ValidationError("--metering: '\(metering)' is not matrix, centre-weighted, spot:X,Y or zone:N")
            }
        }
        if let whiteBalance {
            guard let wb = WhiteBalanceSetting.parse(whiteBalance) else {
                throw ValidationError("--wb: '\(whiteBalance)' is not auto, a preset (daylight, cloudy, shade, tungsten, "
                                      + "fluorescent, flash) or a temperature like 5600K+10")
            }
            s.whiteBalance = wb
        }
        return s
    }

    /// A profile from a JSON file, validated; errors are one line.
    static func loadProfile(_ path: String) throws -> SensorProfile {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw ValidationError(FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist")
        }
        let profile: SensorProfile
        do { profile = try JSONDecoder().decode(SensorProfile.self, from: data) } catch let DecodingError.keyNotFound(key, _) {
            throw ValidationError("not a sensor profile: field '\(key.stringValue)' is missing")
        } catch let DecodingError.typeMismatch(_, context) {
            throw ValidationError("not a sensor profile: field '\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type")
        } catch {
            throw ValidationError("not a sensor profile (not valid JSON of the form of profiles/*.json)")
        }
        try profile.validate()
        return profile
    }

    /// ISO, shutter, aperture, focus and white balance of `s` in one line, with what was automatic.
    static func settingsSummary(_ s: AppliedSettings) -> String {
        let focusText = s.focus == .infinity ? "infinity" : String(format: "%.2f m", s.focus.metresValue)
        return "ISO \(Int(s.iso.rounded())), \(ShutterSpeed.display(s.shutter)), f/\(s.aperture), focus \(focusText), "
            + "WB \(s.whiteBalance)" + (s.automatic.isEmpty ? "" : " (auto: \(s.automatic.joined(separator: ", ")))")
    }

    /// The fix of `--gps LAT,LON[,ALT]`, or the problem in one line.
    static func gpsFix(_ text: String) throws -> GPSFix {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else {
            throw ValidationError("--gps: '\(text)' is not LAT,LON or LAT,LON,ALT (degrees, metres; e.g. 48.8584,2.2945,35)")
        }
        do { return try GPSFix(latitude: parts[0]!, longitude: parts[1]!, altitude: parts.count == 3 ? parts[2] : nil) } catch {
            throw ValidationError("--gps: \(error)")
        }
    }

    static func point(_ text: String, option: String) throws -> NormalisedPoint {
        let parts = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2 else { throw ValidationError("\(option): '\(text)' is not X,Y (two numbers in 0...1)") }
        return NormalisedPoint(x: parts[0], y: parts[1])
    }

    func run() throws {
        let setup: CaptureSetup
        let burst: ResolvedBurst
        let settings: CaptureSettings
        do {
            try checkCounts()
            settings = try captureSettings(preset: try lightingPreset())
            setup = try makeSetup(settings: settings)
            try storageOptions.validate(fps: try frameRate(), sensors: setup.cameras.count, nameTemplate: effectiveNameTemplate)
            let options = try burstOptions()
            var configuration = try burstConfiguration(options: options, settings: settings)
            try storageOptions.apply(to: &configuration, samplesPerTrigger: setup.cameras.map(\.samplesPerFrame).reduce(0, +),
                                     fps: try frameRate())
            configuration.development = try developOptions.development(overwrite: overwrite, sensors: setup.cameras.count)
            do { _ = try BurstSession.check(configuration, source: setup.source) } catch { throw ValidationError("\(error)") }
            if let (plan, base) = configuration.plan {
                do { try plan.validate(base: base) { try setup.source.check($0) } } catch { throw ValidationError("--bracket: \(error)") }
            }
            burst = ResolvedBurst(configuration: configuration, options: options)
        } catch {
            Terminal.error("rawburst capture: \(error)")
            throw ExitCode(2)
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                Terminal.error("rawburst capture: \(output): exists and is not a directory")
                throw ExitCode(2)
            }
        } else {
            do { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) } catch {
                Terminal.error("rawburst capture: \(output): cannot create the directory: \(error.localizedDescription)")
                throw ExitCode(2)
            }
        }
        func file(_ name: String) -> String { (output as NSString).appendingPathComponent(name) }
        // Nothing already written is replaced without --overwrite: refuse before capturing anything. Names with
        // time fields cannot be known in advance; their files are still never replaced (the writer refuses).
        if !overwrite {
            let configuration = burst.configuration
            var planned = [file(Self.manifestName), file(BurstJournal.fileName)]
            for camera in setup.cameras {
                for n in 0..<min(configuration.frames + configuration.preRecordFrames, 100_000) {
                    let name = configuration.nameTemplate.name(sensor: camera.name, sequenceNumber: UInt64(n), counter: n + 1,
                                                               captureTime: nil)
                    planned.append(file(name))
                    if sidecar { planned.append(file(FrameSidecar.fileName(forDNG: name))) }
                    if let development = configuration.development {
                        planned.append(development.path(forDNG: file(name)))
                        if development.compositor != nil && camera.name == setup.cameras[0].name {
                            planned.append(development.compositePath(forFirstDNG: file(name)))
                        }
                    }
                }
                if camera.chart != nil { planned.append(file("\(camera.name)-colorchart.json")) }
            }
            if let existing = planned.first(where: { FileManager.default.fileExists(atPath: $0) }) {
                Terminal.error("rawburst capture: \(existing): already exists (use --overwrite to replace it)")
                throw ExitCode(2)
            }
        }
        var chartFiles: [String] = []
        for camera in setup.cameras {
            guard let chart = camera.chart else { continue }
            let path = file("\(camera.name)-colorchart.json")
            do {
                try AtomicFile.write(Array(chart.scene.chartJSON(profile: chart.profile, lens: chart.lens).utf8), to: path,
                                     overwrite: overwrite)
                chartFiles.append(path)
            } catch {
                Terminal.error("rawburst capture: \(error)")
                throw ExitCode(1)
            }
        }
        try runBurst(setup: setup, burst: burst, settings: settings, chartFiles: chartFiles)
    }
}
