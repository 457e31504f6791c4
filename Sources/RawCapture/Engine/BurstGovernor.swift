import RawCore
import RawDNG
import RawSources

/// The burst's pressure governor: it predicts, from measured rates, when the pool will be full (or sees frames
/// starting late) and gives up work in a declared order early enough that no frame is dropped while it still has
/// something to give up.
///
/// The order is the burst's *ladder* (`BurstGovernor.ladder(...)`): only the rungs that give something for what
/// limits this burst, in this order —
/// 1. `no-previews`: no JPEG preview and no raw digest in the DNGs, no analysis, development after the burst
///    (only when the CPU is the limit and there is such work to shed);
/// 2. `packed`: lossless JPEG gives way to packed samples (much less CPU, a quarter more bytes than LJ92's typical
///    output); when the disk is the limit, an uncompressed burst goes the other way, to packed (a quarter fewer bytes);
/// 3. `uncompressed`: packed or lossless JPEG gives way to plain 16-bit samples (CPU limit only);
/// 4. `lower-rate`: the frame rate is lowered to what the writers were measured to sustain (real-time clocks
///    only; repeated while the pool still fills);
/// then the overflow policy decides, frame by frame.
///
/// When to step (`observe`): the pool's occupancy is sampled before each trigger; its growth per second over a
/// window of a few frame intervals says when the pool will be full. The governor steps when that is sooner than
/// the time a step needs to act (the writers first finish what is queued the old way), when at least two and a
/// quarter of the window's frames started more than a quarter interval late, or when two or more were dropped late
/// in a window (one late frame or one late drop is a hiccup of the machine, not pressure); it waits for a fresh
/// window between two such steps so each step's effect is seen. When the next trigger would take the last free slot it goes straight to
/// the last rung. The thermal state sets a floor (`fair`: no previews; `serious`: half rate) that is lifted
/// when it cools; `critical` stops the burst (the session does that). Every change is a `Step` in the manifest.
public struct BurstGovernor: Sendable {
    /// What the governor sees before a trigger.
    public struct Observation: Sendable {
        /// Seconds since the burst started.
        public var seconds: Double
        /// Slots taken (filling, queued or being written), free, and queued (full, waiting for a writer).
        public var occupied: Int
        public var free: Int
        public var queued: Int
        /// Frames the writers have finished (written or failed) so far.
        public var finished: Int
        /// How late the last trigger started (ns), and how many frames were dropped late so far.
        public var lastLatenessNanoseconds: UInt64
        public var lateDrops: Int
        /// The device's thermal state.
        public var thermal: ThermalState
        /// The last sequence number produced.
        public var lastSequenceNumber: UInt64?
        /// How long the source took to make the last trigger's frames (s), when measured.
        public var sensorSeconds: Double?

        /// An observation.
        public init(seconds: Double, occupied: Int, free: Int, queued: Int? = nil, finished: Int,
                    lastLatenessNanoseconds: UInt64 = 0, lateDrops: Int = 0, thermal: ThermalState = .nominal,
                    lastSequenceNumber: UInt64? = nil, sensorSeconds: Double? = nil) {
            self.sensorSeconds = sensorSeconds
            self.seconds = seconds
            self.occupied = occupied
            self.free = free
            self.queued = queued ?? max(0, occupied - 1)
            self.finished = finished
            self.lastLatenessNanoseconds = lastLatenessNanoseconds
            self.lateDrops = lateDrops
            self.thermal = thermal
            self.lastSequenceNumber = lastSequenceNumber
        }
    }

    /// The rungs this burst can use, in order.
    public let ladder: [Level]
    /// What the burst starts with.
    public let initialWork: Work
    /// Slots in the pool, and frames per trigger.
    public let slots: Int
    public let framesPerTrigger: Int
    /// The rate is never changed, not even by the thermal floor (a CinemaDNG clip: its time codes count at its rate).
    public let keepsRate: Bool
    /// The level now (the highest rung applied, or the thermal floor).
    public private(set) var level: Level = .normal
    /// What the writers and the sensor do now.
    public private(set) var work: Work
    /// Every change so far.
    public private(set) var steps: [Step] = []

