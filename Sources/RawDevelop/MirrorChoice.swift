import RawCore

/// Which sensors' pictures are flipped left to right when they are developed (`capture --mirror`), as a front
/// camera's pictures are shown to the person in front of it. Raw files never carry it: a DNG keeps the sensor's own
/// orientation (``DevelopSettings/mirror`` applies it when developing).
public enum MirrorChoice: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Nothing is mirrored.
    case none
    /// The front sensor's pictures: the second of two sensors triggered together (`--sensor BACK --sensor FRONT`),
    /// the place a phone's front camera takes beside its back camera in a two-sensor capture (a composite's second
    /// frame: the lower or right share of a stack, the picture-in-picture inset). Needs two sensors.
    case front
    /// Every sensor's pictures.
    case all

    /// Parses `none`, `front` or `all`.
    public init(parsing text: String) throws(InvalidValueError) {
        guard let value = MirrorChoice(rawValue: text.lowercased()) else {
            throw InvalidValueError("mirror", "\"\(text)\" is not none, front or all")
        }
        self = value
    }

    /// Whether sensor `index` (trigger order, from 0) of `count` sensors has its pictures mirrored.
    public func mirrors(sensor index: Int, of count: Int) -> Bool {
        switch self {
        case .none: false
        case .all: true
        case .front: count == 2 && index == 1
        }
    }

    /// Checks that the choice fits a capture of `count` sensors: `front` names the second of two.
    public func validate(sensors count: Int) throws(InvalidValueError) {
        guard self != .front || count == 2 else {
            throw InvalidValueError("mirror", "front is the second of two sensors, and this capture has \(count); "
                                    + "--mirror all mirrors a single sensor's pictures")
        }
    }

    public var description: String { rawValue }
}
