import Foundation
import RawCore
import RawDevelop
import RawDNG
import RawSources

/// One burst: a sensor thread triggering frames from a `BurstSource` (one sensor or a synchronized pair) into
/// a `FramePool`, and writer threads encoding full slots to DNG files, with a declared overflow policy, a
/// pressure governor, and every frame accounted for in one `BurstLedger` per sensor.
///
/// The calling thread is the sensor thread (`run()` blocks until the burst ends); the writers are dedicated
/// threads, so blocking file I/O never runs on Swift's cooperative pool. Each trigger waits for the burst's
/// clock, takes a slot per frame, and has the source fill the slots directly. When the pool is full, the
/// policy decides: `block` waits for a writer (the next triggers are late, and say so), `drop-newest` and
/// `stop` let the source make the frame into a spare buffer (so its clock and sequence numbers go on as a
/// real sensor's would) and count it as dropped, `drop-oldest` takes back the oldest frame no writer has
/// started. A pair takes both slots or neither.
///
/// `trigger()`, `pause()`, `resume()` and `stop()` may be called from any thread (a signal handler's queue,
/// a key reader) while `run()` is going.
// @unchecked: the run state is guarded by `lock`; the callbacks are set before `run()` and only read while it runs.
public final class BurstSession: @unchecked Sendable {
    /// The sensors.
    public let source: BurstSource
    /// The configuration.
    public let configuration: Configuration
    /// How the budget is spent (the pool gets `memory.slots` slots).
    public let memory: BurstMemoryPlan
    /// The pool.
    public let pool: FramePool<Pending>

    /// Called by a writer before it writes a frame, with its sequence number (tests use it to stall a
    /// writer); a thrown error fails that frame's write.
    public var beforeWrite: (@Sendable (UInt64) throws -> Void)?
    /// Called on the sensor thread after each trigger, with the number of triggers so far (tests use it to
    /// trigger a pre-record or pause at an exact frame).
    public var afterTrigger: ((Int) -> Void)?
    /// Called after each frame is written or dropped, with the counts so far (for a live status line).
    public var onProgress: (@Sendable (Progress) -> Void)?

    let spares: [PixelStorage]
    let lock = NSLock()
    private let control = NSCondition()
    private var ledgers: [String: BurstLedger] = [:]
    private var records: [FrameRecord] = []
    /// Developed pictures and frames left for after the burst (under `lock`; the writers add to them).
    var developed: [DevelopedRecord] = []
    var deferredDevelopments: [DevelopDeferral] = []
    var analyses: [AnalysisRecord] = []
    var skippedAnalyses = 0
    private var failures: [Failure] = []
    private var counters: [String: Int] = [:]
    private var journal: BurstJournal?
    private var bytesWritten = 0
    /// The storage fault injector, if faults are simulated (set when the burst starts, read by the writers).
    private(set) var faults: StorageFaultInjector?
    private var level = BurstGovernor.Level.normal
    private var consecutiveWriteFailures = 0
    private var startedNanoseconds: UInt64 = 0
    // Control, under `control`.
    private var triggered = true
    private var paused = false
    private var stopRequest: StopCause?

    /// Checks that `configuration` can run with `source`, allocating nothing; returns how the budget would be spent.
    @discardableResult
    public static func check(_ configuration: Configuration, source: BurstSource) throws(FramePoolError) -> BurstMemoryPlan {
        guard (1...1_000_000).contains(configuration.frames) else {
            throw FramePoolError("frames must be within 1...1000000, not \(configuration.frames)")
        }
        guard (1...64).contains(configuration.writers) else {
            throw FramePoolError("writers must be within 1...64, not \(configuration.writers)")
        }
        guard (0...100_000).contains(configuration.preRecordFrames) else {
            throw FramePoolError("a pre-record must keep 0...100000 frames, not \(configuration.preRecordFrames)")
        }
        if configuration.preRecordFrames > 0 && configuration.plan != nil {
            throw FramePoolError("a pre-record cannot be combined with a bracketing plan (the plan's first frame would be unknown)")
        }
        return try BurstMemoryPlan.make(for: source, configuration: configuration)
    }

    /// Plans the budget and makes the pool (its slots cost memory only once frames are made into them).
    public init(source: BurstSource, configuration: Configuration) throws(FramePoolError) {
        memory = try Self.check(configuration, source: source)
        self.source = source
        self.configuration = configuration
        pool = try FramePool(samplesPerSlot: source.samplesPerSlot, slotCount: memory.slots)
        spares = (0..<source.framesPerTrigger).map { _ in PixelStorage(lazilyZeroedCount: source.samplesPerSlot) }
        triggered = configuration.preRecordFrames == 0
        for name in source.sensorNames { ledgers[name] = BurstLedger() }
    }

