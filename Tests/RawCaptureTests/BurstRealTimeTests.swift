import Foundation
import RawCapture
import RawCore
import RawSimulator
import RawSources
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A source whose every frame takes `milliseconds` longer than its inner source's (a slow readout).
final class SlowSource: FrameSource {
    let inner: any FrameSource
    let microseconds: UInt32
    init(_ inner: any FrameSource, milliseconds: UInt32) {
        self.inner = inner
        microseconds = milliseconds * 1000
    }
    var capabilities: SourceCapabilities { inner.capabilities }
    var samplesPerFrame: Int { inner.samplesPerFrame }
    var workingMemoryBytes: Int { inner.workingMemoryBytes }
    func configure(_ settings: CaptureSettings) throws(CaptureSettingsError) { try inner.configure(settings) }
    func nextFrame(into storage: PixelStorage) throws(FrameSourceError) -> CapturedFrame {
        let frame = try inner.nextFrame(into: storage)
        usleep(microseconds)
        return frame
    }
    func skipFrame() -> UInt64 { inner.skipFrame() }
}

/// A real-time clock, honestly: late frames dropped (or, asked for, taken late), and a duration in wall time.
@Suite struct BurstRealTimeTests {
    /// A 20 fps burst of `frames` frames from a sensor that needs 70 ms per frame (its frames end 20 ms past the next
    /// tick, and the one after starts 20 ms late: more than half the 50 ms interval).
    static func slowBurst(late: LateFramePolicy, frames: Int, directory: String) throws -> BurstSession.Report {
        let sensor = SlowSource(try BurstSessionTests.sensor(), milliseconds: 70)
        var configuration = BurstSession.Configuration(
            frames: frames, overflow: .block, writers: 2,
            memoryBudget: BurstSessionTests.budget(slots: 6, sensor: sensor, writers: 2), outputDirectory: directory)
        configuration.clock = .realTime(fps: 20)
        configuration.late = late
        configuration.governor = false
        return try BurstSession(source: sensor, configuration: configuration).run()
    }

    @Test("--late drop: a frame that cannot start within half an interval is dropped as late, its number kept")
    func lateFramesAreDropped() throws {
        let tmp = try TemporaryDirectory()
        let report = try Self.slowBurst(late: .drop, frames: 12, directory: tmp.url.path)
        #expect(report.problems == [])
        let ledger = report.ledger
        // Every tick's frame is produced once, in order, with no number reused or skipped.
        #expect(ledger.produced == (0..<UInt64(12)).map { $0 })
        let late = ledger.drops.filter { $0.reason == .late }.map(\.sequenceNumber)
        #expect(late.count == ledger.drops.count && !late.isEmpty, "\(ledger.drops)")
        #expect(Set(ledger.written).isDisjoint(with: late) && ledger.written.count + late.count == 12)
        // No frame taken was more than half an interval (25 ms) late, and the one after a late drop started on its own tick.
        for frame in report.frames { #expect(frame.latenessNanoseconds <= 25_000_000, "\(frame.sequenceNumber)") }
        for n in late where n + 1 < 12 && !late.contains(n + 1) {
            let next = try #require(report.frames.first { $0.sequenceNumber == n + 1 })
            #expect(next.latenessNanoseconds <= 25_000_000)
        }
    }

    @Test("--late wait: every frame is taken, late, as before")
    func waitTakesFramesLate() throws {
        let tmp = try TemporaryDirectory()
        let report = try Self.slowBurst(late: .wait, frames: 6, directory: tmp.url.path)
        #expect(report.problems == [])
        #expect(report.ledger.drops.isEmpty && report.ledger.written.sorted() == (0..<UInt64(6)).map { $0 })
        // Each frame needs 70 ms against a 50 ms interval: frame 5 starts at least 5 × 20 ms behind its tick.
        let last = try #require(report.frames.first { $0.sequenceNumber == 5 })
        #expect(last.latenessNanoseconds >= 95_000_000, "\(last.latenessNanoseconds)")
    }

    /// A 20 fps burst of up to 1000 frames lasting `seconds`, six slots, two writers.
    static func timed(_ sensor: some FrameSource, seconds: Double, directory: String) -> BurstSession.Configuration {
        var configuration = BurstSession.Configuration(
            frames: 1000, overflow: .block, writers: 2,
            memoryBudget: BurstSessionTests.budget(slots: 6, sensor: sensor, writers: 2), outputDirectory: directory)
        configuration.clock = .realTime(fps: 20)
        configuration.duration = seconds
        return configuration
    }

    @Test("--duration is wall time: the thermal state halves the rate and the burst makes half the frames in the same time")
    func durationHoldsInWallTime() throws {
        let tmp = try TemporaryDirectory()
        let sensor = try BurstSessionTests.sensor()
        var configuration = Self.timed(sensor, seconds: 0.5, directory: tmp.url.path)
        configuration.thermal = try ThermalSchedule(parsing: "serious@0s")
        let start = MonotonicClock.nanoseconds()
        let report = try BurstSession(source: sensor, configuration: configuration).run()
        let seconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
        #expect(report.problems == [])
        // At 10 fps ticks fall at 0, 100, ..., 400 ms: five before the 500 ms deadline, dropped late or written.
        #expect(report.producedCount == 5, "\(report.ledger)")
        #expect(seconds < 2, "\(seconds) s")
        // Without the thermal state: twice as many.
        configuration.thermal = nil
        configuration.governor = false
        let second = try TemporaryDirectory()
        configuration.outputDirectory = second.url.path
        let full = try BurstSession(source: try BurstSessionTests.sensor(), configuration: configuration).run()
        #expect(full.producedCount == 10)
    }

    @Test("a pause does not count against the duration")
    func pauseExtendsTheDeadline() throws {
        let tmp = try TemporaryDirectory()
        let sensor = try BurstSessionTests.sensor()
        var configuration = Self.timed(sensor, seconds: 0.33, directory: tmp.url.path)
        configuration.governor = false
        let session = try BurstSession(source: sensor, configuration: configuration)
        var hooks = BurstSession.Hooks()
        hooks.afterTrigger = { count in
            guard count == 2 else { return }
            session.pause()
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.4) { session.resume() }
        }
        let report = session.run(hooks: hooks)
        #expect(report.problems == [] && report.pauses == 1)
        // Ticks 0 and 50 ms, then the 400 ms pause (not counted), then the 250–280 ms left: ticks at 0, 50, ... 250 ms
        // after the resume (6), or 5 when the pause began more than 30 ms after tick 50. Counted against the
        // duration, the pause would have left 2 frames.
        #expect((7...8).contains(report.producedCount), "\(report.ledger)")
    }
}
