import Foundation
import RawCore
import RawSimulator
import RawSources
import TestSupport
import Testing

/// A simulated sensor that counts the frames it makes (on the render thread) and can take longer for each.
final class CountingSensor: FrameSource, @unchecked Sendable {  // `count` only under `lock`
    let inner: SimulatedSensor
    let delayMicroseconds: UInt32
    private let lock = NSLock()
    private var count = 0

    init(_ inner: SimulatedSensor, delayMilliseconds: UInt32 = 0) {
        self.inner = inner
        delayMicroseconds = delayMilliseconds * 1000
    }

    var made: Int { lock.withLock { count } }
    var capabilities: SourceCapabilities { inner.capabilities }
    var samplesPerFrame: Int { inner.samplesPerFrame }
    var workingMemoryBytes: Int { inner.workingMemoryBytes }
    func configure(_ settings: CaptureSettings) throws(CaptureSettingsError) { try inner.configure(settings) }
    func nextFrame(into storage: PixelStorage) throws(FrameSourceError) -> CapturedFrame {
        let frame = try inner.nextFrame(into: storage)
        if delayMicroseconds > 0 { usleep(delayMicroseconds) }
        lock.withLock { count += 1 }
        return frame
    }
    func skipFrame() -> UInt64 { inner.skipFrame() }
}

/// `RenderAheadSource`: a simulated sensor that renders ahead of the engine's clock as a camera reads out into its
/// buffers, hands a made frame over on its tick, and takes a setting change `depth` frames after the next frame.
@Suite struct RenderAheadSourceTests {
    static let base = CaptureSettings(iso: 100, shutter: 1.0 / 100, focus: .metres(1.5), whiteBalance: .preset(.daylight))

    /// A 256-pixel-wide phone-wide sensor on the colour chart, fixed settings.
    static func sensor(seed: UInt64 = 3) throws -> SimulatedSensor {
        let profile = try #require(SensorProfile.builtIn(named: "phone-wide")).resized(toWidth: 256)
        let sensor = try SimulatedSensor(profile: profile, scene: ColorChartScene(), seed: seed)
        try sensor.configure(base)
        return sensor
    }

    /// The samples of frames 0..<count of a fresh `sensor()`: what the wrapped sensor's frame n must hold.
    static func reference(count: Int) throws -> [[UInt16]] {
        let sensor = try sensor()
        let storage = PixelStorage(count: sensor.samplesPerFrame)
        return try (0..<count).map { _ in try sensor.nextFrame(into: storage).image.frame.activeSamples() }
    }

