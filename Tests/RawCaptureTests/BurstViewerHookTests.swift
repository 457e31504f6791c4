import Foundation
import RawCapture
import RawCore
import RawFiles
import RawSimulator
import RawSources
import TestSupport
import Testing

/// The viewfinder's hooks in the engine: a viewer sees every trigger's frames once with their pixels, a settings feed
/// changes the frames after it (or is refused), `waitForTrigger` starts a burst untriggered, and the progress counts
/// drops by reason.
@Suite struct BurstViewerHookTests {
    /// FNV-1a over samples: what the viewer copied must be what the DNG holds.
    static func checksum(_ samples: [UInt16]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for sample in samples {
            hash = (hash ^ UInt64(sample & 0xFF)) &* 0x100_0000_01b3
            hash = (hash ^ UInt64(sample >> 8)) &* 0x100_0000_01b3
        }
        return hash
    }

    /// A viewer that records each frame's sequence number, checksum and ISO, and every level it was called with.
    final class RecordingViewer: BurstFrameViewer, @unchecked Sendable {  // its fields only under `lock`
        private let lock = NSLock()
        private var seen: [(sequence: UInt64, checksum: UInt64, iso: Double)] = []
        private var calls = 0
        func view(_ frames: [CapturedFrame], level: BurstGovernor.Level) {
            let copied = frames.map { ($0.sequenceNumber, BurstViewerHookTests.checksum($0.image.frame.activeSamples()), $0.settings.iso) }
            lock.withLock {
                calls += 1
                seen += copied
            }
        }
        var frames: [(sequence: UInt64, checksum: UInt64, iso: Double)] { lock.withLock { seen } }
        var callCount: Int { lock.withLock { calls } }
    }

    /// A feed that hands out settings once armed, and records what became of them.
    final class ArmedFeed: BurstSettingsFeed, @unchecked Sendable {  // its fields only under `lock`
        private let lock = NSLock()
        private var pending: CaptureSettings?
        private var outcomes: [(CaptureSettings, CaptureSettingsError?)] = []
        func arm(_ settings: CaptureSettings) { lock.withLock { pending = settings } }
        func pendingSettings() -> CaptureSettings? {
            lock.withLock {
                defer { pending = nil }
                return pending
            }
        }
        func settingsApplied(_ settings: CaptureSettings, refusal: CaptureSettingsError?) {
            lock.withLock { outcomes.append((settings, refusal)) }
        }
        var results: [(CaptureSettings, CaptureSettingsError?)] { lock.withLock { outcomes } }
    }

    /// Every progress call, from any thread.
    final class ProgressLog: @unchecked Sendable {  // its fields only under `lock`
        private let lock = NSLock()
        private var log: [BurstSession.Progress] = []
        func append(_ progress: BurstSession.Progress) { lock.withLock { log.append(progress) } }
        var calls: [BurstSession.Progress] { lock.withLock { log } }
    }

    static let base = CaptureSettings(iso: 100, shutter: 1.0 / 100, focus: .metres(1.5), whiteBalance: .preset(.daylight))

    static func configuration(frames: Int, slots: Int, sensor: SimulatedSensor, output: String,
                              overflow: OverflowPolicy = .block) -> BurstSession.Configuration {
        BurstSession.Configuration(frames: frames, overflow: overflow, writers: 2,
                                   memoryBudget: BurstSessionTests.budget(slots: slots, sensor: sensor, writers: 2),
                                   outputDirectory: output)
    }

