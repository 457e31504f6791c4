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

        --replay PATH replays raw files (a folder: its files) as the sensor instead, at --fps, looping. --source \
        stdin|PATH takes headerless raw frames from a stream instead (rpicam-raw -t 0 -o - | rawburst capture \
        --source stdin --format SRGGB12_CSI2P --size 4056x3040 --stride 6112 --fps 10 --profile imx477.json -o \
        shots/), until it ends: see --source.

        Files: OUT/<sensor>-<sequence>.dng (replay-<sequence>.dng for --replay); with the colorchart scene also \
        OUT/<sensor>-colorchart.json, the chart's reference values and each patch's rectangle in this camera's \
        frame, for measuring. Nothing is replaced without --overwrite.

        The burst engine: a frame pool within --memory-budget, --writers threads, an --overflow policy for when \
        every buffer is taken, and a governor that, predicting pressure (the pool filling at the measured rate, frames \
        starting late, --simulate-thermal), sheds previews and digests, then takes a cheaper encoding, then lowers \
        the rate (given back when calm), before any frame is dropped. Every frame is written \
        or counted as dropped, and OUT/manifest.json says which. Two sensors are triggered together, each writing \
        its own files with the same sequence numbers.

        --orientation 0|90|180|270 says how the camera is turned (degrees clockwise, seen from behind it; once per \
        sensor with two): written as each DNG's Orientation (1, 6, 3, 8), so readers, developed pictures, composites \
        and the viewfinder turn the picture that much clockwise to be upright. --mirror front|all flips the front \
        sensor's (the second of two) or every sensor's developed pictures, composite shares and viewfinder pane left \
        to right; the DNGs are never mirrored.

        --live [ADDR:PORT] shows the burst in a browser while it records (focus peaking, zebra, histogram, the \
        burst's figures, and controls that reach the sensor with the next frame); `rawburst live` does the same \
        without recording until Record is pressed on the page (docs/live.md).

        While it runs: Enter or SIGUSR1 triggers a --pre-record burst, p or SIGUSR2 pauses and resumes, q, \
        SIGINT or SIGTERM stops it cleanly (a second Ctrl-C kills it; `rawburst recover OUT` then rebuilds the \
        manifest from the journal).

        Exit status: 0 all frames written (or stopped on request), 1 a frame failed to write, 2 bad settings or \
        files in the way (nothing is captured then), 3 frames dropped or the burst stopped early by its policy, \
        the thermal state or the disk (a malformed command line is 2 as well). Details: docs/capture.md.
        """
    )

    @Option(name: .customLong("sensor"),
            help: ArgumentHelp("Sensor profile (rawburst sensors lists them; default phone-wide). Give two for two sensors "
                               + "triggered together.", valueName: "sensor"),
            transform: CaptureValues.sensor)
    var sensors: [SensorProfile] = []

    @Option(name: .customLong("profile"),
            help: ArgumentHelp("A profile JSON file: a sensor profile (the form of profiles/*.json), instead of or beside "
                               + "--sensor; or, with --camera or --source, a camera profile (measured colour matrices, levels, "
                               + "Gain → ISO table; docs/sensor-profiles.md). Without one a camera's DNGs say they have no "
                               + "colour calibration.", valueName: "file"))
    var profileFiles: [String] = []

    @Option(help: ArgumentHelp("Replay raw files (any LibRaw reads; a folder means its files) as the sensor, instead of "
                               + "simulating one; repeatable. Settings must match the files (automatic is fine).",
                               valueName: "path"))
    var replay: [String] = []

    @Option(help: "Lens of the profile (default: its first).")
    var lens: String?

    @Option(help: "Scene: colorchart, siemens-star, slanted-edge, grey-ramp, depth, hdr or image:PATH.")
    var scene = "colorchart"

    @Option(parsing: .unconditional, help: "ISO speed (default: automatic).")
    var iso: Double?

    @Option(help: "Exposure time, e.g. 1/100, 0.5, 2s (default: automatic).", transform: CaptureValues.shutter)
    var shutter: Double?

    @Option(parsing: .unconditional, help: "f-number (default: the lens's widest).")
    var aperture: Double?

    @Option(help: "Focus distance: 1.5m, 0.8, inf (default: autofocus).", transform: CaptureValues.focus)
    var focus: FocusDistance?

    @Option(parsing: .unconditional, help: ArgumentHelp("Autofocus point as x,y in 0...1 (default: 0.5,0.5).", valueName: "focus-point"),
            transform: CaptureValues.focusPoint)
    var focusPoint: NormalisedPoint?

    @Option(parsing: .unconditional, help: "Autofocus on zone N (0...8, row by row) of the 3x3 grid instead of a point.")
    var focusZone: Int?

    @Option(name: .customLong("ev"), parsing: .unconditional,
            help: "Exposure compensation in EV, −3...+3 in 0.1 steps (default 0; --ev -0.7 works).")
    var exposureCompensation: Double?

    @Option(help: ArgumentHelp("Metering: matrix, centre-weighted, spot:X,Y or zone:N (0...8) (default matrix).", valueName: "metering"),
            transform: CaptureValues.metering)
    var metering: MeteringMode?

    @Option(name: .customLong("wb"),
            help: ArgumentHelp("White balance: auto, daylight, cloudy, shade, tungsten, fluorescent, flash, or 5600K[+tint] (default auto).",
                               valueName: "wb"),
            transform: CaptureValues.whiteBalance)
    var whiteBalance: WhiteBalanceSetting?

    @Option(help: "Lighting preset: cloudy, sunny, floodlight, manual, or one from --presets.")
    var preset: String?

    @Option(help: "A JSON file of your own lighting presets (docs/lighting-presets.md).")
    var presets: String?

    @Option(parsing: .unconditional,
            help: "Frame rate of a real-time capture (frames spaced by 1/fps; up to the sensor's maximum; default: as fast as frames are made).")
    var fps: Double?

    @Option(help: "Time between frames for a timelapse, start to start: 2s, 500ms, 1m (instead of --fps).", transform: CaptureValues.interval)
    var interval: TimeSpan?

    @Option(help: ArgumentHelp("Capture for this long, in wall time: 10s, 1m, 500ms (at most duration × rate frames; a rate "
                               + "the governor lowers makes fewer frames, not a longer burst; needs --fps or --interval)."),
            transform: CaptureValues.duration)
    var duration: TimeSpan?

    @Option(help: ArgumentHelp("With --fps or --interval: a frame that cannot start within half a frame interval of its "
                               + "tick is dropped and counted (drop, as a camera loses it) or taken late (wait: offline simulation).",
                               valueName: "drop|wait"))
    var late: LateFramePolicy = .drop

    @Option(parsing: .unconditional, help: "Noise seed: the same seed gives byte-identical frames.")
    var seed: UInt64 = 0

    @Option(name: .customLong("frames"), parsing: .unconditional, help: "Number of frames (default 1, or every frame of the --bracket plan).")
    var framesOption: Int?

    @Option(help: ArgumentHelp("Bracketing plan: axes ev:, iso:, shutter:, focus: (0.3m..inf/7), wb: joined by ' x ', "
                               + "repeat:N; e.g. 'ev:-2,0,+2' or 'focus:0.3m..inf/7 x wb:3200K,5600K'.", valueName: "plan"),
            transform: CaptureValues.bracket)
    var bracket: BracketPlan?

    @Option(help: "A JSON file {\"plan\": \"...\"} holding a bracketing plan in the same language (docs/capture.md).")
    var bracketFile: String?

    @Option(name: [.short, .customLong("output")],
            help: "Output directory, created if missing (default: burst-YYYYmmdd-HHMMSS in the current directory).")
    var outputOption: String?

    @Option(help: ArgumentHelp("Memory the burst may use, sensor and frame buffers included: 1GiB, 2GiB, 800MB ... (default 1GiB).", valueName: "size"),
            transform: CaptureValues.memoryBudget)
    var memoryBudget = ByteSize(argument: "1GiB")!

    @Option(help: "When every frame buffer is taken: block (the sensor waits), drop-newest, drop-oldest or stop (default block).",
            transform: CaptureValues.overflow)
    var overflow = OverflowPolicy.block

    @Option(parsing: .unconditional, help: "Writer threads (default: the number of cores).")
    var writers: Int?

    @Option(help: ArgumentHelp("Inject storage faults, comma-separated: a rate (80MB/s), stall:2s@3s, stalls:300ms/10%, "
                               + "fail@N (disk full from write N), error@N (an I/O error at write N).", valueName: "faults"),
            transform: CaptureValues.storageFaults)
    var simulateDisk: StorageFaults?

    @Option(name: .customLong("simulate-cpu"),
            help: ArgumentHelp("Inject CPU time per frame into the writers (e.g. 40ms): each write takes that much "
                               + "more of the cores, which the burst's plan counts (tests and benchmarks of the plan).",
                               discussion: "The writers share the simulated CPU as they share the cores: each frame "
                               + "takes TIME ÷ cores of one queue they all wait in (without spinning, so the figure does "
                               + "not depend on how busy the machine is), and together they take at most cores ÷ TIME "
                               + "frames a second, as the plan counts.", valueName: "time"),
            transform: CaptureValues.simulateCPU)
    var simulateCPU: TimeSpan?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Frames the simulated sensor renders ahead of its clock (0...8, default 2): a frame is "
                               + "handed over on its tick, and a setting change reaches the frame N after the next.",
                               valueName: "N"))
    var renderAhead: Int?

    @Option(help: ArgumentHelp("Simulate the device's thermal state over time, e.g. fair@2s,serious@5s,critical@20s "
                               + "(fair drops previews, serious halves the rate, critical stops the burst).", valueName: "schedule"),
            transform: CaptureValues.thermal)
    var simulateThermal: ThermalSchedule?

    @Option(help: ArgumentHelp("Keep the last N seconds of frames until a trigger (SIGUSR1, Enter, or --trigger-after); "
                               + "needs --fps. Frames after the trigger follow as usual.", valueName: "time"),
            transform: CaptureValues.preRecord)
    var preRecord: TimeSpan?

    @Option(help: ArgumentHelp("Trigger a --pre-record burst by itself after this long (e.g. 3s).", valueName: "time"),
            transform: CaptureValues.triggerAfter)
    var triggerAfter: TimeSpan?

    @Option(name: .customLong("preview"), parsing: .unconditional,
            help: ArgumentHelp("Embed a preview of this long edge in each DNG (64...\(DNGWriter.Options.maximumPreviewLongEdge) px); "
                               + "the governor drops it first under pressure.",
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
                               + "(EXIF GPS in each DNG and in its sidecar).", valueName: "lat,lon[,alt]"),
            transform: CaptureValues.gps)
    var gps: GPSFix?

    @Flag(help: "Write a JSON sidecar beside each DNG with the settings it was taken with.")
    var sidecar = false

    @Flag(help: ArgumentHelp("Analyse every written frame and add it to the manifest.", discussion: """
        Each frame's raw histograms (64 bins per colour), exposure statistics, sharpness (frame and 3x3 zones), \
        clipped cells and metering, computed on the writer that wrote it, from its slot. The governor skips \
        analysis (and counts the skips) once it has to degrade the burst, so analysing never costs frames.
        """))
    var analyze = false

    @OptionGroup(title: "Real cameras")
    var cameraOptions: CameraOptions

    @OptionGroup(title: "DNG storage")
    var storageOptions: CaptureStorageOptions

    @OptionGroup(title: "Developed pictures and composites")
    var developOptions: CaptureDevelopOptions

    @OptionGroup(title: "Developed pictures and composites")
    var compositeOptions: CompositeOptions

    @OptionGroup(title: "Orientation and mirroring")
    var framingOptions: FramingOptions

    @OptionGroup(title: "Raw streams (rpicam-raw, V4L2)")
    var streamOptions: CaptureStreamOptions

    @OptionGroup(title: "Live viewfinder (a page in the browser)")
    var liveOptions: LiveOptions

    @Flag(help: "Replace existing DNGs (and developed pictures).")
    var overwrite = false

    @Flag(help: "Print a JSON report on standard output.")
    var json = false

    /// The checks that need no sensor: counts, rates, the burst options and the combinations of options.
    func validate() throws {
        let frames = try frameCount()
        guard (1...BurstSession.maximumFrames).contains(frames) else {
            throw BadValue("--frames must be within 1...\(BurstSession.maximumFrames), not \(frames)")
        }
        if let fps, !(fps >= SensorProfile.minimumFrameRate && fps <= 1000) {
            throw BadValue("--fps must be within 1/86400 (a frame a day)...1000 frames per second, not \(fps)")
        }
        _ = try burstOptions()
        if let renderAhead {
            guard (0...8).contains(renderAhead) else { throw BadValue("--render-ahead must be within 0...8 frames, not \(renderAhead)") }
            if !replay.isEmpty || streamOptions.isStream || cameraOptions.camera != nil {
                throw BadValue("--render-ahead is for the simulated sensor; replayed files, streams and cameras make their own frames")
            }
        }
        try validateStream()
        try developOptions.validate(composite: compositeOptions)
        if presets != nil && preset == nil { throw BadValue("--presets needs --preset NAME to choose one of its presets") }
    }

    /// The bracketing plan of --bracket or --bracket-file, if any.
    func bracketPlan() throws -> BracketPlan? {
        if bracket != nil && bracketFile != nil { throw BadValue("give --bracket or --bracket-file, not both") }
        return try bracket ?? bracketFile.map(CaptureValues.bracketFile)
    }

    /// --frames, or --duration × rate, or the plan's frame count, or 1.
    func frameCount() throws -> Int {
        if let duration {
            guard framesOption == nil else { throw BadValue("give --frames or --duration, not both") }
            // Frames on a camera's or a stream's clock: the wall-time deadline alone ends the burst (a source faster
            // than its --fps must not be cut short by a count worked out from it).
            if streamOptions.isStream || cameraOptions.camera != nil { return BurstSession.maximumFrames }
            guard let rate = try frameRate() else { throw BadValue("--duration needs --fps or --interval") }
            let count = (duration.seconds * rate - 1e-9).rounded(.up)
            guard count.isFinite, count <= Double(BurstSession.maximumFrames) else {
                throw BadValue("--duration \(duration) at \(SettingText.number(rate)) fps is more than \(BurstSession.maximumFrames) frames")
            }
            return max(1, Int(count))
        }
        if let framesOption { return framesOption }
        if streamOptions.isStream { return BurstSession.maximumFrames } // a stream: until it ends
        return try bracketPlan()?.frameCount ?? 1
    }

    /// Frames per second from --fps or --interval, nil for as fast as frames are made.
    func frameRate() throws -> Double? {
        guard let interval else { return fps }
        guard fps == nil else { throw BadValue("give --fps or --interval, not both") }
        return 1 / interval.seconds
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
        guard let preset else { return nil }
        return try LightingPresetCatalog.preset(named: preset, userPresets: user)
    }

    /// The settings the options describe (over the preset's, when there is one), over `base` (the viewfinder's saved
    /// settings; automatic by default): only the options given change it.
    func captureSettings(preset: LightingPreset?, base: CaptureSettings = CaptureSettings()) -> CaptureSettings {
        var s = preset?.applied(to: base) ?? base
        if let iso { s.iso = iso }
        if let aperture { s.aperture = aperture }
        if let lens { s.lens = lens }
        if let exposureCompensation { s.exposureCompensation = exposureCompensation }
        if let shutter { s.shutter = shutter }
        if let focus { s.focus = focus }
        if let focusPoint { s.focusPoint = focusPoint }
        if let focusZone { s.focusZone = focusZone }
        if let metering { s.metering = metering }
        if let whiteBalance { s.whiteBalance = whiteBalance }
        return s
    }

    /// ISO, shutter, aperture, focus and white balance of `s` in one line, with what was automatic. The ISO asked for
    /// is added when the source set another (a camera's gain has steps); a source without an aperture (0: a camera
    /// whose lens says nothing) shows none.
    static func settingsSummary(_ s: AppliedSettings, askedISO: Double? = nil) -> String {
        let focusText = s.focus == .infinity ? "infinity" : String(format: "%.2f m", s.focus.metresValue)
        let iso = Int(s.iso.rounded())
        let asked = askedISO.flatMap { Int($0.rounded()) == iso ? nil : " (asked for \(SettingText.number($0)): the nearest the camera sets)" }
        return "ISO \(iso)\(asked ?? ""), \(ShutterSpeed.display(s.shutter)), " + (s.aperture > 0 ? "f/\(s.aperture), " : "")
            + "focus \(focusText), WB \(s.whiteBalance)" + (s.automatic.isEmpty ? "" : " (auto: \(s.automatic.joined(separator: ", ")))")
    }

    func run() throws {
        if let endpoint = liveOptions.endpoint { return try runWithViewfinder(at: endpoint, takes: false) }
        try liveOptions.requireEndpoint()
        let (setup, resolved, settings) = try resolve()
        if let note = setup.cameraNote { Terminal.error("rawburst capture: \(note)") }
        try prepareOutput(setup: setup, configuration: resolved.configuration)
        let chartFiles = try writeCharts(setup: setup)
        StartupClock.mark(.outputReady)
        let burst = planTime(resolved, setup: setup)
        StartupClock.mark(.planned)
        try runBurst(setup: setup, burst: burst, settings: settings, chartFiles: chartFiles)
    }

    /// The source, settings (over `base`) and burst configuration, checked against the sensor before anything is
    /// created; a refusal is one line, exit status 2.
    func resolve(base: CaptureSettings = CaptureSettings()) throws -> (CaptureSetup, ResolvedBurst, CaptureSettings) {
        do {
            let settings = captureSettings(preset: try lightingPreset(), base: base)
            let setup = try makeSetup(settings: settings)
            StartupClock.mark(.sourcesReady)
            try storageOptions.validate(fps: try frameRate(), sensors: setup.cameras.count, nameTemplate: effectiveNameTemplate)
            let options = try burstOptions()
            try checkFrameRate(setup: setup)
            if setup.cameras.count > 1 && !options.nameTemplate.namesSensor {
                throw BadValue("--name '\(options.nameTemplate)' has no %s: two sensors' frames would get the same names")
            }
            var configuration = try burstConfiguration(options: options, settings: settings)
            try storageOptions.apply(to: &configuration, fps: try frameRate())
            configuration.orientations = try framingOptions.orientations(sensors: setup.cameras.count)
            try framingOptions.checkMirror(sensors: setup.cameras.count, developing: developOptions.develop != nil,
                                           viewfinder: liveOptions.endpoint != nil)
            configuration.development = try developOptions.development(
                composite: compositeOptions, overwrite: overwrite, sensors: setup.cameras.count,
                mirrored: framingOptions.mirroredSensors(setup.source.sensorNames))
            try checkNameLengths(configuration: configuration, cameras: setup.cameras)
            do { _ = try BurstSession.check(configuration, source: setup.source) } catch { throw BadValue("\(error)") }
            if let (plan, base) = configuration.plan {
                do { try plan.validate(base: base) { try setup.source.check($0) } } catch { throw BadValue("--bracket: \(error)") }
            }
            return (setup, ResolvedBurst(configuration: configuration, options: options), settings)
        } catch {
            throw BadValue("\(error)")
        }
    }
}
