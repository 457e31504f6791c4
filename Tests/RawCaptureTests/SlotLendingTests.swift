import Foundation
import RawCapture
import RawCore
import RawFiles
import RawSources
import TestSupport
import Testing

/// A device that fills the pool's slots itself, as a camera's stream does: it keeps the slots it was lent in a queue,
/// makes each frame (a simulated sensor's) in the oldest, and queues the slot the engine offers in its place. It
/// records every breach of the lending contract: a slot offered or lent while it is still lent, a frame asked for
/// after `finish`.
final class LendingStream: SlotBorrowingSource {
    let inner: any FrameSource
    let wanted: Int
    private var queue: [PixelStorage] = []
    private(set) var violations: [String] = []
    private(set) var copies = 0
    private(set) var returned = 0
    private var finished = false

    init(_ inner: any FrameSource, wanted: Int) {
        self.inner = inner
        self.wanted = wanted
    }
    var pacing: FramePacing { .source }
    var capabilities: SourceCapabilities { inner.capabilities }
    var samplesPerFrame: Int { inner.samplesPerFrame }
    func configure(_ settings: CaptureSettings) throws(CaptureSettingsError) { try inner.configure(settings) }
    func skipFrame() -> UInt64 { inner.skipFrame() }
    func finish() { finished = true }

    private func isQueued(_ storage: PixelStorage) -> Bool { queue.contains { $0 === storage } }

    func slotsToBorrow(poolSlots: Int) -> Int { wanted }
    func lend(_ storage: PixelStorage) throws(FrameSourceError) {
        if isQueued(storage) { violations.append("lent twice") }
        queue.append(storage)
    }
    func nextFrame(replacing replacement: PixelStorage) throws(FrameSourceError) -> CapturedFrame {
        if isQueued(replacement) { violations.append("offered a slot still lent") }
        if finished { violations.append("asked for a frame after finish") }
        let slot = queue.removeFirst()
        let frame = try inner.nextFrame(into: slot)
        queue.append(replacement)
        return frame
    }
    func nextFrame(into storage: PixelStorage) throws(FrameSourceError) -> CapturedFrame {
        if isQueued(storage) { violations.append("copied into a slot still lent") }
        copies += 1
        return try inner.nextFrame(into: storage)
    }
    func returnBorrowed() -> [PixelStorage] {
        if !finished { violations.append("slots returned before finish") }
        defer { queue = [] }
        returned = queue.count
        return queue
    }
}

/// The engine's side of slot lending: the lent slots are the plan's, every frame comes back in one and goes to the
/// writers from there (each file holds its own frame), the offered slot takes its place, and all come back at the end.
@Suite struct SlotLendingTests {
    static func expectFilesHoldTheirFrames(_ written: [UInt64], directory: URL) throws {
        let reference = try BurstSessionTests.sensor()
        let storage = PixelStorage(count: reference.samplesPerFrame)
        var expected: [UInt64: [UInt16]] = [:]
        for n in 0...(written.max() ?? 0) { expected[n] = try reference.nextFrame(into: storage).image.frame.activeSamples() }
        for n in written {
            let path = directory.appendingPathComponent(String(format: "phone-wide-%04d.dng", n)).path
            #expect(try RawFileReader().read(path: path).frame.activeSamples() == expected[n], "frame \(n)")
        }
    }

    @Test("block: frames arrive in lent slots and reach their files; the lent slots come back, none left in use")
    func blockThroughLentSlots() throws {
        let tmp = try TemporaryDirectory()
        let stream = LendingStream(try BurstSessionTests.sensor(), wanted: 3)
        let session = try BurstSession(source: stream, configuration: .init(
            frames: 12, overflow: .block, writers: 2, memoryBudget: BurstSessionTests.budget(slots: 6, sensor: stream, writers: 2),
            outputDirectory: tmp.url.path))
        #expect(session.pool.slotCount == 6 && session.memory.lentSlots == 3)
        var hooks = BurstSession.Hooks()
        hooks.beforeWrite = { _ in usleep(5_000) }
        let report = session.run(hooks: hooks)
        #expect(report.problems == [] && report.errors.isEmpty)
        #expect(report.ledger.written.sorted() == Array(0..<12) && report.ledger.drops.isEmpty)
        #expect(stream.violations == [] && stream.copies == 0 && stream.returned == 3)
        #expect(report.pool.occupied == 0 && report.pool.highWater == 6)
        try Self.expectFilesHoldTheirFrames(report.ledger.written, directory: tmp.url)
    }

    @Test("drop-newest: a frame with no free slot is copied out for counting; the lent slots stay lent")
    func dropNewestCopiesTheUnslotted() throws {
        let tmp = try TemporaryDirectory()
        let stream = LendingStream(try BurstSessionTests.sensor(), wanted: 2)
        let session = try BurstSession(source: stream, configuration: .init(
            frames: 30, overflow: .dropNewest, writers: 1, memoryBudget: BurstSessionTests.budget(slots: 4, sensor: stream, writers: 1),
            outputDirectory: tmp.url.path))
        #expect(session.memory.lentSlots == 2)
        var hooks = BurstSession.Hooks()
        hooks.beforeWrite = { _ in usleep(20_000) }
        let report = session.run(hooks: hooks)
        let dropped = report.ledger.drops.map(\.sequenceNumber)
        #expect(!dropped.isEmpty && stream.copies == dropped.count)
        #expect(report.ledger.drops.allSatisfy { $0.reason == .poolFull })
        #expect((report.ledger.written + dropped).sorted() == Array(0..<UInt64(report.ledger.produced.count)))
        #expect(stream.violations == [] && stream.returned == 2 && report.pool.occupied == 0)
        try Self.expectFilesHoldTheirFrames(report.ledger.written, directory: tmp.url)
    }

    @Test("the plan keeps the engine's slots besides the lent ones: 2 at least, the source's wish if the pool has room")
    func planLendsWhatFits() throws {
        let stream = LendingStream(try BurstSessionTests.sensor(), wanted: 16)
        func plan(slots: Int) throws -> BurstMemoryPlan {
            try BurstSession.check(.init(frames: 10, overflow: .block, writers: 1,
                                         memoryBudget: BurstSessionTests.budget(slots: slots, sensor: stream, writers: 1),
                                         outputDirectory: "/tmp"), source: .single(stream))
        }
        #expect(try plan(slots: 40).lentSlots == 16)
        #expect(try plan(slots: 6).lentSlots == 4)
        #expect(try plan(slots: 4).lentSlots == 2)
        #expect(throws: FramePoolError.self) { try plan(slots: 3) }
    }
}
