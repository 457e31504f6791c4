import Foundation
import RawCore
import RawSources

/// The JSON file written beside a frame's DNG on request (`--sidecar`): how the frame was taken, for scripts
/// that should not have to parse EXIF.
public struct FrameSidecar: Encodable, Sendable {
    /// A position fix.
    public struct Position: Encodable, Sendable {
        public let latitude: Double
        public let longitude: Double
        public let altitude: Double?
    }

    public let sequenceNumber: UInt64
    public let sensor: String
    public let file: String
    /// The capture time as written in the DNG (ISO 8601 with milliseconds and UTC offset).
    public let captureTime: String?
    public let monotonicNanoseconds: UInt64
    public let latenessMilliseconds: Double
    /// The step of the bracketing plan (0 without a plan).
    public let bracketIndex: Int
    /// The lighting preset the settings came from, if any.
    public let preset: String?
    /// The settings the frame was taken with: ISO, shutter, aperture, focus, exposure compensation, lens,
    /// focal length, white balance and its neutral, metering, which controls were automatic, metered EV100.
    public let settings: AppliedSettings
    public let gps: Position?

    /// The sidecar of `frame`, written as `file`.
    public init(frame: CapturedFrame, file: String, bracketIndex: Int, preset: String?) {
        sequenceNumber = frame.sequenceNumber
        sensor = frame.sensorName
        self.file = file
        captureTime = frame.image.metadata.captureTime?.description
        monotonicNanoseconds = frame.monotonicNanoseconds
        latenessMilliseconds = (Double(frame.latenessNanoseconds) / 1e4).rounded() / 100
        self.bracketIndex = bracketIndex
        self.preset = preset
        settings = frame.settings
        gps = frame.image.metadata.gps.map { Position(latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude) }
    }

    /// The sidecar's file name for the DNG `dngName` (`phone-wide-0042.dng` → `phone-wide-0042.json`).
    public static func fileName(forDNG dngName: String) -> String {
        ((dngName as NSString).deletingPathExtension) + ".json"
    }

    /// Pretty-printed JSON with sorted keys and a final newline.
    public func json() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(self)).map(Array.init) ?? Array("{}".utf8)) + [10]
    }
}
