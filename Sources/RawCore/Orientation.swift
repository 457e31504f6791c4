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

    /// LibRaw/dcraw's `flip` code for this orientation (bit 0: mirror columns, bit 1: mirror rows,
    /// bit 2: transpose): 1→0, 2→1, 3→3, 4→2, 5→4, 6→6, 7→7, 8→5.
    public var libRawFlip: Int {
        switch self {
        case .normal: 0
        case .mirrorHorizontal: 1
        case .rotate180: 3
        case .mirrorVertical: 2
        case .mirrorHorizontalRotate270: 4
        case .rotate90: 6
        case .mirrorHorizontalRotate90: 7
        case .rotate270: 5
        }
    }

    /// Whether turning the stored image upright swaps its width and height (values 5 to 8).
    public var transposes: Bool {
        switch self {
        case .mirrorHorizontalRotate270, .rotate90, .mirrorHorizontalRotate90, .rotate270: true
        default: false
        }
    }

    /// The stored (row, column) that shows at upright (`x`, `y`), for a stored image of `width` x `height`.
    @inlinable @inline(__always)
    public func storedPosition(x: Int, y: Int, width: Int, height: Int) -> (row: Int, column: Int) {
        switch self {
        case .normal: (y, x)
        case .mirrorHorizontal: (y, width - 1 - x)
        case .rotate180: (height - 1 - y, width - 1 - x)
        case .mirrorVertical: (height - 1 - y, x)
        case .mirrorHorizontalRotate270: (x, y)
        case .rotate90: (height - 1 - x, y)
        case .mirrorHorizontalRotate90: (height - 1 - x, width - 1 - y)
        case .rotate270: (x, width - 1 - y)
        }
    }

    /// The orientation that shows the same stored image upright and then flipped left to right, as a mirror shows it
    /// (a front camera's "selfie" picture): 1↔2, 3↔4, 6↔5, 8↔7. Applying it twice gives the orientation back.
    public var mirroredLeftToRight: Orientation {
        switch self {
        case .normal: .mirrorHorizontal
        case .mirrorHorizontal: .normal
        case .rotate180: .mirrorVertical
        case .mirrorVertical: .rotate180
        case .rotate90: .mirrorHorizontalRotate270
        case .mirrorHorizontalRotate270: .rotate90
        case .rotate270: .mirrorHorizontalRotate90
        case .mirrorHorizontalRotate90: .rotate270
        }
    }

    /// Whether the upright picture is a mirror image of the scene (values 2, 4, 5 and 7).
    public var mirrors: Bool {
        switch self {
        case .mirrorHorizontal, .mirrorVertical, .mirrorHorizontalRotate270, .mirrorHorizontalRotate90: true
        default: false
        }
    }

    /// The orientation for LibRaw/dcraw's `flip` code (0...7; other values are taken modulo 8).
    public init(libRawFlip flip: Int) {
        let code = ((flip % 8) + 8) % 8
        self = Orientation.allCases.first { $0.libRawFlip == code } ?? .normal
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
