import RawCore
import RawSources

/// What the sensor thread keeps from one trigger to the next: its own, never shared, so unguarded.
struct SensorState {
    /// The governor, and the clock and schedule it may have slowed.
    var governor: BurstGovernor
    var clock: FrameClock
    var pacer: FramePacer
    /// Triggered (always, without a pre-record); with a pre-record, the first sequence number after the trigger.
    var triggered: Bool
    var triggeredAt: UInt64?
    /// Times the burst was paused.
    var pauses = 0
    /// The last sequence number produced.
    var lastSequence: UInt64?
    /// Triggers taken since the trigger (counted against `frames`), and all triggers.
    var taken = 0
    var triggers = 0
    /// Every frame's sensor-to-slot latency, every trigger's start, and when the first frame was in the pool (ns).
    var latencies: [UInt64] = []
    var triggerTimes: [UInt64] = []
    var firstFrame: UInt64?
    /// With a duration: no trigger is due at or after this (`CLOCK_MONOTONIC`, ns); set at the first triggered tick.
    var deadline: UInt64?
    /// When the first triggered tick was due (`CLOCK_MONOTONIC`, ns): the start of the burst's clock.
    var clockStart: UInt64?
    /// Triggers dropped late so far, and how late the last trigger started (ns).
    var lateDrops = 0
    var lastLateness: UInt64 = 0
    /// How long the source took to make the last eight triggers' frames (ns), oldest first.
    var recentFills: [UInt64] = []
    /// The median of `recentFills` (one slow frame — a page fault storm, a preempted thread — is not the source's pace).
    var typicalFill: UInt64? { recentFills.isEmpty ? nil : recentFills.sorted()[recentFills.count / 2] }
    /// How the sensor thread was scheduled.
    var scheduling = ThreadPriority.Scheduling.normal
    /// Slots lent to a borrowing source (its device's buffers), by their storage (`BurstRun+Lending`).
    var lent: [ObjectIdentifier: FramePool<BurstSession.Pending>.Slot] = [:]

    init(governor: BurstGovernor, clock: FrameClock, triggered: Bool) {
        self.governor = governor
        self.clock = clock
        pacer = FramePacer(clock: clock)
        self.triggered = triggered
    }
}

/// Ends the sensor loop: with a stop cause, or nil when every frame was taken.
struct SensorLoopEnd: Error {
    let cause: BurstSession.StopCause?
}

extension BurstRun {
    typealias Slot = FramePool<BurstSession.Pending>.Slot

    /// Waits out a pause; ends the loop on a stop or once every frame is taken; at the pre-record's trigger, lets
    /// the kept frames go to the writers.
    func checkpoint(_ s: inout SensorState) throws(SensorLoopEnd) {
        let before = MonotonicClock.nanoseconds()
        let (stop, triggered, paused) = session.control.checkpoint()
        if paused { s.pauses += 1 }
        if let stop { throw SensorLoopEnd(cause: stop) }
        if paused {
            s.pacer = FramePacer(clock: s.clock)
            // A pause does not count against the duration.
            if let deadline = s.deadline { s.deadline = deadline + (MonotonicClock.nanoseconds() - before) }
        }
        if triggered && !s.triggered {
            s.triggered = true
            s.triggeredAt = s.lastSequence.map { $0 + 1 } ?? 0
            dropBeyondPreRecord()
            books.withLock { $0.droppedBeforeRecording = $0.droppedByReason }
            pool.setHeld(false)
        }
        if s.triggered && s.taken >= configuration.frames { throw SensorLoopEnd(cause: nil) }
        if let deadline = s.deadline, (s.pacer.nextDueNanoseconds ?? MonotonicClock.nanoseconds()) >= deadline {
            throw SensorLoopEnd(cause: nil)
        }
    }

    /// At a triggered tick of a burst with a duration, the first sets when the burst ends.
    func startDuration(_ s: inout SensorState, tick: (monotonicNanoseconds: UInt64, latenessNanoseconds: UInt64)) {
        guard s.deadline == nil, s.triggered, let duration = configuration.duration else { return }
        if case .freeRunning = configuration.clock, !session.source.pacedBySource { return }
        // At most a year (the command line allows far less): beyond that UInt64 nanoseconds would not hold it.
        s.deadline = tick.monotonicNanoseconds - tick.latenessNanoseconds + UInt64(min(max(duration, 0), 31_557_600) * 1e9)
    }

