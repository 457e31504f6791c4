/// How a DNG stores its raw mosaic.
public enum DNGCompression: String, Sendable, Hashable, CaseIterable, Codable {
    /// 16-bit little-endian samples in strips (Compression 1): the fastest to write, the largest file.
    case none
    /// Lossless JPEG (Compression 7) in 256x256 tiles, predictor 1, each tile with its own optimal Huffman
    /// table: bit-exact, typically half to two thirds of the uncompressed size for 12–14-bit frames.
    case lj92

    /// The TIFF Compression tag value.
    public var tiffCode: Int {
        switch self {
        case .none: 1
        case .lj92: 7
        }
    }

    /// Parses `none`/`uncompressed` or `lj92`/`ljpeg`/`lossless` (any case).
    public init?(name: String) {
        switch name.lowercased() {
        case "none", "uncompressed": self = .none
        case "lj92", "ljpeg", "lossless", "lossless-jpeg": self = .lj92
        default: return nil
        }
    }
}
