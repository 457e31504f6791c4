import RawCore

/// What a frame source can do, for validation and for `rawburst sensors`.
public struct SourceCapabilities: Sendable, Hashable, Codable {
    /// Source name ("phone-wide", "file-replay", ...).
    public var name: String
    /// Frame width in pixels.
    public var width: Int
    /// Frame height in pixels.
    public var height: Int
    /// Significant bits per sample.
    public var bitsPerSample: Int
    /// CFA pattern letters from the top-left pixel (e.g. "RGGB").
    public var cfaPattern: String
    /// Highest frame rate the source can sustain.
    public var maximumFrameRate: Double
    /// Lowest and highest ISO.
    public var isoRange: ClosedRange<Double>
    /// Shortest and longest exposure in seconds.
    public var shutterRange: ClosedRange<Double>
    /// Lenses the source can use (at least one).
    public var lenses: [LensCapabilities]

    /// Creates a description.
    public init(name: String, width: Int, height: Int, bitsPerSample: Int, cfaPattern: String, maximumFrameRate: Double,
                isoRange: ClosedRange<Double>, shutterRange: ClosedRange<Double>, lenses: [LensCapabilities]) {
        self.name = name
        self.width = width
        self.height = height
        self.bitsPerSample = bitsPerSample
        self.cfaPattern = cfaPattern
        self.maximumFrameRate = maximumFrameRate
        self.isoRange = isoRange
        self.shutterRange = shutterRange
        self.lenses = lenses
    }
}

/// What one lens can do.
public struct LensCapabilities: Sendable, Hashable, Codable {
    /// Lens name as `--lens` spells it.
    public var name: String
    /// Focal length in millimetres.
    public var focalLength: Double
    /// Widest and narrowest f-number (equal for a fixed aperture).
    public var apertureRange: ClosedRange<Double>
    /// Closest focus distance in metres (focus runs from there to infinity).
    public var minimumFocusDistance: Double
    /// Horizontal field of view in degrees.
    public var horizontalFieldOfView: Double

    /// Creates a description.
    public init(name: String, focalLength: Double, apertureRange: ClosedRange<Double>, minimumFocusDistance: Double,
                horizontalFieldOfView: Double) {
        self.name = name
        self.focalLength = focalLength
        self.apertureRange = apertureRange
        self.minimumFocusDistance = minimumFocusDistance
        self.horizontalFieldOfView = horizontalFieldOfView
    }
}
