import RawCore
import RawDNG

/// The burst's CPU and disk plan, beside its memory plan: what one trigger costs this machine (making the frames,
/// writing each with every compression, with and without the optional work), what the burst's rate allows
/// (cores × frame interval, the disk's bandwidth), and the choice made from it — the compression, whether the
/// optional work (JPEG previews, raw digests) and development run during the burst — with the headroom left.
///
/// The rule: keep a quarter of the CPU free (`headroom`) for the scheduler, the journal and bursts of noise — half
/// while no burst at the rate has measured what a frame costs beside the sensor and the other writers
/// (``unmeasuredHeadroom``; `InBurstCost`); among
/// the compressions that fit both the CPU left and 90 % of the disk's bandwidth, take the one that writes the
/// fewest bytes (lossless JPEG, then packed, then uncompressed); if none fits with the optional work, try without
/// it; if still none fits, take the one that overloads the scarcer resource least, and the governor takes over
/// from the first frame. What limits the burst (`bottleneck`) decides the governor's ladder.
public struct BurstTimePlan: Sendable, Hashable, Codable {
    /// One compression's figures for one trigger.
    public struct Option: Sendable, Hashable, Codable {
        public let compression: DNGCompression
        /// CPU milliseconds of one core per trigger: the sensor plus the writes, with and without the optional work.
        public let cpuMilliseconds: Double
        public let cpuMillisecondsShed: Double
        /// Bytes written per trigger, and the disk bandwidth that needs at the burst's rate (MB/s, 10^6 bytes).
        public let bytes: Int
        public let neededMBps: Double?
    }

    /// What the plan knew: frames per second (triggers), frames per trigger, samples per trigger, cores.
    public let fps: Double?
    public let framesPerTrigger: Int
    public let samplesPerTrigger: Int
    public let cores: Int
    /// The sensor's CPU per trigger (ms, both sources of a pair), and the longest one source takes (ms: the
    /// sensor thread makes a trigger's frames, a pair's in parallel), when the sources could be timed.
    public let sensorMilliseconds: Double?
    public let sensorSerialMilliseconds: Double?
    /// CPU milliseconds the cores have per trigger (cores × interval), and the share kept free.
    public let budgetMilliseconds: Double?
    public let headroom: Double
    /// The disk's sustained write+fsync bandwidth (MB/s) and where the figure came from.
    public let diskMBps: Double?
    public let diskSource: String?
    /// Every compression's figures.
    public let options: [Option]
    /// The choice.
    public let compression: DNGCompression
    /// Whether the optional work (previews, digests, analysis) runs from the first frame, and development during the burst.
    public let optionalWork: Bool
    public let developsDuringBurst: Bool
    /// What limits the burst at the choice.
    public let bottleneck: BurstGovernor.Bottleneck
    /// The choice keeps up with room to spare: within the CPU left after the headroom, 90 % of the disk and 85 % of
    /// the frame interval on the sensor thread (false when nothing does, or the compression asked for does not).
    public let keepsUp: Bool
    /// CPU injected per frame written (`--simulate-cpu`, ms), counted in every compression's cost; nil without.
    public let simulatedWriteMilliseconds: Double?
    /// What earlier bursts at a like rate measured a frame to cost over the standalone figures (`InBurstCost`): the
    /// sensor's and the writes' figures in `options` are multiplied by it (the injected CPU is not); nil: none known.
    public let inBurstFactor: Double?
    /// Why, in one sentence.
    public let reason: String

    /// The inputs of a plan.
    public struct Inputs: Sendable {
        public var fps: Double?
        public var framesPerTrigger: Int
        public var samplesPerFrame: Int
        /// Samples of each frame of a trigger when they differ (two sensors of different sizes); nil: every frame of
        /// the trigger has `samplesPerFrame`.
        public var samplesPerTriggerFrame: [Int]?
        public var bitsPerSample: Int
        public var cores: Int
        public var sensorMilliseconds: Double?
        /// The slowest source's time per frame (ms); nil: `sensorMilliseconds`.
        public var sensorSerialMilliseconds: Double?
        public var costs: FrameCostCalibration
        public var diskBytesPerSecond: Double?
        public var diskSource: String?
        /// Nil: choose; otherwise the compression asked for.
        public var requested: DNGCompression?
        /// Development asked for, and its CPU per frame when known (ms of one core).
        public var develops: Bool
        public var developMilliseconds: Double?
        /// CPU injected per frame written (ms of the cores; `BurstSession.Configuration.simulatedWriteCPU`).
        public var simulatedWriteMilliseconds: Double?
        /// What bursts at a like rate measured a frame to cost over the standalone figures (≥ 1; nil: none known).
        public var inBurstFactor: Double?
        /// The share of the cores' time kept free (default a quarter; ``BurstTimePlan/unmeasuredHeadroom`` while no
        /// burst at the rate has measured its in-burst cost).
        public var headroom = BurstTimePlan.measuredHeadroom

