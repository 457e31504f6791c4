import Benchmark
import BenchSupport
import Foundation
import RawBurst

// The burst engine (issue #4): 4032x3024 14-bit frames from the simulated sensor through the frame pool to
// uncompressed DNGs on the local disk, two writer threads.
//
// Targets: 10 fps for 60 s with 0 drops at the default budget (1 GiB) and 30 fps for 3 s with 0 drops at
// 2 GiB (those long runs are `rawburst stress` and the CLI; here 3 s bursts), sensor-to-slot latency p99 ≤ 5 ms,
// sensor made → first frame in the pool ≤ 300 ms. Custom metrics carry the session's own figures. See
// docs/benchmarks.md.

/// phone-wide at 14 bits (black 1024), the camera.
func camera14() -> SensorProfile {
    var profile = SensorProfile.builtIn(named: "phone-wide")!
    profile.bitsPerSample = 14
    profile.blackLevel = 1024
    return profile
}

func fixedSettings() -> CaptureSettings {
    CaptureSettings(iso: 100, shutter: 1.0 / 100, focus: .metres(1.5), whiteBalance: .preset(.daylight))
}

let slotLatencyP99 = BenchmarkMetric.custom("slot latency p99 (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let firstFrame = BenchmarkMetric.custom("sensor made → first frame in pool (ms)", polarity: .prefersSmaller,
                                        useScalingFactor: false)
let dropped = BenchmarkMetric.custom("frames dropped", polarity: .prefersSmaller, useScalingFactor: false)
let achievedFPS = BenchmarkMetric.custom("fps achieved ×10", polarity: .prefersLarger, useScalingFactor: false)

/// One burst of `frames` at `fps` with `budget`; records the custom metrics.
func burst(_ benchmark: Benchmark, frames: Int, fps: Double, budget: Int) throws {
    let directory = BenchSupport.makeScratchDirectory("burst")
    defer { BenchSupport.removeScratchDirectory(directory) }
    let made = MonotonicClock.nanoseconds()
    let sensor = try SimulatedSensor(profile: camera14(), scene: try SceneCatalog.scene(named: "colorchart"), seed: 7)
    try sensor.configure(fixedSettings())
    var configuration = BurstSession.Configuration(frames: frames, overflow: .block, writers: 2, memoryBudget: budget,
                                                   outputDirectory: directory)
    configuration.clock = .realTime(fps: fps)
    let report = try BurstSession(source: sensor, configuration: configuration).run()
    let statistics = BurstStatistics(report)
    benchmark.measurement(slotLatencyP99, Int(statistics.slotLatencyP99Milliseconds * 1000))
    if let first = report.firstFrameNanoseconds { benchmark.measurement(firstFrame, Int((first - made) / 1_000_000)) }
    benchmark.measurement(dropped, report.drops.count + (report.producedCount < frames ? frames - report.producedCount : 0))
    benchmark.measurement(achievedFPS, Int(statistics.triggersPerSecond * 10))
    precondition(report.problems.isEmpty, "books do not balance: \(report.problems)")
}

let benchmarks: @Sendable () -> Void = {
    let custom: [BenchmarkMetric] = [slotLatencyP99, firstFrame, dropped, achievedFPS]
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident] + custom, // never ARC metrics here
        timeUnits: .milliseconds,
        warmupIterations: 0,
        maxDuration: .seconds(30),
        maxIterations: 3
    )

    Benchmark("Burst 10 fps × 3 s, 1 GiB (the default budget; 12 MP 14-bit DNG, 2 writers)") { benchmark in
        for _ in benchmark.scaledIterations { try burst(benchmark, frames: 30, fps: 10, budget: 1 << 30) }
    }

    Benchmark("Burst 30 fps × 3 s, 2 GiB (12 MP 14-bit DNG, 2 writers)") { benchmark in
        for _ in benchmark.scaledIterations { try burst(benchmark, frames: 90, fps: 30, budget: 2 << 30) }
    }

    // The pool's own cost per frame: a slot taken, filled, handed to a writer and given back (one thread).
    Benchmark("Frame pool round trip (acquire → full → writer → free), 1000 slots' worth",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds,
                                   warmupIterations: 3, maxDuration: .seconds(5), maxIterations: 200)) { benchmark in
        let pool = try FramePool<Int>(samplesPerSlot: 1024, slotCount: 8)
        for _ in benchmark.scaledIterations {
            for n in 0..<1000 {
                guard let slot = pool.tryAcquire() else { fatalError("no free slot") }
                pool.markFull(slot, payload: n)
                guard let (full, value) = pool.nextFull() else { fatalError("no full slot") }
                blackHole(value)
                pool.release(full)
            }
        }
    }
}