    /// A one-sensor burst.
    public convenience init(source: any FrameSource, configuration: Configuration) throws(FramePoolError) {
        try self.init(source: .single(source), configuration: configuration)
    }

    // MARK: - Control (any thread)

    /// Ends a pre-record: the frames kept so far are written and `frames` more are taken. Does nothing
    /// without a pre-record or when already triggered.
    public func trigger() { control.withLock { triggered = true; control.broadcast() } }

    /// Stops triggering frames until `resume()`; the writers go on emptying the pool.
    public func pause() { control.withLock { paused = true } }

    /// Triggers frames again, on a schedule restarted from now.
    public func resume() { control.withLock { paused = false; control.broadcast() } }

    /// Ends the burst after the frame being made; frames in the pool are still written. The report's stop cause
    /// is `.requested(reason)`.
    public func stop(reason: String = "stopped on request") { stop(because: .requested(reason)) }

    /// Ends the burst after the frame being made, for `cause` (the first cause asked for stays).
    func stop(because cause: StopCause) {
        control.withLock {
            if stopRequest == nil { stopRequest = cause }
            control.broadcast()
        }
    }

    /// Pauses a running burst, or resumes a paused one (one step, so two callers cannot both pause).
    public func togglePause() {
        control.withLock {
            paused.toggle()
            if !paused { control.broadcast() }
        }
    }

    /// Whether the burst is paused now.
    public var isPaused: Bool { control.withLock { paused } }

    // MARK: - The sensor thread

