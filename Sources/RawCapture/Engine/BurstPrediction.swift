import RawCore

/// How long a burst will hold, from its time plan, its pool and its governor: a promise, checked after the burst
/// (`PredictionCheck`). Shown before the burst, on the status line, and in the manifest's `burst.prediction`.
///
/// The writers take frames at the slower of what the CPU allows (cores ÷ CPU per trigger, the sensor's share
/// included) and what the disk allows (bandwidth ÷ bytes per trigger): the capacity `c`. What the prediction says:
/// - `continuous`: the plan's choice keeps up with room to spare (`BurstTimePlan.keepsUp`): no governor step and no
///   drop for as long as the burst lasts;
/// - `holds`: `c` is below the burst's rate `f`: the pool fills at the difference, after the first trigger's write
///   has taken `L` (its CPU and its bytes on the disk) without a slot coming back — full when `f·t − c·(t − L)` reaches
///   the slots `S`, at `t = (S − c·L) ÷ (f − c)`. The governor steps in before that: the prediction runs the burst's
///   own governor (`BurstGovernor`, the same ladder and gauge) on that expected pool, trigger by trigger, and the
///   trigger it first steps at is the promise (without a governor or a rung to give, the first drop: the pool full);
/// - `edge`: `c` is at or above `f`, but without the plan's room to spare: no promise either way;
/// - `sensor-limited`: the source cannot make frames at the rate: frames are dropped late from the start;
/// - `free-running`: no rate, nothing to hold.
public struct BurstPrediction: Sendable, Hashable, Codable {
    /// What the prediction says (see the type's documentation).
    public enum Kind: String, Sendable, Hashable, Codable {
        case continuous, holds, edge
        case sensorLimited = "sensor-limited"
        case freeRunning = "free-running"
    }

    /// What comes first in a burst that does not hold: a governor step, or (without one) a drop.
    public enum FirstEvent: String, Sendable, Hashable, Codable {
        case governorStep = "governor-step"
        case drop
    }

    public let kind: Kind
    /// The writers keep up with the rate for as long as the burst lasts (`continuous`, or free-running).
    public let sustainable: Bool
    /// Triggers (frames per sensor) and seconds until the pool is full, when it fills.
    public let framesBeforeFull: Int?
    public let secondsBeforeFull: Double?
    /// The promise of a burst that `holds`: triggers and seconds before its first governor step (or, without the
    /// governor, its first drop), and which of the two it is.
    public let framesBeforeFirstEvent: Int?
    public let secondsBeforeFirstEvent: Double?
    public let firstEvent: FirstEvent?
    /// The disk bandwidth the burst needs, and the disk's (MB/s), when known.
    public let neededMBps: Double?
    public let diskMBps: Double?
    /// Triggers per second the writers can take, by the plan.
    public let capacityFPS: Double?
    /// The sentence for the user.
    public let summary: String

    /// A few words for a status line: `continuous`, `holds ~38 frames`, `at the edge`.
    public var short: String {
        switch kind {
        case .continuous, .freeRunning: "continuous"
        case .edge: "at the edge"
        case .sensorLimited: "sensor too slow"
        case .holds: "holds ~\(framesBeforeFirstEvent ?? framesBeforeFull ?? 0) frames"
        }
    }

    /// The prediction for `plan` with `slots` slots in the pool, `writers` writer threads and `governor` (the burst's,
    /// before its first trigger; nil when it is off).
    public init(plan: BurstTimePlan, slots: Int, writers: Int = 2, governor: BurstGovernor? = nil) {
        let option = plan.options.first { $0.compression == plan.compression }
        let neededMBps = option?.neededMBps, diskMBps = plan.diskMBps
        guard let fps = plan.fps, let option else {
            self.init(kind: .freeRunning, capacity: nil, full: nil, first: nil, neededMBps: neededMBps, diskMBps: diskMBps,
                      summary: "free-running: frames as fast as the writers take them")
            return
        }
        let cpu = plan.optionalWork ? option.cpuMilliseconds : option.cpuMillisecondsShed
        var capacity = cpu > 0 ? Double(plan.cores) * 1000 / cpu : Double.infinity
        if let disk = plan.diskMBps, let need = option.neededMBps, need > 0 {
            capacity = min(capacity, disk / need * fps)
        }
        // The sensor thread makes one trigger at a time.
        let sensorCapacity = plan.sensorSerialMilliseconds.map { $0 > 0 ? 1000 / $0 : Double.infinity } ?? .infinity
        capacity = min(capacity, sensorCapacity)
        let capacityFPS = capacity.isFinite ? BurstTimePlan.round(capacity) : nil
        let need = option.neededMBps.map { "needs \(SettingText.number($0)) MB/s" } ?? ""
        let disk = plan.diskMBps.map { ", disk \(SettingText.number($0)) MB/s" } ?? ""
        let writersTake = "writers take ~\(SettingText.number(capacityFPS ?? 0)) fps"
        if sensorCapacity < fps {
            self.init(kind: .sensorLimited, capacity: capacityFPS, full: nil, first: nil, neededMBps: neededMBps, diskMBps: diskMBps,
                      summary: "the sensor makes at most ~\(SettingText.number(BurstTimePlan.round(sensorCapacity))) fps here: at "
                          + "\(SettingText.number(fps)) fps frames are dropped late from the start, and the governor lowers the rate")
        } else if plan.keepsUp {
            self.init(kind: .continuous, capacity: capacityFPS, full: nil, first: nil, neededMBps: neededMBps, diskMBps: diskMBps,
                      summary: "continuous at \(SettingText.number(fps)) fps" + (need.isEmpty ? "" : " (\(need)\(disk))"))
        } else if capacity >= fps {
            self.init(kind: .edge, capacity: capacityFPS, full: nil, first: nil, neededMBps: neededMBps, diskMBps: diskMBps,
                      summary: "at the edge at \(SettingText.number(fps)) fps: \(writersTake) without the plan's room to "
                          + "spare (\(BurstTimePlan.words(headroom: plan.headroom)) of the CPU, a tenth of the disk): it may hold, or the governor steps in")
        } else {
            let sensor = plan.sensorMilliseconds ?? 0
            let write = max(0, cpu - sensor) / 1000 / Double(plan.framesPerTrigger)
            let onDisk = plan.diskMBps.map { Double(option.bytes) / 1e6 / max($0, 1e-9) } ?? 0
            // Writers work side by side: their first frames finish a write's time apart divided among them (the disk
            // takes one file at a time).
            let parallel = Double(max(1, min(writers, plan.cores)))
            let expected = ExpectedBurst(fps: fps, capacity: capacity, latency: write / parallel + onDisk,
                                         framesPerTrigger: plan.framesPerTrigger, slots: slots, writers: writers)
            let full = expected.fullAt
            let step = governor.flatMap { expected.firstStep(of: $0, sensorSeconds: (plan.sensorSerialMilliseconds ?? 0) / 1000) }
            let first = step.map { (frames: $0, event: FirstEvent.governorStep) } ?? (full.frames, .drop)
            let seconds = BurstTimePlan.round(Double(first.frames) / fps)
            let then = first.event == .governorStep ? "then the governor steps in" : "then frames are dropped"
            self.init(kind: .holds, capacity: capacityFPS, full: full, first: (first.frames, seconds, first.event),
                      neededMBps: neededMBps, diskMBps: diskMBps,
                      summary: "holds ~\(first.frames) frames (\(SettingText.number(seconds)) s) at \(SettingText.number(fps)) fps, "
                          + "\(then) (\(writersTake); the pool of \(slots) slots would be full at ~\(full.frames)"
                          + (need.isEmpty ? "" : "; \(need)\(disk)") + ")")
        }
    }

