import Foundation
import RawBurst

/// The `--json` report of `capture`.
struct CaptureReport: Encodable {
    struct Frame: Encodable {
        let sensor: String
        let sequenceNumber: UInt64
        let path: String
        let bytes: Int
        let seconds: Double
        let monotonicNanoseconds: UInt64
        let latenessMilliseconds: Double
        let queueDepth: Int?
        let bracketIndex: Int?
        let settings: AppliedSettings

        init(_ record: BurstSession.FrameRecord) {
            sensor = record.sensor
            sequenceNumber = record.sequenceNumber
            path = record.path
            bytes = record.bytes
            seconds = (record.encodeSeconds * 1000).rounded() / 1000
            monotonicNanoseconds = record.monotonicNanoseconds
            latenessMilliseconds = (Double(record.latenessNanoseconds) / 1e4).rounded() / 100
            queueDepth = record.queueDepth
            bracketIndex = record.bracketIndex
            settings = record.settings
        }

        init(frame: CapturedFrame, path: String, bytes: Int, seconds: Double) {
            queueDepth = nil
            bracketIndex = nil
            sensor = frame.sensorName
            sequenceNumber = frame.sequenceNumber
            self.path = path
            self.bytes = bytes
            self.seconds = (seconds * 1000).rounded() / 1000
            monotonicNanoseconds = frame.monotonicNanoseconds
            latenessMilliseconds = (Double(frame.latenessNanoseconds) / 1e4).rounded() / 100
            settings = frame.settings
        }
    }
    let sensors: [String]
    let scene: String?
    let replayedFiles: Int?
    let seed: UInt64
    let preset: String?
    let fps: Double?
    let chartFiles: [String]
    let frames: [Frame]
    var burst: Burst?

    /// The burst engine's account: pool, writers, every frame produced, written or dropped.
    struct Burst: Encodable {
        struct Drop: Encodable {
            let sequenceNumber: UInt64
            let reason: String
        }
        let plan: String?
        let overflow: String
        let writers: Int
        let memoryBudgetBytes: Int
        let slots: Int
        let slotMiB: Double
        let highWater: Int
        let produced: Int
        let written: Int
        let dropped: [Drop]
        let seconds: Double
        let lateFrames: Int
        let maxLatenessMilliseconds: Double
        let stoppedEarly: Bool
        let problems: [String]
    }
}
