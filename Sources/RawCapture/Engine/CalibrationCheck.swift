import RawCore

/// What a burst measured of the machine figures its plan used, against those figures: the disk's bandwidth (the
/// bytes of its files over the time the disk was taking them, `DiskActivity`) and the CPU a frame cost (the process's
/// CPU time during the burst over the frames made and written, against what the writer's costs and the sensor's
/// figure say they cost, times the plan's `inBurstFactor`). A disk measured below `CalibrationCache.doubtRatio` (0.75)
/// of the plan's figure, or a CPU below ``cpuDoubtRatio`` (0.25) of it, is doubted: the caller marks the cached
/// figure, and the next plan measures it again and says why; a CPU between the two is the burst's own cost, which
/// the caller keeps as an `InBurstCost` sample for the next plan at a like rate.
///
/// Judged only on enough evidence: at least `minimumFrames` frames written and, for the disk, 1 ms of its time; the
/// CPU not when analysis or development ran during the burst (their CPU is not the plan's figures), the disk not
/// when it was simulated (`--simulate-disk`: the measure is the simulation's, not the disk's).
public struct CalibrationCheck: Sendable, Hashable, Codable {
    /// One figure: the plan's and the burst's rates, the ratio, and whether it is doubted.
    public struct Figure: Sendable, Hashable, Codable {
        public let cached: Double
        public let measured: Double
        public let unit: String
        public let ratio: Double
        public let doubted: Bool

        init(cached: Double, measured: Double, unit: String, doubtRatio: Double = CalibrationCache.doubtRatio) {
            self.cached = BurstTimePlan.round(cached)
            self.measured = BurstTimePlan.round(measured)
            self.unit = unit
            ratio = cached > 0 ? (measured / cached * 100).rounded() / 100 : 0
            doubted = measured < cached * doubtRatio
        }

        /// The doubt to leave on the cached figure.
        public var doubt: CalibrationCache.Doubt { CalibrationCache.Doubt(cached: cached, measured: measured, unit: unit) }
    }

    /// The disk (MB/s), when judged.
    public let disk: Figure?
    /// The CPU (frames per CPU second: each frame's writing and making), when judged.
    public let cpu: Figure?

    /// Below this share of the plan's frames per CPU second the CPU figures are doubted (measured again): a burst
    /// that costs more than the plan, but less than ``InBurstCost/largestFactor`` times, is the burst's own cost (the
    /// sensor and the writers side by side), which the next plan carries as an `InBurstCost` factor instead.
    public static let cpuDoubtRatio = 1 / InBurstCost.largestFactor

    /// Frames a burst must write before its figures are judged.
    public static let minimumFrames = 8

    /// Units of the two figures.
    public static let diskUnit = "MB/s"
    public static let cpuUnit = "frames per CPU second"

    /// Judges `report` against `plan` (its disk figure, unless `simulatedDisk`) and `costs` (the writer's costs the plan
    /// used, and its sensor figure).
    public init(report: BurstSession.Report, plan: BurstTimePlan, costs: FrameCostCalibration, simulatedDisk: Bool) {
        let enough = report.writtenCount >= Self.minimumFrames
        if enough, !simulatedDisk, let cached = plan.diskMBps, report.disk.busySeconds >= 0.001,
           let measured = report.disk.megabytesPerSecond {
            disk = Figure(cached: cached, measured: measured, unit: Self.diskUnit)
        } else {
            disk = nil
        }
        guard enough, report.developed.isEmpty, report.analyses.isEmpty, report.cpuSeconds > 0 else {
            cpu = nil
            return
        }
        // What the plan's figures say the frames cost: each written frame by its compression and work, and the
        // sensor's figure for every trigger made.
        let perFrame = plan.samplesPerTrigger / max(1, plan.framesPerTrigger)
        var planned = 0.0
        for frame in report.frames {
            planned += costs.milliseconds(samples: perFrame, compression: frame.compression, shed: !frame.rawImageDigest) ?? 0
        }
        let madeTriggers = report.producedCount / max(1, plan.framesPerTrigger)
            - report.drops.filter { $0.drop.reason.isLate }.count / max(1, plan.framesPerTrigger)
        planned += (plan.sensorMilliseconds ?? 0) * Double(max(0, madeTriggers))
        // The plan's figures are the standalone ones times what earlier bursts measured beyond them.
        planned *= plan.inBurstFactor ?? 1
        guard planned > 0 else {
            cpu = nil
            return
        }
        let frames = Double(report.writtenCount)
        cpu = Figure(cached: frames / (planned / 1000), measured: frames / report.cpuSeconds, unit: Self.cpuUnit,
                     doubtRatio: Self.cpuDoubtRatio)
    }
}