    /// The last moment (ns) a frame due at this tick may start under `--late drop`, or nil when frames are never
    /// dropped late (free-running, or `--late wait`).
    func lateLimit(_ s: SensorState, tick: (monotonicNanoseconds: UInt64, latenessNanoseconds: UInt64)) -> UInt64? {
        guard configuration.late == .drop, let interval = s.pacer.intervalNanoseconds else { return nil }
        return tick.monotonicNanoseconds - tick.latenessNanoseconds + LateFramePolicy.tolerance(intervalNanoseconds: interval)
    }

    /// Waits for the trigger's tick on the burst's clock. A source that makes frames ahead starts the clock once its
    /// next frame is made (the clock starts at the first delivered frame, again after a pause or a new rate).
    func tick(_ s: inout SensorState) -> (monotonicNanoseconds: UInt64, latenessNanoseconds: UInt64) {
        if s.pacer.startNanoseconds == nil && session.source.framesAhead > 0 {
            _ = session.source.awaitNext(due: nil, until: nil)
        }
        let tick = s.pacer.waitForNextFrame()
        startDuration(&s, tick: tick)
        if s.triggered && s.clockStart == nil { s.clockStart = tick.monotonicNanoseconds - tick.latenessNanoseconds }
        s.lastLateness = tick.latenessNanoseconds
        return tick
    }

    /// Whether the trigger's frames can be taken on this tick. A source that makes its frames ahead says whether
    /// they were made by `limit` — the engine's own lateness does not lose a frame that waits in its buffer — and,
    /// when not, whose lateness it was (its own making, or the engine holding its buffers). Any other source's frame
    /// is late when the sensor thread reached the tick after `limit`.
    func readiness(_ s: inout SensorState, tick: (monotonicNanoseconds: UInt64, latenessNanoseconds: UInt64),
                   limit: UInt64?) -> FrameReadiness {
        guard session.source.framesAhead > 0 else {
            return limit.map { tick.monotonicNanoseconds > $0 } ?? false ? .late(.engine) : .ready
        }
        // The engine waking late is not pressure here: the frame's own lateness (its making) is, once it is taken.
        s.lastLateness = 0
        return session.source.awaitNext(due: tick.monotonicNanoseconds - tick.latenessNanoseconds, until: limit)
    }

    /// A trigger that could not start on its tick: the source lets its frames go by (their sequence numbers used
    /// up) and each is counted as produced and dropped with `reason` (`late`, or `sensor-late` when the source's own
    /// making fell behind).
    func dropLate(_ s: inout SensorState, reason: BurstLedger.DropReason) {
        let numbers = session.source.skip()
        for (number, sensor) in zip(numbers, session.sensorNames) {
            recordProduced(number, sensor: sensor)
            drop(number, sensor: sensor, reason, flush: false)
        }
        s.triggers += 1
        if s.triggered { s.taken += 1 }
        s.lastSequence = numbers.first
        // Before a pre-record's trigger the governor is not looking: those drops are not its evidence.
        if s.triggered { s.lateDrops += 1 }
    }

    /// Ends the loop at a critical thermal state; otherwise lets the governor look at the pool, the lateness and the
    /// thermal state, and follows the rate it sets.
    func governorStep(_ s: inout SensorState) throws(SensorLoopEnd) {
        let seconds = Double(MonotonicClock.nanoseconds() - startedNanoseconds) / 1e9
        let thermal = configuration.thermal?.state(at: seconds) ?? .nominal
        if thermal == .critical { throw SensorLoopEnd(cause: .thermalCritical) }
        guard configuration.governor && s.triggered else { return }
        let stats = pool.statistics
        let finished = books.withLock { $0.finished }
        // Slots lent to a camera are always `filling`: not frames waiting, not room either.
        let observation = BurstGovernor.Observation(
            seconds: seconds, occupied: stats.occupied - s.lent.count, free: stats.slotCount - stats.occupied, queued: stats.queued,
            finished: finished,
            lastLatenessNanoseconds: s.lastLateness, lateDrops: s.lateDrops, thermal: thermal,
            lastSequenceNumber: s.lastSequence, sensorSeconds: s.typicalFill.map { Double($0) / 1e9 })
        guard s.governor.observe(observation) != nil else { return }
        let (level, work) = (s.governor.level, s.governor.work)
        books.withLock { $0.level = level }
        let own: FrameClock = session.source.pacedBySource ? .freeRunning : configuration.clock
        let rate: FrameClock = work.fps.map { .realTime(fps: $0) } ?? own
        if rate != s.clock {
            s.clock = rate
            s.pacer = FramePacer(clock: rate)
        }
    }