    @Test("the viewer sees every trigger's frames once, slotted or dropped, with the pixels the DNGs hold")
    func viewerSeesEveryFrameOnce() throws {
        let tmp = try TemporaryDirectory()
        let sensor = try BurstEngineTests.sensor()
        var configuration = Self.configuration(frames: 16, slots: 2, sensor: sensor, output: tmp.url.path, overflow: .dropNewest)
        let viewer = RecordingViewer()
        configuration.viewer = viewer
        let session = try BurstSession(source: sensor, configuration: configuration)
        // Slow writers: the two slots fill and later frames are made into the spares and dropped.
        let report = session.run(hooks: BurstSession.Hooks(beforeWrite: { _ in usleep(30_000) }))
        #expect(report.problems == [])
        let seen = viewer.frames
        #expect(viewer.callCount == 16)
        #expect(seen.map(\.sequence) == BurstEngineTests.numbers(0..<16))
        let poolFull = report.ledger.drops.filter { $0.reason == .poolFull }.map(\.sequenceNumber)
        #expect(!poolFull.isEmpty && !report.ledger.written.isEmpty, "both slotted and dropped frames were viewed")
        let reference = try BurstEngineTests.referenceFrames(count: 16)
        for (n, entry) in seen.enumerated() {
            #expect(entry.checksum == Self.checksum(reference[n]), "frame \(n) as viewed")
        }
        for n in report.ledger.written {
            let path = tmp.url.appendingPathComponent(BurstEngineTests.fileName(n)).path
            let written = try RawFileReader().read(path: path).frame.activeSamples()
            #expect(Self.checksum(written) == seen[Int(n)].checksum, "frame \(n)'s DNG holds what the viewer saw")
        }
    }

    @Test("settings fed after trigger k apply from frame k on: AppliedSettings and the DNG's EXIF ISO", arguments: [1, 4])
    func fedSettingsApplyToTheNextFrames(after k: Int) throws {
        let tmp = try TemporaryDirectory()
        let sensor = try BurstEngineTests.sensor()
        var configuration = Self.configuration(frames: 7, slots: 3, sensor: sensor, output: tmp.url.path)
        let feed = ArmedFeed()
        configuration.settingsFeed = feed
        let session = try BurstSession(source: sensor, configuration: configuration)
        var changed = Self.base
        changed.iso = 400
        let report = session.run(hooks: BurstSession.Hooks(afterTrigger: { count in if count == k { feed.arm(changed) } }))
        #expect(report.problems == [])
        #expect(feed.results.count == 1 && feed.results.first?.1 == nil)
        #expect(report.frames.count == 7)
        for record in report.frames {
            let expected: Double = record.sequenceNumber >= UInt64(k) ? 400 : 100
            #expect(record.settings.iso == expected, "frame \(record.sequenceNumber)'s settings")
            #expect(try RawFileReader().read(path: record.path).metadata.iso == expected, "frame \(record.sequenceNumber)'s EXIF")
        }
    }

    @Test("a setting out of range is refused with the source's reason and the burst goes on with the old ones")
    func refusedSettingsKeepTheOldOnes() throws {
        let tmp = try TemporaryDirectory()
        let sensor = try BurstEngineTests.sensor()
        var configuration = Self.configuration(frames: 5, slots: 3, sensor: sensor, output: tmp.url.path)
        let feed = ArmedFeed()
        configuration.settingsFeed = feed
        var wrong = Self.base
        wrong.iso = 10_000_000
        feed.arm(wrong)
        let report = try BurstSession(source: sensor, configuration: configuration).run()
        #expect(report.problems == [] && report.stopReason == nil)
        #expect(feed.results.count == 1)
        #expect(feed.results.first?.1?.setting == "ISO")
        #expect(report.frames.count == 5 && report.frames.allSatisfy { $0.settings.iso == 100 })
    }

    @Test("with a bracketing plan every fed change is refused: the plan sets the settings")
    func planRefusesFedSettings() throws {
        let tmp = try TemporaryDirectory()
        let sensor = try BurstEngineTests.sensor()
        var configuration = Self.configuration(frames: 4, slots: 3, sensor: sensor, output: tmp.url.path)
        configuration.plan = (try BracketPlan(parsing: "iso:100,200"), Self.base)
        let feed = ArmedFeed()
        configuration.settingsFeed = feed
        var changed = Self.base
        changed.iso = 800
        let report = try BurstSession(source: sensor, configuration: configuration)
            .run(hooks: BurstSession.Hooks(afterTrigger: { count in if count == 1 { feed.arm(changed) } }))
        #expect(report.problems == [])
        #expect(feed.results.count == 1)
        #expect(feed.results.first?.1?.reason.contains("bracketing plan") == true)
        #expect(report.frames.sorted { $0.sequenceNumber < $1.sequenceNumber }.map(\.settings.iso) == [100, 200, 100, 200])
    }

