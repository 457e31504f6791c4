import RawCore

/// The file formats a developed image can be written in.
public enum OutputFormat: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// Baseline JPEG, 8 bits, through libjpeg-turbo.
    case jpeg = "jpg"
    /// HEIF with HEVC (x265) coding, 8 or 10 bits, through libheif.
    case heif = "heic"
    /// TIFF, 8- or 16-bit integer or 32-bit float samples, through libtiff.
    case tiff
    /// PNG, 8 or 16 bits, through libpng.
    case png

    /// Parses a format name or file extension, ignoring case and a leading dot: `jpg`/`jpeg`/`jpe`,
    /// `heic`/`heif`/`hif`, `tif`/`tiff`, `png`.
    public init?(parsing text: String) {
        var t = text.lowercased()
        if t.hasPrefix(".") { t.removeFirst() }
        switch t {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "heic", "heif", "hif": self = .heif
        case "tif", "tiff": self = .tiff
        case "png": self = .png
        default: return nil
        }
    }

    /// The format named by the extension of `path` (e.g. `out/IMG_0001.HEIC`), or nil.
    public init?(pathExtension path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        self.init(parsing: String(name[name.index(after: dot)...]))
    }

    /// The usual file extension, without the dot: `jpg`, `heic`, `tif`, `png`.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .heif: "heic"
        case .tiff: "tif"
        case .png: "png"
        }
    }

    /// The media (MIME) type.
    public var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .heif: "image/heic"
        case .tiff: "image/tiff"
        case .png: "image/png"
        }
    }

    /// Name for people: `JPEG`, `HEIF`, `TIFF`, `PNG`.
    public var description: String {
        switch self {
        case .jpeg: "JPEG"
        case .heif: "HEIF"
        case .tiff: "TIFF"
        case .png: "PNG"
        }
    }
}

/// How the encoders write a file: the options of every format in one value (each format reads its own).
public struct EncodeOptions: Sendable, Hashable, Codable {
    /// JPEG and HEIF quality, 1...100 (default 90).
    public var quality: Int
    /// Bits per sample of HEIF files: 8 or 10 (default 8).
    public var heifBitDepth: Int
    /// Bits per sample of TIFF files: 8 or 16 (unsigned integers) or 32 (IEEE floats) (default 16).
    public var tiffBitDepth: Int
    /// Bits per sample of PNG files: 8 or 16 (default 16).
    public var pngBitDepth: Int
    /// Replace an existing file at the destination (default false: an existing file is refused).
    public var overwrite: Bool
    /// How TIFF files store their samples (default uncompressed, see ``TIFFCompression``).
    public var tiffCompression: TIFFCompression = .none

    /// The valid JPEG/HEIF qualities.
    public static let qualityRange = 1...100

    /// Creates options; every value is checked by ``validated()``.
    public init(quality: Int = 90, heifBitDepth: Int = 8, tiffBitDepth: Int = 16, pngBitDepth: Int = 16,
                overwrite: Bool = false, tiffCompression: TIFFCompression = .none) {
        self.quality = quality
        self.heifBitDepth = heifBitDepth
        self.tiffBitDepth = tiffBitDepth
        self.pngBitDepth = pngBitDepth
        self.overwrite = overwrite
        self.tiffCompression = tiffCompression
    }

    /// These options after checking every value (each failure is one line naming the setting).
    public func validated() throws(InvalidValueError) -> EncodeOptions {
        try require(EncodeOptions.qualityRange.contains(quality), "quality", "\(quality) is outside 1...100")
        try require(heifBitDepth == 8 || heifBitDepth == 10, "HEIF bit depth", "\(heifBitDepth) is not 8 or 10")
        try require([8, 16, 32].contains(tiffBitDepth), "TIFF bit depth",
                    "\(tiffBitDepth) is not 8, 16 (integer) or 32 (float)")
        try require(pngBitDepth == 8 || pngBitDepth == 16, "PNG bit depth", "\(pngBitDepth) is not 8 or 16")
        return self
    }

    /// Bits per sample of a file written in `format` with these options.
    public func bitDepth(for format: OutputFormat) -> Int {
        switch format {
        case .jpeg: 8
        case .heif: heifBitDepth
        case .tiff: tiffBitDepth
        case .png: pngBitDepth
        }
    }
}

extension SampleFormat {
    /// The samples a file of `format` with `options` needs: bytes for 8-bit files (JPEG, and HEIF, PNG or TIFF at 8
    /// bits), floats for 32-bit TIFF, 16-bit otherwise.
    public static func `for`(_ format: OutputFormat, options: EncodeOptions) -> SampleFormat {
        switch format {
        case .jpeg: .uint8
        case .heif: options.heifBitDepth == 8 ? .uint8 : .uint16
        case .png: options.pngBitDepth == 8 ? .uint8 : .uint16
        case .tiff: options.tiffBitDepth == 32 ? .float32 : options.tiffBitDepth == 8 ? .uint8 : .uint16
        }
    }
}