    /// Runs the burst on the calling thread (the sensor thread) and returns when every frame is written or
    /// dropped.
    public func run() -> Report {
        let started = Date()
        startedNanoseconds = MonotonicClock.nanoseconds()
        if let spec = configuration.storageFaults { faults = StorageFaultInjector(spec, startNanoseconds: startedNanoseconds) }
        openJournal()
        let preRecording = configuration.preRecordFrames > 0
        if preRecording { pool.setHeld(true) }
        let writerGroup = DispatchGroup()
        for _ in 0..<configuration.writers {
            writerGroup.enter()
            let thread = Thread { [self] in
                writeLoop()
                writerGroup.leave()
            }
            thread.name = "rawburst-writer"
            thread.start()
        }
        let perTrigger = source.framesPerTrigger
        var governor = BurstGovernor(slots: pool.slotCount, writers: configuration.writers)
        var clock = configuration.clock
        var pacer = FramePacer(clock: clock)
        var stopCause: StopCause?
        var latencies: [UInt64] = []
        var triggerTimes: [UInt64] = []
        var firstFrame: UInt64?
        var triggeredAt: UInt64?
        var wasTriggered = !preRecording
        var pauses = 0
        var lastSequence: UInt64?
        var taken = 0
        var triggers = 0
        let metered = meteredExposure()
        while true {
            // Pause, stop and the pre-record's trigger.
            var resumed = false
            let (stopNow, triggeredNow) = control.withLock { () -> (StopCause?, Bool) in
                if paused && stopRequest == nil {
                    pauses += 1
                    while paused && stopRequest == nil { control.wait() }
                    resumed = true
                }
                return (stopRequest, triggered)
            }
            if let stopNow { stopCause = stopNow; break }
            if resumed { pacer = FramePacer(clock: clock) }
            if triggeredNow && !wasTriggered {
                wasTriggered = true
                triggeredAt = lastSequence.map { $0 + 1 } ?? 0
                pool.setHeld(false)
            }
            if wasTriggered && taken >= configuration.frames { break }

            let seconds = Double(MonotonicClock.nanoseconds() - startedNanoseconds) / 1e9
            let thermal = configuration.thermal?.state(at: seconds) ?? .nominal
            if thermal == .critical {
                stopCause = .thermalCritical
                break
            }
            if configuration.governor && wasTriggered {
                if let changed = governor.observe(queued: pool.statistics.queued, thermal: thermal, seconds: seconds,
                                                  lastSequenceNumber: lastSequence, effect: { self.effect(of: $0) }) {
                    lock.withLock { level = changed }
                    let rate = changed >= .lowerRate ? Self.halved(configuration.clock) : configuration.clock
                    if rate != clock {
                        clock = rate
                        pacer = FramePacer(clock: clock)
                    }
                }
            }

            var bracketIndex = 0
            if wasTriggered, let (plan, base) = configuration.plan {
                let step = plan.step(taken, base: base)
                bracketIndex = step.bracketIndex
                if taken == 0 || plan.stepsPerRun > 1 {
                    do { try source.configure(stepSettings(step, plan: plan, base: base, metered: metered, index: taken)) } catch {
                        stopCause = .planStepRejected(step: step.bracketIndex + 1, detail: "\(error)")
                        break
                    }
                }
            }

            let tick = pacer.waitForNextFrame()
            // Pre-record: the oldest kept trigger makes room once the window is full.
            var reclaimed: [FramePool<Pending>.Slot] = []
            if !wasTriggered && pool.statistics.queued >= configuration.preRecordFrames * perTrigger {
                for _ in 0..<perTrigger {
                    guard let (slot, old) = pool.reclaimOldestFull() else { break }
                    drop(old.frame, .outsidePreRecord)
                    reclaimed.append(slot)
                }
            }
            let slots = acquireSlots(count: perTrigger, reusing: reclaimed)
            let slotLatency = MonotonicClock.nanoseconds() - tick.monotonicNanoseconds
            let buffers = slots.isEmpty ? spares : slots.map(\.storage)
            let frames: [CapturedFrame]
            do {
                let due = tick.monotonicNanoseconds - tick.latenessNanoseconds
                frames = try source.next(into: buffers).map { Self.retimed($0, due: due) }
            } catch {
                for slot in slots { pool.abandon(slot) }
                lock.withLock { failures.append(.sensor("\(error)")) }
                stopCause = .sensorFailed("\(error)")
                break
            }
            triggers += 1
            triggerTimes.append(frames.first?.monotonicNanoseconds ?? tick.monotonicNanoseconds)
            if wasTriggered { taken += 1 }
            lastSequence = frames.first?.sequenceNumber
            for frame in frames {
                lock.withLock { ledgers[frame.sensorName, default: BurstLedger()].recordProduced(frame.sequenceNumber) }
                latencies.append(slotLatency)
            }
            if slots.isEmpty {
                // No slots: the frames were made into the spare buffers and are dropped.
                let stopping = configuration.overflow == .stop
                for frame in frames { drop(frame, stopping ? .burstStopped : .poolFull) }
                reportProgress()
                if stopping { stopCause = .noFreeSlot; break }
            } else {
                let depth = pool.statistics.queued
                for (offset, (slot, frame)) in zip(slots, frames).enumerated() {
                    pool.markFull(slot, payload: Pending(frame: frame, queueDepth: depth + offset + 1,
                                                         bracketIndex: bracketIndex, slotLatency: slotLatency))
                }
                if firstFrame == nil { firstFrame = MonotonicClock.nanoseconds() }
            }
            afterTrigger?(triggers)
            reportProgress()
        }
        if !wasTriggered {
            // The trigger never came: the kept frames are not wanted.
            while let (slot, old) = pool.reclaimOldestFull() {
                drop(old.frame, .outsidePreRecord)
                pool.abandon(slot)
            }
            pool.setHeld(false)
        }
        pool.close()
        writerGroup.wait()
        var end = BurstJournal.Entry(.end)
        (end.produced, end.written, end.dropped) = lock.withLock { BurstLedger.totals(ledgers.values) }
        journalAppend(end)
        // A writer may have asked for the stop (a failing disk) after the sensor loop had ended on its own.
        if stopCause == nil, let late = control.withLock({ stopRequest }) { stopCause = late }
        let (finalLedgers, finalRecords, finalFailures) = lock.withLock { (ledgers, records, failures) }
        let (finalDeveloped, finalDeferred) = lock.withLock { (developed, deferredDevelopments) }
        let (finalAnalyses, finalSkipped) = lock.withLock { (analyses, skippedAnalyses) }
        return Report(ledgers: finalLedgers, frames: finalRecords, failures: finalFailures, pool: pool.statistics, memory: memory,
                      seconds: Date().timeIntervalSince(started), stopCause: stopCause, degradations: governor.steps,
                      slotLatencies: latencies, triggerNanoseconds: triggerTimes, startedNanoseconds: startedNanoseconds, firstFrameNanoseconds: firstFrame,
                      triggeredAtSequenceNumber: triggeredAt, pauses: pauses, developed: finalDeveloped,
                      deferredDevelopments: finalDeferred,
                      analyses: finalAnalyses.sorted { ($0.sensor, $0.sequenceNumber) < ($1.sensor, $1.sequenceNumber) },
                      skippedAnalyses: finalSkipped)
    }

