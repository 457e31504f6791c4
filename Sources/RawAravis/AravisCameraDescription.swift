/// A camera as `rawburst cameras` lists it: what discovery reports, and what the camera says when opened briefly.
public struct AravisCameraDescription: Sendable, Hashable, Codable {
    /// Lowest and highest value of a feature.
    public struct Bounds: Sendable, Hashable, Codable {
        /// Lowest value.
        public let min: Double
        /// Highest value.
        public let max: Double
        init?(_ range: ClosedRange<Double>?) {
            guard let range else { return nil }
            min = range.lowerBound
            max = range.upperBound
        }
    }

    /// What discovery reported.
    public let device: AravisDeviceList.Device
    /// Every pixel format the camera offers (GenICam names).
    public let pixelFormats: [String]
    /// The pixel format it is set to.
    public let currentPixelFormat: String?
    /// Sensor width in pixels.
    public let sensorWidth: Int?
    /// Sensor height in pixels.
    public let sensorHeight: Int?
    /// AcquisitionFrameRate bounds, frames per second (nil: no such feature).
    public let frameRate: Bounds?
    /// ExposureTime bounds in microseconds (nil: no such feature).
    public let exposureTimeMicroseconds: Bounds?
    /// Gain bounds (dB on SFNC cameras; nil: no such feature).
    public let gain: Bounds?
    /// Why the camera could not be opened, when it could not (the other fields are then empty).
    public let error: String?

    /// Opens the camera of `device` briefly and reads what it offers; a camera that cannot be opened is described
    /// with the error.
    public static func describe(_ device: AravisDeviceList.Device) -> AravisCameraDescription {
        do throws(AravisError) {
            let camera = try AravisCamera(id: device.id)
            let formats = try camera.availablePixelFormats()
            let code = try camera.pixelFormatCode()
            let size = try camera.sensorSize()
            return AravisCameraDescription(device: device, pixelFormats: formats.map(\.name),
                                           currentPixelFormat: formats.first { $0.code == code }?.name,
                                           sensorWidth: size.width, sensorHeight: size.height,
                                           frameRate: Bounds(camera.frameRateBounds()),
                                           exposureTimeMicroseconds: Bounds(camera.exposureTimeBounds()),
                                           gain: Bounds(camera.gainBounds()), error: nil)
        } catch {
            return AravisCameraDescription(device: device, pixelFormats: [], currentPixelFormat: nil, sensorWidth: nil,
                                           sensorHeight: nil, frameRate: nil, exposureTimeMicroseconds: nil, gain: nil,
                                           error: error.description)
        }
    }
}
