import Foundation
import RawBurst

/// The `--json` report of `capture`, also kept in the burst folder as `manifest.json`.
struct CaptureReport: Encodable {
    /// One written frame.
    struct Frame: Encodable {
        let sensor: String
        let sequenceNumber: UInt64
        let path: String
        let bytes: Int
        /// Encode time: a writer took the slot → the file was durable.
        let seconds: Double
        let monotonicNanoseconds: UInt64
        let committedNanoseconds: UInt64
        let captureTime: String?
        let latenessMilliseconds: Double
        let slotLatencyMilliseconds: Double
        let queueDepth: Int
        let bracketIndex: Int
        let settings: AppliedSettings
        /// How its raw data is stored: `lj92` or `none`.
        let compression: String
        /// Its CinemaDNG time code (`--cinemadng`).
        let timeCode: String?
        /// Whether its DNG carries NewRawImageDigest, so damage to its samples is found on reading (the governor's
        /// first step gives the digest up).
        let rawImageDigest: Bool
        /// The frame's analysis (`--analyze`), nil when not asked for or skipped by the governor.
        let analysis: FrameAnalysis?
        /// A real camera's frame id and timestamp (its clock), nil for the other sources.
        let cameraFrameID: UInt64?
        let cameraTimestampNanoseconds: UInt64?

        init(_ record: BurstSession.FrameRecord, analysis: FrameAnalysis? = nil) {
            self.analysis = analysis
            compression = record.compression.rawValue
            timeCode = record.timeCode
            rawImageDigest = record.rawImageDigest
            sensor = record.sensor
            sequenceNumber = record.sequenceNumber
            path = record.path
            bytes = record.bytes
            seconds = (record.encodeSeconds * 1000).rounded() / 1000
            monotonicNanoseconds = record.monotonicNanoseconds
            committedNanoseconds = record.committedNanoseconds
            captureTime = record.captureTime?.description
            latenessMilliseconds = (Double(record.latenessNanoseconds) / 1e4).rounded() / 100
            slotLatencyMilliseconds = (Double(record.slotLatencyNanoseconds) / 1e4).rounded() / 100
            queueDepth = record.queueDepth
            bracketIndex = record.bracketIndex
            settings = record.settings
            cameraFrameID = record.camera?.frameID
            cameraTimestampNanoseconds = record.camera?.timestampNanoseconds
        }
    }
    let sensors: [String]
    let scene: String?
    let replayedFiles: Int?
    let seed: UInt64
    let preset: String?
    let fps: Double?
    /// The settings asked for (nil fields were automatic); each frame's `settings` says what was used.
    let settings: CaptureSettings
    let chartFiles: [String]
    let frames: [Frame]
    var burst: Burst
    /// Developed pictures and composites (`--develop`), or nil.
    var development: CaptureDevelopmentReport?
    /// Where the time from the process's start to the first frame went, or nil when unknown.
    var startup: CaptureStartup? = nil
    /// The raw stream read (`--source`): where from, its format, size and stride; nil for the other sources.
    var stream: CaptureStreamReport? = nil
    /// The GenICam camera (`--camera`) and what Aravis's stream counted; nil for the other sources.
    var camera: CaptureCameraReport? = nil
    /// The colour calibration of a camera's or a stream's DNGs (none: the stand-in matrix); nil for the other sources.
    var colorCalibration: CaptureColorReport? = nil
    /// The live viewfinder (`--live`, `rawburst live`): its address and every previewed frame's latency; nil without it.
    var viewfinder: CaptureViewfinderReport? = nil
    /// Each sensor's orientation and mirroring (`--orientation`, `--mirror`).
    var framing: CaptureFramingReport? = nil

