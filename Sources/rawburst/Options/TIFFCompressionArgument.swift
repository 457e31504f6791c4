import ArgumentParser
import RawBurst

extension TIFFCompression: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

/// `develop --tiff-compression`: the value, or one line naming the choices (exit status 2).
enum TIFFCompressionArgument {
    static func parse(_ text: String) throws -> TIFFCompression {
        try BadValue.parse(text, otherwise: "--tiff-compression must be none, deflate, zstd or lzw, not \"\(text)\"")
    }
}
