import RawCore

/// What to do with highlights the sensor clipped.
public enum HighlightMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Every channel is clipped at the level where the first one saturates: clipped areas become neutral white.
    case clip
    /// Channels that did not saturate keep their values above white; a clipped channel is raised to the mean of
    /// the unclipped ones, so partly clipped highlights keep their brightness gradient and lean neutral instead of
    /// turning magenta. The tone curve's shoulder then brings them back into range.
    case reconstruct

    public var description: String { rawValue }
}

/// How the colour of the two missing channels at each pixel is estimated.
public enum DemosaicMethod: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Average of the nearest samples of each colour: fast, soft, with colour fringes at edges.
    case bilinear
    /// Malvar, He and Cutler (2004), gradient-corrected linear interpolation with 5x5 kernels: sharp and fast,
    /// with some zipper and colour moiré at edges it cannot see the direction of.
    case malvarHeCutler = "mhc"
    /// Gradient-weighted directional colour-difference interpolation after Pekkucuksen and Altunbasak's GBTF
    /// (2010): follows edges, so it beats MHC and LibRaw's AHD against ground truth: the default.
    case gradientWeighted = "gbtf"
    /// LibRaw's AHD (adaptive homogeneity-directed), run through LibRaw on the same white-balanced mosaic,
    /// for comparison. Needs an ``ExternalDemosaicer`` (the RawBurst library provides LibRaw's).
    case libRawAHD = "libraw-ahd"

    public var description: String { rawValue }

    /// Parses `gbtf`, `bilinear`, `mhc` (also `malvar`), `libraw-ahd` (also `ahd`).
    public init(parsing text: String) throws(InvalidValueError) {
        switch text.lowercased() {
        case "bilinear", "linear": self = .bilinear
        case "mhc", "malvar", "malvar-he-cutler": self = .malvarHeCutler
        case "gbtf", "gradient", "directional": self = .gradientWeighted
        case "libraw-ahd", "ahd", "libraw": self = .libRawAHD
        default: throw InvalidValueError("demosaic", "\"\(text)\" is not gbtf, mhc, bilinear or libraw-ahd")
        }
    }
}

/// Demosaics a white-balanced mosaic with an algorithm that lives outside RawDevelop (LibRaw's AHD).
public protocol ExternalDemosaicer: Sendable {
    /// Name for reports.
    var name: String { get }
    /// Demosaics `mosaic` (`width * height` samples, black 0, white 65535, CFA from the top-left pixel) into
    /// interleaved 16-bit camera RGB of the same size.
    func demosaic(_ mosaic: [UInt16], width: Int, height: Int, cfa: CFALayout) throws(DevelopError) -> [UInt16]
}

/// The type of the developed samples.
public enum SampleFormat: String, Sendable, Hashable, CaseIterable {
    case uint8, uint16, float32
}

/// Every setting of a development, as one value. The defaults give a finished sRGB picture: as-shot white
/// balance, gradient-weighted demosaic, the standard tone curve, the default crop, upright.
public struct DevelopSettings: Sendable, Hashable {
    /// White balance.
    public var whiteBalance: WhiteBalanceChoice = .asShot
    /// Clipped highlights.
    public var highlights: HighlightMode = .clip
    /// Demosaic algorithm.
    public var demosaic: DemosaicMethod = .gradientWeighted
    /// Output RGB space.
    public var colorSpace: OutputColorSpace = .sRGB
    /// Exposure compensation in EV (−5...5), on top of the file's BaselineExposure.
    public var exposure: Double = 0
    /// Apply the DNG `BaselineExposure` of the file (as DNG readers do).
    public var applyBaselineExposure = true
    /// Base tone curve.
    public var tone: ToneCurve = .standard
    /// Look.
    public var look: Look = .natural
    /// Turn the image upright as the orientation says (off for DNG previews, whose readers rotate).
    public var applyOrientation = true
    /// Flip the upright picture left to right, as a mirror shows it (a front camera's pictures): after the
    /// orientation, so it never swaps width and height. The picture says so (``DevelopedImage/mirroring``).
    public var mirror = false
    /// Crop.
    public var crop: CropChoice = .defaultCrop
    /// Longest edge of the output in pixels (16...65535), or nil for the full size. Images are never enlarged.
    public var longEdge: Int? = nil
    /// Encode linear light instead of the space's transfer curve (the embedded profile says so).
    public var linearOutput = false
    /// The samples to produce: 8-bit for 8-bit files (finished straight to bytes, no 16-bit pass), 16-bit, or
    /// 32-bit float (float TIFF).
    public var sampleFormat: SampleFormat = .uint16

    /// The defaults.
    public init() {}

    /// Checks every range; the error names the setting.
    public func validated() throws(InvalidValueError) -> DevelopSettings {
        try whiteBalance.validate()
        try crop.validate()
        try require(exposure.isFinite && abs(exposure) <= 5, "exposure", "\(exposure) EV is outside −5...+5")
        if let edge = longEdge {
            try require((16...65535).contains(edge), "size", "\(edge) px is outside 16...65535")
        }
        return self
    }
}
