/// What of a developed picture was flipped left to right (``DevelopSettings/mirror``; a composite's frames), as the
/// picture's metadata says (EXIF ImageDescription, ``note``).
public enum PictureMirroring: Sendable, Hashable {
    /// Nothing: the picture shows the scene as the camera saw it.
    case none
    /// The whole picture.
    case picture
    /// A composite of two frames: which of them were mirrored (at least one).
    case composite(first: Bool, second: Bool)

    /// The mirroring of a composite of two pictures mirrored as `first` and `second` say.
    public init(compositeOf first: PictureMirroring, _ second: PictureMirroring) {
        let a = first != .none, b = second != .none
        self = a || b ? .composite(first: a, second: b) : .none
    }

    /// The text a picture carries as its EXIF ImageDescription, nil when nothing was mirrored.
    public var note: String? {
        switch self {
        case .none: nil
        case .picture: "mirrored left to right"
        case .composite(true, true): "composite: both frames mirrored left to right"
        case .composite(true, false): "composite: first frame mirrored left to right"
        case .composite(false, _): "composite: second frame mirrored left to right"
        }
    }
}
