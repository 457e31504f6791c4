import ArgumentParser
import RawBurst

/// Parses `--compression` values for `convert` and `capture`.
enum DNGCompressionArgument {
    static func parse(_ text: String) throws -> DNGCompression {
        try BadValue.parse(text, otherwise: "--compression must be none, lj92 or packed, not \"\(text)\"")
    }

    /// `capture`'s choice: `auto`, or a compression.
    static func request(_ text: String) throws -> CompressionRequest {
        text.lowercased() == "auto" ? .auto : .fixed(try parse(text))
    }
}

/// `capture --compression`: timed before the burst (`auto`) or fixed.
enum CompressionRequest: Sendable, Hashable, CustomStringConvertible {
    case auto
    case fixed(DNGCompression)

    var description: String {
        switch self {
        case .auto: "auto"
        case .fixed(let compression): compression.rawValue
        }
    }
}
