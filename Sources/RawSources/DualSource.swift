import RawCore

/// Two frame sources triggered together on one clock, as a phone takes its wide and front (or wide and
/// tele) cameras at once for a stacked or picture-in-picture composite.
///
/// One `FramePacer` triggers both sources, and both start their frames at once, each on its own thread (as
/// two camera modules exposing together); each pair gets one pair sequence number (from 0) and one trigger
/// time, and both frames of the pair carry them: `sequenceNumber`, `monotonicNanoseconds`, the metadata's
/// sequence number and capture time are the same for the two frames by construction, however long each
/// source takes to produce its frame. The sources themselves should be free-running (`.freeRunning`),
/// since the pair's clock paces them; a source with its own real-time clock would add its own waits.
///
/// If producing a pair takes longer than the frame interval, the next trigger is late and the lateness is
/// reported in both frames' `latenessNanoseconds`; no trigger is skipped to catch up.
public final class DualSource {
    /// When and in what order the last pair was produced.
    public struct PairTiming: Sendable, Hashable {
        /// The pair's sequence number.
        public let pairSequenceNumber: UInt64
        /// The common trigger time (`CLOCK_MONOTONIC`, ns): both frames' `monotonicNanoseconds`.
        public let triggerNanoseconds: UInt64
        /// How late the trigger was against the schedule (ns).
        public let latenessNanoseconds: UInt64
        /// When the first source started its frame (its own timestamp, ns; the two start together).
        public let startNanosecondsA: UInt64
        /// When the second source started its frame (its own timestamp, ns).
        public let startNanosecondsB: UInt64
        /// The first source's own sequence number for its frame.
        public let sourceSequenceNumberA: UInt64
        /// The second source's own sequence number for its frame.
        public let sourceSequenceNumberB: UInt64
        /// When the second frame was finished (ns).
        public let finishedNanoseconds: UInt64
    }

    /// The first source.
    public let a: any FrameSource
    /// The second source.
    public let b: any FrameSource
    /// The pair clock.
    public let clock: FrameClock
    /// The sensor names the frames are tagged with: the sources' capability names, or, when both sources have
    /// the same name, that name with "-a" and "-b" appended.
    public let sensorNames: (a: String, b: String)

    private var pacer: FramePacer
    private var pairSequence: UInt64 = 0
    /// Timing of the last pair delivered, nil before the first.
    public private(set) var lastPairTiming: PairTiming?

    /// Creates a dual source; the first `nextPair` starts the clock.
    public init(_ a: any FrameSource, _ b: any FrameSource, clock: FrameClock) {
        self.a = a
        self.b = b
        self.clock = clock
        pacer = FramePacer(clock: clock)
        let nameA = a.capabilities.name
        let nameB = b.capabilities.name
        sensorNames = nameA == nameB ? (nameA + "-a", nameB + "-b") : (nameA, nameB)
    }

    /// Number of samples each buffer passed to `nextPair` must hold (first source, second source).
    public var samplesPerFrame: (a: Int, b: Int) { (a.samplesPerFrame, b.samplesPerFrame) }

    /// Number of pairs triggered so far (pair sequence numbers are never reused, even for a failed pair).
    public var pairsTriggered: UInt64 { pairSequence }

    /// Configures each source independently; nil leaves that source's settings as they are. Both settings are
    /// checked against their source's capabilities before either is applied; an error names the sensor.
    public func configure(a settingsA: CaptureSettings?, b settingsB: CaptureSettings?) throws(CaptureSettingsError) {
        try configure(a: settingsA, b: settingsB) { source, s throws(CaptureSettingsError) in try source.configure(s) }
    }

    /// Checks both settings, then hands each to `apply` with its source; an error names the sensor.
    private func configure(a settingsA: CaptureSettings?, b settingsB: CaptureSettings?,
                           apply: (any FrameSource, CaptureSettings) throws(CaptureSettingsError) -> Void)
        throws(CaptureSettingsError) {
        func named(_ name: String, _ body: () throws(CaptureSettingsError) -> Void) throws(CaptureSettingsError) {
            do throws(CaptureSettingsError) {
                try body()
            } catch {
                throw CaptureSettingsError(setting: "\(name) \(error.setting)", error.reason)
            }
        }
        if let settingsA {
            try named(sensorNames.a) { () throws(CaptureSettingsError) in try a.check(settingsA) }
        }
        if let settingsB {
            try named(sensorNames.b) { () throws(CaptureSettingsError) in try b.check(settingsB) }
        }
        if let settingsA { try named(sensorNames.a) { () throws(CaptureSettingsError) in try apply(a, settingsA) } }
        if let settingsB { try named(sensorNames.b) { () throws(CaptureSettingsError) in try apply(b, settingsB) } }
    }

    /// Frames both sources make ahead (the fewer of the two; 0 unless both do).
    public var framesAhead: Int { min(a.framesAhead, b.framesAhead) }
    /// The longer of the two sources' settings latencies.
    public var settingsLatency: Int { max(a.settingsLatency, b.settingsLatency) }

    /// Settings for both sources from pair `sequenceNumber` on (both checked before either takes them).
    public func configure(_ settings: CaptureSettings, fromFrame sequenceNumber: UInt64) throws(CaptureSettingsError) {
        try configure(a: settings, b: settings) { source, s throws(CaptureSettingsError) in
            try source.configure(s, fromFrame: sequenceNumber)
        }
    }