    /// Rungs applied under pressure (a prefix of the ladder).
    private var position = 0
    /// The thermal floor now.
    private var thermalFloor = ThermalFloor.none
    /// The rate `lower-rate` set last (triggers per second), nil before it.
    private var loweredFPS: Double?
    private var gauge: PressureGauge
    private var lateDropsSeen = 0
    /// Since when (s) the burst has been calm with the rate lowered, and the late drops counted then (nil: not calm).
    private var calmSince: (seconds: Double, lateDrops: Int)?
    /// How long the burst must stay calm before the rate is raised; doubled each time a raised rate had to come
    /// back down, so a rate at the edge of what the machine holds is not tried again and again.
    private var relaxDelay: Double = 0
    /// The last change raised the rate.
    private var lastStepRaisedRate = false

    /// A governor for a pool of `slots` slots, `framesPerTrigger` frames per trigger, starting with `work`, with the
    /// rungs of `ladder`.
    public init(ladder: [Level], work: Work, slots: Int, framesPerTrigger: Int = 1, keepsRate: Bool = false) {
        self.keepsRate = keepsRate
        self.ladder = keepsRate ? ladder.filter { $0 != .lowerRate } : ladder
        initialWork = work
        self.work = work
        self.slots = slots
        self.framesPerTrigger = max(1, framesPerTrigger)
        gauge = PressureGauge(intervalSeconds: work.fps.map { 1 / $0 })
    }

    /// Looks at the pool, the lateness and the thermal state before a trigger; returns the step taken, if any.
    public mutating func observe(_ o: Observation) -> Step? {
        let quarter = (gauge.intervalSeconds ?? .infinity) / 4
        gauge.add(seconds: o.seconds, occupied: o.occupied, finished: o.finished,
                  late: Double(o.lastLatenessNanoseconds) / 1e9 > max(0.002, quarter))
        let floor = ThermalFloor(o.thermal)
        let floorChanged = floor != thermalFloor
        thermalFloor = floor
        if let cause = pressure(o), let step = climb(o, cause: cause) { return step }
        if !floorChanged, let step = relax(o) { return step }
        return floorChanged ? record(o, cause: .thermal(o.thermal)) : nil
    }

    /// Why the governor should step now, or nil.
    private mutating func pressure(_ o: Observation) -> Cause? {
        let canClimb = position < ladder.count || (ladder.last == .lowerRate && (work.fps ?? 0) > floorFPS)
        guard canClimb else { return nil }
        // The next trigger takes the last free slots while frames wait for a writer (not merely the writers' own).
        if o.free <= framesPerTrigger && o.queued > 0 && gauge.growing && position < ladder.count {
            return .nearlyFull(free: o.free, slots: slots)
        }
        // Everything else waits for a settled window since the last step, so each step's effect is seen first (a
        // stall drops a run of ticks late at once: that is one event, not one per tick).
        // One late drop in a window is a hiccup (the machine, not the burst): lowering the rate for it would cost
        // far more frames than it saves. Two or more are pressure.
        let newLateDrops = o.lateDrops - lateDropsSeen
        guard gauge.settled else { return nil }
        lateDropsSeen = o.lateDrops
        if newLateDrops >= 2 { return .lateDrop }
        if gauge.oftenLate {
            return .late(milliseconds: (Double(o.lastLatenessNanoseconds) / 1e4).rounded() / 100)
        }
        if let toFull = gauge.secondsToFull(free: o.free - framesPerTrigger), toFull < 2 * gauge.leadSeconds(occupied: o.occupied) {
            return .filling(secondsToFull: (toFull * 100).rounded() / 100, free: o.free, slots: slots)
        }
        return nil
    }

    /// The lowest rate `lower-rate` goes to: an eighth of the burst's own (nil: free-running).
    private var floorFPS: Double { (initialWork.fps ?? 0) / 8 }

    /// Applies the next rung (every remaining rung when `toTop`), or lowers the rate again at the top.
    private mutating func climb(_ o: Observation, cause: Cause) -> Step? {
        var toTop = false
        if case .nearlyFull = cause { toTop = true }
        let target = toTop ? ladder.count : min(ladder.count, position + 1)
        // Late frames with the writers keeping up: the source is what is slow, so the rate follows what it makes.
        var sensorBound: Double?
        switch cause {
        case .late, .lateDrop: sensorBound = o.sensorSeconds
        default: sensorBound = nil
        }
        // At the top only the rate can go on down; otherwise the rungs up to the target apply, the rate's among them.
        let lowersRate = target == position ? ladder.last == .lowerRate : ladder[position..<target].contains(.lowerRate)
        if lowersRate, let rate = work.fps {
            if lastStepRaisedRate { relaxDelay *= 2 }
            loweredFPS = max(floorFPS, gauge.sustainableFPS(current: rate, framesPerTrigger: framesPerTrigger,
                                                            sensorSeconds: sensorBound))
        } else if target == position {
            return nil   // at the top with no rate to lower
        }
        position = target
        gauge.restart()
        calmSince = nil
        lastStepRaisedRate = false
        return record(o, cause: cause)
    }

