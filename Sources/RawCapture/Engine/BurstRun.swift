import Foundation
import RawCore
import RawSources
import Synchronization

/// One run of a `BurstSession`, from `run(progress:)` until it returns: the sensor loop on the calling thread,
/// the writer threads, and what they share. The run's fields are fixed when it starts; the only state both
/// sides change is `books`, behind its `Mutex`. The sensor thread keeps its own state in a `SensorState`.
///
/// A slot's life: `free → filling` (the sensor thread takes it by the overflow policy), `filling → full` (the
/// source has made the frame into it), `full → encoding` (a writer takes it), `encoding → free` (the frame's
/// DNG is durable, or its write failed and the frame is counted as dropped).
final class BurstRun: Sendable {
    /// The session: source, configuration, memory plan, pool and control.
    let session: BurstSession
    /// Ledgers, records, failures, counters and the governor's level, shared by the sensor thread and the writers.
    let books: Mutex<BurstBooks>
    /// The journal, if the configuration keeps one and it could be opened.
    let journal: BurstJournal?
    /// The storage fault injector, if faults are simulated, and the simulated CPU of the writes, if any.
    let faults: StorageFaultInjector?
    let simulatedCPU: SimulatedCPU?
    /// `CLOCK_MONOTONIC` when the run began (ns), and the process's CPU time then (ns, all threads).
    let startedNanoseconds: UInt64
    let startedCPUNanoseconds: UInt64
    /// Called after each frame is written or dropped.
    let progress: (@Sendable (BurstSession.Progress) -> Void)?
    /// Called by a writer before each write (a test hook).
    let beforeWrite: (@Sendable (UInt64) throws -> Void)?

    var configuration: BurstSession.Configuration { session.configuration }
    var pool: FramePool<BurstSession.Pending> { session.pool }

    /// Starts the clock, the fault injector and the journal of a run of `session`.
    init(session: BurstSession, progress: (@Sendable (BurstSession.Progress) -> Void)?,
         beforeWrite: (@Sendable (UInt64) throws -> Void)?) {
        self.session = session
        self.progress = progress
        self.beforeWrite = beforeWrite
        let started = MonotonicClock.nanoseconds()
        startedNanoseconds = started
        startedCPUNanoseconds = MonotonicClock.processCPUNanoseconds()
        faults = session.configuration.storageFaults.map { StorageFaultInjector($0, startNanoseconds: started) }
        simulatedCPU = session.configuration.simulatedWriteCPU.map { SimulatedCPU(seconds: $0) }
        var opening = BurstBooks(sensorNames: session.source.sensorNames)
        if !session.control.status.waitingForTrigger { opening.droppedBeforeRecording = [:] }
        journal = Self.openJournal(session, failures: &opening.failures)
        books = Mutex(opening)
    }

    /// Runs the burst: starts the writers, runs the sensor loop on this thread, then lets the writers empty the
    /// pool and closes the books. `afterTrigger` is called on this thread after each trigger.
    func run(started: Date, afterTrigger: ((Int) -> Void)?) -> BurstSession.Report {
        let preRecording = configuration.preRecordFrames > 0 || configuration.waitForTrigger
        if preRecording { pool.setHeld(true) }
        let writers = startWriters()
        // A source on its own clock (a camera, a stream) is taken as its frames come: the engine does not pace it.
        let pacedBySource = session.source.pacedBySource
        var sensor = SensorState(governor: session.initialGovernor, clock: pacedBySource ? .freeRunning : configuration.clock,
                                 triggered: !preRecording)
        // On a real-time clock (ours or the source's) the sensor thread asks to be scheduled as one (granted to root
        // or CAP_SYS_NICE).
        var scheduling = ThreadPriority.Scheduling.normal
        var realTime = pacedBySource
        if case .realTime = configuration.clock { realTime = true }
        if realTime && configuration.realTimeScheduling {
            scheduling = ThreadPriority.requestRealTime()
        }
        // A camera's device fills lent pool slots itself; a source that cannot take them ends the burst before it starts.
        var stopCause = lendSlots(&sensor)
        if stopCause == nil { stopCause = sensorLoop(&sensor, afterTrigger: afterTrigger) }
        session.source.finish()
        // What a source found lost only at its finish (a stream's late timestamps).
        countLosses(&sensor)
        returnLentSlots(&sensor)
        if scheduling == .realTime { ThreadPriority.returnToNormal() }
        sensor.scheduling = scheduling
        if !sensor.triggered { dropPreRecord() }
        pool.close()
        writers.wait()
        var end = BurstJournal.Entry(.end)
        (end.produced, end.written, end.dropped) = books.withLock { BurstLedger.totals($0.ledgers.values) }
        journalAppend(end)
        // A writer may have asked for the stop (a failing disk) after the sensor loop had ended on its own.
        if stopCause == nil { stopCause = session.control.stopCause }
        return report(sensor, stopCause: stopCause, seconds: Date().timeIntervalSince(started))
    }

