import Foundation
import RawCore
import RawDNG
import RawSources

extension BurstSession {
    /// The analysis of one written frame.
    public struct AnalysisRecord: Sendable {
        /// The frame's sequence number and sensor.
        public let sequenceNumber: UInt64
        public let sensor: String
        /// What the analysis found.
        public let analysis: any Sendable
        /// Time the analysis took on the writer.
        public let seconds: Double
    }

    /// What became of one written frame.
    public struct FrameRecord: Sendable, Hashable {
        /// Its sequence number.
        public let sequenceNumber: UInt64
        /// The sensor it came from.
        public let sensor: String
        /// When its exposure started (`CLOCK_MONOTONIC`, ns) and how late against the schedule (ns).
        public let monotonicNanoseconds: UInt64
        public let latenessNanoseconds: UInt64
        /// From the trigger to the frame having a slot (ns): the sensor-to-slot latency.
        public let slotLatencyNanoseconds: UInt64
        /// Full slots waiting for a writer when it was queued (itself included).
        public let queueDepth: Int
        /// The DNG and its size.
        public let path: String
        public let bytes: Int
        /// Time from a writer taking the slot to the file being durable, in seconds.
        public let encodeSeconds: Double
        /// When the file became durable (`CLOCK_MONOTONIC`, ns).
        public let committedNanoseconds: UInt64
        /// The settings the frame was taken with.
        public let settings: AppliedSettings
        /// Its position in the bracketing plan's sequence (0 without a plan).
        public let bracketIndex: Int
        /// The capture time written into the DNG.
        public let captureTime: CaptureTime?
        /// How its raw data was stored.
        public var compression: DNGCompression = .none
        /// Whether its DNG carries NewRawImageDigest (the governor's first step gives it up).
        public var rawImageDigest = true
        /// Its CinemaDNG time code, when the burst is a CinemaDNG clip.
        public var timeCode: String? = nil
        /// The camera's frame id and timestamp, for a real camera.
        public var camera: CameraStamp? = nil
    }

    /// A drop and when it happened.
    public struct TimedDrop: Sendable, Hashable {
        public let sequenceNumber: UInt64
        public let reason: BurstLedger.DropReason
        /// `CLOCK_MONOTONIC`, ns.
        public let nanoseconds: UInt64
    }

    /// The outcome of a burst.
    public struct Report: Sendable {
        /// Every frame accounted for, one ledger per sensor (sensor name → ledger).
        public let ledgers: [String: BurstLedger]
        /// The frames written, in the order they became durable.
        public let frames: [FrameRecord]
        /// Write, develop, journal and sensor failures, in the order they happened.
        public let failures: [Failure]
        /// The pool's slots, high-water mark and reclaims.
        public let pool: FramePool<Pending>.Statistics
        /// How the budget was spent.
        public let memory: BurstMemoryPlan
        /// Wall-clock duration of the burst in seconds.
        public let seconds: Double
        /// Why the burst ended before taking every frame (policy `stop`, a sensor or disk error, a critical
        /// thermal state, `stop()`), nil when it took them all.
        public let stopCause: StopCause?
        /// The governor's changes of level, in order.
        public let degradations: [BurstGovernor.Step]
        /// How long the burst was predicted to hold (its session's `prediction`), nil without a time plan.
        public var prediction: BurstPrediction? = nil
        /// How the sensor thread was scheduled: `real-time` (FIFO, when the system granted it) or `normal`.
        public var sensorScheduling = ThreadPriority.Scheduling.normal
        /// Sensor-to-slot latency of every frame produced (ns), in order.
        public let slotLatencies: [UInt64]
        /// `CLOCK_MONOTONIC` start of every trigger (ns), in order; a pair's two frames share one.
        public let triggerNanoseconds: [UInt64]
        /// `CLOCK_MONOTONIC` when `run()` began and when the first frame was in the pool (ns).
        public let startedNanoseconds: UInt64
        public let firstFrameNanoseconds: UInt64?
        /// With a pre-record: the first sequence number taken after the trigger (nil if it never came).
        public let triggeredAtSequenceNumber: UInt64?
        /// Times the burst was paused.
        public let pauses: Int
        /// Pictures developed during the burst.
        public let developed: [DevelopedRecord]
        /// Frames left to develop after the burst, and why.
        public let deferredDevelopments: [DevelopDeferral]
        /// Each written frame's analysis (with `analysis` configured), by sensor and sequence number.
        public let analyses: [AnalysisRecord]
        /// Frames whose analysis the governor skipped.
        public let skippedAnalyses: Int
        /// When the burst's clock started: the first triggered tick (`CLOCK_MONOTONIC`, ns), nil before any.
        public var clockStartNanoseconds: UInt64? = nil
        /// The first drop that counts against the prediction (not a failed write, not the pre-record's window).
        public var firstDrop: TimedDrop? = nil
        /// The process's CPU time during the run (all threads, s), and what the disk was measured doing.
        public var cpuSeconds: Double = 0
        public var disk = DiskActivity()
        /// The prediction held against what happened (nil without a time plan).
        public var predictionCheck: PredictionCheck? = nil

        /// True when the burst ended early.
        public var stoppedEarly: Bool { stopCause != nil }
        /// The failures as the report prints them, one line each, with the frame's sequence number.
        public var errors: [String] { failures.map(\.description) }
        /// The stop cause as the report prints it, nil when the burst took every frame.
        public var stopReason: String? { stopCause?.description }
        /// The first sensor's ledger (the only one for one sensor).
        public var ledger: BurstLedger { ledgers.sorted { $0.key < $1.key }.first?.value ?? BurstLedger() }
        /// Produced, written and dropped frames over all sensors.
        public var producedCount: Int { BurstLedger.totals(ledgers.values).produced }
        public var writtenCount: Int { BurstLedger.totals(ledgers.values).written }
        /// Every drop, with its sensor, sensor by sensor in drop order.
        public var drops: [(sensor: String, drop: BurstLedger.Drop)] {
            ledgers.sorted { $0.key < $1.key }.flatMap { name, ledger in ledger.drops.map { (name, $0) } }
        }
        /// The invariant check: empty when every produced frame is written or dropped, exactly once.
        public var problems: [String] {
            let many = ledgers.count > 1
            return ledgers.sorted { $0.key < $1.key }.flatMap { name, ledger in
                ledger.problems().map { many ? "\(name): \($0)" : $0 }
            }
        }
    }
}
