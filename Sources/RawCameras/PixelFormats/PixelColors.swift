import RawCore

/// What colour each sample of a pixel format measures.
public enum PixelColors: Sendable, Hashable, CustomStringConvertible {
    /// A 2x2 Bayer mosaic in the given phase.
    case bayer(BayerOrder)
    /// One colour: every sample measures the same (unfiltered) light.
    case monochrome

    /// The colour filter layout as RawCore's CFA type: the Bayer phase, or `CFALayout.monochrome` (one unfiltered
    /// colour, one plane) for a monochrome sensor.
    public var cfa: CFALayout {
        switch self {
        case .bayer(let order): order.cfa
        case .monochrome: .monochrome
        }
    }

    /// `RGGB`, ..., or `mono`.
    public var description: String {
        switch self {
        case .bayer(let order): order.v4l2Letters
        case .monochrome: "mono"
        }
    }
}
