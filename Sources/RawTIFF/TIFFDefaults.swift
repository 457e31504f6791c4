/// The values TIFF 6.0 and the DNG specification (1.4 to 1.7) give tags that are absent, for the tags the package's
/// readers and validator use.
///
/// A tag a file leaves out has its default value, exactly as if it had been written: a machine-vision camera's DNG
/// 1.1 without SamplesPerPixel is a file with SamplesPerPixel 1. Defaults that depend on other tags (RowsPerStrip: the
/// whole image; WhiteLevel: 2^BitsPerSample − 1; DefaultCropSize and ActiveArea: the image or active area;
/// DNGBackwardVersion: DNGVersion with its last two bytes 0) are worked out by the code that knows those tags (the
/// validator and readers); ``TIFFDirectory/integersOrDefault(_:)`` and ``TIFFDirectory/numbersOrDefault(_:)`` give
/// the fixed ones below.
///
/// ```swift
/// let samples = raw.integerOrDefault(TIFFTag.samplesPerPixel)   // 1 when the tag is absent
/// ```
public enum TIFFDefaults {
    /// Integer defaults: TIFF 6.0 (NewSubfileType 0, BitsPerSample 1, Compression 1, FillOrder 1, Orientation 1,
    /// SamplesPerPixel 1, PlanarConfiguration 1, Predictor 1, SampleFormat 1) and DNG (CFAPlaneColor 0,1,2,
    /// CFALayout 1, BlackLevelRepeatDim 1,1, CalibrationIlluminant1 0, RowInterleaveFactor 1, SubTileBlockSize 1,1,
    /// ColumnInterleaveFactor 1).
    public static let integers: [UInt16: [Int]] = [
        TIFFTag.newSubFileType: [0],
        TIFFTag.bitsPerSample: [1],
        TIFFTag.compression: [1],
        TIFFTag.fillOrder: [1],
        TIFFTag.orientation: [1],
        TIFFTag.samplesPerPixel: [1],
        TIFFTag.planarConfiguration: [1],
        TIFFTag.predictor: [1],
        TIFFTag.sampleFormat: [1],
        TIFFTag.cfaPlaneColor: [0, 1, 2],
        TIFFTag.cfaLayout: [1],
        TIFFTag.blackLevelRepeatDim: [1, 1],
        TIFFTag.calibrationIlluminant1: [0],
        TIFFTag.rowInterleaveFactor: [1],
        TIFFTag.subTileBlockSize: [1, 1],
        TIFFTag.columnInterleaveFactor: [1],
    ]

    /// Number defaults of the DNG specification: BlackLevel 0, DefaultScale 1,1, BaselineExposure 0,
    /// BestQualityScale 1, BaselineNoise 1, BaselineSharpness 1, LinearResponseLimit 1, AntiAliasStrength 1,
    /// ShadowScale 1, BayerGreenSplit 0, DefaultCropOrigin 0,0.
    public static let numbers: [UInt16: [Double]] = [
        TIFFTag.blackLevel: [0],
        TIFFTag.defaultScale: [1, 1],
        TIFFTag.baselineExposure: [0],
        TIFFTag.bestQualityScale: [1],
        TIFFTag.baselineNoise: [1],
        TIFFTag.baselineSharpness: [1],
        TIFFTag.linearResponseLimit: [1],
        TIFFTag.antiAliasStrength: [1],
        TIFFTag.shadowScale: [1],
        TIFFTag.bayerGreenSplit: [0],
        TIFFTag.defaultCropOrigin: [0, 0],
    ]

    /// RowsPerStrip's default, 2^32 − 1: the whole image is one strip.
    public static let rowsPerStrip = 0xFFFF_FFFF

    /// WhiteLevel's default for `bitsPerSample`-bit samples: 2^bits − 1 (bits clamped to 1...32).
    public static func whiteLevel(bitsPerSample: Int) -> Int {
        (1 << min(max(bitsPerSample, 1), 32)) - 1
    }
}

extension TIFFDirectory {
    /// The integer values of `tag`, or its default (``TIFFDefaults/integers``) when the directory has no such tag.
    /// Nil when a present tag's value is unusable (another type, past the end of the file: the validator reports
    /// that) or when an absent tag has no fixed default.
    public func integersOrDefault(_ tag: UInt16) -> [Int]? {
        if let entry = self[tag] { return entry.integers }
        return TIFFDefaults.integers[tag]
    }

    /// The first of ``integersOrDefault(_:)``.
    public func integerOrDefault(_ tag: UInt16) -> Int? {
        integersOrDefault(tag)?.first
    }

    /// The numbers of `tag`, or its default (``TIFFDefaults/numbers``, else ``TIFFDefaults/integers``) when the
    /// directory has no such tag; nil as ``integersOrDefault(_:)``.
    public func numbersOrDefault(_ tag: UInt16) -> [Double]? {
        if let entry = self[tag] { return entry.numbers }
        return TIFFDefaults.numbers[tag] ?? TIFFDefaults.integers[tag]?.map(Double.init)
    }

    /// RowsPerStrip as it applies to an image `height` rows tall: the tag's value (its default, the whole image, when
    /// absent), at least 1 and at most `height`.
    public func rowsPerStrip(height: Int) -> Int {
        min(max(1, integer(TIFFTag.rowsPerStrip) ?? TIFFDefaults.rowsPerStrip), max(1, height))
    }
}