        /// Inputs with no rate, one frame per trigger, and nothing known but the costs.
        public init(samplesPerFrame: Int, bitsPerSample: Int, costs: FrameCostCalibration) {
            fps = nil
            framesPerTrigger = 1
            self.samplesPerFrame = samplesPerFrame
            self.bitsPerSample = bitsPerSample
            cores = 1
            self.costs = costs
            requested = nil
            develops = false
        }
    }

    /// Plans a burst from `inputs` (see the type's rule).
    public init(_ inputs: Inputs) {
        let perTrigger = max(1, inputs.framesPerTrigger)
        fps = inputs.fps
        framesPerTrigger = perTrigger
        let frames = inputs.samplesPerTriggerFrame ?? Array(repeating: inputs.samplesPerFrame, count: perTrigger)
        samplesPerTrigger = frames.reduce(0, +)
        cores = max(1, inputs.cores)
        sensorMilliseconds = inputs.sensorMilliseconds.map(Self.round)
        sensorSerialMilliseconds = (inputs.sensorSerialMilliseconds ?? inputs.sensorMilliseconds).map(Self.round)
        let kept = min(0.9, max(0, inputs.headroom))
        headroom = kept
        diskMBps = inputs.diskBytesPerSecond.map { Self.round($0 / 1e6) }
        diskSource = inputs.diskSource
        let coreCount = max(1, inputs.cores)
        let budget = inputs.fps.map { Self.round(Double(coreCount) * 1000 / $0) }
        budgetMilliseconds = budget
        inBurstFactor = inputs.inBurstFactor.map { max(1, $0) }
        let factor = inBurstFactor ?? 1
        let sensor = (inputs.sensorMilliseconds ?? 0) * factor
        let injected = inputs.simulatedWriteMilliseconds ?? 0
        simulatedWriteMilliseconds = inputs.simulatedWriteMilliseconds
        let measured: [Option] = DNGCompression.allCases.compactMap { c in
            // Each frame of the trigger at its own size: a write's fixed part once per frame, the rest per sample.
            let full = frames.compactMap { inputs.costs.milliseconds(samples: $0, compression: c, shed: false).map { $0 * factor + injected } }
            let shed = frames.compactMap { inputs.costs.milliseconds(samples: $0, compression: c, shed: true).map { $0 * factor + injected } }
            guard full.count == frames.count, shed.count == frames.count else { return nil }
            let bytes = frames.reduce(0) { $0 + Self.bytes(samples: $1, bits: inputs.bitsPerSample, compression: c, costs: inputs.costs) }
            return Option(compression: c, cpuMilliseconds: Self.round(sensor + full.reduce(0, +)),
                          cpuMillisecondsShed: Self.round(sensor + shed.reduce(0, +)), bytes: bytes,
                          neededMBps: inputs.fps.map { Self.round(Double(bytes) * $0 / 1e6) })
        }
        options = measured
        let choice = Self.choose(measured, inputs: inputs, budget: budget.map { $0 * (1 - kept) })
        compression = choice.option?.compression ?? inputs.requested ?? .none
        let work = choice.optionalWork
        optionalWork = work
        bottleneck = choice.bottleneck
        keepsUp = choice.fits
        let spare = choice.option.flatMap { o in
            budget.map { $0 * (1 - kept) - (work ? o.cpuMilliseconds : o.cpuMillisecondsShed) }
        }
        if !inputs.develops {
            developsDuringBurst = false
        } else if let spare, let develop = inputs.developMilliseconds {
            developsDuringBurst = work && develop * Double(perTrigger) <= spare
        } else {
            developsDuringBurst = work
        }
        reason = choice.reason
    }

    /// Bytes of one frame's file with `compression`: its raw data — 2 per sample uncompressed, bits/8 packed (8–15
    /// bits), lossless JPEG at the ratio measured in the calibration — and the overhead (thumbnail, preview, tags) the
    /// calibration gives for a frame of that size (``FrameCostCalibration/overheadBytes(samples:)``).
    static func bytes(samples: Int, bits: Int, compression: DNGCompression, costs: FrameCostCalibration) -> Int {
        let raw: Int
        switch compression {
        case .none: raw = samples * 2
        case .lj92: raw = Int(Double(samples * 2) * (costs.losslessRatio ?? 0.7))
        // Packed at the frame's depth (8-bit frames one byte a sample); the rare width packed deeper is not known here.
        case .packed: raw = (8...15).contains(bits) ? (samples * bits + 7) / 8 : samples * 2
        }
        return raw + (costs.overheadBytes(samples: samples) ?? 0)
    }

    static func round(_ v: Double) -> Double { (v * 10).rounded() / 10 }

    /// The CPU kept free once bursts at the rate have measured what a frame costs in them.
    public static let measuredHeadroom = 0.25
    /// The CPU kept free before that: bursts measured 1.2–2.3x the standalone figures on 2-core machines
    /// (docs/benchmarks.md), and with half the cores free a frame may cost twice its figures before the writers fall
    /// behind.
    public static let unmeasuredHeadroom = 0.5

    /// "a quarter", "half", or a percentage: the words for a share of the CPU kept free.
    public static func words(headroom: Double) -> String {
        switch headroom {
        case 0.25: "a quarter"
        case 0.5: "half"
        default: "\(Int((headroom * 100).rounded())) %"
        }
    }
}
