import Foundation
import RawCapture
import RawCore
import RawDNG
import RawFiles
import RawSimulator
import RawSources
import RawTIFF
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The burst engine's features end to end: pre-record, pause, a synchronized pair, the governor and the thermal
/// schedule (storage faults and the memory plan: BurstFaultTests). Every test asserts exact
/// sequence numbers, counts, names and reasons; the few time checks are lower bounds a slow machine cannot break.
@Suite struct BurstEngineTests {
    // MARK: - Helpers

    /// A small (320-px-wide) built-in sensor looking at the colour chart, free-running, fixed settings.
    static func sensor(_ name: String = "phone-wide", seed: UInt64 = 1) throws -> SimulatedSensor {
        let profile = try #require(SensorProfile.builtIn(named: name)).resized(toWidth: 320)
        let sensor = try SimulatedSensor(profile: profile, scene: ColorChartScene(), seed: seed, clock: .freeRunning)
        try sensor.configure(CaptureSettings(iso: 100, shutter: 1.0 / 100, focus: .metres(1.5), whiteBalance: .preset(.daylight)))
        return sensor
    }

    /// The active samples of the first `count` frames of a fresh sensor like `sensor(name, seed:)`: what the
    /// burst's frame n must hold (the same seed makes the same frame again).
    static func referenceFrames(_ name: String = "phone-wide", seed: UInt64 = 1, count: Int) throws -> [[UInt16]] {
        let reference = try sensor(name, seed: seed)
        let storage = PixelStorage(count: reference.samplesPerFrame)
        return try (0..<count).map { _ in try reference.nextFrame(into: storage).image.frame.activeSamples() }
    }

    /// `phone-wide-0042.dng`.
    static func fileName(_ n: UInt64, sensor: String = "phone-wide") -> String {
        String(format: "%@-%04d.dng", sensor, Int(n))
    }

