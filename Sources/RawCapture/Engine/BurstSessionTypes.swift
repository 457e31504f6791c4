import Foundation
import RawAnalysis
import RawCore
import RawDevelop
import RawDNG
import RawSources

extension BurstSession {
    /// What to capture and how.
    public struct Configuration: Sendable {
        /// Number of triggers (frames per sensor) after the trigger, or of the whole burst without a
        /// pre-record (1...1 000 000).
        public var frames: Int
        /// What happens when every slot is taken.
        public var overflow: OverflowPolicy
        /// Writer threads (1...64).
        public var writers: Int
        /// Bytes for everything the burst allocates (`BurstMemoryPlan`); the pool gets what is left.
        public var memoryBudget: Int
        /// The folder the DNGs go to (must exist).
        public var outputDirectory: String
        /// DNG writer options (overwrite, preview).
        public var dngOptions: DNGWriter.Options
        /// How files are named (default `%s-%4q`, e.g. `phone-wide-0042.dng`).
        public var nameTemplate: FilenameTemplate
        /// The burst's clock: `.realTime(fps:)` triggers frames start to start (the sources should be
        /// free-running); `.freeRunning` takes frames as fast as they come.
        public var clock: FrameClock = .freeRunning
        /// Keep a journal (`journal.jsonl`) in the output folder, for `BurstRecovery` after a crash.
        public var journal = true
        /// Write a JSON sidecar beside each DNG (`FrameSidecar`), before the frame is committed.
        public var sidecars = false
        /// The lighting preset's name, for the sidecars.
        public var presetName: String?
        /// A position for every frame that has none (a fixed camera, or a rig without its own receiver): written
        /// to the DNG's EXIF GPS IFD and the sidecar, time-stamped with the frame's capture time.
        public var gps: GPSFix?
        /// A bracketing plan and the settings it varies (trigger i is taken with the plan's step i); nil to keep
        /// the source's settings.
        public var plan: (plan: BracketPlan, base: CaptureSettings)?
        /// Pre-record: before `trigger()` the burst keeps only the last `preRecordFrames` triggers' frames
        /// (older ones are dropped as `outside-pre-record`) and writes nothing; at the trigger those frames
        /// are written and `frames` more are taken. 0: no pre-record, the burst starts triggered.
        public var preRecordFrames = 0
        /// A simulated thermal history (the governor degrades on `fair` and `serious`; `critical` stops).
        public var thermal: ThermalSchedule?
        /// Simulated storage faults (bandwidth, stalls, failing writes).
        public var storageFaults: StorageFaults?
        /// Let the governor give up work under pressure (`BurstGovernor`); false keeps every frame's full work.
        public var governor = true
        /// Developed pictures beside the DNGs (and composites of pairs), or nil for DNGs only.
        public var development: BurstDevelopment?
        /// Analysis of every written frame from its slot (histograms, exposure, sharpness, clipping, metering), on
        /// the writer that wrote it, or nil for none. Skipped (and counted) while the governor has degraded the burst.
        public var analysis: FrameAnalysis.Options?
        /// Why the DNGs use `dngOptions.compression` (for the manifest), or nil when nobody said.
        public var compressionPlan: CompressionPlan?
        /// Write the burst as a CinemaDNG clip (raw data in IFD0, time codes, frame rate, reel name), or nil.
        public var cinemaDNG: CinemaDNGSequence?

        /// A configuration with `writers` defaulting to the number of cores.
        public init(frames: Int, overflow: OverflowPolicy = .block, writers: Int? = nil, memoryBudget: Int = 1 << 30,
                    outputDirectory: String, dngOptions: DNGWriter.Options = DNGWriter.Options(),
                    nameTemplate: FilenameTemplate = .standard) {
            self.frames = frames
            self.overflow = overflow
            self.writers = writers ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
            self.memoryBudget = memoryBudget
            self.outputDirectory = outputDirectory
            self.dngOptions = dngOptions
            self.nameTemplate = nameTemplate
        }
    }

    /// What became of one written frame.
    /// The analysis of one written frame.
    public struct AnalysisRecord: Sendable {
        public let sequenceNumber: UInt64
        public let sensor: String
        public let analysis: FrameAnalysis
        /// Time the analysis took on the writer.
        public let seconds: Double
    }

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
        /// Its CinemaDNG time code, when the burst is a CinemaDNG clip.
        public var timeCode: String? = nil
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

    /// A full slot's frame on its way to a writer.
    public struct Pending: Sendable {
        let frame: CapturedFrame
        let queueDepth: Int
        let bracketIndex: Int
        let slotLatency: UInt64
    }

    /// Counts for a status line.
    public struct Progress: Sendable {
        /// Frames produced, written and dropped so far (all sensors).
        public let produced: Int
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
    }
}
