/// How a DNG stores its raw mosaic.
public enum DNGCompression: String, Sendable, Hashable, CaseIterable, Codable {
    /// 16-bit little-endian samples in strips (Compression 1): the fastest to write, the largest file.
    case none
    /// Lossless JPEG (Compression 7) in 256x256 tiles, predictor 1, each tile with its own optimal Huffman
    /// table: bit-exact, typically half to two thirds of the uncompressed size for 12–14-bit frames.
    case lj92
    /// Uncompressed (Compression 1) samples packed at the frame's bit depth, most significant bit first (`PackedSamples`):
    /// bit-exact, 12/16 of `none` for 12-bit frames (10/16 at 10 bits, 14/16 at 14, one byte a sample at 8) for a few
    /// milliseconds of CPU per 12 MP. It applies to depths 8–15 (odd ones too: DNG allows 8–32 bits per sample), at
    /// the frame's depth or the first deeper one whose rows end on a byte (rawspeed refuses padded rows); a frame with
    /// 16-bit samples, or a width no depth up to 15 fits, is written as `none` would write it (the writer's report
    /// says so).
    case packed

    /// The TIFF Compression tag value.
    public var tiffCode: Int {
        switch self {
        case .none, .packed: 1
        case .lj92: 7
        }
    }

    /// Parses `none`/`uncompressed`, `lj92`/`ljpeg`/`lossless` or `packed` (any case).
    public init?(name: String) {
        switch name.lowercased() {
        case "none", "uncompressed": self = .none
        case "lj92", "ljpeg", "lossless", "lossless-jpeg": self = .lj92
        case "packed": self = .packed
        default: return nil
        }
    }
}
