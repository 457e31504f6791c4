import Benchmark
import RawBurst

// The simulated sensor (issue #3): a 12 MP phone-wide frame of the colour chart.
//
// Goals: with fixed settings ≥ 30 fps on one core (≤ 33 ms a frame: the scene plane and the defocused optical
// image are computed once, a frame is one pass of exposure, noise, rounding and clipping); with settings that
// change every frame (bracketing) ≥ 8 fps (≤ 125 ms a frame). See docs/benchmarks.md.

/// One sensor per benchmark, built on first use (outside the measured iterations: each benchmark's setup
/// makes a frame first). The benchmarks run one at a time, hence `@unchecked Sendable` without a lock.
final class SensorState: @unchecked Sendable {
    var sensor: SimulatedSensor?
    var storage: PixelStorage?
    var step = 0
}

let state = SensorState()

/// Fixed manual settings: nothing automatic is re-solved per frame.
func fixedSettings() -> CaptureSettings {
    var s = CaptureSettings()
    s.iso = 100
    s.shutter = 1.0 / 100
    s.aperture = 1.8
    s.focus = .metres(1.5)
    s.whiteBalance = .preset(.daylight)
    return s
}

/// A fresh phone-wide sensor on the colour chart with `settings`, one frame already made (keeping its scene plane
/// when `keepsScenePlane`, as `capture` does for a focus bracket).
func prepare(_ settings: CaptureSettings, keepsScenePlane: Bool = false) throws {
    let profile = SensorProfile.builtIn(named: "phone-wide")!
    let sensor = try SimulatedSensor(profile: profile, scene: try SceneCatalog.scene(named: "colorchart"), seed: 7)
    sensor.keepsScenePlane = keepsScenePlane
    try sensor.configure(settings)
    let storage = PixelStorage(count: sensor.samplesPerFrame)
    _ = try sensor.nextFrame(into: storage)
    state.sensor = sensor
    state.storage = storage
    state.step = 0
}

func release() {
    state.sensor = nil
    state.storage = nil
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], // never ARC metrics here
        timeUnits: .milliseconds,
        warmupIterations: 2,
        maxDuration: .seconds(10),
        maxIterations: 60
    )

    renderAheadBenchmarks()

    Benchmark("Simulated frame, fixed settings (phone-wide 12 MP)", closure: { benchmark in
        let sensor = state.sensor!, storage = state.storage!
        for _ in benchmark.scaledIterations {
            blackHole(try sensor.nextFrame(into: storage).sequenceNumber)
        }
    }, setup: { try prepare(fixedSettings()) }, teardown: { release() })

    Benchmark("Simulated frame, exposure bracket -2/0/+2 EV (settings change every frame)", closure: { benchmark in
        let sensor = state.sensor!, storage = state.storage!
        let shutters = [1.0 / 400, 1.0 / 100, 1.0 / 25]
        for _ in benchmark.scaledIterations {
            var s = fixedSettings()
            s.shutter = shutters[state.step % 3]
            state.step += 1
            try sensor.configure(s)
            blackHole(try sensor.nextFrame(into: storage).sequenceNumber)
        }
    }, setup: { try prepare(fixedSettings()) }, teardown: { release() })

    // The same focus bracket twice: the scene sampled again for every frame, and the scene plane kept (as `capture`
    // does for a focus bracket); only the setup differs.
    let focusBracket: (Benchmark) throws -> Void = { benchmark in
        let sensor = state.sensor!, storage = state.storage!
        let distances: [FocusDistance] = [.metres(0.5), .metres(1), .metres(2), .metres(4), .infinity]
        for _ in benchmark.scaledIterations {
            var s = fixedSettings()
            s.focus = distances[state.step % distances.count]
            state.step += 1
            try sensor.configure(s)
            blackHole(try sensor.nextFrame(into: storage).sequenceNumber)
        }
    }
    for (label, keepsScenePlane) in [("scene sampled again", false), ("scene plane kept", true)] {
        Benchmark("Simulated frame, focus bracket 0.5 m...inf, \(label) (new defocus every frame)", closure: focusBracket,
                  setup: { try prepare(fixedSettings(), keepsScenePlane: keepsScenePlane) }, teardown: { release() })
    }

    Benchmark("Simulated frame, automatic exposure, focus and white balance re-solved every frame",
              configuration: .init(maxIterations: 20), closure: { benchmark in
        let sensor = state.sensor!, storage = state.storage!
        for _ in benchmark.scaledIterations {
            var s = CaptureSettings()
            s.exposureCompensation = [-1.0, 0, 1][state.step % 3]
            state.step += 1
            try sensor.configure(s)
            blackHole(try sensor.nextFrame(into: storage).sequenceNumber)
        }
    }, setup: { try prepare(CaptureSettings()) }, teardown: { release() })

    // Issue #18: a new sensor's first frame — configure (settings resolved, the optical image rendered strip by
    // strip) and one frame — at 12 MP and 96 MP; the peak resident memory is the process's (one sensor at a time).
    for (name, profile) in [("phone-wide 12 MP", SensorProfile.builtIn(named: "phone-wide")!),
                            ("mirrorless 96 MP", largeProfile())] {
        Benchmark("Simulated sensor start: configure + first frame, fixed settings (\(name))",
                  configuration: .init(maxIterations: profile.width > 6000 ? 3 : 10), closure: { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try firstFrame(profile, settings: fixedSettings()))
            }
        })
    }
    Benchmark("Simulated sensor start: configure + first frame, automatic settings (phone-wide 12 MP)",
              configuration: .init(maxIterations: 10), closure: { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try firstFrame(SensorProfile.builtIn(named: "phone-wide")!, settings: CaptureSettings()))
        }
    })
}

/// The mirrorless-24 sensor at 12000x8000 (96 MP), the same field of view.
func largeProfile() -> SensorProfile {
    var profile = SensorProfile.builtIn(named: "mirrorless-24")!.resized(toWidth: 12_000)
    profile.name = "mirrorless-96"
    return profile
}

/// A new sensor for `profile` on the colour chart, configured with `settings`, and its first frame's number.
func firstFrame(_ profile: SensorProfile, settings: CaptureSettings) throws -> UInt64 {
    let sensor = try SimulatedSensor(profile: profile, scene: try SceneCatalog.scene(named: "colorchart"), seed: 7)
    try sensor.configure(settings)
    let storage = PixelStorage(count: sensor.samplesPerFrame)
    return try sensor.nextFrame(into: storage).sequenceNumber
}
