import RawCore

/// The margin a colour-filter-array DNG keeps between its default crop and the edges of its active area.
///
/// Demosaicing a pixel needs its neighbours, so a CFA image's visible picture should not reach the edge of the
/// sensor data: Adobe's DNG SDK warns ("Too little padding on … edge of CFA image") when `DefaultCropOrigin` is less
/// than 1.9 pixels from the active area's left or top edge, or the crop's far edge less than 1.9 pixels from its
/// right or bottom edge (checked with dngpy, the SDK 1.7.1: a margin of 1 warns, 2 does not). The rule here: on each
/// axis the margin is the smallest whole number of CFA repeats that is at least ``minimum`` (2 px for Bayer, 6 px
/// for X-Trans), so that the crop starts on the same CFA phase as the active area. The raw data itself is never
/// cropped: the active area keeps every pixel, and a reader that wants the pixels under the margin still has them.
public enum DNGCropMargin {
    /// The fewest pixels between the default crop and each edge of the active area (the SDK warns below 1.9).
    public static let minimum = 2

    /// The margin along an axis whose CFA pattern repeats every `period` pixels: the smallest multiple of the period
    /// that is at least ``minimum``.
    public static func margin(period: Int) -> Int {
        let p = max(period, 1)
        return (minimum + p - 1) / p * p
    }

    /// `crop` (relative to the top-left of an active area `areaWidth` x `areaHeight`) with each edge pulled in to
    /// leave the margin for `cfa`; an edge already far enough in stays where it is. On an axis too short to keep a
    /// pixel inside two margins the crop is left as it is.
    public static func crop(_ crop: PixelRect, areaWidth: Int, areaHeight: Int, cfa: CFALayout) -> PixelRect {
        let (left, right) = inset(crop.left, crop.right, length: areaWidth, margin: margin(period: cfa.columns))
        let (top, bottom) = inset(crop.top, crop.bottom, length: areaHeight, margin: margin(period: cfa.rows))
        return (try? PixelRect(top: top, left: left, height: bottom - top, width: right - left)) ?? crop
    }

    /// Whether `crop` already keeps the margin inside an active area `areaWidth` x `areaHeight`.
    public static func keepsMargin(_ crop: PixelRect, areaWidth: Int, areaHeight: Int, cfa: CFALayout) -> Bool {
        self.crop(crop, areaWidth: areaWidth, areaHeight: areaHeight, cfa: cfa) == crop
    }

    /// The start and end of one axis of the crop, pulled in to `margin` from both ends of `0..<length`.
    private static func inset(_ start: Int, _ end: Int, length: Int, margin: Int) -> (Int, Int) {
        guard length > 2 * margin else { return (start, end) }
        let newStart = max(start, margin), newEnd = min(end, length - margin)
        return newEnd > newStart ? (newStart, newEnd) : (start, end)
    }
}