    /// Configures the source for the bracketing plan's step of this trigger; returns the step's bracket index
    /// (0 without a plan). A source with a settings latency L gets the step of the trigger L on instead, for that
    /// frame (and at the first trigger every step up to it), so every frame is made with its own step. A step the
    /// source rejects ends the loop.
    func applyPlanStep(_ s: SensorState, metered: (iso: Double, shutter: Double)?) throws(SensorLoopEnd) -> Int {
        guard s.triggered, let (plan, base) = configuration.plan else { return 0 }
        let step = plan.step(s.taken, base: base)
        guard s.taken == 0 || plan.stepsPerRun > 1 else { return step.bracketIndex }
        let latency = session.source.settingsLatency
        let last = plan.stepsPerRun > 1 ? s.taken + latency : 0
        let first = latency == 0 ? s.taken : (s.taken == 0 ? 0 : last)
        let next = s.lastSequence.map { $0 + 1 } ?? 0
        for index in first...last {
            let indexed = plan.step(index, base: base)
            let settings = plan.settings(of: indexed, base: base, metered: metered, index: index,
                                         capabilities: session.source.capabilities)
            do {
                if latency == 0 {
                    try session.source.configure(settings)
                } else {
                    try session.source.configure(settings, fromFrame: next + UInt64(index - s.taken))
                }
            } catch {
                throw SensorLoopEnd(cause: .planStepRejected(step: indexed.bracketIndex + 1, detail: "\(error)"))
            }
        }
        return step.bracketIndex
    }

    /// free → filling: a slot for every frame of the trigger, or none. Before a pre-record's trigger, once its
    /// window is full, the oldest kept trigger makes room (its frames are dropped as outside the pre-record).
    func takeSlots(_ s: SensorState, lateLimit: UInt64?) -> [Slot]? {
        let perTrigger = session.source.framesPerTrigger
        var reclaimed: [Slot] = []
        if !s.triggered && pool.statistics.queued >= configuration.preRecordFrames * perTrigger {
            for _ in 0..<perTrigger {
                guard let (slot, old) = pool.reclaimOldestFull() else { break }
                drop(old.frame, .outsidePreRecord, flush: false)
                reclaimed.append(slot)
            }
        }
        return acquireSlots(count: perTrigger, reusing: reclaimed, lateLimit: lateLimit)
    }