    /// Every name in `directory`.
    static func names(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory)
    }

    /// The DNG names in `directory`.
    static func dngNames(in directory: String) throws -> Set<String> {
        Set(try names(in: directory).filter { $0.hasSuffix(".dng") })
    }

    /// `lower..<upper` as sequence numbers.
    static func numbers(_ range: Range<Int>) -> [UInt64] { range.map(UInt64.init) }

    /// Waits (polling) until `condition` holds or `seconds` pass; returns whether it held.
    static func waitUntil(seconds: Double = 20, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(500)
        }
        return true
    }

    // MARK: - 1. Pre-record

    /// A pre-record of `n` frames, triggered after `k` triggers (0: before `run()`), then `f` frames, with
    /// `extraSlots` slots beyond the `n + 1` the pre-record needs.
    struct PreRecordCase: Sendable, CustomTestStringConvertible {
        let n: Int, k: Int, f: Int, extraSlots: Int
        var testDescription: String { "pre-record \(n), trigger after \(k), then \(f) frames, \(n + 1 + extraSlots) slots" }
    }

    static let preRecordCases: [PreRecordCase] = [
        .init(n: 1, k: 0, f: 3, extraSlots: 0), .init(n: 1, k: 1, f: 1, extraSlots: 0), .init(n: 1, k: 5, f: 2, extraSlots: 0),
        .init(n: 3, k: 0, f: 1, extraSlots: 1), .init(n: 3, k: 2, f: 3, extraSlots: 0), .init(n: 3, k: 3, f: 1, extraSlots: 0),
        .init(n: 3, k: 7, f: 2, extraSlots: 0), .init(n: 3, k: 7, f: 2, extraSlots: 3),
        .init(n: 5, k: 4, f: 1, extraSlots: 0), .init(n: 5, k: 5, f: 3, extraSlots: 0), .init(n: 5, k: 9, f: 4, extraSlots: 0),
        .init(n: 5, k: 9, f: 1, extraSlots: 2),
    ]

    @Test("pre-record keeps exactly the last N frames before the trigger and the F after it", arguments: preRecordCases)
    func preRecordKeepsTheRightFrames(_ c: PreRecordCase) throws {
        let tmp = try TemporaryDirectory()
        let sensor = try Self.sensor()
        var configuration = BurstSession.Configuration(
            frames: c.f, overflow: .block, writers: 2,
            memoryBudget: BurstSessionTests.budget(slots: c.n + 1 + c.extraSlots, sensor: sensor, writers: 2),
            outputDirectory: tmp.url.path)
        configuration.preRecordFrames = c.n
        let session = try BurstSession(source: sensor, configuration: configuration)
        #expect(session.pool.slotCount == c.n + 1 + c.extraSlots)
        var triggerCounts: [Int] = []
        var hooks = BurstSession.Hooks()
        if c.k == 0 {
            session.trigger()
        } else {
            hooks.afterTrigger = { count in
                triggerCounts.append(count)
                if count == c.k { session.trigger() }
            }
        }
        let report = session.run(hooks: hooks)

        let kept = max(0, c.k - c.n)
        #expect(report.problems == [])
        #expect(report.stopReason == nil && report.errors == [])
        #expect(report.triggeredAtSequenceNumber == UInt64(c.k))
        #expect(report.ledger.produced == Self.numbers(0..<(c.k + c.f)))
        #expect(report.ledger.written.sorted() == Self.numbers(kept..<(c.k + c.f)))
        #expect(report.ledger.drops == Self.numbers(0..<kept).map { .init(sequenceNumber: $0, reason: .outsidePreRecord) })
        if c.k > 0 { #expect(triggerCounts == Array(1...(c.k + c.f))) }
        #expect(report.pool.occupied == 0)
        #expect(try Self.dngNames(in: tmp.url.path) == Set(Self.numbers(kept..<(c.k + c.f)).map { Self.fileName($0) }))
        // Slots are reused while the window slides: each file must hold its own frame, not a newer one.
        let reference = try Self.referenceFrames(count: c.k + c.f)
        for n in kept..<(c.k + c.f) {
            let path = tmp.url.appendingPathComponent(Self.fileName(UInt64(n))).path
            #expect(try RawFileReader().read(path: path).frame.activeSamples() == reference[n], "frame \(n)")
        }
    }

    @Test("pre-record never triggered: nothing is written and every frame is dropped as outside the pre-record",
          arguments: [(preRecord: 3, stopAfter: 2), (preRecord: 3, stopAfter: 7), (preRecord: 1, stopAfter: 4)])
    func preRecordNeverTriggered(preRecord: Int, stopAfter: Int) throws {
        let tmp = try TemporaryDirectory()
        let sensor = try Self.sensor()
        var configuration = BurstSession.Configuration(
            frames: 5, overflow: .block, writers: 2,
            memoryBudget: BurstSessionTests.budget(slots: preRecord + 1, sensor: sensor, writers: 2),
            outputDirectory: tmp.url.path)
        configuration.preRecordFrames = preRecord
        let session = try BurstSession(source: sensor, configuration: configuration)
        var hooks = BurstSession.Hooks()
        hooks.afterTrigger = { count in if count == stopAfter { session.stop() } }
        let report = session.run(hooks: hooks)
        #expect(report.problems == [])
        #expect(report.triggeredAtSequenceNumber == nil)
        #expect(report.stopReason == "stopped on request")
        #expect(report.ledger.produced == Self.numbers(0..<stopAfter))
        #expect(report.ledger.written == [] && report.frames.isEmpty)
        // Dropped oldest first: those pushed out of the window, then the kept ones at the end.
        #expect(report.ledger.drops == Self.numbers(0..<stopAfter).map { .init(sequenceNumber: $0, reason: .outsidePreRecord) })
        #expect(report.pool.occupied == 0)
        #expect(try Self.dngNames(in: tmp.url.path).isEmpty)
    }

    // MARK: - 2. Pause and resume

    @Test func pauseHoldsTheSensorAndResumeGoesOn() throws {
        let tmp = try TemporaryDirectory()
        let sensor = try Self.sensor()
        var configuration = BurstSession.Configuration(
            frames: 8, overflow: .block, writers: 2, memoryBudget: BurstSessionTests.budget(slots: 3, sensor: sensor, writers: 2),
            outputDirectory: tmp.url.path)
        configuration.clock = .realTime(fps: 50)
        configuration.late = .wait
        let session = try BurstSession(source: sensor, configuration: configuration)
        let pausedSeen = Locked(false)
        var hooks = BurstSession.Hooks()
        hooks.afterTrigger = { count in
            guard count == 3 else { return }
            session.pause()
            let resumer = Thread {
                Thread.sleep(forTimeInterval: 0.2)
                pausedSeen.set(session.isPaused)
                session.resume()
            }
            resumer.start()
        }
        let report = session.run(hooks: hooks)
        #expect(report.problems == [])
        #expect(report.stopReason == nil)
        #expect(report.pauses == 1)
        #expect(pausedSeen.value)
        #expect(!session.isPaused)
        #expect(report.ledger.produced == Self.numbers(0..<8))
        #expect(report.ledger.written.sorted() == Self.numbers(0..<8) && report.ledger.drops.isEmpty)
        let started = Dictionary(uniqueKeysWithValues: report.frames.map { ($0.sequenceNumber, $0.monotonicNanoseconds) })
        let before = try #require(started[2]), after = try #require(started[3])
        // Frame 2 started before the pause; frame 3 only after the resume, at least 200 ms later.
        #expect(after > before && after - before >= 150_000_000, "gap \(Double(after &- before) / 1e6) ms")
        #expect(try Self.dngNames(in: tmp.url.path) == Set(Self.numbers(0..<8).map { Self.fileName($0) }))
    }

    @Test func stopWhilePausedEndsTheBurstWithTheBooksBalanced() throws {
        let tmp = try TemporaryDirectory()
        let sensor = try Self.sensor()
        var configuration = BurstSession.Configuration(
            frames: 8, overflow: .block, writers: 2, memoryBudget: BurstSessionTests.budget(slots: 3, sensor: sensor, writers: 2),
            outputDirectory: tmp.url.path)
        configuration.clock = .realTime(fps: 50)
        configuration.late = .wait
        let session = try BurstSession(source: sensor, configuration: configuration)
        var hooks = BurstSession.Hooks()
        hooks.afterTrigger = { count in
            guard count == 2 else { return }
            session.pause()
            let stopper = Thread {
                Thread.sleep(forTimeInterval: 0.2)
                session.stop(reason: "stopped while paused")
            }
            stopper.start()
        }
        let report = session.run(hooks: hooks)
        #expect(report.problems == [])
        #expect(report.stoppedEarly && report.stopReason == "stopped while paused")
        #expect(report.pauses == 1)
        // No frame is made while paused; the two taken are written.
        #expect(report.ledger.produced == [0, 1])
        #expect(report.ledger.written.sorted() == [0, 1] && report.ledger.drops.isEmpty)
        #expect(try Self.dngNames(in: tmp.url.path) == [Self.fileName(0), Self.fileName(1)])
    }

    // MARK: - 3. Two sensors

    /// A wide (seed 1) and front (seed 2) pair, free-running (the burst paces them).
    static func pair() throws -> BurstSource {
        .pair(DualSource(try sensor("phone-wide", seed: 1), try sensor("phone-front", seed: 2), clock: .freeRunning))
    }

    @Test func aPairWritesBothSensorsWithTheirOwnLedgers() throws {
        let tmp = try TemporaryDirectory()
        let source = try Self.pair()
        var configuration = BurstSession.Configuration(frames: 4, overflow: .block, writers: 2, outputDirectory: tmp.url.path)
        configuration.clock = .realTime(fps: 50)
        configuration.late = .wait
        configuration.memoryBudget = BurstMemoryPlan.budget(forSlots: 4, source: source, configuration: configuration)
        let session = try BurstSession(source: source, configuration: configuration)
        #expect(session.pool.slotCount == 4)
        let report = session.run()
        #expect(report.problems == [])
        #expect(report.stopReason == nil && report.errors == [])
        #expect(report.ledgers.keys.sorted() == ["phone-front", "phone-wide"])
        for name in ["phone-wide", "phone-front"] {
            let ledger = try #require(report.ledgers[name])
            #expect(ledger.produced == [0, 1, 2, 3], "\(name)")
            #expect(ledger.written.sorted() == [0, 1, 2, 3] && ledger.drops.isEmpty, "\(name)")
        }
        #expect(report.producedCount == 8 && report.writtenCount == 8)
        let expected = Set(["phone-wide", "phone-front"].flatMap { s in (0..<4).map { Self.fileName(UInt64($0), sensor: s) } })
        #expect(try Self.dngNames(in: tmp.url.path) == expected)
        // Both frames of a pair carry the pair's sequence number and trigger time.
        let bySequence = Dictionary(grouping: report.frames, by: \.sequenceNumber)
        #expect(bySequence.keys.sorted() == [0, 1, 2, 3])
        for (n, records) in bySequence {
            #expect(records.map(\.sensor).sorted() == ["phone-front", "phone-wide"], "pair \(n)")
            #expect(Set(records.map(\.monotonicNanoseconds)).count == 1, "pair \(n)")
            #expect(Set(records.map(\.captureTime)).count == 1 && records[0].captureTime != nil, "pair \(n)")
        }
        // Each file holds its own sensor's frame.
        for (name, seed) in [("phone-wide", UInt64(1)), ("phone-front", 2)] {
            let reference = try Self.referenceFrames(name, seed: seed, count: 4)
            for n in 0..<4 {
                let path = tmp.url.appendingPathComponent(Self.fileName(UInt64(n), sensor: name)).path
                #expect(try RawFileReader().read(path: path).frame.activeSamples() == reference[n], "\(name) frame \(n)")
            }
        }
    }

    @Test("drop-newest with a pair: a pair takes both slots or none, so both sensors drop the same frames")
    func aPairIsDroppedWhole() throws {
        let tmp = try TemporaryDirectory()
        let source = try Self.pair()
        var configuration = BurstSession.Configuration(frames: 8, overflow: .dropNewest, writers: 1, outputDirectory: tmp.url.path)
        // The smallest pool a pair can have: two slots per sensor.
        configuration.memoryBudget = BurstMemoryPlan.budget(forSlots: 4, source: source, configuration: configuration)
        let session = try BurstSession(source: source, configuration: configuration)
        #expect(session.pool.slotCount == 4)
        // The writer writes only when let: pair 0 and 1 fill the pool, pairs 2 and 3 find no slot; then one
        // slot is freed, so pairs 4...7 find one slot for two frames, and must drop both.
        let gate = Gate()
        var hooks = BurstSession.Hooks()
        hooks.beforeWrite = { _ in gate.pass() }
        let freed = Locked(true)
        hooks.afterTrigger = { count in
            if count == 4 {
                gate.allow(1)
                // Frame 0 (wide) written and its slot free; the writer holds 0 (front); pair 1 queued.
                freed.set(Self.waitUntil { session.pool.statistics.occupied == 3 && session.pool.statistics.queued == 2 })
                if !freed.value { gate.open() }
            }
            if count == 8 { gate.open() }
        }
        let report = session.run(hooks: hooks)
        gate.open()
        #expect(freed.value, "the writer never freed a slot")
        #expect(report.problems == [])
        #expect(report.stopReason == nil && report.errors == [])
        for name in ["phone-wide", "phone-front"] {
            let ledger = try #require(report.ledgers[name])
            #expect(ledger.produced == Self.numbers(0..<8), "\(name)")
            #expect(ledger.written.sorted() == [0, 1], "\(name)")
            #expect(ledger.drops == Self.numbers(2..<8).map { .init(sequenceNumber: $0, reason: .poolFull) }, "\(name)")
        }
        // The general rule: for every dropped sequence number, both sensors dropped it.
        let wideDrops = Set(report.ledgers["phone-wide"]?.drops.map(\.sequenceNumber) ?? [])
        let frontDrops = Set(report.ledgers["phone-front"]?.drops.map(\.sequenceNumber) ?? [])
        #expect(wideDrops == frontDrops)
        #expect(report.pool.highWater == 4 && report.pool.occupied == 0)
        #expect(try Self.dngNames(in: tmp.url.path)
                == [Self.fileName(0, sensor: "phone-wide"), Self.fileName(1, sensor: "phone-wide"),
                    Self.fileName(0, sensor: "phone-front"), Self.fileName(1, sensor: "phone-front")])
    }

    // MARK: - 4. Governor and thermal state

    @Test func aSeriousThermalStateHalvesTheRateFromTheFirstFrame() throws {
        let tmp = try TemporaryDirectory()
        let sensor = try Self.sensor()
        var configuration = BurstSession.Configuration(
            frames: 6, overflow: .block, writers: 2, memoryBudget: BurstSessionTests.budget(slots: 3, sensor: sensor, writers: 2),
            outputDirectory: tmp.url.path)
        configuration.clock = .realTime(fps: 40)
        configuration.late = .wait
        configuration.thermal = try ThermalSchedule(parsing: "serious@0s")
        let report = try BurstSession(source: sensor, configuration: configuration).run()
        #expect(report.problems == [])
        #expect(report.stopReason == nil)
        #expect(report.ledger.written.sorted() == Self.numbers(0..<6))
        // (A loaded machine may add lateness steps; the thermal ones are what this test is about.)
        let thermal = report.degradations.filter { if case .thermal = $0.cause { true } else { false } }
        #expect(thermal.count == 1)
        let step = try #require(thermal.first)
        #expect(step.level == "lower-rate" && step.fps == 20)
        #expect(step.reason == "thermal state serious")
        #expect(step.afterSequenceNumber == nil)
        #expect(step.effect == "DNGs without JPEG preview or raw digest, no analysis, development after the burst; frame rate 40 → 20 fps")
        // At 20 fps frame 5 is due 250 ms after the schedule starts (at 40 fps: 125 ms); never earlier.
        let last = try #require(report.frames.first { $0.sequenceNumber == 5 })
        #expect(last.monotonicNanoseconds - report.startedNanoseconds >= 245_000_000,
                "frame 5 at \(Double(last.monotonicNanoseconds - report.startedNanoseconds) / 1e6) ms")
    }

    @Test func aFairStateSkipsPreviewsAndCoolingLiftsTheFloor() throws {
        let tmp = try TemporaryDirectory()
        let sensor = try Self.sensor()
        var configuration = BurstSession.Configuration(
            frames: 10, overflow: .block, writers: 2, memoryBudget: BurstSessionTests.budget(slots: 3, sensor: sensor, writers: 2),
            outputDirectory: tmp.url.path)
        configuration.clock = .realTime(fps: 40)
        configuration.late = .wait
        configuration.thermal = try ThermalSchedule(parsing: "fair@0s,nominal@100ms")
        let report = try BurstSession(source: sensor, configuration: configuration).run()
        #expect(report.problems == [])
        #expect(report.ledger.written.sorted() == Self.numbers(0..<10))
        let thermal = report.degradations.filter { if case .thermal = $0.cause { true } else { false } }
        #expect(thermal.first?.level == "no-previews" && thermal.first?.reason == "thermal state fair")
        #expect(thermal.first?.afterSequenceNumber == nil)
        let cooled = thermal.last?.seconds ?? 0
        if report.degradations.count == thermal.count {
            // Cooling lifts the floor: back to full work.
            #expect(thermal.map(\.level) == ["no-previews", "normal"], "\(report.degradations)")
            #expect(thermal.last?.reason == "thermal state nominal" && cooled >= 0.1)
        } else {
            // A loaded machine made frames late: the governor's own steps keep what they gave up (a step that came with
            // the cooling carries its own cause).
            #expect(report.degradations.filter { $0.newLevel == .normal }.allSatisfy { $0.seconds >= 0.1 }, "\(report.degradations)")
        }
    }

    @Test func aCriticalThermalStateStopsTheBurst() throws {
        let tmp = try TemporaryDirectory()
        let sensor = try Self.sensor()
        var configuration = BurstSession.Configuration(
            frames: 6, overflow: .block, writers: 2, memoryBudget: BurstSessionTests.budget(slots: 3, sensor: sensor, writers: 2),
            outputDirectory: tmp.url.path)
        configuration.clock = .realTime(fps: 40)
        configuration.late = .wait
        configuration.thermal = try ThermalSchedule(parsing: "critical@0s")
        let report = try BurstSession(source: sensor, configuration: configuration).run()
        #expect(report.stoppedEarly && report.stopReason == "thermal state critical")
        #expect(report.producedCount == 0 && report.writtenCount == 0 && report.problems == [])
        #expect(try Self.dngNames(in: tmp.url.path).isEmpty)

        // Critical later: the frames taken before are all written.
        configuration.frames = 100
        configuration.thermal = try ThermalSchedule(parsing: "critical@200ms")
        let later = try TemporaryDirectory()
        configuration.outputDirectory = later.url.path
        let report2 = try BurstSession(source: try Self.sensor(), configuration: configuration).run()
        #expect(report2.stopReason == "thermal state critical")
        #expect(report2.problems == [])
        let produced = report2.ledger.produced
        #expect(produced.count < 100 && produced == Self.numbers(0..<produced.count))
        #expect(report2.ledger.written.sorted() == produced && report2.ledger.drops.isEmpty)
    }

    /// A 4-slot, one-writer block burst of `frames` frames whose writer writes frame s only once frame s + 3
    /// is in the pool: from the fourth trigger on, at least two slots are always queued (the governor's
    /// pressure depth for 4 slots and 1 writer), on any machine.
    static func pressuredBurst(frames: Int, governor: Bool, compression: DNGCompression = .none,
                               directory: String) throws -> BurstSession.Report {
        let sensor = try Self.sensor()
        var configuration = BurstSession.Configuration(
            frames: frames, overflow: .block, writers: 1, memoryBudget: BurstSessionTests.budget(slots: 4, sensor: sensor, writers: 1),
            outputDirectory: directory)
        configuration.dngOptions.compression = compression
        configuration.governor = governor
        let session = try BurstSession(source: sensor, configuration: configuration)
        #expect(session.pool.slotCount == 4)
        let triggers = Locked(0)
        var hooks = BurstSession.Hooks()
        hooks.afterTrigger = { count in triggers.set(count) }
        hooks.beforeWrite = { n in
            let wanted = min(Int(n) + 4, frames)
            _ = Self.waitUntil(seconds: 10) { triggers.value >= wanted }
        }
        return session.run(hooks: hooks)
    }

    @Test func queuePressureDegradesInTheDeclaredOrder() throws {
        let tmp = try TemporaryDirectory()
        let report = try Self.pressuredBurst(frames: 40, governor: true, compression: .lj92, directory: tmp.url.path)
        #expect(report.problems == [])
        #expect(report.stopReason == nil)
        #expect(report.ledger.written.sorted() == Self.numbers(0..<40))
        // A free-running lossless-JPEG burst limited by its CPU: its ladder has no rate to lower.
        #expect(BurstGovernor.ladder(bottleneck: .cpu, compression: .lj92, shedsWork: true, packable: true, realTime: false)
                == [.noPreviews, .packed, .uncompressed])
        // The writer lags four frames behind from the start: the pool is full within a few triggers, so the governor
        // climbs before it is (no frame waits for a slot with a rung left), in the ladder's order, never back down.
        let levels = report.degradations.map(\.newLevel)
        #expect(levels.last == .uncompressed && levels == levels.sorted(), "\(report.degradations)")
        #expect(report.degradations.first.map { $0.afterSequenceNumber ?? 0 <= 4 } == true, "\(report.degradations)")
        for step in report.degradations {
            #expect(step.reason.hasPrefix("pool "), "\(step.reason)")
        }
        // Shedding gives up the raw digest: frames written after it carry none, and their records say so.
        #expect(report.degradations.first?.effect.contains("without JPEG preview or raw digest") == true)
        let last = try #require(report.frames.max { $0.sequenceNumber < $1.sequenceNumber })
        #expect(!last.rawImageDigest && last.compression == .none)
        #expect(try TIFFStructure.read(path: last.path).mainDirectory[TIFFTag.newRawImageDigest] == nil)
        #expect(report.frames.min { $0.sequenceNumber < $1.sequenceNumber }?.compression == .lj92)
    }

    @Test func withoutTheGovernorNothingDegrades() throws {
        let tmp = try TemporaryDirectory()
        let report = try Self.pressuredBurst(frames: 25, governor: false, directory: tmp.url.path)
        #expect(report.problems == [])
        #expect(report.ledger.written.sorted() == Self.numbers(0..<25))
        #expect(report.degradations.isEmpty)
        // Every frame keeps its raw digest.
        #expect(report.frames.count == 25 && report.frames.allSatisfy(\.rawImageDigest))
        for record in report.frames.prefix(3) {
            #expect(try TIFFStructure.read(path: record.path).mainDirectory[TIFFTag.newRawImageDigest]?.count == 16)
        }
    }
}

/// A value shared between the test and the burst's threads.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func set(_ value: Value) { lock.withLock { stored = value } }
}

/// Lets a writer through a given number of times, or always once opened.
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var tokens = 0
    private var isOpen = false

    /// Waits for a token or for the gate to open (at most 20 s, so a broken burst cannot hang the tests).
    func pass() {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(20)
        while tokens == 0 && !isOpen {
            if !condition.wait(until: deadline) { return }
        }
        if !isOpen { tokens -= 1 }
    }

    func allow(_ count: Int) {
        condition.lock()
        tokens += count
        condition.broadcast()
        condition.unlock()
    }

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }
}
