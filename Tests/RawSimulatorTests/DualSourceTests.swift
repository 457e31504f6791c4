import Foundation
import RawCore
import RawFiles
import RawJobs
import RawSimulator
import RawSources
import TestSupport
import Testing

/// A source that takes `delay` longer than `inner` to produce each frame (a slower sensor or readout).
private final class DelayedSource: FrameSource {
    let inner: any FrameSource
    let delayMicroseconds: UInt32
    init(_ inner: any FrameSource, delayMilliseconds: UInt32) {
        self.inner = inner
        delayMicroseconds = delayMilliseconds * 1000
    }
    var capabilities: SourceCapabilities { inner.capabilities }
    var samplesPerFrame: Int { inner.samplesPerFrame }
    func check(_ settings: CaptureSettings) throws(CaptureSettingsError) { try inner.check(settings) }
    func configure(_ settings: CaptureSettings) throws(CaptureSettingsError) { try inner.configure(settings) }
    func nextFrame(into storage: PixelStorage) throws(FrameSourceError) -> CapturedFrame {
        usleep(delayMicroseconds)
        return try inner.nextFrame(into: storage)
    }
    func skipFrame() -> UInt64 { inner.skipFrame() }
}

/// `DualSource`: two sensors triggered together.
@Suite struct DualSourceTests {
    static let g2 = TestPaths.sharedSamples.appendingPathComponent("canon-powershot-g2.crw").path
    static let ml = TestPaths.sharedSamples.appendingPathComponent("canon-550d-magiclantern.dng").path

    static func pair(clock: FrameClock, delayB: UInt32 = 0) throws -> DualSource {
        let wide = try RawFileSource(paths: [g2], name: "phone-wide")
        let front = try RawFileSource(paths: [ml], name: "phone-front")
        return DualSource(wide, delayB > 0 ? DelayedSource(front, delayMilliseconds: delayB) : front, clock: clock)
    }

    @Test func pairsShareTimestampSequenceNumberAndCaptureTime() throws {
        let dual = try Self.pair(clock: .freeRunning)
        let sizes = dual.samplesPerFrame
        let bufferA = PixelStorage(count: sizes.a)
        let bufferB = PixelStorage(count: sizes.b)
        let referenceA = try RawFileReader().read(path: Self.g2)
        let referenceB = try RawFileReader().read(path: Self.ml)
        for expected in UInt64(0)..<4 {
            let (a, b) = try dual.nextPair(into: bufferA, bufferB)
            #expect(a.sensorName == "phone-wide")
            #expect(b.sensorName == "phone-front")
            #expect(a.sequenceNumber == expected && b.sequenceNumber == expected)
            #expect(a.image.metadata.sequenceNumber == expected && b.image.metadata.sequenceNumber == expected)
            let delta = Int64(bitPattern: a.monotonicNanoseconds &- b.monotonicNanoseconds)
            #expect(abs(delta) < 1_000_000)
            #expect(a.monotonicNanoseconds == b.monotonicNanoseconds)
            #expect(a.image.metadata.captureTime == b.image.metadata.captureTime)
            #expect(a.image.frame.storage === bufferA && b.image.frame.storage === bufferB)
            #expect(memcmp(bufferA.baseAddress, referenceA.frame.storage.baseAddress, sizes.a * 2) == 0)
            #expect(memcmp(bufferB.baseAddress, referenceB.frame.storage.baseAddress, sizes.b * 2) == 0)
            let timing = try #require(dual.lastPairTiming)
            #expect(timing.pairSequenceNumber == expected)
            #expect(timing.triggerNanoseconds == a.monotonicNanoseconds)
            #expect(timing.sourceSequenceNumberA == expected && timing.sourceSequenceNumberB == expected)
            #expect(timing.startNanosecondsA >= timing.triggerNanoseconds)
            #expect(timing.startNanosecondsB >= timing.triggerNanoseconds)
            // Both sources start at the trigger, on two threads (up to thread wake-up on a busy machine).
            let startGap = Int64(bitPattern: timing.startNanosecondsB &- timing.startNanosecondsA)
            #expect(abs(startGap) < 20_000_000, "sources started \(startGap) ns apart")
            #expect(timing.finishedNanoseconds >= max(timing.startNanosecondsA, timing.startNanosecondsB))
        }
        #expect(dual.pairsTriggered == 4)
    }

    @Test func pairsStayTogetherWhenOneSensorIsSlower() throws {
        // The front sensor takes 15 ms longer per frame: its own start is late, the pair's timestamp is not.
        let dual = try Self.pair(clock: .freeRunning, delayB: 15)
        let bufferA = PixelStorage(count: dual.samplesPerFrame.a)
        let bufferB = PixelStorage(count: dual.samplesPerFrame.b)
        for _ in 0..<3 {
            let (a, b) = try dual.nextPair(into: bufferA, bufferB)
            let delta = Int64(bitPattern: a.monotonicNanoseconds &- b.monotonicNanoseconds)
            #expect(abs(delta) < 1_000_000)
            let timing = try #require(dual.lastPairTiming)
            #expect(timing.startNanosecondsB - timing.startNanosecondsA >= 14_000_000)
        }
    }