    /// `count` slots by the overflow policy (after `reusing`, slots already in hand), or none: a trigger gets
    /// a slot for every frame or for none. Nil when `block` waited until `lateLimit` (the frame is then late).
    private func acquireSlots(count: Int, reusing: [Slot], lateLimit: UInt64?) -> [Slot]? {
        var slots = reusing
        while slots.count < count {
            var slot: Slot?
            switch configuration.overflow {
            case .block:
                slot = lateLimit.map { pool.acquire(until: $0) } ?? pool.acquire(waiting: true)
                if slot == nil, let lateLimit, MonotonicClock.nanoseconds() >= lateLimit {
                    for taken in slots { pool.abandon(taken) }
                    return nil
                }
            case .dropNewest, .stop:
                slot = pool.tryAcquire()
            case .dropOldest:
                slot = pool.tryAcquire()
                if slot == nil, let (reclaimed, dropped) = pool.reclaimOldestFull() {
                    drop(dropped.frame, .replacedByNewer, flush: false)
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

    /// filling: the source makes the trigger's frames into `slots` (into the spares when there are none; a borrowing
    /// source into slots lent earlier, which it returns), timed against `tick`; they are counted as produced. A sensor
    /// error gives the slots back and ends the loop.
    func fill(_ slots: [Slot], tick: (monotonicNanoseconds: UInt64, latenessNanoseconds: UInt64),
              _ s: inout SensorState) throws(SensorLoopEnd) -> (frames: [CapturedFrame], slots: [Slot], slotLatency: UInt64) {
        let slotLatency = MonotonicClock.nanoseconds() - tick.monotonicNanoseconds
        let buffers = slots.isEmpty ? session.spares : slots.map(\.storage)
        let frames: [CapturedFrame]
        let filled: [Slot]
        do {
            let due = tick.monotonicNanoseconds - tick.latenessNanoseconds
            let began = MonotonicClock.nanoseconds()
            let made: [CapturedFrame]
            (made, filled) = try makeFrames(slots, buffers: buffers, &s)
            // A source on its own clock has no schedule of ours to be late against.
            frames = oriented(session.source.pacedBySource ? made : made.map { Self.retimed($0, due: due) })
            if let making = session.source.recentFrameNanoseconds {
                // Made ahead on the source's own thread: the hand-over is not its pace.
                s.recentFills = [making]
            } else {
                s.recentFills.append(MonotonicClock.nanoseconds() - began)
                if s.recentFills.count > 8 { s.recentFills.removeFirst() }
            }
        } catch {
            for slot in slots { pool.abandon(slot) }
            countLosses(&s)
            if session.source.hasEnded { throw SensorLoopEnd(cause: .sourceEnded) }
            // A source interrupted by the stop: the stop's cause, not a failure.
            if let stop = session.control.stopCause { throw SensorLoopEnd(cause: stop) }
            recordFailure(.sensor("\(error)"))
            throw SensorLoopEnd(cause: .sensorFailed("\(error)"))
        }
        countLosses(&s)
        s.triggers += 1
        s.lastLateness = frames.first?.latenessNanoseconds ?? tick.latenessNanoseconds
        s.triggerTimes.append(frames.first?.monotonicNanoseconds ?? tick.monotonicNanoseconds)
        if s.triggered { s.taken += 1 }
        s.lastSequence = frames.first?.sequenceNumber
        for frame in frames {
            recordProduced(frame)
            s.latencies.append(slotLatency)
        }
        return (frames, filled, slotLatency)
    }

    /// What a source on its own clock lost since the last trigger (it never arrived, or arrived damaged): each
    /// counted as produced and dropped with its reason, in the order the source lost them.
    func countLosses(_ s: inout SensorState) {
        for (loss, sensor) in session.source.takeLosses() {
            recordProduced(loss.sequenceNumber, sensor: sensor)
            drop(loss.sequenceNumber, sensor: sensor, loss.reason, flush: false)
            s.lastSequence = max(s.lastSequence ?? 0, loss.sequenceNumber)
        }
    }

    /// Frames made into the spares (no slot): dropped as `pool-full`, or as `burst-stopped` under policy `stop`,
    /// which then ends the loop.
    func dropUnslotted(_ frames: [CapturedFrame]) throws(SensorLoopEnd) {
        let stopping = configuration.overflow == .stop
        for frame in frames { drop(frame, stopping ? .burstStopped : .poolFull, flush: false) }
        reportProgress()
        if stopping { throw SensorLoopEnd(cause: .noFreeSlot) }
    }

    /// filling → full: queues the frames for the writers, each in its slot.
    func handToWriters(_ slots: [Slot], _ frames: [CapturedFrame], bracketIndex: Int, slotLatency: UInt64,
                       _ s: inout SensorState) {
        let depth = pool.statistics.queued
        for (offset, (slot, frame)) in zip(slots, frames).enumerated() {
            let pending = BurstSession.Pending(frame: frame, work: s.governor.work, level: s.governor.level,
                                               queueDepth: depth + offset + 1, bracketIndex: bracketIndex,
                                               slotLatency: slotLatency)
            pool.markFull(slot, payload: pending)
        }
        if s.firstFrame == nil { s.firstFrame = MonotonicClock.nanoseconds() }
    }

    /// For a plan with an `ev:` axis over automatic exposure: the ISO and shutter auto exposure finds for the
    /// plan's base settings at 0 EV (nil when the source cannot say, or the exposure is not automatic).
    func meteredExposure() -> (iso: Double, shutter: Double)? {
        guard let (plan, base) = configuration.plan, plan.variesExposureCompensation,
              base.iso == nil || base.shutter == nil else { return nil }
        var probe = base
        probe.exposureCompensation = 0
        guard (try? session.source.configure(probe)) != nil, let resolved = session.source.resolvedSettings else { return nil }
        return (resolved.iso, resolved.shutter)
    }

    /// The trigger's frames with the orientation each sensor is mounted in (`Configuration.orientations`), before
    /// the viewfinder or a writer sees them (only the metadata changes; the pixels stay in their slots).
    private func oriented(_ frames: [CapturedFrame]) -> [CapturedFrame] {
        guard let orientations = configuration.orientations else { return frames }
        return zip(frames, orientations).map { frame, orientation in
            guard frame.image.metadata.orientation != orientation else { return frame }
            var image = frame.image
            image.metadata.orientation = orientation
            return frame.replacingImage(image)
        }
    }

    /// `frame` with its lateness measured against the schedule: its start (the source's timestamp, after any
    /// wait for a slot) less the time it was due.
    private static func retimed(_ frame: CapturedFrame, due: UInt64) -> CapturedFrame {
        let lateness = frame.monotonicNanoseconds > due ? frame.monotonicNanoseconds - due : 0
        guard lateness > frame.latenessNanoseconds else { return frame }
        var retimed = CapturedFrame(image: frame.image, settings: frame.settings, sequenceNumber: frame.sequenceNumber,
                                    monotonicNanoseconds: frame.monotonicNanoseconds, latenessNanoseconds: lateness,
                                    sensorName: frame.sensorName)
        retimed.camera = frame.camera
        return retimed
    }
}