    /// The sensor loop, one trigger per turn, as the sensor thread sees the slots. Returns why the burst stopped
    /// early, nil when every frame was taken.
    private func sensorLoop(_ s: inout SensorState, afterTrigger: ((Int) -> Void)?) -> BurstSession.StopCause? {
        let metered = meteredExposure()
        do throws(SensorLoopEnd) {
            while true {
                // Between triggers: pause, stop, the pre-record's trigger, the frame count; the thermal state and
                // the governor's step; the bracketing plan's settings for this trigger.
                try checkpoint(&s)
                try governorStep(&s)
                applyFedSettings()
                let bracketIndex = try applyPlanStep(s, metered: metered)
                // The trigger, on the burst's clock; one that cannot start within half an interval is dropped late
                // (a source that makes frames ahead says whether its frame was made in time: see `readiness`).
                let tick = tick(&s)
                let limit = lateLimit(s, tick: tick)
                // free → filling: a slot for every frame of the trigger, by the overflow policy, or none.
                if case .late(let cause) = readiness(&s, tick: tick, limit: limit) {
                    dropLate(&s, reason: cause == .source ? .sensorLate : .late)
                } else if let slots = takeSlots(s, lateLimit: limit) {
                    // filling: the source makes the frames straight into the slots (into the spares without slots).
                    let (frames, filled, slotLatency) = try fill(slots, tick: tick, &s)
                    // The viewfinder sees them while no writer can take them yet.
                    configuration.viewer?.view(frames, level: s.governor.level)
                    if filled.isEmpty {
                        // No slots: the frames are dropped (policy `stop`: and the burst ends).
                        try dropUnslotted(frames)
                    } else {
                        // filling → full: the writers take them from here (full → encoding → free, `writeLoop`).
                        handToWriters(filled, frames, bracketIndex: bracketIndex, slotLatency: slotLatency, &s)
                    }
                } else {
                    // `block` waited for a slot past the frame's limit: late.
                    dropLate(&s, reason: .late)
                }
                afterTrigger?(s.triggers)
                reportProgress()
            }
        } catch {
            return error.cause
        }
    }

    /// Starts `configuration.writers` writer threads; the group is left when each has emptied the closed pool.
    private func startWriters() -> DispatchGroup {
        let group = DispatchGroup()
        for _ in 0..<configuration.writers {
            group.enter()
            let thread = Thread { [self] in
                // The sensor thread is the burst's real-time part: the writers yield a core to it at once.
                ThreadPriority.lowerCurrentThread(to: ThreadPriority.background)
                writeLoop()
                group.leave()
            }
            thread.name = "rawburst-writer"
            thread.start()
        }
        return group
    }

    /// A pre-record whose trigger never came: the kept frames are not wanted.
    private func dropPreRecord() {
        dropHeldFrames(keeping: 0, flush: true)
        pool.setHeld(false)
    }

    /// The report of the ended run.
    private func report(_ s: SensorState, stopCause: BurstSession.StopCause?, seconds: Double) -> BurstSession.Report {
        let final = books.withLock { $0 }
        var report = BurstSession.Report(
            ledgers: final.ledgers, frames: final.records, failures: final.failures, pool: pool.statistics,
            memory: session.memory, seconds: seconds, stopCause: stopCause, degradations: s.governor.steps,
            slotLatencies: s.latencies, triggerNanoseconds: s.triggerTimes, startedNanoseconds: startedNanoseconds,
            firstFrameNanoseconds: s.firstFrame, triggeredAtSequenceNumber: s.triggeredAt, pauses: s.pauses,
            developed: final.developed, deferredDevelopments: final.deferredDevelopments,
            analyses: final.analyses.sorted { ($0.sensor, $0.sequenceNumber) < ($1.sensor, $1.sequenceNumber) },
            skippedAnalyses: final.skippedAnalyses)
        report.prediction = session.prediction
        report.sensorScheduling = s.scheduling
        report.clockStartNanoseconds = s.clockStart
        report.firstDrop = final.firstDrop
        report.disk = final.disk
        let cpu = MonotonicClock.processCPUNanoseconds()
        report.cpuSeconds = Double(cpu > startedCPUNanoseconds ? cpu - startedCPUNanoseconds : 0) / 1e9
        report.predictionCheck = session.prediction.map {
            PredictionCheck($0, report: report, checkable: configuration.preRecordFrames == 0 && !configuration.waitForTrigger)
        }
        return report
    }
}