    /// Gives rate back after a lowered rate has been calm for a while (`PressureGauge.calm`, at most a trigger's frames
    /// queued, half the pool free, no new late drop): twice the rate each time, up to the burst's own rate, which
    /// takes `lower-rate` off. The cheaper encodings and shed work stay: they cost no frames.
    private mutating func relax(_ o: Observation) -> Step? {
        guard !keepsRate, let initial = initialWork.fps, let rate = loweredFPS, rate < initial,
              position == ladder.count, ladder.last == .lowerRate, thermalFloor != .halfRate else { return nil }
        guard gauge.calm, o.queued <= framesPerTrigger, 2 * o.free >= slots,
              calmSince.map({ $0.lateDrops == o.lateDrops }) ?? true else {
            calmSince = nil
            return nil
        }
        let since = calmSince ?? (o.seconds, o.lateDrops)
        calmSince = since
        if relaxDelay == 0 { relaxDelay = max(2, 8 / initial) }
        guard o.seconds - since.seconds >= relaxDelay else { return nil }
        let raised = min(initial, rate * 2)
        if raised >= initial * 0.999 {
            position -= 1
            loweredFPS = nil
        } else {
            loweredFPS = raised
        }
        gauge.restart()
        calmSince = nil
        lastStepRaisedRate = true
        return record(o, cause: .calm(seconds: (o.seconds - since.seconds).rounded()))
    }

    /// Works out the level and work from the rungs applied and the thermal floor, and records the change.
    private mutating func record(_ o: Observation, cause: Cause) -> Step? {
        let applied = ladder.prefix(position)
        var next = initialWork
        if applied.contains(.noPreviews) || thermalFloor >= .shedWork { next.shedsOptionalWork = true }
        for rung in applied {
            if rung == .packed { next.compression = .packed }
            if rung == .uncompressed { next.compression = .none }
        }
        var reported = applied.last ?? .normal
        if thermalFloor >= .shedWork { reported = max(reported, .noPreviews) }
        if let fps = initialWork.fps {
            var rate = applied.contains(.lowerRate) ? (loweredFPS ?? fps / 2) : fps
            if thermalFloor == .halfRate && !keepsRate {
                rate = min(rate, fps / 2)
                reported = .lowerRate
            }
            next.fps = rate
        }
        let previous = work
        guard next != previous || reported != level else { return nil }
        level = reported
        work = next
        gauge.intervalSeconds = next.fps.map { 1 / $0 }
        let step = Step(newLevel: reported, seconds: (o.seconds * 1000).rounded() / 1000,
                        afterSequenceNumber: o.lastSequenceNumber, cause: cause,
                        effect: Work.change(from: previous, to: next, sustainedFPS: sustained(cause)),
                        fps: next.fps == previous.fps ? nil : next.fps.map { ($0 * 100).rounded() / 100 },
                        compression: next.compression == previous.compression ? nil : next.compression)
        steps.append(step)
        return step
    }
}

extension BurstGovernor {
    /// The writers' measured pace, for a step's words when the writers' pace set the new rate (not the thermal
    /// state's floor, nor the source's own pace).
    func sustained(_ cause: Cause) -> Double? {
        switch cause {
        case .filling, .nearlyFull: gauge.lastDrainFPS.flatMap { $0 > 0 ? $0 : nil }
        case .late, .lateDrop, .thermal, .calm: nil
        }
    }
}

/// What the thermal state forces, whatever the pressure.
enum ThermalFloor: Int, Comparable {
    case none = 0, shedWork, halfRate

    init(_ state: ThermalState) {
        self = state >= .serious ? .halfRate : state == .fair ? .shedWork : .none
    }

    static func < (a: ThermalFloor, b: ThermalFloor) -> Bool { a.rawValue < b.rawValue }
}
