import ArgumentParser
import RawBurst

/// `develop`'s option values, parsed by argument-parser; each refusal is the library's one line, exit status 2.
enum DevelopValues {
    static func whiteBalance(_ text: String) throws -> WhiteBalanceChoice { try BadValue.wrapping("") { try WhiteBalanceChoice(parsing: text) } }
    static func demosaic(_ text: String) throws -> DemosaicMethod { try BadValue.wrapping("") { try DemosaicMethod(parsing: text) } }
    static func space(_ text: String) throws -> OutputColorSpace { try BadValue.wrapping("") { try OutputColorSpace(validating: text) } }
    static func look(_ text: String) throws -> Look { try BadValue.wrapping("") { try Look(parsing: text) } }
    static func tone(_ text: String) throws -> ToneCurve { try BadValue.wrapping("") { try ToneCurve(parsing: text) } }
    static func crop(_ text: String) throws -> CropChoice { try BadValue.wrapping("") { try CropChoice(parsing: text) } }

    static func highlights(_ text: String) throws -> HighlightMode {
        guard let mode = HighlightMode(rawValue: text.lowercased()) else {
            throw BadValue("\(InvalidValueError("highlights", "\"\(text)\" is not clip or reconstruct"))")
        }
        return mode
    }

    static func format(_ text: String) throws -> OutputFormat {
        try BadValue.parse(text, otherwise: "\(InvalidValueError("format", "\"\(text)\" is not jpg, heic, tiff or png"))")
    }
}