    /// `count` slots by the overflow policy (after `reusing`, slots already in hand), or none: a trigger gets
    /// a slot for every frame or for none.
    private func acquireSlots(count: Int, reusing: [FramePool<Pending>.Slot]) -> [FramePool<Pending>.Slot] {
        var slots = reusing
        while slots.count < count {
            var slot: FramePool<Pending>.Slot?
            switch configuration.overflow {
            case .block:
                slot = pool.acquire(waiting: true)
            case .dropNewest, .stop:
                slot = pool.tryAcquire()
            case .dropOldest:
                slot = pool.tryAcquire()
                if slot == nil, let (reclaimed, dropped) = pool.reclaimOldestFull() {
                    drop(dropped.frame, .replacedByNewer)
                    slot = reclaimed
                }
            }
            guard let slot else {
                for taken in slots { pool.abandon(taken) }
                return []
            }
            slots.append(slot)
        }
        return slots
    }

    /// The settings of plan step `step` for trigger `index`: focus kept from the first autofocus unless the
    /// plan varies it, and an exposure bracket stepped exactly from the metered exposure.
    private func stepSettings(_ step: (settings: CaptureSettings, bracketIndex: Int), plan: BracketPlan,
                              base: CaptureSettings, metered: (iso: Double, shutter: Double)?, index: Int) -> CaptureSettings {
        var settings = step.settings
        // A plan that does not set the focus keeps what autofocus found first (for the first frame, or for the
        // metering), as a camera locks focus for a bracket.
        if (index > 0 || metered != nil) && !plan.variesFocus { settings.autoFocusLock = true }
        // An exposure bracket steps exactly from the metered exposure: shutter × 2^EV (the ISO takes over where
        // the shutter range ends), as a camera's auto exposure bracketing does.
        if let metered, plan.variesExposureCompensation {
            (settings.iso, settings.shutter) = Self.bracketed(metered, ev: settings.exposureCompensation,
                                                              isoFixed: base.iso != nil, shutterFixed: base.shutter != nil,
                                                              capabilities: source.capabilities)
        }
        return settings
    }

    /// `frame` with its lateness measured against the schedule: its start (the source's timestamp, after any
    /// wait for a slot) less the time it was due.
    private static func retimed(_ frame: CapturedFrame, due: UInt64) -> CapturedFrame {
        let lateness = frame.monotonicNanoseconds > due ? frame.monotonicNanoseconds - due : 0
        guard lateness > frame.latenessNanoseconds else { return frame }
        return CapturedFrame(image: frame.image, settings: frame.settings, sequenceNumber: frame.sequenceNumber,
                             monotonicNanoseconds: frame.monotonicNanoseconds, latenessNanoseconds: lateness,
                             sensorName: frame.sensorName)
    }

    /// Half the rate of a real-time clock (a free-running one stays as it is).
    static func halved(_ clock: FrameClock) -> FrameClock {
        if case .realTime(let fps) = clock { return .realTime(fps: fps / 2) }
        return clock
    }

    /// What governor level `level` does in this burst, for the manifest.
    private func effect(of level: BurstGovernor.Level) -> String {
        switch level {
        case .normal: return "full work for every frame"
        case .noPreviews:
            let analysis = configuration.analysis == nil ? "" : "; frames are no longer analysed"
            return (configuration.dngOptions.previewLongEdge == nil
                ? "no previews to skip (DNGs carry only their thumbnail)"
                : "DNGs are written without their JPEG preview") + analysis
        case .cheaperCompression:
            let previews = configuration.dngOptions.previewLongEdge == nil ? "" : "; previews skipped"
            if configuration.dngOptions.compression == .lj92 {
                return "DNGs are written uncompressed from now on instead of lossless JPEG" + previews
            }
            return "no cheaper compression: DNGs are already uncompressed" + previews
        case .lowerRate:
            if case .realTime(let fps) = configuration.clock {
                return "frame rate halved: \(SettingText.number(fps)) → \(SettingText.number(fps / 2)) fps"
            }
            return "no rate to lower (free-running)"
        }
    }

    /// For a plan with an `ev:` axis over automatic exposure: the ISO and shutter auto exposure finds for the
    /// plan's base settings at 0 EV (nil when the source cannot say, or the exposure is not automatic).
    private func meteredExposure() -> (iso: Double, shutter: Double)? {
        guard let (plan, base) = configuration.plan, plan.variesExposureCompensation,
              base.iso == nil || base.shutter == nil else { return nil }
        var probe = base
        probe.exposureCompensation = 0
        guard (try? source.configure(probe)) != nil, let resolved = source.resolvedSettings else { return nil }
        return (resolved.iso, resolved.shutter)
    }