    /// The burst engine's account: memory, pool, writers, governor, and every frame produced, written or dropped.
    struct Burst: Encodable {
        struct Drop: Encodable {
            let sensor: String
            let sequenceNumber: UInt64
            let reason: String
        }
        /// The bracketing plan (`--bracket`) and its frame count.
        let bracketPlan: String?
        let bracketPlanSteps: Int?
        /// The CPU and disk plan: each measured cost, the budget, the choice; and how long the burst was predicted to hold.
        let plan: BurstTimePlan?
        let prediction: BurstPrediction?
        /// Real-time clocks: what a frame that cannot start on its tick became (`drop` or `wait`), and the wall-time
        /// length asked for (`--duration`, seconds).
        let late: String?
        let duration: Double?
        /// How the sensor thread was scheduled: `real-time` (FIFO, granted to root or CAP_SYS_NICE) or `normal`.
        let sensorScheduling: String?
        let overflow: String
        let writers: Int
        let memory: BurstMemoryPlan
        let slots: Int
        let slotMiB: Double
        let highWater: Int
        let preRecordFrames: Int
        let triggeredAtSequenceNumber: UInt64?
        let pauses: Int
        let thermal: String?
        let simulatedDisk: String?
        let produced: Int
        let written: Int
        let dropped: [Drop]
        let seconds: Double
        let statistics: BurstStatistics
        /// Process start → first frame in the pool (from /proc, 10 ms resolution), nil if unknown.
        let processStartToFirstFrameMilliseconds: Double?
        /// The process's peak resident memory when the burst ended (before any development after it).
        let peakRSSBytes: Int
        /// Why the peak went over the plan's limit (budget + 64 MiB), or nil when it stayed within.
        let memoryOverrun: String?
        let degradations: [BurstGovernor.Step]
        let stoppedEarly: Bool
        let stopReason: String?
        let errors: [String]
        let problems: [String]
        /// The DNG compression asked for, chosen, and why.
        let compression: CompressionPlan?
        /// The CinemaDNG clip (`--cinemadng`).
        let cinemaDNG: CinemaDNG?
        /// `--analyze`: frames analysed, skipped by the governor, and the median time per frame on a writer.
        let analysis: AnalysisSummary?
        /// The prediction held against what happened: frames and seconds before the first governor step and drop.
        var predictionCheck: PredictionCheck? = nil
        /// Where the plan's machine figures came from, which were measured again and why, and what the burst measured.
        var calibration: CaptureCalibration? = nil

        struct CinemaDNG: Encodable {
            let reelName: String
            let frameRate: Double
            let firstTimeCode: String
        }

        struct AnalysisSummary: Encodable {
            let analysed: Int
            let skipped: Int
            let p50Milliseconds: Double?

            /// The median of `seconds`, in milliseconds to 0.01.
            static func median(_ seconds: [Double]) -> Double? {
                guard !seconds.isEmpty else { return nil }
                return (seconds.sorted()[seconds.count / 2] * 100_000).rounded() / 100
            }
        }
    }
}

/// How each sensor was mounted and whether its pictures were mirrored, in the manifest (`--orientation`, `--mirror`).
struct CaptureFramingReport: Encodable {
    struct Sensor: Encodable {
        let sensor: String
        /// Degrees clockwise (`--orientation`) and the DNG Orientation written, nil when the source's own was kept.
        let orientationDegrees: Int?
        let dngOrientation: Int?
        /// Whether its developed pictures (and its share of composites and of the viewfinder) are mirrored.
        let mirrored: Bool
    }
    /// `--mirror`: none, front or all.
    let mirror: String
    let sensors: [Sensor]

    init(sensors names: [String], orientations: [Orientation]?, mirror: MirrorChoice, mirrored: Set<String>) {
        self.mirror = mirror.rawValue
        sensors = names.enumerated().map { index, name in
            let orientation = orientations?[index]
            return Sensor(sensor: name, orientationDegrees: orientation.flatMap(CameraRotation.init).map(\.degrees),
                          dngOrientation: orientation.map { Int($0.rawValue) }, mirrored: mirrored.contains(name))
        }
    }
}
