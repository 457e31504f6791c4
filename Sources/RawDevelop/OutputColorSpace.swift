import Foundation
import RawCore

/// The RGB spaces a developed image can be written in: primaries, white and transfer curve.
///
/// Matrices are derived from the published chromaticities the same way LittleCMS derives an RGB
/// profile's colorants (primaries scaled so RGB (1, 1, 1) is the space's white, then Bradford-adapted to
/// the D50 profile connection space), so the pixels rawburst computes and the ICC profile it embeds agree.
public enum OutputColorSpace: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// IEC 61966-2-1 sRGB (D65).
    case sRGB = "srgb"
    /// Display P3: DCI-P3 primaries, D65 white, the sRGB curve.
    case displayP3 = "p3"
    /// Adobe RGB (1998) (D65, gamma 563/256).
    case adobeRGB = "adobe"
    /// ITU-R BT.2020 primaries (D65) with the BT.2020 curve.
    case rec2020 = "rec2020"
    /// ROMM RGB / ProPhoto (D50, gamma 1.8).
    case proPhoto = "prophoto"

    /// Name for people, also the ICC profile description.
    public var description: String {
        switch self {
        case .sRGB: "sRGB IEC61966-2.1"
        case .displayP3: "Display P3"
        case .adobeRGB: "Adobe RGB (1998) compatible"
        case .rec2020: "ITU-R BT.2020"
        case .proPhoto: "ProPhoto RGB (ROMM)"
        }
    }

    /// CIE 1931 xy chromaticities of red, green and blue.
    public var primaries: [(x: Double, y: Double)] {
        switch self {
        case .sRGB: [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)]
        case .displayP3: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]
        case .adobeRGB: [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)]
        case .rec2020: [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)]
        case .proPhoto: [(0.7347, 0.2653), (0.1596, 0.8404), (0.0366, 0.0001)]
        }
    }

    /// xy of the space's white.
    public var whiteChromaticity: (x: Double, y: Double) {
        self == .proPhoto ? OutputColorSpace.d50Chromaticity : OutputColorSpace.d65Chromaticity
    }

    /// The transfer curve of the space.
    public var transfer: TransferFunction {
        switch self {
        case .sRGB, .displayP3: .sRGB
        case .adobeRGB: .adobeRGB
        case .rec2020: .rec2020
        case .proPhoto: .proPhoto
        }
    }

    /// EXIF `ColorSpace`: 1 for sRGB, 0xFFFF (uncalibrated; the embedded profile says which) otherwise.
    public var exifColorSpace: UInt16 { self == .sRGB ? 1 : 0xFFFF }

    /// D65 as ICC profiles and the standards give it.
    public static let d65Chromaticity = (x: 0.3127, y: 0.3290)
    /// D50 as ICC profiles give it.
    public static let d50Chromaticity = (x: 0.3457, y: 0.3585)
    /// The ICC profile connection space white (D50, Y = 1), as LittleCMS uses it.
    public static let pcsWhite = CIEXYZ(X: 0.9642, Y: 1.0, Z: 0.8249)

    /// XYZ (Y = 1) of a chromaticity.
    static func xyz(_ c: (x: Double, y: Double)) -> CIEXYZ {
        CIEXYZ(X: c.x / c.y, Y: 1, Z: (1 - c.x - c.y) / c.y)
    }

    /// Linear RGB → XYZ relative to the space's own white (row-major 3x3).
    public var rgbToXYZ: [Double] {
        var p = [Double](repeating: 0, count: 9)
        for (column, primary) in primaries.enumerated() {
            let v = OutputColorSpace.xyz(primary)
            p[column] = v.X
            p[3 + column] = v.Y
            p[6 + column] = v.Z
        }
        // Primaries are never collinear: the inverse exists.
        let s = ColorSpaceMath.apply(ColorSpaceMath.inverse(p)!, OutputColorSpace.xyz(whiteChromaticity).vector)
        return ColorSpaceMath.multiply(p, [s.0, 0, 0, 0, s.1, 0, 0, 0, s.2])
    }

    /// XYZ relative to the D50 connection space → linear RGB of this space (Bradford from D50 to the
    /// space's white, then the inverse primaries matrix).
    public var fromXYZD50: [Double] {
        let adapt = ColorSpaceMath.bradford(from: OutputColorSpace.pcsWhite, to: OutputColorSpace.xyz(whiteChromaticity))
        return ColorSpaceMath.multiply(ColorSpaceMath.inverse(rgbToXYZ)!, adapt)
    }

    /// Linear RGB of this space → XYZ relative to D50 (the inverse of ``fromXYZD50``).
    public var toXYZD50: [Double] { ColorSpaceMath.inverse(fromXYZD50)! }

    /// The relative luminance weights of R, G and B (the Y row of ``rgbToXYZ``).
    public var luminanceWeights: (Double, Double, Double) {
        let m = rgbToXYZ
        return (m[3], m[4], m[5])
    }

    /// Parses a space as ``init(parsing:)`` does, or throws naming the choices.
    public init(validating text: String) throws(InvalidValueError) {
        guard let space = OutputColorSpace(parsing: text) else {
            throw InvalidValueError("space", "\"\(text)\" is not one of " + OutputColorSpace.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = space
    }

    /// Parses `srgb`, `p3`, `adobe`, `rec2020`, `prophoto` (and a few spellings such as `display-p3`, `adobergb`).
    public init?(parsing text: String) {
        let t = text.lowercased().replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "_", with: "")
        switch t {
        case "srgb": self = .sRGB
        case "p3", "displayp3": self = .displayP3
        case "adobe", "adobergb", "adobergb1998": self = .adobeRGB
        case "rec2020", "bt2020", "2020": self = .rec2020
        case "prophoto", "romm", "rommrgb": self = .proPhoto
        default: return nil
        }
    }
}
