import Benchmark
import RawBurst

// Issue #33: the simulated sensor renders ahead of its clock (`RenderAheadSource`) and hands a made frame over on its
// tick. Goal: at most 5 ms of the tick per 12 MP frame. Each iteration first waits (unmeasured) until the render
// thread has the frame made, then measures only what the sensor thread does on the tick: the readiness check and the
// hand-over — a lent pool slot changing hands (one sensor), or a copy into the slot (two sensors' own buffers).

/// The wrapped sensor and the buffers of the running benchmark (one at a time, hence no lock).
final class AheadState: @unchecked Sendable {
    var source: RenderAheadSource?
    var spare: PixelStorage?
}

let ahead = AheadState()

/// A phone-wide sensor on the colour chart with fixed settings, rendering two frames ahead into lent slots or its own
/// buffers.
func prepareAhead(ownsBuffers: Bool) throws {
    let profile = SensorProfile.builtIn(named: "phone-wide")!
    let sensor = try SimulatedSensor(profile: profile, scene: try SceneCatalog.scene(named: "colorchart"), seed: 7)
    try sensor.configure(fixedSettings())
    let source = RenderAheadSource(sensor, depth: 2, ownsBuffers: ownsBuffers)
    if !ownsBuffers {
        for _ in 0..<2 { try source.lend(PixelStorage(count: source.samplesPerFrame)) }
    }
    ahead.source = source
    ahead.spare = PixelStorage(count: source.samplesPerFrame)
}

func releaseAhead() {
    ahead.source?.finish()
    _ = ahead.source?.returnBorrowed()
    ahead.source = nil
    ahead.spare = nil
}

func renderAheadBenchmarks() {
    for (label, ownsBuffers) in [("one sensor, lent slot changes hands", false), ("two sensors' own buffers, copied into the slot", true)] {
        Benchmark("Render-ahead: frame handed over on its tick, \(label) (phone-wide 12 MP)",
                  configuration: .init(metrics: [.wallClock], timeUnits: .microseconds, maxIterations: 40),
                  closure: { benchmark in
            let source = ahead.source!
            // The render thread makes the frame meanwhile (~20 ms): not the tick's work.
            _ = source.awaitNextFrame(due: nil, until: nil)
            benchmark.startMeasurement()
            let due = MonotonicClock.nanoseconds()
            guard source.awaitNextFrame(due: due, until: due) == .ready else { fatalError("not made ahead") }
            let frame = ownsBuffers ? try source.nextFrame(into: ahead.spare!) : try source.nextFrame(replacing: ahead.spare!)
            benchmark.stopMeasurement()
            // The slot handed over goes back as the next replacement (a writer would release it).
            if !ownsBuffers { ahead.spare = frame.image.frame.storage }
            blackHole(frame.sequenceNumber)
        }, setup: { try prepareAhead(ownsBuffers: ownsBuffers) }, teardown: { releaseAhead() })
    }
}
