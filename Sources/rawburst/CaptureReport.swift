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
        let settings: AppliedSettings

        init(frame: CapturedFrame, path: String, bytes: Int, seconds: Double) {
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
}