    @Test("waitForTrigger: frames before the trigger are shown and dropped outside the pre-record, F after it written",
          arguments: [(kept: 0, k: 1, f: 3), (kept: 0, k: 6, f: 2), (kept: 2, k: 5, f: 2)])
    func waitForTriggerStartsUntriggered(kept: Int, k: Int, f: Int) throws {
        let tmp = try TemporaryDirectory()
        let sensor = try BurstEngineTests.sensor()
        var configuration = Self.configuration(frames: f, slots: max(2, kept + 1), sensor: sensor, output: tmp.url.path)
        configuration.waitForTrigger = true
        configuration.preRecordFrames = kept
        let viewer = RecordingViewer()
        configuration.viewer = viewer
        let session = try BurstSession(source: sensor, configuration: configuration)
        #expect(session.memory.slots >= max(2, kept + 1))
        let progress = ProgressLog()
        let report = session.run(progress: { progress.append($0) },
                                 hooks: BurstSession.Hooks(afterTrigger: { count in if count == k { session.trigger() } }))
        #expect(report.problems == [] && report.stopReason == nil)
        #expect(report.triggeredAtSequenceNumber == UInt64(k))
        #expect(report.ledger.produced == BurstEngineTests.numbers(0..<(k + f)))
        let dropped = max(0, k - kept)
        #expect(report.ledger.written.sorted() == BurstEngineTests.numbers(dropped..<(k + f)))
        #expect(report.ledger.drops == BurstEngineTests.numbers(0..<dropped).map { .init(sequenceNumber: $0, reason: .outsidePreRecord) })
        #expect(viewer.frames.map(\.sequence) == BurstEngineTests.numbers(0..<(k + f)))
        #expect(report.pool.occupied == 0)
        // Before the trigger the progress says so; the counts by reason always sum to the drops.
        let calls = progress.calls
        #expect(calls.allSatisfy { $0.droppedByReason.values.reduce(0, +) == $0.dropped })
        #expect((k == 1 || calls.contains { $0.waitingForTrigger }) && calls.last?.waitingForTrigger == false)
        let most = calls.max { $0.dropped < $1.dropped }
        #expect((most?.droppedByReason ?? [:]) == (dropped == 0 ? [:] : [.outsidePreRecord: dropped]))
    }

    @Test("the progress's drops by reason match the ledger's")
    func progressCountsDropsByReason() throws {
        let tmp = try TemporaryDirectory()
        let sensor = try BurstEngineTests.sensor()
        var configuration = Self.configuration(frames: 14, slots: 2, sensor: sensor, output: tmp.url.path, overflow: .dropNewest)
        configuration.waitForTrigger = true
        let session = try BurstSession(source: sensor, configuration: configuration)
        let progress = ProgressLog()
        let report = session.run(progress: { progress.append($0) },
                                 hooks: BurstSession.Hooks(beforeWrite: { _ in usleep(30_000) },
                                                           afterTrigger: { count in if count == 3 { session.trigger() } }))
        #expect(report.problems == [])
        var expected: [BurstLedger.DropReason: Int] = [:]
        for drop in report.ledger.drops { expected[drop.reason, default: 0] += 1 }
        #expect(expected[.outsidePreRecord] == 3 && (expected[.poolFull] ?? 0) > 0)
        let calls = progress.calls
        #expect(calls.allSatisfy { $0.droppedByReason.values.reduce(0, +) == $0.dropped })
        #expect(calls.max { $0.dropped < $1.dropped }?.droppedByReason == expected)
    }
}
