import Foundation
import RawCapture
import RawCore
import RawDNG
import RawFiles
import RawSimulator
import RawSources
import TestSupport
import Testing

/// `BurstSession`: frames from a simulated sensor through the pool to DNG files, under each overflow policy.
@Suite struct BurstSessionTests {
    /// A small phone-wide (320x240) looking at the colour chart, fixed settings so frames are quick.
    static func sensor(fps: Double? = nil, seed: UInt64 = 1) throws -> SimulatedSensor {
        let profile = try #require(SensorProfile.builtIn(named: "phone-wide")).resized(toWidth: 320)
        let sensor = try SimulatedSensor(profile: profile, scene: ColorChartScene(), seed: seed,
                                         clock: fps.map { .realTime(fps: $0) } ?? .freeRunning)
        try sensor.configure(CaptureSettings(iso: 100, shutter: 1.0 / 100, focus: .metres(1.5), whiteBalance: .preset(.daylight)))
        return sensor
    }

    /// A budget for `slots` slots of `sensor`'s frames with `writers` writers, worked out here from the plan's
    /// rule: the sensor's working memory, the slots, a spare frame, 8 MiB per writer and 32 MiB for the process.
    static func budget(slots: Int, sensor: some FrameSource, writers: Int) -> Int {
        sensor.workingMemoryBytes + (slots + 1) * sensor.samplesPerFrame * 2 + writers * (8 << 20) + (32 << 20)
    }

    @Test func blockWritesEveryFrameAndEachFileHoldsItsFrame() throws {
        let tmp = try TemporaryDirectory()
        let sensor = try Self.sensor()
        let session = try BurstSession(source: sensor, configuration: .init(
            frames: 12, overflow: .block, writers: 2, memoryBudget: Self.budget(slots: 3, sensor: sensor, writers: 2),
            outputDirectory: tmp.url.path))
        #expect(session.pool.slotCount == 3)
        var hooks = BurstSession.Hooks()
        hooks.beforeWrite = { _ in usleep(5_000) } // a disk slower than the sensor: the sensor must wait
        let report = session.run(hooks: hooks)
        #expect(report.problems == [])
        #expect(report.ledger.written.sorted() == Array(0..<12) && report.ledger.drops.isEmpty)
        #expect(report.pool.highWater == 3 && report.pool.occupied == 0)
        #expect(!report.stoppedEarly && report.errors.isEmpty)
        // Each file holds the frame of its sequence number: the same seed makes the same frame again.
        let reference = try Self.sensor()
        let storage = PixelStorage(count: reference.samplesPerFrame)
        for n in 0..<12 {
            let expected = try reference.nextFrame(into: storage).image.frame.activeSamples()
            let path = tmp.url.appendingPathComponent(String(format: "phone-wide-%04d.dng", n)).path
            #expect(try RawFileReader().read(path: path).frame.activeSamples() == expected, "frame \(n)")
        }
        #expect(Set(report.frames.map(\.sequenceNumber)) == Set(0..<12))
        #expect(report.frames.allSatisfy { $0.bytes > 0 && $0.queueDepth >= 1 && $0.queueDepth <= 3 })
    }