    @Test func realTimePairsAreFiftyMillisecondsApartAt20fps() throws {
        let dual = try Self.pair(clock: .realTime(fps: 20))
        let bufferA = PixelStorage(count: dual.samplesPerFrame.a)
        let bufferB = PixelStorage(count: dual.samplesPerFrame.b)
        var stamps: [UInt64] = [], late: [UInt64] = []
        for n in UInt64(0)..<10 {
            let (a, b) = try dual.nextPair(into: bufferA, bufferB)
            #expect(a.monotonicNanoseconds == b.monotonicNanoseconds)
            #expect(a.sequenceNumber == n && b.sequenceNumber == n)
            #expect(a.latenessNanoseconds == b.latenessNanoseconds)
            stamps.append(a.monotonicNanoseconds)
            late.append(a.latenessNanoseconds)
        }
        expectStartToStart(stamps: stamps, lateness: late, interval: 50e6)
    }

    @Test func latenessIsReportedWhenAPairTakesLongerThanTheInterval() throws {
        // 50 fps leaves 20 ms per pair; the front sensor alone takes 30 ms.
        let dual = try Self.pair(clock: .realTime(fps: 50), delayB: 30)
        let bufferA = PixelStorage(count: dual.samplesPerFrame.a)
        let bufferB = PixelStorage(count: dual.samplesPerFrame.b)
        var late: [UInt64] = []
        for _ in 0..<5 {
            let (a, b) = try dual.nextPair(into: bufferA, bufferB)
            #expect(a.latenessNanoseconds == b.latenessNanoseconds)
            #expect(a.monotonicNanoseconds == b.monotonicNanoseconds)
            late.append(a.latenessNanoseconds)
        }
        #expect(late[0] == 0)
        for n in 1..<5 { #expect(Double(late[n]) / 1e6 >= Double(n) * 10 - 2, "pair \(n) late \(late[n]) ns") }
        #expect(zip(late.dropFirst(), late).allSatisfy { $0 > $1 }, "lateness \(late)")
    }

    @Test func sidesAreConfiguredIndependently() throws {
        let dual = try Self.pair(clock: .freeRunning)
        try dual.configure(a: CaptureSettings(iso: 50), b: nil)
        try dual.configure(a: nil, b: CaptureSettings())
        let error = try #require(throws: CaptureSettingsError.self) {
            try dual.configure(a: CaptureSettings(), b: CaptureSettings(iso: 50))
        }
        #expect(error.setting == "phone-front ISO")
        #expect(error.description
                == "phone-front ISO: a replay cannot change ISO (asked for ISO 50; the files do not record it)")
        let outOfRange = try #require(throws: CaptureSettingsError.self) {
            try dual.configure(a: CaptureSettings(iso: 800), b: nil)
        }
        #expect(outOfRange.setting == "phone-wide ISO")
    }

    @Test func sameNamedSourcesAreTaggedApartAndSmallBuffersRefused() throws {
        let dual = DualSource(try RawFileSource(paths: [Self.g2]), try RawFileSource(paths: [Self.g2]),
                              clock: .freeRunning)
        #expect(dual.sensorNames.a == "file-replay-a" && dual.sensorNames.b == "file-replay-b")
        let needed = dual.samplesPerFrame.b
        let error = try #require(throws: FrameSourceError.self) {
            try dual.nextPair(into: PixelStorage(count: dual.samplesPerFrame.a), PixelStorage(count: 16))
        }
        #expect(error.message == "file-replay-b: frame buffer holds 16 samples; needs \(needed)")
        #expect(dual.pairsTriggered == 0)
        let (a, b) = try dual.nextPair(into: PixelStorage(count: needed), PixelStorage(count: needed))
        #expect(a.sensorName == "file-replay-a" && b.sensorName == "file-replay-b")
        #expect(a.sequenceNumber == 0)
    }

    @Test func aFinishedSideEndsThePairsNamingTheSensor() throws {
        let dual = DualSource(try RawFileSource(paths: [Self.g2], name: "wide", loop: true),
                              try RawFileSource(paths: [Self.ml], name: "front", loop: false), clock: .freeRunning)
        let a = PixelStorage(count: dual.samplesPerFrame.a)
        let b = PixelStorage(count: dual.samplesPerFrame.b)
        _ = try dual.nextPair(into: a, b)
        let error = try #require(throws: FrameSourceError.self) { try dual.nextPair(into: a, b) }
        #expect(error.message == "front: replay finished after 1 frame")
    }
}
