import RawCore

/// What a raw file holds: a colour-filter-array mosaic (almost every camera raw and DNG) or a linear raw (a LinearRaw
/// DNG: three samples per pixel, already demosaiced).
public enum RawFileContent: Sendable {
    /// A mosaic with its metadata and calibration.
    case mosaic(RawImage)
    /// A linear raw with its metadata and calibration.
    case linear(LinearRawImage)

    /// Camera, lens, exposure, time and place.
    public var metadata: FrameMetadata {
        switch self {
        case .mosaic(let image): image.metadata
        case .linear(let image): image.metadata
        }
    }

    /// Colour calibration, or nil when unknown.
    public var calibration: ColorCalibration? {
        switch self {
        case .mosaic(let image): image.calibration
        case .linear(let image): image.calibration
        }
    }
}
