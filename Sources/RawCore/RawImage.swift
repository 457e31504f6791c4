/// A raw frame with everything known about it: how it was taken and how to interpret its colours.
public struct RawImage: Sendable {
    /// The mosaic and its levels.
    public var frame: RawFrame
    /// Camera, lens, exposure, time and place.
    public var metadata: FrameMetadata
    /// Colour calibration, or nil when the camera's colour response is unknown.
    public var calibration: ColorCalibration?

    /// Bundles a frame with its metadata and calibration.
    public init(frame: RawFrame, metadata: FrameMetadata, calibration: ColorCalibration?) {
        self.frame = frame
        self.metadata = metadata
        self.calibration = calibration
    }
}
