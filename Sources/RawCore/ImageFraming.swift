/// Where the image pixels of a raw buffer lie and how they are meant to be shown: the active area, the DNG
/// `DefaultCrop` inside it and the `DefaultScale` to square pixels. Mosaics (``RawFrame``) and linear raws
/// (``LinearRawFrame``) share it, so cropping and sizing treat both alike.
public protocol ImageFraming: Sendable {
    /// The part of the buffer that holds image pixels.
    var activeArea: PixelRect { get }
    /// The part of the active area meant to be shown, relative to the active area's top-left.
    var defaultCrop: PixelRect { get }
    /// Horizontal and vertical scale to square pixels; (1, 1) for square pixels.
    var defaultScale: (horizontal: Double, vertical: Double) { get }
}

extension RawFrame: ImageFraming {}
