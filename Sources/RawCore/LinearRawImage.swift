/// A linear raw frame (three samples per pixel, no colour filter array) with its metadata and colour calibration:
/// what a LinearRaw DNG holds.
public struct LinearRawImage: Sendable {
    /// The samples and their levels.
    public var frame: LinearRawFrame
    /// Camera, lens, exposure, time and place.
    public var metadata: FrameMetadata
    /// Colour calibration, or nil when the camera's colour response is unknown.
    public var calibration: ColorCalibration?

    /// Bundles a frame with its metadata and calibration.
    public init(frame: LinearRawFrame, metadata: FrameMetadata, calibration: ColorCalibration?) {
        self.frame = frame
        self.metadata = metadata
        self.calibration = calibration
    }
}
