import Foundation
import RawCore
import RawSources

/// One burst: a sensor thread triggering frames from a `BurstSource` (one sensor or a synchronized pair) into
/// a `FramePool`, and writer threads encoding full slots to DNG files, with a declared overflow policy, a
/// pressure governor, and every frame accounted for in one `BurstLedger` per sensor.
///
/// The calling thread is the sensor thread (`run(progress:)` blocks until the burst ends); the writers are
/// dedicated threads, so blocking file I/O never runs on Swift's cooperative pool. Each trigger waits for the
/// burst's clock, takes a slot per frame, and has the source fill the slots directly. When the pool is full, the
/// policy decides: `block` waits for a writer (the next triggers are late, and say so), `drop-newest` and
/// `stop` let the source make the frame into a spare buffer (so its clock and sequence numbers go on as a
/// real sensor's would) and count it as dropped, `drop-oldest` takes back the oldest frame no writer has
/// started. A pair takes both slots or neither.
///
/// Who owns what: the session holds what does not change (source, configuration, memory plan, pool) and the
/// control state (`BurstControl`); each run makes a `BurstRun` whose books (ledgers, records, failures ...) sit
/// in a `Mutex` shared by the sensor thread and the writers. `trigger()`, `pause()`, `resume()` and `stop()` may
/// be called from any thread (a signal handler's queue, a key reader) while `run(progress:)` is going.
// @unchecked: `source` (a FrameSource, not Sendable) is used only by the thread that calls `init` and `run` (except its
// `interrupt()`, which any thread may call); all else is Sendable.
public final class BurstSession: @unchecked Sendable {
    /// The sensors.
    public let source: BurstSource
    /// The configuration.
    public let configuration: Configuration
    /// How the budget is spent (the pool gets `memory.slots` slots).
    public let memory: BurstMemoryPlan
    /// The pool.
    public let pool: FramePool<Pending>
    /// How long the burst holds by its time plan and its pool (nil without a time plan).
    public let prediction: BurstPrediction?

    /// The governor a run starts with (the ladder of its time plan's bottleneck, the plan's work).
    let initialGovernor: BurstGovernor

    /// Buffers a trigger's frames are made into when the policy finds them no slot (one per frame of a trigger).
    let spares: [PixelStorage]
    /// The sensors' names, in trigger order, read from the sources once at init (writer threads use these, never
    /// the sources).
    let sensorNames: [String]
    /// Pause, stop and the pre-record's trigger.
    let control: BurstControl

    /// The most frames one burst (or one bracketing plan) takes.
    public static let maximumFrames = 1_000_000

