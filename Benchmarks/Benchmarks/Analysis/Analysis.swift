import Benchmark
import BenchSupport
import Foundation
import RawBurst

// Issue #6's speed targets (docs/benchmarks.md): a raw histogram of a 12 MP frame in at most 5 ms on one core, and a
// focus-peaking mask of a 12 MP frame in at most 8 ms on two cores. The frame is the simulated phone-wide sensor's
// 4032x3024 14-bit depth scene, captured once; the copy of its samples is the memory-bandwidth reference.

final class AnalysisState: @unchecked Sendable {
    var frame: RawFrame?
    var copy: [UInt16] = []
}

let state = AnalysisState()

func prepare() throws {
    let sensor = try SimulatedSensor(profile: SensorProfile.builtIn(named: "phone-wide")!, scene: SceneCatalog.scene(named: "depth"),
                                     seed: 1)
    try sensor.configure(CaptureSettings(iso: 100, shutter: 1.0 / 60, focus: .metres(2)))
    state.frame = try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame)).image.frame
    state.copy = [UInt16](repeating: 0, count: sensor.samplesPerFrame)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], // never ARC metrics here
        timeUnits: .microseconds,
        warmupIterations: 2,
        maxDuration: .seconds(10),
        maxIterations: 100
    )

    Benchmark("copy of the 12 MP frame's samples (memory-bandwidth reference)") { _ in
        let frame = state.frame!
        state.copy.withUnsafeMutableBytes { target in
            target.baseAddress!.copyMemory(from: frame.storage.baseAddress, byteCount: target.count)
        }
        blackHole(state.copy[12345])
    } setup: { try prepare() } teardown: { state.frame = nil }

    Benchmark("RawHistogram 12 MP, one core (full depth, per CFA colour)") { _ in
        blackHole(RawHistogram(frame: state.frame!).channels.count)
    } setup: { try prepare() } teardown: { state.frame = nil }

    Benchmark("focus-peaking mask 12 MP, two cores (luma + gradient + 4% threshold)") { _ in
        let field = GradientField(frame: state.frame!, threads: 2, countingMagnitudes: true)
        blackHole(FocusPeaking(field, rule: .fraction(0.04), threads: 2).mask.count)
    } setup: { try prepare() } teardown: { state.frame = nil }

    Benchmark("focus-peaking mask 12 MP, two cores, medium level (absolute contrast + noise model, the default)") { _ in
        let field = GradientField(frame: state.frame!, threads: 2)
        blackHole(FocusPeaking(field, rule: .medium, threads: 2).mask.count)
    } setup: { try prepare() } teardown: { state.frame = nil }

    Benchmark("focus-peaking mask 12 MP, two cores, sd:1,2,3 levels") { _ in
        let field = GradientField(frame: state.frame!, threads: 2)
        blackHole(FocusPeaking(field, rule: .deviations([1, 2, 3]), threads: 2).mask.count)
    } setup: { try prepare() } teardown: { state.frame = nil }

    Benchmark("FrameAnalysis 12 MP, two cores (histograms, sharpness, clipping, metering)") { _ in
        var options = FrameAnalysis.Options()
        options.threads = 2
        blackHole(FrameAnalysis(frame: state.frame!, options: options).sharpness?.score ?? 0)
    } setup: { try prepare() } teardown: { state.frame = nil }
}
