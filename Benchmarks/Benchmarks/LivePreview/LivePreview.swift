import Benchmark
import BenchSupport
import Foundation
import RawBurst

// Issue #21's targets (docs/benchmarks.md): the live viewfinder's copy on the sensor thread costs a few ms of a 12 MP
// frame, and its worker makes a 1024 px preview (develop, JPEG, histogram, overlays) well under 66 ms, so that it keeps
// 15 fps with the burst's writers on the other core. The frame is the simulated phone-wide sensor's 4032x3024 depth
// scene, captured once.

final class LivePreviewState: @unchecked Sendable {  // one benchmark at a time touches it, in order
    var frame: CapturedFrame?
    let mosaic = LiveBinnedMosaic()
    var previewer: LivePreviewer?
    let published = DispatchSemaphore(value: 0)
    var copy: [UInt16] = []
}

let state = LivePreviewState()

func prepare(overlays: LiveOverlays? = nil) throws {
    let sensor = try SimulatedSensor(profile: SensorProfile.builtIn(named: "phone-wide")!, scene: SceneCatalog.scene(named: "depth"),
                                     seed: 1)
    try sensor.configure(CaptureSettings(iso: 100, shutter: 1.0 / 60, focus: .metres(2)))
    state.frame = try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame))
    if let overlays {
        let done = state.published
        state.previewer = LivePreviewer(longEdge: 1024, overlays: { overlays }, publish: { _ in done.signal() })
    }
}

func finish() {
    state.previewer?.stop()
    state.previewer = nil
    state.frame = nil
}

/// One preview from the sensor thread's call to the published `LiveFrame` (the binned copy, then the worker's part).
func previewOnce() {
    state.previewer!.view([state.frame!], level: .normal)
    state.published.wait()
}

let previewRate = BenchmarkMetric.custom("previews per second ×10", polarity: .prefersLarger, useScalingFactor: false)
let renderP50 = BenchmarkMetric.custom("worker render p50 (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let renderP95 = BenchmarkMetric.custom("worker render p95 (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let binCopyP95 = BenchmarkMetric.custom("sensor-thread bin-copy p95 (µs)", polarity: .prefersSmaller, useScalingFactor: false)
let burstDrops = BenchmarkMetric.custom("burst frames dropped", polarity: .prefersSmaller, useScalingFactor: false)
let skippedPreviews = BenchmarkMetric.custom("previews skipped (worker busy)", polarity: .prefersSmaller, useScalingFactor: false)

/// A 3 s burst of 12 MP frames at `fps` to uncompressed DNGs (two writers) with a previewer (peaking and zebra on)
/// on its sensor thread; records what the previewer and the burst did.
func burstWithPreviews(_ benchmark: Benchmark, fps: Double) throws {
    let directory = BenchSupport.makeScratchDirectory("live-preview")
    defer { BenchSupport.removeScratchDirectory(directory) }
    let sensor = try SimulatedSensor(profile: SensorProfile.builtIn(named: "phone-wide")!, scene: SceneCatalog.scene(named: "depth"),
                                     seed: 7)
    try sensor.configure(CaptureSettings(iso: 100, shutter: 1.0 / 100, focus: .metres(2), whiteBalance: .preset(.daylight)))
    let previewer = LivePreviewer(overlays: { LiveOverlays(peaking: true, zebra: true) }, publish: { blackHole($0.jpeg.count) })
    var configuration = BurstSession.Configuration(frames: Int(fps * 3), overflow: .block, writers: 2, memoryBudget: 2 << 30,
                                                   outputDirectory: directory)
    configuration.clock = .realTime(fps: fps)
    configuration.viewer = previewer
    let report = try BurstSession(source: sensor, configuration: configuration).run()
    previewer.stop()
    let stats = previewer.statistics
    // Over the triggers' span (the writers go on emptying the pool after the last trigger; the previews do not).
    let span = Double((report.triggerNanoseconds.last ?? 0) - (report.triggerNanoseconds.first ?? 0)) / 1e9 + 1 / fps
    benchmark.measurement(previewRate, Int(Double(stats.published) / span * 10))
    benchmark.measurement(renderP50, Int(stats.renderP50Milliseconds * 1000))
    benchmark.measurement(renderP95, Int(stats.renderP95Milliseconds * 1000))
    benchmark.measurement(binCopyP95, Int(stats.binCopyP95Milliseconds * 1000))
    benchmark.measurement(burstDrops, report.drops.count)
    benchmark.measurement(skippedPreviews, stats.skipped)
    precondition(report.problems.isEmpty, "books do not balance: \(report.problems)")
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], // never ARC metrics here
        timeUnits: .microseconds,
        warmupIterations: 2,
        maxDuration: .seconds(10),
        maxIterations: 100
    )

    Benchmark("live-preview reference: copy of the 12 MP frame's samples (memory bandwidth; the harness's own mallocs)") { _ in
        let frame = state.frame!.image.frame
        state.copy.withUnsafeMutableBytes { target in
            target.baseAddress!.copyMemory(from: frame.storage.baseAddress, byteCount: target.count)
        }
        blackHole(state.copy[12345])
    } setup: {
        try prepare()
        state.copy = [UInt16](repeating: 0, count: state.frame!.image.frame.storage.count)
    } teardown: { finish() }

    Benchmark("live-preview bin-copy 12 MP to 1024 px (sensor thread, one core, clipping counted)") { _ in
        state.mosaic.fill(from: state.frame!, longEdge: 1024)
        blackHole(state.mosaic.width)
    } setup: { try prepare() } teardown: { finish() }

    for fps in [10.0, 15.0] {
        Benchmark("live-preview during a \(Int(fps)) fps 12 MP burst (3 s, two writers, peaking + zebra)",
                  configuration: .init(metrics: [.wallClock, .peakMemoryResident, previewRate, renderP50, renderP95, binCopyP95, burstDrops,
                                                 skippedPreviews],
                                       timeUnits: .milliseconds, warmupIterations: 0, maxDuration: .seconds(30), maxIterations: 3)) {
            benchmark in
            try burstWithPreviews(benchmark, fps: fps)
        }
    }

    Benchmark("live-preview full preview 12 MP, 1024 px JPEG + histogram, no overlays") { _ in
        previewOnce()
    } setup: { try prepare(overlays: LiveOverlays()) } teardown: { finish() }

    Benchmark("live-preview full preview 12 MP, 1024 px JPEG + histogram + peaking medium + zebra") { _ in
        previewOnce()
    } setup: { try prepare(overlays: LiveOverlays(peaking: true, zebra: true)) } teardown: { finish() }
}
