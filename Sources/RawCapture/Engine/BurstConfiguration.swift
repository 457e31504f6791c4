import Foundation
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
        /// What encodes the JPEG previews `dngOptions.previewLongEdge` asks for (RawImageIO's `JPEGPreviews`): the
        /// engine links no image codec of its own.
        public var previewEncoder: (any PreviewEncoding)?
        /// How files are named (default `%s-%4q`, e.g. `phone-wide-0042.dng`).
        public var nameTemplate: FilenameTemplate
        /// The burst's clock: `.realTime(fps:)` triggers frames start to start (the sources should be
        /// free-running); `.freeRunning` takes frames as fast as they come.
        public var clock: FrameClock = .freeRunning
        /// What a real-time clock does with a frame that cannot start within half an interval of its tick: drop it
        /// (counted as `late`, its sequence number used up; the default) or take it late (offline simulation).
        public var late: LateFramePolicy = .drop
        /// With a real-time clock, the sensor thread asks for real-time (FIFO) scheduling while the burst runs; the
        /// system grants it to root or `CAP_SYS_NICE` only (the report's `sensorScheduling` says which it got).
        public var realTimeScheduling = true
        /// With a real-time clock, the burst's length in wall time (seconds from the first triggered frame's tick,
        /// pauses not counted): no trigger is due after it, so a lowered rate makes fewer frames, never a longer
        /// burst. `frames` still caps the count. Nil: `frames` alone decides.
        public var duration: Double?
        /// The CPU and disk plan the burst was configured from (its choice of compression and optional work, what
        /// limits it); the governor's ladder follows its bottleneck. Nil: limited by the CPU, full work.
        public var timePlan: BurstTimePlan?
        /// Keep a journal (`journal.jsonl`) in the output folder, for `BurstRecovery` after a crash.
        public var journal = true
        /// Write a JSON sidecar beside each DNG (`FrameSidecar`), before the frame is committed.
        public var sidecars = false
        /// The lighting preset's name, for the sidecars.
        public var presetName: String?
        /// A position for every frame that has none (a fixed camera, or a rig without its own receiver): written
        /// to the DNG's EXIF GPS IFD and the sidecar, time-stamped with the frame's capture time.
        public var gps: GPSFix?
        /// The orientation each sensor's frames are stamped with as they are made (one per sensor, in trigger
        /// order), so the DNGs, the viewfinder and the developed pictures all turn them upright: `capture
        /// --orientation`. Nil: frames keep what their source says (replayed files their own, other sources 1).
        public var orientations: [Orientation]?
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
        /// Simulated CPU per frame written (seconds of one core, `--simulate-cpu`): the writers wait for it in one queue
        /// they share as they share the cores (`SimulatedCPU`: each frame takes this ÷ cores of it), without spinning,
        /// so together they take at most cores ÷ this frames a second whatever else the machine runs. For deterministic
        /// tests and benchmarks of the time plan, which counts it (`BurstTimePlan.Inputs.simulatedWriteMilliseconds`).
        public var simulatedWriteCPU: Double?
        /// Let the governor give up work under pressure (`BurstGovernor`); false keeps every frame's full work.
        public var governor = true
        /// Developed pictures beside the DNGs (and composites of pairs), or nil for DNGs only.
        public var development: (any BurstFrameDeveloper)?
        /// Analysis of every written frame from its slot (histograms, exposure, sharpness, clipping, metering), on
        /// the writer that wrote it, or nil for none. Skipped (and counted) while the governor has degraded the burst.
        public var analysis: (any BurstFrameAnalyzer)?
        /// Why the DNGs use `dngOptions.compression` (for the manifest), or nil when nobody said.
        public var compressionPlan: CompressionPlan?
        /// Write the burst as a CinemaDNG clip (raw data in IFD0, time codes, frame rate, reel name), or nil.
        public var cinemaDNG: CinemaDNGSequence?
        /// A viewfinder's tap on every trigger's frames (`BurstFrameViewer`), or nil.
        public var viewer: (any BurstFrameViewer)?
        /// Settings changed while the burst runs (`BurstSettingsFeed`), asked before every trigger, or nil. Not with a
        /// bracketing plan (the plan sets the settings; changes are refused with that reason).
        public var settingsFeed: (any BurstSettingsFeed)?
        /// Start untriggered even without a pre-record (`rawburst live`): frames are made (and shown by `viewer`)
        /// but dropped as `outside-pre-record` beyond the `preRecordFrames` kept, until `trigger()`.
        public var waitForTrigger = false

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
}
