import Foundation
import RawCapture
import RawCore
import RawSources
import TestSupport
import Testing

/// A stream on its own clock, as a camera or a pipe delivers: it plays `script` — a frame delivered, or a frame
/// lost with a reason — then ends (optionally in the middle of a frame). Frames come from a small simulated sensor.
final class ScriptedStream: FrameSource {
    enum Event { case frame, lost(FrameLoss.Reason) }
    let inner: any FrameSource
    private var script: [Event]
    private let endsMidFrame: Bool
    private var number: UInt64 = 0
    private var losses: [FrameLoss] = []
    private(set) var hasEnded = false
    /// When each call to `nextFrame` returned (ns).
    private(set) var deliveries: [UInt64] = []
    /// Times `finish` was called, and how many frames had been asked for then.
    private(set) var finished: [Int] = []
    private var asked = 0
    func finish() {
        finished.append(asked)
        for reason in lossesAtFinish {
            losses.append(FrameLoss(sequenceNumber: number, reason: reason, detail: "found at finish"))
            number += 1
        }
    }
    /// Losses the stream finds only when the burst finishes (a stream's timestamps arriving late).
    var lossesAtFinish: [FrameLoss.Reason] = []

    init(_ inner: any FrameSource, script: [Event], endsMidFrame: Bool) {
        self.inner = inner
        self.script = script
        self.endsMidFrame = endsMidFrame
    }
    var pacing: FramePacing { .source }
    var capabilities: SourceCapabilities { inner.capabilities }
    var samplesPerFrame: Int { inner.samplesPerFrame }
    func configure(_ settings: CaptureSettings) throws(CaptureSettingsError) { try inner.configure(settings) }
    func skipFrame() -> UInt64 { number }
    func takeLosses() -> [FrameLoss] {
        defer { losses = [] }
        return losses
    }
    func nextFrame(into storage: PixelStorage) throws(FrameSourceError) -> CapturedFrame {
        asked += 1
        while let event = script.first {
            script.removeFirst()
            switch event {
            case .lost(let reason):
                losses.append(FrameLoss(sequenceNumber: number, reason: reason))
                number += 1
            case .frame:
                let made = try inner.nextFrame(into: storage)
                defer { number += 1 }
                deliveries.append(MonotonicClock.nanoseconds())
                return CapturedFrame(image: made.image, settings: made.settings, sequenceNumber: number,
                                     monotonicNanoseconds: made.monotonicNanoseconds, latenessNanoseconds: 0,
                                     sensorName: made.sensorName)
            }
        }
        if endsMidFrame {
            losses.append(FrameLoss(sequenceNumber: number, reason: .incomplete, detail: "12 of 40 bytes"))
            number += 1
        }
        hasEnded = true
        throw FrameSourceError("end of input")
    }
}

/// Sources on their own clock: taken as they come (not paced, never dropped late), their losses counted by reason,
/// the end of their stream a clean end.
@Suite struct SourceClockTests {
    static func burst(_ stream: ScriptedStream, frames: Int = 1000, directory: String) throws -> BurstSession.Report {
        var configuration = BurstSession.Configuration(
            frames: frames, overflow: .block, writers: 2,
            memoryBudget: BurstSessionTests.budget(slots: 4, sensor: stream, writers: 2), outputDirectory: directory)
        // A rate that the engine would keep for its own sources (2 fps: 8 frames would take 4 s); a stream keeps its own.
        configuration.clock = .realTime(fps: 2)
        return try BurstSession(source: stream, configuration: configuration).run()
    }

    @Test("every frame a stream produced is written or dropped with its reason; its end ends the burst cleanly")
    func lossesAndEnd() throws {
        let tmp = try TemporaryDirectory()
        let stream = ScriptedStream(try BurstSessionTests.sensor(), script: [
            .frame, .frame, .lost(.camera), .lost(.camera), .frame, .lost(.missingPackets), .frame, .lost(.timeout),
            .lost(.sizeMismatch), .frame, .frame,
        ], endsMidFrame: true)
        let report = try Self.burst(stream, directory: tmp.url.path)
        #expect(report.problems == [])
        #expect(report.stopCause == .sourceEnded && report.stopCause?.isClean == true)
        let ledger = report.ledger
        #expect(ledger.produced == (0..<UInt64(12)).map { $0 })
        #expect(Set(ledger.written) == [0, 1, 4, 6, 9, 10])
        let drops = Dictionary(uniqueKeysWithValues: ledger.drops.map { ($0.sequenceNumber, $0.reason) })
        #expect(drops == [2: .camera, 3: .camera, 5: .missingPackets, 7: .timeout, 8: .sizeMismatch, 11: .incomplete])
        // The files are the delivered frames, under their own numbers.
        let names = try FileManager.default.contentsOfDirectory(atPath: tmp.url.path).filter { $0.hasSuffix(".dng") }
        #expect(names.count == 6)
        // Not paced by the engine's 2 fps (0.5 s between frames): taken as they came.
        let gaps = zip(stream.deliveries, stream.deliveries.dropFirst()).map { Double($1 - $0) / 1e9 }
        #expect(gaps.count == 5 && gaps.allSatisfy { $0 < 0.35 }, "\(gaps)")
    }

    @Test("a stream that ends between frames ends the burst cleanly with nothing dropped")
    func cleanEnd() throws {
        let tmp = try TemporaryDirectory()
        let stream = ScriptedStream(try BurstSessionTests.sensor(), script: [.frame, .frame, .frame], endsMidFrame: false)
        let report = try Self.burst(stream, directory: tmp.url.path)
        #expect(report.problems == [] && report.failures.isEmpty)
        #expect(report.stopCause == .sourceEnded)
        #expect(report.ledger.written.sorted() == [0, 1, 2] && report.ledger.drops.isEmpty)
    }

    @Test("a frame count ends a stream's burst before its end")
    func frameCount() throws {
        let tmp = try TemporaryDirectory()
        let stream = ScriptedStream(try BurstSessionTests.sensor(), script: Array(repeating: .frame, count: 10), endsMidFrame: false)
        let report = try Self.burst(stream, frames: 4, directory: tmp.url.path)
        #expect(report.stopCause == nil && report.ledger.written.sorted() == [0, 1, 2, 3])
        // Told once, after the last frame it was asked for: a camera stops acquiring there.
        #expect(stream.finished == [4])
    }

    @Test("losses a source finds only at finish (late timestamps) are counted: produced = written + dropped")
    func lossesAtFinish() throws {
        let tmp = try TemporaryDirectory()
        let stream = ScriptedStream(try BurstSessionTests.sensor(), script: [.frame, .frame, .frame], endsMidFrame: false)
        stream.lossesAtFinish = [.camera]
        let report = try Self.burst(stream, frames: 2, directory: tmp.url.path)
        #expect(report.ledger.written.sorted() == [0, 1])
        #expect(report.ledger.drops.map(\.sequenceNumber) == [2] && report.ledger.drops.map(\.reason) == [.camera])
        #expect(report.ledger.produced.sorted() == [0, 1, 2])
    }
}