    /// The exposure `ev` stops from `metered`, within the source's ranges: a set ISO stays and the shutter
    /// moves; a set shutter stays and the ISO moves; with both automatic, the shutter first, then the ISO.
    static func bracketed(_ metered: (iso: Double, shutter: Double), ev: Double, isoFixed: Bool, shutterFixed: Bool,
                          capabilities: SourceCapabilities) -> (iso: Double, shutter: Double) {
        let wanted = metered.iso * metered.shutter * pow(2, ev)
        let shutterRange = capabilities.shutterRange, isoRange = capabilities.isoRange
        func clamp(_ v: Double, _ r: ClosedRange<Double>) -> Double { min(max(v, r.lowerBound), r.upperBound) }
        if shutterFixed { return (clamp((wanted / metered.shutter).rounded(), isoRange), metered.shutter) }
        let shutter = clamp(wanted / metered.iso, shutterRange)
        if isoFixed { return (metered.iso, shutter) }
        return (clamp((wanted / shutter).rounded(), isoRange), shutter)
    }

    // MARK: - Books

    /// Starts the journal; a failure is reported as an error and the burst goes on without one.
    private func openJournal() {
        guard configuration.journal else { return }
        do {
            let opened = try BurstJournal(directory: configuration.outputDirectory)
            var start = BurstJournal.Entry(.start)
            start.version = 1
            start.sensor = source.sensorNames.joined(separator: ",")
            start.frames = configuration.frames
            start.overflow = configuration.overflow.rawValue
            try opened.append(start)
            journal = opened
        } catch {
            lock.withLock { failures.append(.journal("\(error)")) }
        }
    }

    /// Records a drop in the ledger and the journal.
    func drop(_ frame: CapturedFrame, _ reason: BurstLedger.DropReason) {
        lock.withLock { ledgers[frame.sensorName, default: BurstLedger()].recordDropped(frame.sequenceNumber, reason: reason) }
        var entry = BurstJournal.Entry(.dropped)
        entry.sequenceNumber = frame.sequenceNumber
        entry.sensor = frame.sensorName
        entry.reason = reason.rawValue
        journalAppend(entry)
    }

    /// Records a durable frame.
    func recordWritten(_ record: FrameRecord, file: String) {
        var committed = BurstJournal.Entry(.committed)
        committed.sequenceNumber = record.sequenceNumber
        committed.sensor = record.sensor
        committed.file = file
        committed.bytes = record.bytes
        journalAppend(committed)
        lock.withLock {
            ledgers[record.sensor, default: BurstLedger()].recordWritten(record.sequenceNumber)
            records.append(record)
            bytesWritten += record.bytes
            consecutiveWriteFailures = 0
        }
    }

    /// Records a failed write; under `block` and `stop`, or after three failures in a row, the burst stops.
    func recordWriteFailure(_ frame: CapturedFrame, message: String) {
        let inARow = lock.withLock { () -> Int in
            failures.append(.write(sequenceNumber: frame.sequenceNumber,
                                   sensor: source.framesPerTrigger > 1 ? frame.sensorName : nil, detail: message))
            consecutiveWriteFailures += 1
            return consecutiveWriteFailures
        }
        drop(frame, .writeFailed)
        if configuration.overflow == .block || configuration.overflow == .stop || inARow >= 3 {
            stop(because: .writesFailing(message))
        }
    }

    /// Adds a failure to the burst's report (call with `lock` held).
    func failuresAppend(_ failure: Failure) { failures.append(failure) }

    /// The next file counter of `sensor` (1, 2, ...).
    func nextCounter(_ sensor: String) -> Int {
        lock.withLock {
            counters[sensor, default: 0] += 1
            return counters[sensor]!
        }
    }

    /// The governor's level now (the writers read it per frame).
    var currentLevel: BurstGovernor.Level { lock.withLock { level } }

    /// Appends to the journal, if there is one; a failure is reported as an error.
    private func journalAppend(_ entry: BurstJournal.Entry) {
        guard let journal else { return }
        do { try journal.append(entry) } catch { lock.withLock { failures.append(.journal("\(error)")) } }
    }

    /// Tells `onProgress` the counts now.
    func reportProgress() {
        guard let onProgress else { return }
        let stats = pool.statistics
        let (isPaused, waiting) = control.withLock { (paused, !triggered) }
        let progress = lock.withLock {
            let totals = BurstLedger.totals(ledgers.values)
            return Progress(produced: totals.produced, written: totals.written, dropped: totals.dropped,
                            queued: stats.queued, slots: stats.slotCount, bytes: bytesWritten,
                            seconds: Double(MonotonicClock.nanoseconds() - startedNanoseconds) / 1e9, level: level,
                            paused: isPaused, waitingForTrigger: waiting)
        }
        onProgress(progress)
    }
}