    static func waitUntil(seconds: Double = 20, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(1000)
        }
        return true
    }

    /// Takes the next frame as the engine does: asks whether it is made, then has it handed over.
    static func take(_ source: RenderAheadSource, into storage: PixelStorage) throws -> CapturedFrame {
        #expect(source.awaitNextFrame(due: nil, until: nil) == .ready)
        return try source.nextFrame(into: storage)
    }

    @Test("renders at most `depth` frames ahead of the next one delivered; each frame holds the sensor's own samples",
          arguments: [1, 2, 3])
    func rendersAtMostDepthAhead(depth: Int) throws {
        let counting = CountingSensor(try Self.sensor())
        let own = RenderAheadSource(CountingSensor(try Self.sensor()), depth: depth, ownsBuffers: true)
        #expect(own.framesAhead == depth && own.settingsLatency == depth)
        #expect(own.workingMemoryBytes == counting.workingMemoryBytes + depth * counting.samplesPerFrame * 2)
        // Lent two slots more than it renders ahead: the depth, not the buffers, is the limit.
        let source = RenderAheadSource(counting, depth: depth, ownsBuffers: false)
        for _ in 0..<(depth + 2) { try source.lend(PixelStorage(count: counting.samplesPerFrame)) }
        defer { source.finish() }
        #expect(source.framesAhead == depth && source.settingsLatency == depth)
        // Nothing is rendered before the burst asks for its first frame.
        usleep(50_000)
        #expect(counting.made == 0)
        #expect(source.awaitNextFrame(due: nil, until: nil) == .ready)
        #expect(Self.waitUntil { counting.made == depth })
        usleep(100_000)
        #expect(counting.made == depth, "rendered \(counting.made) frames ahead of the first delivery")
        let reference = try Self.reference(count: depth + 3)
        let storage = PixelStorage(count: source.samplesPerFrame)
        for n in 0..<3 {
            let frame = try Self.take(source, into: storage)
            #expect(frame.sequenceNumber == UInt64(n) && frame.image.frame.storage === storage)
            #expect(frame.image.frame.activeSamples() == reference[n], "frame \(n)'s samples")
            #expect(Self.waitUntil { counting.made == depth + n + 1 })
            usleep(50_000)
            #expect(counting.made == depth + n + 1, "after \(n + 1) delivered: \(counting.made) rendered")
        }
    }

    @Test("a setting change reaches the frame `depth` after the next one; each frame says what it was made with")
    func settingsTakeEffectDepthFramesLater() throws {
        let source = RenderAheadSource(try Self.sensor(), depth: 2, ownsBuffers: true)
        defer { source.finish() }
        // Before the first frame is made, settings apply from frame 0.
        var first = Self.base
        first.iso = 200
        try source.configure(first)
        let storage = PixelStorage(count: source.samplesPerFrame)
        var isos: [Double] = []
        var changed = Self.base
        changed.iso = 800
        for n in 0..<8 {
            // Given before frame 3 is delivered: frames 3 and 4 were made already, frame 5 is the first with them.
            if n == 3 { try source.configure(changed) }
            let frame = try Self.take(source, into: storage)
            #expect(frame.image.metadata.iso == frame.settings.iso, "frame \(n): metadata and settings agree")
            isos.append(frame.settings.iso)
        }
        #expect(isos == [200, 200, 200, 200, 200, 800, 800, 800], "\(isos)")
        // A frame already made cannot be given other settings.
        #expect(throws: CaptureSettingsError.self) { try source.configure(changed, fromFrame: 8) }
        // A refused value is refused at once, by the sensor's own check.
        var bad = Self.base
        bad.iso = 1e9
        #expect(throws: CaptureSettingsError.self) { try source.configure(bad) }
    }

    @Test("lent pool slots change hands without a copy and all come back after finish()")
    func lentSlotsChangeHands() throws {
        let source = RenderAheadSource(try Self.sensor(), depth: 2, ownsBuffers: false)
        #expect(source.slotsToBorrow(poolSlots: 30) == 2 && source.framesAhead == 0)
        let lent = (0..<2).map { _ in PixelStorage(count: source.samplesPerFrame) }
        for slot in lent { try source.lend(slot) }
        #expect(source.framesAhead == 2 && source.workingMemoryBytes == source.inner.workingMemoryBytes)
        let reference = try Self.reference(count: 4)
        var held = Set(lent.map(ObjectIdentifier.init))
        for n in 0..<4 {
            let replacement = PixelStorage(count: source.samplesPerFrame)
            #expect(source.awaitNextFrame(due: nil, until: nil) == .ready)
            let frame = try source.nextFrame(replacing: replacement)
            let slot = ObjectIdentifier(frame.image.frame.storage)
            #expect(held.contains(slot), "frame \(n) arrived in a slot the source was lent")
            #expect(frame.image.frame.activeSamples() == reference[n])
            held.remove(slot)
            held.insert(ObjectIdentifier(replacement))
        }
        source.finish()
        #expect(Set(source.returnBorrowed().map(ObjectIdentifier.init)) == held)
    }

    @Test("a frame let go uses up its number and noise seed; the next one is the sensor's next")
    func skippedFramesUseTheirNumbers() throws {
        let source = RenderAheadSource(try Self.sensor(), depth: 2, ownsBuffers: true)
        defer { source.finish() }
        let reference = try Self.reference(count: 6)
        let storage = PixelStorage(count: source.samplesPerFrame)
        #expect(try Self.take(source, into: storage).sequenceNumber == 0)
        #expect(source.skipFrame() == 1)          // made already
        #expect(source.skipFrame() == 2)
        #expect(source.skipFrame() == 3)          // not made yet: the render thread lets it go
        let frame = try Self.take(source, into: storage)
        #expect(frame.sequenceNumber == 4 && frame.image.frame.activeSamples() == reference[4])
    }

    /// What happened at each of `count` ticks `interval` ms apart, taken as the engine takes them (`--late drop`: a
    /// frame not ready by its tick + half an interval is let go), with the sensor thread stalled for `stall` ms after
    /// tick `stallAfter`. Each frame taken is handed over into a buffer of its own.
    static func ticks(_ source: RenderAheadSource, count: Int, interval: UInt64, stallAfter: Int? = nil, stall: UInt32 = 0)
        throws -> [(frame: CapturedFrame?, late: LateFrameCause?)] {
        #expect(source.awaitNextFrame(due: nil, until: nil) == .ready)
        let start = MonotonicClock.nanoseconds()
        var outcome: [(CapturedFrame?, LateFrameCause?)] = []
        for k in 0..<count {
            let due = start + UInt64(k) * interval * 1_000_000
            MonotonicClock.sleep(until: due)
            switch source.awaitNextFrame(due: due, until: due + interval * 500_000) {
            case .ready: outcome.append((try source.nextFrame(into: PixelStorage(count: source.samplesPerFrame)), nil))
            case .late(let cause):
                #expect(source.skipFrame() == UInt64(k))
                outcome.append((nil, cause))
            }
            if k == stallAfter { usleep(stall * 1000) }
        }
        return outcome
    }

    @Test("a render slower than the clock: late frames are its own (source), and it catches up instead of making every next frame late")
    func slowRenderIsTheSourcesLateness() throws {
        let slow = CountingSensor(try Self.sensor(), delayMilliseconds: 150)
        let source = RenderAheadSource(slow, depth: 2, ownsBuffers: true)
        defer { source.finish() }
        let outcome = try Self.ticks(source, count: 16, interval: 100)
        let reference = try Self.reference(count: 16)
        let taken = outcome.compactMap(\.frame)
        // 150 ms a frame against 100 ms ticks: about 2 of every 3 can be made in time if the render lets go the ones it
        // cannot make by their deadline (making them anyway makes nearly every following one late too: 1 of 16 taken).
        #expect(outcome.compactMap(\.late).allSatisfy { $0 == .source } && outcome.contains { $0.late != nil })
        #expect(taken.count >= 5, "\(taken.count) of 16 taken: \(outcome.map { $0.late.map(\.rawValue) ?? "taken" })")
        for frame in taken {
            #expect(frame.latenessNanoseconds <= 50_000_000)
            #expect(frame.image.frame.activeSamples() == reference[Int(frame.sequenceNumber)], "frame \(frame.sequenceNumber)")
        }
    }

    @Test("the engine stalled for six ticks: the two frames made ahead are taken late with their own ticks; the frames whose buffers it held are its own lateness (engine)")
    func heldBuffersAreTheEnginesLateness() throws {
        let source = RenderAheadSource(try Self.sensor(), depth: 2, ownsBuffers: true)
        defer { source.finish() }
        let outcome = try Self.ticks(source, count: 12, interval: 100, stallAfter: 1, stall: 600)
        // Frames 2 and 3 were made before the stall ended: taken, stamped with their ticks.
        let first = try #require(outcome[0].frame)
        for k in 2...3 {
            let frame = try #require(outcome[k].frame, "frame \(k) was made ahead")
            #expect(frame.monotonicNanoseconds - first.monotonicNanoseconds == UInt64(k) * 100_000_000)
        }
        let late = outcome.compactMap(\.late)
        #expect(!late.isEmpty && late.allSatisfy { $0 == .engine }, "\(outcome.map { $0.late.map(\.rawValue) ?? "taken" })")
        #expect(outcome.suffix(3).allSatisfy { $0.frame != nil }, "caught up by the end")
    }

    @Test("two sensors rendering ahead: a pair shares its tick, its capture time and its sequence number")
    func pairsShareTheirTick() throws {
        let a = RenderAheadSource(try Self.sensor(seed: 1), depth: 2, ownsBuffers: true)
        let b = RenderAheadSource(try Self.sensor(seed: 2), depth: 2, ownsBuffers: true)
        let dual = DualSource(a, b, clock: .freeRunning)
        defer { a.finish(); b.finish() }
        #expect(dual.framesAhead == 2 && dual.settingsLatency == 2)
        let buffers = (PixelStorage(count: a.samplesPerFrame), PixelStorage(count: b.samplesPerFrame))
        for n in 0..<4 {
            // Both frames made (their makers ahead of the tick), then the tick: the pair is stamped with it.
            #expect(dual.awaitNextPair(due: nil, until: nil) == .ready)
            let due = MonotonicClock.nanoseconds()
            #expect(dual.awaitNextPair(due: due, until: nil) == .ready)
            let (fa, fb) = try dual.nextPair(into: buffers.0, buffers.1)
            #expect(fa.sequenceNumber == UInt64(n) && fb.sequenceNumber == UInt64(n))
            #expect(fa.monotonicNanoseconds == due && fb.monotonicNanoseconds == due)
            #expect(fa.image.metadata.captureTime == fb.image.metadata.captureTime && fa.image.metadata.captureTime != nil)
        }
    }
}
