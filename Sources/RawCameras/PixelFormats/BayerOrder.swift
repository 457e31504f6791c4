import RawCore

/// The phase of a 2x2 Bayer colour filter array: the colours of the top-left 2x2 block, row by row.
///
/// GenICam PFNC names the phase by the first two colours of the first row (`BayerRG12`), V4L2 and libcamera by all
/// four (`SRGGB12`); both mean the same pattern.
public enum BayerOrder: String, Sendable, Hashable, CaseIterable {
    /// Red at the top-left pixel: R G / G B.
    case rggb
    /// G R / B G.
    case grbg
    /// G B / R G.
    case gbrg
    /// Blue at the top-left pixel: B G / G R.
    case bggr

    /// The layout as RawCore's CFA type.
    public var cfa: CFALayout {
        switch self {
        case .rggb: .rggb
        case .grbg: .grbg
        case .gbrg: .gbrg
        case .bggr: .bggr
        }
    }

    /// The two letters GenICam PFNC uses (`RG` in `BayerRG8`).
    public var pfncLetters: String {
        switch self {
        case .rggb: "RG"
        case .grbg: "GR"
        case .gbrg: "GB"
        case .bggr: "BG"
        }
    }

    /// The four letters V4L2 and libcamera use (`RGGB` in `SRGGB8`).
    public var v4l2Letters: String { rawValue.uppercased() }
}