    /// Whether both sources' next frames are made (`FrameSource.awaitNextFrame`): late when either is not, for the
    /// source's own reason when either fell behind itself.
    public func awaitNextPair(due: UInt64?, until deadline: UInt64?) -> FrameReadiness {
        let readiness = [a.awaitNextFrame(due: due, until: deadline), b.awaitNextFrame(due: due, until: deadline)]
        if readiness.contains(.late(.source)) { return .late(.source) }
        if readiness.contains(.late(.engine)) { return .late(.engine) }
        return .ready
    }

    /// Lets the next pair go by untaken (late on the burst's clock): both sources skip their frame and the pair's
    /// sequence number is used up. Returns it.
    public func skipPair() -> UInt64 {
        _ = a.skipFrame()
        _ = b.skipFrame()
        defer { pairSequence += 1 }
        return pairSequence
    }

    /// Waits for the next trigger and fills `bufferA` from the first source and `bufferB` from the second.
    /// Both frames carry the pair's sequence number and trigger time. Throws when either source fails (the
    /// message starts with that sensor's name); the pair's sequence number is then used up.
    public func nextPair(into bufferA: PixelStorage, _ bufferB: PixelStorage) throws(FrameSourceError)
        -> (CapturedFrame, CapturedFrame) {
        guard bufferA.count >= a.samplesPerFrame else {
            throw FrameSourceError("\(sensorNames.a): frame buffer holds \(bufferA.count) samples; needs \(a.samplesPerFrame)")
        }
        guard bufferB.count >= b.samplesPerFrame else {
            throw FrameSourceError("\(sensorNames.b): frame buffer holds \(bufferB.count) samples; needs \(b.samplesPerFrame)")
        }
        var trigger = pacer.waitForNextFrame()
        var captureTime = CaptureTime.now()
        let number = pairSequence
        pairSequence += 1

        // Both sources start at the trigger, each on its own thread (a source is only ever used by one thread
        // at a time; the two are different objects with different buffers).
        let outcome = PairOutcome()
        let work = UncheckedBox((a, b, bufferA, bufferB, outcome))
        ParallelRows.perform(iterations: 2) { side in
            let (a, b, bufferA, bufferB, outcome) = work.value
            do throws(FrameSourceError) {
                if side == 0 { outcome.a = .success(try a.nextFrame(into: bufferA)) }
                else { outcome.b = .success(try b.nextFrame(into: bufferB)) }
            } catch {
                if side == 0 { outcome.a = .failure(error) } else { outcome.b = .failure(error) }
            }
        }
        let frameA: CapturedFrame
        let frameB: CapturedFrame
        switch outcome.a {
        case .success(let frame)?: frameA = frame
        case .failure(let error)?: throw FrameSourceError("\(sensorNames.a): \(error.message)")
        case nil: throw FrameSourceError("\(sensorNames.a): no frame")
        }
        switch outcome.b {
        case .success(let frame)?: frameB = frame
        case .failure(let error)?: throw FrameSourceError("\(sensorNames.b): \(error.message)")
        case nil: throw FrameSourceError("\(sensorNames.b): no frame")
        }
        let finished = MonotonicClock.nanoseconds()
        // Sources that make frames ahead were exposed on the engine's tick, which their frames carry (both the same).
        if framesAhead > 0 {
            trigger = (frameA.monotonicNanoseconds, 0)
            captureTime = frameA.image.metadata.captureTime ?? captureTime
        }
        lastPairTiming = PairTiming(pairSequenceNumber: number, triggerNanoseconds: trigger.monotonicNanoseconds,
                                    latenessNanoseconds: trigger.latenessNanoseconds,
                                    startNanosecondsA: frameA.monotonicNanoseconds,
                                    startNanosecondsB: frameB.monotonicNanoseconds,
                                    sourceSequenceNumberA: frameA.sequenceNumber,
                                    sourceSequenceNumberB: frameB.sequenceNumber,
                                    finishedNanoseconds: finished)
        return (Self.retagged(frameA, name: sensorNames.a, number: number, trigger: trigger, captureTime: captureTime),
                Self.retagged(frameB, name: sensorNames.b, number: number, trigger: trigger, captureTime: captureTime))
    }

    /// What the two threads of one pair produced (each writes only its own side).
    // @unchecked: each thread writes only its own side; both are read after `ParallelRows.perform` returns.
    private final class PairOutcome: @unchecked Sendable {
        var a: Result<CapturedFrame, FrameSourceError>?
        var b: Result<CapturedFrame, FrameSourceError>?
    }

    /// `frame` with the pair's sequence number, trigger time, lateness and capture time and the sensor name.
    private static func retagged(_ frame: CapturedFrame, name: String, number: UInt64,
                                 trigger: (monotonicNanoseconds: UInt64, latenessNanoseconds: UInt64),
                                 captureTime: CaptureTime) -> CapturedFrame {
        var image = frame.image
        image.metadata.sequenceNumber = number
        image.metadata.captureTime = captureTime
        return CapturedFrame(image: image, settings: frame.settings, sequenceNumber: number,
                             monotonicNanoseconds: trigger.monotonicNanoseconds,
                             latenessNanoseconds: max(trigger.latenessNanoseconds, frame.latenessNanoseconds),
                             sensorName: name)
    }
}
