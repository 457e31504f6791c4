import Foundation

/// How auto exposure weighs the image.
public enum MeteringMode: Sendable, Hashable, Codable {
    /// The whole frame, highlights protected (the brightest zone may not clip).
    case matrix
    /// The whole frame with a Gaussian weight on the centre.
    case centreWeighted
    /// A small circle (2 % of the width) around a point.
    case spot(NormalisedPoint)
    /// One zone of the 3x3 grid, numbered 0...8 row by row.
    case zone(Int)
}

extension MeteringMode {
    /// Decodes `matrix`, `centre-weighted`, `spot:X,Y` or `zone:N`.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = MeteringMode(parsing: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "\"\(text)\" is not a metering mode"))
        }
        self = value
    }

    /// Encodes the string form (``text``).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(text)
    }

    /// `matrix`, `centre-weighted`, `spot:0.5,0.5`, `zone:4`.
    public var text: String {
        switch self {
        case .matrix: "matrix"
        case .centreWeighted: "centre-weighted"
        case .spot(let p): "spot:\(SettingText.number(p.x)),\(SettingText.number(p.y))"
        case .zone(let index): "zone:\(index)"
        }
    }

    /// Parses the forms ``text`` writes (also `center-weighted`); nil for anything else.
    public init?(parsing text: String) {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        switch t {
        case "matrix": self = .matrix; return
        case "centre-weighted", "center-weighted": self = .centreWeighted; return
        default: break
        }
        if t.hasPrefix("spot:") {
            let parts = t.dropFirst(5).split(separator: ",", omittingEmptySubsequences: false)
                .map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let x = parts[0], let y = parts[1] else { return nil }
            self = .spot(NormalisedPoint(x: x, y: y))
            return
        }
        if t.hasPrefix("zone:"), let index = Int(t.dropFirst(5).trimmingCharacters(in: .whitespaces)) {
            self = .zone(index)
            return
        }
        return nil
    }
}

