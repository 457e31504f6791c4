import ArgumentParser
import Foundation
import RawBurst

/// What `capture` takes frames from: one or two simulated sensors looking at a scene, or replayed files.
struct CaptureSetup {
    /// One camera of the capture.
    struct Camera {
        /// The sensor name (file prefix, and each frame's sensor name).
        let name: String
        /// Samples a frame buffer of this camera must hold.
        let samplesPerFrame: Int
        /// The colour chart being photographed, with the camera and lens, for the measuring file.
        let chart: (scene: ColorChartScene, profile: SensorProfile, lens: LensProfile)?
    }

    /// The cameras, one or two (triggered together).
    let cameras: [Camera]
    /// Number of files replayed, nil for simulated sensors.
    let replayedFiles: Int?
    /// What the burst engine takes frames from: one source, or two triggered together. The sources are
    /// free-running: the burst's clock paces them.
    let source: BurstSource
    /// The raw stream read (`--source`), nil for the other sources.
    var stream: CaptureStreamReport?
    /// The GenICam camera (`--camera`), nil for the other sources: read again after the burst for the report.
    var cameraSource: AravisCameraSource?
    /// The colour calibration a camera's or stream's DNGs carry, nil for the simulator (its own) and replays (each file's).
    var colorCalibration: CaptureColorReport?
    /// What the user should know about how the camera was set (printed once the burst is accepted).
    var cameraNote: String?
    /// The frames come on standard input (`--source stdin`), so keys cannot.
    var framesOnStandardInput = false
    /// The files `--replay` reads (no output may be one of them), empty for the other sources.
    var replayPaths: [String] = []
}

extension CaptureCommand {
    /// The source the options describe, configured with `settings`; errors are one line.
    func makeSetup(settings: CaptureSettings) throws -> CaptureSetup {
        let clock = FrameClock.freeRunning
        if streamOptions.isStream, try cameraOptions.cameraID() != nil {
            throw BadValue("--source and --camera are two sources: give one")
        }
        if streamOptions.isStream { return try makeStreamSetup(settings: settings) }
        if let camera = try makeCameraSetup(settings: settings) { return camera }
        if !replay.isEmpty {
            guard sensors.isEmpty && profileFiles.isEmpty else {
                throw BadValue("--replay takes the place of --sensor and --profile; give one or the other")
            }
            let paths = try Self.replayPaths(replay)
            let source = try RawFileSource(paths: paths, name: "replay", clock: clock, loop: true)
            try source.configure(settings)
            var setup = CaptureSetup(cameras: [.init(name: source.capabilities.name, samplesPerFrame: source.samplesPerFrame,
                                                     chart: nil)],
                                     replayedFiles: paths.count, source: .single(source))
            setup.replayPaths = paths
            return setup
        }
        var profiles: [SensorProfile] = []
        for path in profileFiles {
            do { profiles.append(try CaptureValues.loadProfile(path)) } catch { throw BadValue("\(path): \(error)") }
        }
        profiles += sensors.isEmpty && profileFiles.isEmpty ? [try CaptureValues.sensor("phone-wide")] : sensors
        guard profiles.count <= 2 else {
            throw BadValue("at most two sensors at once (\(profiles.count) given)")
        }
        let sceneValue = try SceneCatalog.scene(named: scene)
        // Each sensor its own noise: the second one's seed is the next number.
        let simulated = try profiles.enumerated().map { index, profile in
            try SimulatedSensor(profile: profile, scene: sceneValue, seed: seed &+ UInt64(index), clock: clock)
        }
        // A focus bracket refocuses on every step: keep the scene plane (counted in the memory plan), so that a step
        // only blurs it again.
        let refocuses = try bracketPlan()?.axes.contains { axis in
            if case .focus = axis { return true }
            return false
        } ?? false
        for sensor in simulated { sensor.keepsScenePlane = refocuses }
        // Each sensor renders ahead of the burst's clock on a thread of its own, as a camera reads out into its buffers:
        // one sensor into slots the pool lends it, two into buffers of their own (the pool lends a pair none).
        let depth = renderAhead ?? Self.defaultRenderAhead
        let sources: [any FrameSource] = depth == 0 ? simulated
            : simulated.map { RenderAheadSource($0, depth: depth, ownsBuffers: simulated.count == 2) }
        let source: BurstSource = sources.count == 2 ? .pair(DualSource(sources[0], sources[1], clock: clock))
            : .single(sources[0])
        try source.configure(settings)
        let cameras = simulated.map { sensor -> CaptureSetup.Camera in
            var chart: (scene: ColorChartScene, profile: SensorProfile, lens: LensProfile)?
            if let chartScene = sceneValue as? ColorChartScene, let applied = sensor.appliedSettings,
               let lens = sensor.profile.lens(named: applied.lens) {
                chart = (chartScene, sensor.profile, lens)
            }
            return .init(name: sensor.profile.name, samplesPerFrame: sensor.samplesPerFrame, chart: chart)
        }
        guard Set(cameras.map(\.name)).count == cameras.count else {
            throw BadValue("two sensors need two names (both are '\(cameras[0].name)')")
        }
        return CaptureSetup(cameras: cameras, replayedFiles: nil, source: source)
    }

    /// Frames the simulated sensor renders ahead of its clock when `--render-ahead` is not given.
    static let defaultRenderAhead = 2

    /// The files of `--replay`: files as given, folders as their visible regular files in name order.
    static func replayPaths(_ items: [String]) throws -> [String] {
        var paths: [String] = []
        for item in items {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: item, isDirectory: &isDirectory) else {
                throw BadValue("\(item): does not exist")
            }
            if isDirectory.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: item).filter { !$0.hasPrefix(".") }.sorted()
                let files = names.map { (item as NSString).appendingPathComponent($0) }.filter { path in
                    var dir: ObjCBool = false
                    return FileManager.default.fileExists(atPath: path, isDirectory: &dir) && !dir.boolValue
                }
                guard !files.isEmpty else { throw BadValue("\(item): holds no files to replay") }
                paths += files
            } else {
                paths.append(item)
            }
        }
        return paths
    }
}
