import RawCameras

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
        init?(_ range: ClosedRange<Int>?) {
            self.init(range.map { Double($0.lowerBound)...Double($0.upperBound) })
        }
    }

    /// A pixel format the camera offers that rawburst captures.
    public struct RawFormat: Sendable, Hashable, Codable {
        /// The GenICam name (`BayerRG12p`, `Mono8`).
        public let name: String
        /// `RGGB` ... `BGGR` for a Bayer format, `mono` for a monochrome one (monochrome DNGs).
        public let colors: String
        /// Significant bits per sample.
        public let bitsPerSample: Int

        /// The description of `format`, named `name` as the camera names it.
        init(name: String, format: PixelFormat) {
            self.name = name
            colors = format.colors.description
            bitsPerSample = format.bitsPerSample
        }
    }

    /// What discovery reported.
    public let device: AravisDeviceList.Device
    /// Every pixel format the camera offers (GenICam names), raw or not.
    public let pixelFormats: [String]
    /// The formats among them rawburst captures (Bayer and monochrome), in the camera's order; the others (RGB8,
    /// YUV...) are not raw and cannot be captured.
    public let rawPixelFormats: [RawFormat]
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
    /// The TriggerSource values it offers for FrameStart (`--trigger software` needs `Software`, `line:NAME` NAME).
    public let triggerSources: [String]
    /// BinningHorizontal and BinningVertical bounds (nil: the camera cannot bin).
    public let binningHorizontal: Bounds?
    public let binningVertical: Bounds?
    /// True when it has BalanceRatioSelector and BalanceRatio (its white balance goes into the DNGs).
    public let balanceRatio: Bool
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
            let raw = formats.compactMap { offered in PixelFormat(pfncCode: offered.code).map { RawFormat(name: offered.name, format: $0) } }
            return AravisCameraDescription(device: device, pixelFormats: formats.map(\.name), rawPixelFormats: raw,
                                           currentPixelFormat: formats.first { $0.code == code }?.name,
                                           sensorWidth: size.width, sensorHeight: size.height,
                                           frameRate: Bounds(camera.frameRateBounds()),
                                           exposureTimeMicroseconds: Bounds(camera.exposureTimeBounds()),
                                           gain: Bounds(camera.gainBounds()), triggerSources: camera.triggerSources(),
                                           binningHorizontal: Bounds(camera.binningBounds()?.horizontal),
                                           binningVertical: Bounds(camera.binningBounds()?.vertical),
                                           balanceRatio: camera.balanceRatioFeature != nil, error: nil)
        } catch {
            return AravisCameraDescription(device: device, pixelFormats: [], rawPixelFormats: [], currentPixelFormat: nil, sensorWidth: nil,
                                           sensorHeight: nil, frameRate: nil, exposureTimeMicroseconds: nil, gain: nil,
                                           triggerSources: [], binningHorizontal: nil, binningVertical: nil,
                                           balanceRatio: false, error: error.description)
        }
    }
}
