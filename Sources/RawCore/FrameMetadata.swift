/// What is known about how a frame was taken: camera, lens, exposure, time and place.
///
/// Every field is optional except orientation, because converted raws from old cameras may lack any of them.
/// Values are validated when set through `init` or the `with…` builders.
public struct FrameMetadata: Sendable, Hashable {
    /// Camera maker, e.g. "Canon".
    public var make: String?
    /// Camera model, e.g. "PowerShot G2".
    public var model: String?
    /// Camera body serial number.
    public var serialNumber: String?
    /// Lens model name.
    public var lens: String?
    /// Capture time with milliseconds and UTC offset.
    public var captureTime: CaptureTime?
    /// Sequence number in a burst (never reused within one burst).
    public var sequenceNumber: UInt64?
    /// A real camera's own number for the frame (a GenICam block id) and its own clock when the frame was taken (ns
    /// of the camera's timebase: a GenICam timestamp, libcamera's SensorTimestamp); DNGs carry them in
    /// ImageDescription.
    public var cameraFrameID: UInt64?
    public var cameraTimestampNanoseconds: UInt64?
    /// Exposure time in seconds.
    public private(set) var exposureTime: Double?
    /// Aperture as an f-number.
    public private(set) var fNumber: Double?
    /// ISO speed.
    public private(set) var iso: Double?
    /// Focal length in millimetres.
    public private(set) var focalLength: Double?
    /// Focus distance.
    public var focusDistance: FocusDistance?
    /// How the image must be turned to be upright.
    public var orientation: Orientation
    /// Position fix, if any.
    public var gps: GPSFix?
    /// Exposure compensation in EV (EXIF ExposureBiasValue).
    public var exposureBias: Double?
    /// How ISO and shutter were chosen (EXIF ExposureProgram).
    public var exposureProgram: ExposureProgram?
    /// How the scene was metered (EXIF MeteringMode).
    public var meteringPattern: MeteringPattern?
    /// True when the white balance was automatic, false when set (EXIF WhiteBalance).
    public var whiteBalanceAutomatic: Bool?
    /// The focal length giving the same field of view on a 36x24 mm frame (EXIF FocalLengthIn35mmFilm).
    public var focalLengthIn35mmFilm: Double?
    /// How noisy the raw samples are (DNG `NoiseProfile`), when the sensor's noise model is known.
    public var noiseProfile: NoiseProfile?
    /// How much to brighten (in EV) the default rendering (DNG `BaselineExposure`) of a frame that has no colour
    /// calibration to carry it — a monochrome frame; a colour frame's is its calibration's. Nil is 0.
    public var baselineExposure: Double?

    /// Metadata with nothing known (for pictures that are not photographs: plots, contact sheets). Built here, in
    /// RawCore: Swift 6.3.1 release builds miscompile calls from other modules to this type's typed-throwing
    /// initialiser with its optionals left nil.
    public static let empty: FrameMetadata = {
        do { return try FrameMetadata() } catch { preconditionFailure("metadata without values is valid: \(error)") }
    }()

    /// Creates metadata; numeric exposure values must be positive and finite.
    public init(make: String? = nil, model: String? = nil, serialNumber: String? = nil, lens: String? = nil,
                captureTime: CaptureTime? = nil, sequenceNumber: UInt64? = nil, exposureTime: Double? = nil,
                fNumber: Double? = nil, iso: Double? = nil, focalLength: Double? = nil,
                focusDistance: FocusDistance? = nil, orientation: Orientation = .normal,
                gps: GPSFix? = nil) throws(InvalidValueError) {
        self.make = make
        self.model = model
        self.serialNumber = serialNumber
        self.lens = lens
        self.captureTime = captureTime
        self.sequenceNumber = sequenceNumber
        self.focusDistance = focusDistance
        self.orientation = orientation
        self.gps = gps
        try setExposureTime(exposureTime)
        try setFNumber(fNumber)
        try setISO(iso)
        try setFocalLength(focalLength)
    }

    /// Sets the exposure time in seconds (greater than 0, at most 1 hour).
    public mutating func setExposureTime(_ seconds: Double?) throws(InvalidValueError) {
        if let seconds {
            try require(seconds.isFinite && seconds > 0 && seconds <= 3600, "exposure time",
                        "\(seconds) s is outside (0, 3600]")
        }
        exposureTime = seconds
    }

    /// Sets the f-number (0.5 ... 1024).
    public mutating func setFNumber(_ value: Double?) throws(InvalidValueError) {
        if let value {
            try require(value.isFinite && value >= 0.5 && value <= 1024, "f-number", "f/\(value) is outside f/0.5...f/1024")
        }
        fNumber = value
    }

    /// Sets the ISO speed (1 ... 10 000 000).
    public mutating func setISO(_ value: Double?) throws(InvalidValueError) {
        if let value {
            try require(value.isFinite && value >= 1 && value <= 10_000_000, "ISO", "\(value) is outside 1...10000000")
        }
        iso = value
    }

    /// Sets the focal length in millimetres (0.1 ... 10 000).
    public mutating func setFocalLength(_ value: Double?) throws(InvalidValueError) {
        if let value {
            try require(value.isFinite && value >= 0.1 && value <= 10_000, "focal length",
                        "\(value) mm is outside 0.1...10000 mm")
        }
        focalLength = value
    }
}
