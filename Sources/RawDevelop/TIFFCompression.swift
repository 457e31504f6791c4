/// How a developed TIFF stores its samples. Every choice is lossless; the compressed ones use the predictor that
/// suits the samples (horizontal differencing for 16-bit integers, the floating-point predictor for 32-bit floats).
///
/// Measured on a developed 12 MP 16-bit picture (docs/benchmarks.md, issue #18): noisy 16-bit samples barely
/// compress — Deflate and Zstandard save about 16 %, LZW makes the file 11.5 % *larger* — while each costs
/// 10-12 times the time of writing the samples as they are. So the default is uncompressed.
public enum TIFFCompression: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// Samples as they are (TIFF compression 1): the fastest to write and read, read by every TIFF reader.
    case none
    /// Deflate (compression 8, Adobe Deflate) with the predictor: about 16 % smaller; read by libtiff, Photoshop,
    /// tifffile, Pillow; exiftool's validator notes it is not TIFF 6 baseline.
    case deflate
    /// Zstandard (compression 50000) with the predictor: as small as Deflate and faster to decode; read by
    /// libtiff 4.0.10+ built with it and tifffile, not by Photoshop.
    case zstd
    /// LZW (compression 5, TIFF 6 baseline) with the predictor: the widest support, but larger than uncompressed
    /// on noisy 16-bit data.
    case lzw

    /// The TIFF `Compression` tag value.
    public var tagValue: UInt16 {
        switch self {
        case .none: 1
        case .deflate: 8
        case .zstd: 50000
        case .lzw: 5
        }
    }

    /// Whether the samples go through a predictor before the codec.
    public var usesPredictor: Bool { self != .none }

    /// The name, as `--tiff-compression` takes it.
    public var description: String { rawValue }
}
