import ArgumentParser
import Foundation
import RawBurst

/// What `capture` takes frames from: the simulated sensor of a profile looking at a scene, or replayed files.
struct CaptureSetup {
    /// The configured source.
    let source: any FrameSource
    /// The sensor name (file prefix).
    let name: String
    /// The colour chart being photographed, with the camera and lens, for the measuring file.
    let chart: (scene: ColorChartScene, profile: SensorProfile, lens: LensProfile)?
    /// Number of files replayed, nil for the simulated sensor.
    let replayedFiles: Int?
}

extension CaptureCommand {
    /// The source the options describe, configured with `settings`; errors are one line.
    func makeSetup(settings: CaptureSettings) throws -> CaptureSetup {
        let clock: FrameClock = fps.map { .realTime(fps: $0) } ?? .freeRunning
        if !replay.isEmpty {
            let paths = try Self.replayPaths(replay)
            let source = try RawFileSource(paths: paths, name: "replay", clock: clock, loop: true)
            try source.configure(settings)
            return CaptureSetup(source: source, name: source.capabilities.name, chart: nil, replayedFiles: paths.count)
        }
        let profile: SensorProfile
        if let profileFile {
            do { profile = try Self.loadProfile(profileFile) } catch { throw ValidationError("\(profileFile): \(error)") }
        } else if let builtIn = SensorProfile.builtIn(named: sensor) {
            profile = builtIn
        } else {
            throw ValidationError("unknown sensor '\(sensor)' (known: \(SensorProfile.builtIn.map(\.name).joined(separator: ", ")))")
        }
        let sceneValue = try SceneCatalog.scene(named: scene)
        let source = try SimulatedSensor(profile: profile, scene: sceneValue, seed: seed, clock: clock)
        try source.configure(settings)
        var chart: (scene: ColorChartScene, profile: SensorProfile, lens: LensProfile)?
        if let chartScene = sceneValue as? ColorChartScene, let applied = source.appliedSettings,
           let lens = profile.lens(named: applied.lens) {
            chart = (chartScene, profile, lens)
        }
        return CaptureSetup(source: source, name: profile.name, chart: chart, replayedFiles: nil)
    }

    /// The files of `--replay`: files as given, folders as their visible regular files in name order.
    static func replayPaths(_ items: [String]) throws -> [String] {
        var paths: [String] = []
        for item in items {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: item, isDirectory: &isDirectory) else {
                throw ValidationError("\(item): does not exist")
            }
            if isDirectory.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: item).filter { !$0.hasPrefix(".") }.sorted()
                let files = names.map { (item as NSString).appendingPathComponent($0) }.filter { path in
                    var dir: ObjCBool = false
                    return FileManager.default.fileExists(atPath: path, isDirectory: &dir) && !dir.boolValue
                }
                guard !files.isEmpty else { throw ValidationError("\(item): holds no files to replay") }
                paths += files
            } else {
                paths.append(item)
            }
        }
        return paths
    }
}
