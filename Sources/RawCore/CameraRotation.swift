/// How a camera (or a rig) is turned on its mount: a quarter turn clockwise or more, as seen from behind the camera
/// (looking where it looks), from its normal position (sensor rows horizontal, row 0 at the top of the scene).
///
/// The convention, precisely: a camera turned N° clockwise makes pictures that must be turned N° clockwise to be
/// upright. A camera turned 90° clockwise has its top edge (the sensor's row 0) on the scene's right, so the
/// scene's top is on the stored picture's left edge: turning the picture 90° clockwise puts it back on top. DNG and
/// EXIF readers do that turn from the `Orientation` tag: 0° is 1, 90° is 6 ("rotate 90 CW"), 180° is 3, 270° is 8.
/// A rotation never mirrors: the DNG of a front camera keeps the sensor's own orientation (mirroring is a
/// development choice, `DevelopSettings.mirror`).
public enum CameraRotation: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// As the sensor reads out (Orientation 1).
    case none = 0
    /// Turned 90° clockwise (Orientation 6).
    case clockwise90 = 90
    /// Upside down (Orientation 3).
    case halfTurn = 180
    /// Turned 270° clockwise, i.e. 90° anticlockwise (Orientation 8).
    case clockwise270 = 270

    /// Parses `0`, `90`, `180` or `270` (degrees clockwise); nil for anything else.
    public init?(degrees text: String) {
        guard let degrees = Int(text), let value = CameraRotation(rawValue: degrees) else { return nil }
        self = value
    }

    /// The rotation whose pictures `orientation` turns upright, nil for a mirrored orientation (2, 4, 5, 7).
    public init?(_ orientation: Orientation) {
        guard let value = Self.allCases.first(where: { $0.orientation == orientation }) else { return nil }
        self = value
    }

    /// Degrees clockwise.
    public var degrees: Int { rawValue }

    /// The TIFF/EXIF `Orientation` that turns this camera's pictures upright: 1, 6, 3 or 8.
    public var orientation: Orientation {
        switch self {
        case .none: .normal
        case .clockwise90: .rotate90
        case .halfTurn: .rotate180
        case .clockwise270: .rotate270
        }
    }

    public var description: String { String(rawValue) }
}
