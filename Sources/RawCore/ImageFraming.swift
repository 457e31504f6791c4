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

/// The checked framing of a `width` x `height` buffer: the active area (the whole buffer when nil) inside the buffer,
/// the default crop (the whole active area when nil) inside the active area, a positive finite scale.
func checkedFraming(width: Int, height: Int, activeArea: PixelRect?, defaultCrop: PixelRect?,
                    defaultScale: (horizontal: Double, vertical: Double)) throws(InvalidValueError) -> (area: PixelRect, crop: PixelRect) {
    let whole = try PixelRect.whole(width: width, height: height)
    let area = activeArea ?? whole
    try require(whole.contains(area), "active area", "\(area) does not fit in the \(width)x\(height) buffer")
    let wholeArea = try PixelRect.whole(width: area.width, height: area.height)
    let crop = defaultCrop ?? wholeArea
    try require(wholeArea.contains(crop), "default crop",
                "\(crop) does not fit in the \(area.width)x\(area.height) active area")
    try require(defaultScale.horizontal.isFinite && defaultScale.horizontal > 0
                && defaultScale.vertical.isFinite && defaultScale.vertical > 0, "default scale",
                "\(defaultScale.horizontal) x \(defaultScale.vertical) must be positive")
    return (area, crop)
}