    private init(kind: Kind, capacity: Double?, full: (frames: Int, seconds: Double)?,
                 first: (frames: Int, seconds: Double, event: FirstEvent)?, neededMBps: Double?, diskMBps: Double?,
                 summary: String) {
        self.kind = kind
        sustainable = kind == .continuous || kind == .freeRunning
        capacityFPS = capacity
        framesBeforeFull = full?.frames
        secondsBeforeFull = full?.seconds
        framesBeforeFirstEvent = first?.frames
        secondsBeforeFirstEvent = first?.seconds
        firstEvent = first?.event
        self.neededMBps = neededMBps
        self.diskMBps = diskMBps
        self.summary = summary
    }
}

/// The pool a burst that does not hold is expected to see: triggers at `fps`, the writers finishing `capacity`
/// triggers a second once the first write's `latency` has passed.
struct ExpectedBurst {
    let fps: Double
    let capacity: Double
    let latency: Double
    let framesPerTrigger: Int
    let slots: Int
    let writers: Int

    /// Triggers and seconds until the pool is full: `(S − c·L) ÷ (f − c)`, at most 10^7 s (writers that all but keep
    /// up fill it in no time a burst lasts).
    var fullAt: (frames: Int, seconds: Double) {
        let triggers = Double(slots) / Double(framesPerTrigger)
        let seconds = min(1e7, max(0, triggers - capacity * latency) / max(fps - capacity, 1e-9))
        return (Int((seconds * fps).rounded()), BurstTimePlan.round(seconds))
    }

    /// When each of the first `frames` frames is written: the cores (and the disk) are one queue the writers share —
    /// a frame's CPU is spread over the cores, as the parallel lossless-JPEG encoder and `--simulate-cpu` spread it —
    /// so frames finish one at a time, `1 ÷ (capacity × framesPerTrigger)` apart while the queue is busy, the first
    /// one the first write's `latency` after it arrived (not a frame's time later: that made the prediction's first
    /// step come 4–5 frames early with the CPU the limit). Ascending; the long-run rate is `capacity`.
    func finishTimes(frames: Int) -> [Double] {
        guard capacity > 0, capacity.isFinite, frames > 0 else { return Array(repeating: .infinity, count: max(0, frames)) }
        let service = 1 / (capacity * Double(framesPerTrigger))
        let after = max(0, latency - service)
        var free = 0.0
        var times: [Double] = []
        times.reserveCapacity(frames)
        for j in 0..<frames {
            let arrival = Double(j / framesPerTrigger) / fps
            free = max(arrival, free) + service
            times.append(free + after)
        }
        return times
    }

    /// The trigger before which `governor` (as the burst starts it) first steps, observing this pool before each
    /// trigger as the sensor thread does; nil when it never does before the pool is full.
    func firstStep(of governor: BurstGovernor, sensorSeconds: Double) -> Int? {
        var governor = governor
        let k = framesPerTrigger
        let limit = min(1_000_000, fullAt.frames * 4 + 100)
        let finishes = finishTimes(frames: limit * k)
        var finished = 0
        for i in 0..<limit {
            let t = Double(i) / fps
            let made = i * k
            while finished < made && finishes[finished] <= t { finished += 1 }
            let occupied = made - finished
            guard occupied + k <= slots else { return nil }
            let observation = BurstGovernor.Observation(
                seconds: t, occupied: occupied, free: slots - occupied, queued: max(0, occupied - min(writers, occupied)),
                finished: finished, lastSequenceNumber: i > 0 ? UInt64(i - 1) : nil,
                sensorSeconds: sensorSeconds > 0 ? sensorSeconds : nil)
            if governor.observe(observation) != nil { return i }
        }
        return nil
    }
}
