/// How the stored image must be turned to be seen upright (TIFF/EXIF `Orientation`, values 1...8).
public enum Orientation: UInt16, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Row 0 at the top, column 0 on the left.
    case normal = 1
    case mirrorHorizontal = 2
    case rotate180 = 3
    case mirrorVertical = 4
    case mirrorHorizontalRotate270 = 5
    /// Turn 90° clockwise to view.
    case rotate90 = 6
    case mirrorHorizontalRotate90 = 7
    /// Turn 270° clockwise (90° anticlockwise) to view.
    case rotate270 = 8

    /// Parses the EXIF code, rejecting anything outside 1...8.
    public init(code: Int) throws(InvalidValueError) {
        guard code >= 0, code <= 65535, let value = Orientation(rawValue: UInt16(code)) else {
            throw InvalidValueError("orientation", "\(code) is not an EXIF orientation (1...8)")
        }
        self = value
    }

    /// LibRaw/dcraw's `flip` code (0, 3, 5, 6) for this orientation; the four mirrored ones have no flip code.
    public var libRawFlip: Int? {
        switch self {
        case .normal: 0
        case .rotate180: 3
        case .rotate270: 5
        case .rotate90: 6
        default: nil
        }
    }

    /// The orientation for LibRaw/dcraw's `flip` code.
    public init(libRawFlip flip: Int) {
        switch flip {
        case 3: self = .rotate180
        case 5: self = .rotate270
        case 6: self = .rotate90
        default: self = .normal
        }
    }

    public var description: String {
        switch self {
        case .normal: "normal"
        case .mirrorHorizontal: "mirror horizontal"
        case .rotate180: "rotate 180"
        case .mirrorVertical: "mirror vertical"
        case .mirrorHorizontalRotate270: "mirror horizontal and rotate 270 CW"
        case .rotate90: "rotate 90 CW"
        case .mirrorHorizontalRotate90: "mirror horizontal and rotate 90 CW"
        case .rotate270: "rotate 270 CW"
        }
    }
}