    @Test("a slow disk: drop-newest and drop-oldest drop frames, count each, and keep the books",
          arguments: [OverflowPolicy.dropNewest, .dropOldest])
    func dropsAreCounted(policy: OverflowPolicy) throws {
        let tmp = try TemporaryDirectory()
        let sensor = try Self.sensor(fps: 200)
        let session = try BurstSession(source: sensor, configuration: .init(
            frames: 40, overflow: policy, writers: 1, memoryBudget: Self.budget(slots: 2, sensor: sensor, writers: 1),
            outputDirectory: tmp.url.path))
        var hooks = BurstSession.Hooks()
        hooks.beforeWrite = { _ in usleep(30_000) } // 30 ms a frame against 5 ms between frames
        let report = session.run(hooks: hooks)
        #expect(report.problems == [])
        #expect(report.ledger.produced == Array(0..<40))
        #expect(!report.ledger.drops.isEmpty && report.ledger.written.count + report.ledger.drops.count == 40)
        let files = try FileManager.default.contentsOfDirectory(atPath: tmp.url.path).filter { $0.hasSuffix(".dng") }
        #expect(files.count == report.ledger.written.count)
        let dropped = Set(report.ledger.drops.map(\.sequenceNumber))
        for n in dropped { #expect(!files.contains(String(format: "phone-wide-%04d.dng", n))) }
        if policy == .dropOldest {
            // Pre-record keeps the newest frames: the last frame is always written.
            #expect(report.ledger.written.contains(39))
            #expect(report.ledger.drops.allSatisfy { $0.reason == .replacedByNewer || $0.reason == .poolFull })
            #expect(report.pool.reclaimed > 0)
        } else {
            #expect(report.ledger.drops.allSatisfy { $0.reason == .poolFull })
            #expect(report.ledger.written.contains(0))
        }
    }

    @Test func stopEndsTheBurstAtTheFirstFrameWithoutASlot() throws {
        let tmp = try TemporaryDirectory()
        let sensor = try Self.sensor(fps: 200)
        let session = try BurstSession(source: sensor, configuration: .init(
            frames: 40, overflow: .stop, writers: 1, memoryBudget: Self.budget(slots: 2, sensor: sensor, writers: 1),
            outputDirectory: tmp.url.path))
        var hooks = BurstSession.Hooks()
        hooks.beforeWrite = { _ in usleep(30_000) }
        let report = session.run(hooks: hooks)
        #expect(report.stoppedEarly)
        #expect(report.problems == [])
        #expect(report.ledger.drops.count == 1 && report.ledger.drops[0].reason == .burstStopped)
        #expect(report.ledger.produced.count < 40)
        #expect(report.ledger.written.count == report.ledger.produced.count - 1)
    }

    @Test func aFailingDiskCountsEachFailedFrameAndLeavesNoPartialFile() throws {
        let tmp = try TemporaryDirectory()
        let sensor = try Self.sensor()
        // Frame 3's file name is taken by a directory: that write fails.
        try FileManager.default.createDirectory(at: tmp.url.appendingPathComponent("phone-wide-0003.dng"),
                                                withIntermediateDirectories: false)
        let session = try BurstSession(source: sensor, configuration: .init(
            frames: 6, overflow: .block, writers: 2, memoryBudget: Self.budget(slots: 3, sensor: sensor, writers: 2),
            outputDirectory: tmp.url.path))
        let report = session.run()
        #expect(report.problems == [])
        #expect(report.ledger.drops.map(\.sequenceNumber) == [3] && report.ledger.drops.map(\.reason) == [.writeFailed])
        #expect(report.errors.count == 1 && report.errors[0].hasPrefix("frame 3: "), "\(report.errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: tmp.url.path)
        #expect(!names.contains { $0.hasPrefix(".") }, "temporary files left: \(names)")
        // Under `block` a failed write stops the burst: frames already made are still written, none after.
        #expect(report.stopReason?.hasPrefix("writes failing: ") == true, "\(String(describing: report.stopReason))")
        let produced = report.ledger.produced
        #expect(produced.count >= 4 && report.ledger.written.sorted() == produced.filter { $0 != 3 })
        // The written DNGs and the directory in the way.
        #expect(names.filter { $0.hasSuffix(".dng") }.count == produced.count)
    }

    @Test func aBudgetTooSmallIsRefusedWithTheSizes() throws {
        let sensor = try Self.sensor()
        let enough = Self.budget(slots: 2, sensor: sensor, writers: 1)
        let error = try #require(throws: FramePoolError.self) {
            try BurstSession(source: sensor, configuration: .init(frames: 5, writers: 1, memoryBudget: enough - 1,
                                                                  outputDirectory: "/tmp"))
        }
        // The sensor: its optical image and its renderer's window (the whole 240 rows here), 0.9 MiB, and 8 MiB.
        #expect(error.description == "a memory budget of 49.3 MiB holds 1 frame slot of 150 KiB after 49.0 MiB for the "
                + "sensor (8.9 MiB), spare frames, writers and the process; a burst needs at least 2 slots: "
                + "give --memory-budget 49.3 MiB or more", "\(error)")
        let plan = try BurstSession.check(.init(frames: 5, writers: 1, memoryBudget: enough, outputDirectory: "/tmp"),
                                          source: .single(sensor))
        #expect(plan.slots == 2 && plan.slotBytes == sensor.samplesPerFrame * 2 && plan.totalBytes == enough)
        #expect(plan.sourceBytes == sensor.workingMemoryBytes && plan.residentLimitBytes == enough + (64 << 20))
        #expect(throws: FramePoolError.self) {
            try BurstSession(source: sensor, configuration: .init(frames: 0, outputDirectory: "/tmp"))
        }
    }
}