    /// Checks that `configuration` can run with `source`, allocating nothing; returns how the budget would be spent.
    @discardableResult
    public static func check(_ configuration: Configuration, source: BurstSource) throws(FramePoolError) -> BurstMemoryPlan {
        guard (1...maximumFrames).contains(configuration.frames) else {
            throw FramePoolError("frames must be within 1...\(maximumFrames), not \(configuration.frames)")
        }
        guard (1...64).contains(configuration.writers) else {
            throw FramePoolError("writers must be within 1...64, not \(configuration.writers)")
        }
        guard (0...100_000).contains(configuration.preRecordFrames) else {
            throw FramePoolError("a pre-record must keep 0...100000 frames, not \(configuration.preRecordFrames)")
        }
        if let orientations = configuration.orientations, orientations.count != source.framesPerTrigger {
            throw FramePoolError("\(orientations.count) orientations for \(source.framesPerTrigger) sensors: give one per sensor")
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
        // Slots lent to a camera are its buffers, not room for frames waiting for the writers.
        let slots = memory.slots - memory.lentSlots
        initialGovernor = Self.governor(configuration: configuration, source: source, memory: memory)
        let governor = configuration.governor ? initialGovernor : nil
        prediction = configuration.timePlan.map {
            BurstPrediction(plan: $0, slots: slots, writers: configuration.writers, governor: governor)
        }
        spares = (0..<source.framesPerTrigger).map { _ in PixelStorage(lazilyZeroedCount: source.samplesPerSlot) }
        control = BurstControl(triggered: configuration.preRecordFrames == 0 && !configuration.waitForTrigger)
        sensorNames = source.sensorNames
    }

    /// The governor of a burst from `source` with `configuration` and `memory`: the ladder of its time plan's
    /// bottleneck, starting with the plan's work.
    static func governor(configuration c: Configuration, source: BurstSource, memory: BurstMemoryPlan) -> BurstGovernor {
        var fps: Double?
        // The engine can lower only a rate it keeps itself (a camera's is the camera's).
        if case .realTime(let rate) = c.clock, !source.pacedBySource { fps = rate }
        var work = BurstGovernor.Work(compression: c.dngOptions.compression, fps: fps)
        work.shedsOptionalWork = !(c.timePlan?.optionalWork ?? true)
        let optional = c.dngOptions.previewLongEdge != nil || c.dngOptions.rawImageDigest || c.analysis != nil
            || (c.development != nil && memory.developsDuringBurst)
        let bits = source.sources.map(\.capabilities.bitsPerSample).max() ?? 16
        var ladder = BurstGovernor.ladder(bottleneck: c.timePlan?.bottleneck ?? .cpu, compression: work.compression,
                                          shedsWork: optional && !work.shedsOptionalWork, packable: (9...15).contains(bits),
                                          realTime: fps != nil)
        // A CinemaDNG clip keeps one layout in every frame and the rate its time codes count: only optional work goes.
        if c.cinemaDNG != nil { ladder.removeAll { $0 != .noPreviews } }
        // The governor watches the slots frames wait in: those lent to a camera are its buffers, always `filling`.
        return BurstGovernor(ladder: ladder, work: work, slots: memory.slots - memory.lentSlots,
                             framesPerTrigger: source.framesPerTrigger, keepsRate: c.cinemaDNG != nil)
    }

    /// A one-sensor burst.
    public convenience init(source: any FrameSource, configuration: Configuration) throws(FramePoolError) {
        try self.init(source: .single(source), configuration: configuration)
    }

    // MARK: - Control (any thread)

    /// Ends a pre-record (or the wait of `Configuration.waitForTrigger`): the frames kept so far are written and
    /// `frames` more are taken. Does nothing without a pre-record or when already triggered.
    public func trigger() { control.trigger() }

    /// Stops triggering frames until `resume()`; the writers go on emptying the pool.
    public func pause() { control.pause() }

    /// Triggers frames again, on a schedule restarted from now.
    public func resume() { control.resume() }

    /// Ends the burst after the frame being made; frames in the pool are still written. The report's stop cause
    /// is `.requested(reason)`.
    public func stop(reason: String = "stopped on request") {
        control.stop(because: .requested(reason))
        // A source waiting for a frame that may not come (a silent camera, a stalled pipe) stops waiting.
        for frameSource in source.sources { frameSource.interrupt() }
    }

    /// Pauses a running burst, or resumes a paused one (one step, so two callers cannot both pause).
    public func togglePause() { control.togglePause() }

    /// Whether the burst is paused now.
    public var isPaused: Bool { control.isPaused }

    // MARK: - Running

    /// Runs the burst on the calling thread (the sensor thread) and returns when every frame is written or
    /// dropped. `progress` is called after each frame is written or dropped, with the counts so far (for a live
    /// status line), from the sensor thread and the writers.
    public func run(progress: (@Sendable (Progress) -> Void)? = nil) -> Report {
        run(progress: progress, hooks: Hooks())
    }

    /// `run(progress:)` with test hooks, fixed for the whole run.
    package func run(progress: (@Sendable (Progress) -> Void)? = nil, hooks: Hooks) -> Report {
        let started = Date()
        return BurstRun(session: self, progress: progress, beforeWrite: hooks.beforeWrite)
            .run(started: started, afterTrigger: hooks.afterTrigger)
    }

    /// Ways for tests to step into a run at exact points (package-only; set before the run, fixed during it).
    package struct Hooks {
        /// Called by a writer before it writes a frame, with its sequence number (to stall a writer); a thrown
        /// error fails that frame's write.
        package var beforeWrite: (@Sendable (UInt64) throws -> Void)?
        /// Called on the sensor thread after each trigger, with the number of triggers so far (to trigger a
        /// pre-record or pause at an exact frame).
        package var afterTrigger: ((Int) -> Void)?

        /// Hooks that do nothing, or the ones given.
        package init(beforeWrite: (@Sendable (UInt64) throws -> Void)? = nil, afterTrigger: ((Int) -> Void)? = nil) {
            self.beforeWrite = beforeWrite
            self.afterTrigger = afterTrigger
        }
    }
}

extension BurstSession {
    /// A full slot's frame on its way to a writer.
    public struct Pending: Sendable {
        let frame: CapturedFrame
        /// The work the governor allowed when the frame was made (its compression, optional work): a step applies
        /// from the frame after the step's `afterSequenceNumber`, whenever a writer gets to it.
        let work: BurstGovernor.Work
        /// The governor's level when the frame was made (what a deferred development names as its cause).
        let level: BurstGovernor.Level
        let queueDepth: Int
        let bracketIndex: Int
        let slotLatency: UInt64
    }

    /// Counts for a status line.
    public struct Progress: Sendable {
        /// Frames produced (every tick's, dropped late ones included), made (taken from the source), written and
        /// dropped so far (all sensors).
        public let produced: Int
        public let made: Int
        public let written: Int
        public let dropped: Int
        /// Full slots waiting for a writer, and the pool's size.
        public let queued: Int
        public let slots: Int
        /// Bytes written so far.
        public let bytes: Int
        /// Seconds since the burst started.
        public let seconds: Double
        /// The governor's level.
        public let level: BurstGovernor.Level
        /// Paused now; waiting for the pre-record's trigger.
        public let paused: Bool
        public let waitingForTrigger: Bool
        /// Frames dropped so far by reason (all sensors; the counts sum to `dropped`).
        public let droppedByReason: [BurstLedger.DropReason: Int]
        /// The drops of the recording alone, by reason: those since the trigger, not the frames let go while frames
        /// were only shown (before the trigger of a pre-record or a viewfinder's take, nothing is recording). Empty
        /// until the trigger; for a burst that starts recording, the same as `droppedByReason`.
        public let recordingDroppedByReason: [BurstLedger.DropReason: Int]

        /// The recording's drops in all (`recordingDroppedByReason` summed).
        public var recordingDropped: Int { recordingDroppedByReason.values.reduce(0, +) }
    }
}
