import Foundation
import RawCapture
import RawCore
import RawFiles
import RawSimulator
import RawSources
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The engine with a sensor that renders ahead of its clock (`RenderAheadSource`), on a real-time clock: the engine's
/// own lateness loses no frame that was made in time, a frame is late only when its making fell behind, and the two
/// are counted apart (`late`, `sensor-late`). Real-time: serialized, and kept apart from parallel suites by its name.
@Suite(.serialized) struct RenderAheadRealTimeTests {
    /// A 20 fps burst of `frames` frames from `source` with a slot for every frame (slow writers on a busy machine must
    /// not make frames late), two writers, `block`, `--late drop`, no governor.
    static func burst(_ source: any FrameSource, frames: Int, directory: String,
                      stallAfterTrigger: (trigger: Int, milliseconds: UInt32)? = nil) throws -> BurstSession.Report {
        var configuration = BurstSession.Configuration(
            frames: frames, overflow: .block, writers: 2,
            memoryBudget: BurstSessionTests.budget(slots: frames + 2, sensor: source, writers: 2), outputDirectory: directory)
        configuration.clock = .realTime(fps: 20)
        configuration.governor = false
        let session = try BurstSession(source: source, configuration: configuration)
        var hooks = BurstSession.Hooks()
        if let stall = stallAfterTrigger {
            hooks.afterTrigger = { count in if count == stall.trigger { usleep(stall.milliseconds * 1000) } }
        }
        return session.run(hooks: hooks)
    }

    @Test("the sensor thread stalled for 1.8 intervals: frames made ahead wait for it, none is dropped, each keeps its tick")
    func engineStallLosesNothingMadeAhead() throws {
        let tmp = try TemporaryDirectory()
        let source = RenderAheadSource(try BurstSessionTests.sensor(), depth: 2, ownsBuffers: false)
        let report = try Self.burst(source, frames: 12, directory: tmp.url.path, stallAfterTrigger: (4, 90))
        #expect(report.problems == [])
        #expect(report.ledger.drops.isEmpty, "\(report.ledger.drops)")
        #expect(report.ledger.written.sorted() == BurstEngineTests.numbers(0..<12))
        // Each frame's exposure is its tick: 50 ms apart, the stall or not.
        let first = try #require(report.frames.first { $0.sequenceNumber == 0 })
        for frame in report.frames {
            let offset = Double(frame.monotonicNanoseconds - first.monotonicNanoseconds) / 1e6
            #expect(abs(offset - Double(frame.sequenceNumber) * 50) < 0.01, "frame \(frame.sequenceNumber) exposed at \(offset) ms")
        }
        // The same stall with a sensor that renders on the tick: the frame whose tick passed during it is lost.
        let plain = try TemporaryDirectory()
        let onTheTick = try Self.burst(try BurstSessionTests.sensor(), frames: 12, directory: plain.url.path,
                                       stallAfterTrigger: (4, 90))
        #expect(onTheTick.ledger.drops.contains { $0.reason == .late }, "\(onTheTick.ledger.drops)")
    }

    @Test("a render slower than the rate: frames are dropped as sensor-late (not late), every number accounted for, every written frame the sensor's own")
    func slowRenderingIsSensorLate() throws {
        let tmp = try TemporaryDirectory()
        let source = RenderAheadSource(SlowSource(try BurstSessionTests.sensor(), milliseconds: 80), depth: 2,
                                       ownsBuffers: false)
        let report = try Self.burst(source, frames: 16, directory: tmp.url.path)
        #expect(report.problems == [])
        let ledger = report.ledger
        #expect(ledger.produced == BurstEngineTests.numbers(0..<16))
        let reasons = Set(ledger.drops.map(\.reason))
        #expect(reasons == [.sensorLate], "\(ledger.drops)")
        #expect(ledger.written.count + ledger.drops.count == 16 && ledger.written.count >= 4)
        // The numbers let go kept their noise seeds: each written frame is the sensor's frame of that number.
        let reference = try BurstEngineTests.referenceFrames(count: 16)
        for record in report.frames {
            let samples = try RawFileReader().read(path: record.path).frame.activeSamples()
            #expect(samples == reference[Int(record.sequenceNumber)], "frame \(record.sequenceNumber)")
        }
    }

    @Test("the engine stalled for six intervals: the two frames made ahead are taken; the ones whose buffers it held are its own late drops, not the sensor's")
    func heldBuffersAreTheEnginesLate() throws {
        let tmp = try TemporaryDirectory()
        let source = RenderAheadSource(try BurstSessionTests.sensor(), depth: 2, ownsBuffers: false)
        let report = try Self.burst(source, frames: 14, directory: tmp.url.path, stallAfterTrigger: (3, 300))
        #expect(report.problems == [])
        let ledger = report.ledger
        #expect(ledger.produced == BurstEngineTests.numbers(0..<14))
        #expect(Set(ledger.written).isSuperset(of: [3, 4]), "the frames made ahead of the stall: \(ledger.written)")
        #expect(!ledger.drops.isEmpty && ledger.drops.allSatisfy { $0.reason == .late }, "\(ledger.drops)")
    }
}
