import RawCore

/// How long a burst will hold, from its time plan and its pool: continuous, or about how many frames (and seconds)
/// before the pool is full and the governor has to step in. Shown before the burst, on the status line, and in
/// the manifest's `burst.prediction`.
///
/// The writers take frames at the slower of what the CPU allows (cores ÷ CPU per trigger, the sensor's share
/// included) and what the disk allows (bandwidth ÷ bytes per trigger): the capacity `c`. When that is below the
/// burst's rate `f`, the pool fills at the difference, after the first trigger's write has taken `L` (its CPU and its
/// bytes on the disk) without any slot coming back: full when `f·t − c·(t − L)` reaches the slots `S`, at
/// `t = (S − c·L) ÷ (f − c)`.
public struct BurstPrediction: Sendable, Hashable, Codable {
    /// The writers keep up with the rate for as long as the burst lasts.
    public let sustainable: Bool
    /// Triggers (frames per sensor) and seconds until the pool is full, when not sustainable.
    public let framesBeforeFull: Int?
    public let secondsBeforeFull: Double?
    /// The disk bandwidth the burst needs, and the disk's (MB/s), when known.
    public let neededMBps: Double?
    public let diskMBps: Double?
    /// Triggers per second the writers can take, by the plan.
    public let capacityFPS: Double?
    /// The sentence for the user.
    public let summary: String

    /// A few words for a status line: `continuous`, `holds ~38 frames`.
    public var short: String {
        guard let framesBeforeFull, !sustainable else { return "continuous" }
        return "holds ~\(framesBeforeFull) frames"
    }

    /// The prediction for `plan` with `slots` slots in the pool.
    public init(plan: BurstTimePlan, slots: Int) {
        let option = plan.options.first { $0.compression == plan.compression }
        neededMBps = option?.neededMBps
        diskMBps = plan.diskMBps
        guard let fps = plan.fps, let option else {
            sustainable = true
            framesBeforeFull = nil
            secondsBeforeFull = nil
            capacityFPS = nil
            summary = "free-running: frames as fast as the writers take them"
            return
        }
        let cpu = plan.optionalWork ? option.cpuMilliseconds : option.cpuMillisecondsShed
        var capacity = cpu > 0 ? Double(plan.cores) * 1000 / cpu : Double.infinity
        if let disk = plan.diskMBps, let need = option.neededMBps, need > 0 {
            capacity = min(capacity, disk / need * fps)
        }
        capacityFPS = capacity.isFinite ? BurstTimePlan.round(capacity) : nil
        let need = option.neededMBps.map { "needs \(SettingText.number($0)) MB/s" } ?? ""
        let disk = plan.diskMBps.map { ", disk \(SettingText.number($0)) MB/s" } ?? ""
        if capacity >= fps {
            sustainable = true
            framesBeforeFull = nil
            secondsBeforeFull = nil
            summary = "continuous at \(SettingText.number(fps)) fps" + (need.isEmpty ? "" : " (\(need)\(disk))")
        } else {
            sustainable = false
            let sensor = plan.sensorMilliseconds ?? 0
            let write = max(0, (plan.optionalWork ? option.cpuMilliseconds : option.cpuMillisecondsShed) - sensor) / 1000
                / Double(plan.framesPerTrigger)
            let onDisk = plan.diskMBps.map { Double(option.bytes) / 1e6 / max($0, 1e-9) } ?? 0
            let triggers = Double(slots) / Double(plan.framesPerTrigger)
            let seconds = max(0, triggers - capacity * (write + onDisk)) / (fps - capacity)
            secondsBeforeFull = BurstTimePlan.round(seconds)
            framesBeforeFull = Int((seconds * fps).rounded())
            summary = "holds ~\(framesBeforeFull ?? 0) frames (\(SettingText.number(BurstTimePlan.round(seconds))) s) at "
                + "\(SettingText.number(fps)) fps, then the governor steps in (writers take ~"
                + "\(SettingText.number(BurstTimePlan.round(capacity))) fps" + (need.isEmpty ? "" : "; \(need)\(disk)") + ")"
        }
    }
}
