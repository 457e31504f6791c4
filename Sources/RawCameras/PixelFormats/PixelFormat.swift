import RawCore

/// A raw pixel format a real camera delivers: the GenICam PFNC formats GigE Vision and USB3 Vision cameras report
/// (through Aravis), and the V4L2 Bayer and greyscale (luma-only) formats a Linux capture device or libcamera writes
/// (raw streams on stdin).
///
/// Each format knows its colours (``colors``, a Bayer phase, or monochrome; RawCore's `CFALayout` either way), its byte layout
/// (``packing``, with the bit layouts and their sources), its names (``name``, ``pfncCode``, ``v4l2FourCC``) and
/// how to unpack a frame into 16-bit samples (``unpack(_:width:height:rowStride:into:)``). GenICam `BayerRG8` and
/// V4L2 `SRGGB8` (and the 16-bit pairs) have the same bytes; they are separate cases so that a format keeps the name
/// it was chosen by.
public enum PixelFormat: Sendable, Hashable, CaseIterable {
    /// PFNC `BayerXX8`.
    case bayer8(BayerOrder)
    /// PFNC `BayerXX10`: 16-bit little-endian words, 10 significant bits.
    case bayer10(BayerOrder)
    /// PFNC `BayerXX12`: 16-bit little-endian words, 12 significant bits.
    case bayer12(BayerOrder)
    /// PFNC `BayerXX16`: 16-bit little-endian words.
    case bayer16(BayerOrder)
    /// PFNC `BayerXX10p`: LSB-first bit stream, 4 pixels in 5 bytes.
    case bayer10p(BayerOrder)
    /// PFNC `BayerXX12p`: LSB-first bit stream, 2 pixels in 3 bytes.
    case bayer12p(BayerOrder)
    /// GigE Vision `BayerXX10Packed`: 2 pixels in 3 bytes.
    case bayer10Packed(BayerOrder)
    /// GigE Vision `BayerXX12Packed`: 2 pixels in 3 bytes.
    case bayer12Packed(BayerOrder)
    /// PFNC `Mono8`.
    case mono8
    /// PFNC `Mono10`.
    case mono10
    /// PFNC `Mono12`.
    case mono12
    /// PFNC `Mono16`.
    case mono16
    /// PFNC `Mono10p`.
    case mono10p
    /// PFNC `Mono12p`.
    case mono12p
    /// GigE Vision `Mono10Packed`.
    case mono10Packed
    /// GigE Vision `Mono12Packed`.
    case mono12Packed
    /// V4L2 `SXXXX8`.
    case v4l2Bayer8(BayerOrder)
    /// V4L2 `SXXXX10`: 16-bit little-endian words, 10 significant low bits.
    case v4l2Bayer10(BayerOrder)
    /// V4L2 `SXXXX12`: 16-bit little-endian words, 12 significant low bits.
    case v4l2Bayer12(BayerOrder)
    /// V4L2 `SXXXX16`.
    case v4l2Bayer16(BayerOrder)
    /// V4L2 `SXXXX10P`, libcamera `SXXXX10_CSI2P`: MIPI CSI-2 RAW10.
    case v4l2Bayer10CSI2P(BayerOrder)
    /// V4L2 `SXXXX12P`, libcamera `SXXXX12_CSI2P`: MIPI CSI-2 RAW12.
    case v4l2Bayer12CSI2P(BayerOrder)
    /// V4L2 `PISP_COMP1_XXXX`, libcamera `XXXX_PISP_COMP1`: the Raspberry Pi 5's compressed raw (PiSP compression
    /// mode 1), decoded to 16-bit samples. Lossy.
    case pispComp1(BayerOrder)
    /// V4L2 `PISP_COMP1_MONO`, libcamera `MONO_PISP_COMP1`.
    case pispComp1Mono
    /// V4L2 `GREY`, libcamera `R8`: 8-bit greyscale.
    case v4l2Grey8
    /// V4L2 `Y10`, libcamera `R10`: 16-bit little-endian words, 10 significant low bits.
    case v4l2Grey10
    /// V4L2 `Y12`, libcamera `R12`: 16-bit little-endian words, 12 significant low bits.
    case v4l2Grey12
    /// V4L2 `Y14`: 16-bit little-endian words, 14 significant low bits.
    case v4l2Grey14
    /// V4L2 `Y16`, libcamera `R16`: 16-bit little-endian words.
    case v4l2Grey16
    /// V4L2 `Y10P`, libcamera `R10_CSI2P`: MIPI CSI-2 RAW10 (OV9281, OV7251 and other monochrome Pi sensors).
    case v4l2Grey10CSI2P
    /// V4L2 `Y12P`, libcamera `R12_CSI2P`: MIPI CSI-2 RAW12.
    case v4l2Grey12CSI2P
    /// V4L2 `Y14P`: MIPI CSI-2 RAW14.
    case v4l2Grey14CSI2P

    /// Which family of names the format belongs to.
    public enum Family: Sendable, Hashable {
        /// GenICam PFNC (GigE Vision, USB3 Vision), including GigE Vision's older `Packed` formats.
        case genICam
        /// Video4Linux2 (and libcamera).
        case v4l2
    }

    /// Every format, GenICam first, each Bayer format in the four phases, then the V4L2 monochrome formats (PiSP's
    /// first, then the greyscale ones).
    public static let allCases: [PixelFormat] = {
        let bayer: [(BayerOrder) -> PixelFormat] = [
            bayer8, bayer10, bayer12, bayer16, bayer10p, bayer12p, bayer10Packed, bayer12Packed,
        ]
        let mono: [PixelFormat] = [.mono8, .mono10, .mono12, .mono16, .mono10p, .mono12p, .mono10Packed, .mono12Packed]
        let v4l2: [(BayerOrder) -> PixelFormat] = [
            v4l2Bayer8, v4l2Bayer10, v4l2Bayer12, v4l2Bayer16, v4l2Bayer10CSI2P, v4l2Bayer12CSI2P, pispComp1,
        ]
        let grey: [PixelFormat] = [
            .v4l2Grey8, .v4l2Grey10, .v4l2Grey12, .v4l2Grey14, .v4l2Grey16, .v4l2Grey10CSI2P, .v4l2Grey12CSI2P,
            .v4l2Grey14CSI2P,
        ]
        return bayer.flatMap { make in BayerOrder.allCases.map(make) } + mono
            + v4l2.flatMap { make in BayerOrder.allCases.map(make) } + [.pispComp1Mono] + grey
    }()

    /// The format's family, colours and packing (every other property derives from these).
    public var parts: (family: Family, colors: PixelColors, packing: PixelPacking) {
        switch self {
        case .bayer8(let o): (.genICam, .bayer(o), .eightBit)
        case .bayer10(let o): (.genICam, .bayer(o), .littleEndian16(bits: 10))
        case .bayer12(let o): (.genICam, .bayer(o), .littleEndian16(bits: 12))
        case .bayer16(let o): (.genICam, .bayer(o), .littleEndian16(bits: 16))
        case .bayer10p(let o): (.genICam, .bayer(o), .lsbFirst(bits: 10))
        case .bayer12p(let o): (.genICam, .bayer(o), .lsbFirst(bits: 12))
        case .bayer10Packed(let o): (.genICam, .bayer(o), .gigEVisionPacked(bits: 10))
        case .bayer12Packed(let o): (.genICam, .bayer(o), .gigEVisionPacked(bits: 12))
        case .mono8: (.genICam, .monochrome, .eightBit)
        case .mono10: (.genICam, .monochrome, .littleEndian16(bits: 10))
        case .mono12: (.genICam, .monochrome, .littleEndian16(bits: 12))
        case .mono16: (.genICam, .monochrome, .littleEndian16(bits: 16))
        case .mono10p: (.genICam, .monochrome, .lsbFirst(bits: 10))
        case .mono12p: (.genICam, .monochrome, .lsbFirst(bits: 12))
        case .mono10Packed: (.genICam, .monochrome, .gigEVisionPacked(bits: 10))
        case .mono12Packed: (.genICam, .monochrome, .gigEVisionPacked(bits: 12))
        case .v4l2Bayer8(let o): (.v4l2, .bayer(o), .eightBit)
        case .v4l2Bayer10(let o): (.v4l2, .bayer(o), .littleEndian16(bits: 10))
        case .v4l2Bayer12(let o): (.v4l2, .bayer(o), .littleEndian16(bits: 12))
        case .v4l2Bayer16(let o): (.v4l2, .bayer(o), .littleEndian16(bits: 16))
        case .v4l2Bayer10CSI2P(let o): (.v4l2, .bayer(o), .mipiCSI2(bits: 10))
        case .v4l2Bayer12CSI2P(let o): (.v4l2, .bayer(o), .mipiCSI2(bits: 12))
        case .pispComp1(let o): (.v4l2, .bayer(o), .pispCompressed)
        case .pispComp1Mono: (.v4l2, .monochrome, .pispCompressed)
        case .v4l2Grey8: (.v4l2, .monochrome, .eightBit)
        case .v4l2Grey10: (.v4l2, .monochrome, .littleEndian16(bits: 10))
        case .v4l2Grey12: (.v4l2, .monochrome, .littleEndian16(bits: 12))
        case .v4l2Grey14: (.v4l2, .monochrome, .littleEndian16(bits: 14))
        case .v4l2Grey16: (.v4l2, .monochrome, .littleEndian16(bits: 16))
        case .v4l2Grey10CSI2P: (.v4l2, .monochrome, .mipiCSI2(bits: 10))
        case .v4l2Grey12CSI2P: (.v4l2, .monochrome, .mipiCSI2(bits: 12))
        case .v4l2Grey14CSI2P: (.v4l2, .monochrome, .mipiCSI2(bits: 14))
        }
    }

    /// GenICam or V4L2.
    public var family: Family { parts.family }
    /// The colours of the samples.
    public var colors: PixelColors { parts.colors }
    /// The byte layout.
    public var packing: PixelPacking { parts.packing }
    /// The colour filter layout as RawCore's CFA type: a Bayer phase, or `CFALayout.monochrome` for the monochrome
    /// formats.
    public var cfa: CFALayout { colors.cfa }
    /// True for a monochrome (unfiltered, one-colour) format.
    public var isMonochrome: Bool { colors == .monochrome }
    /// Significant bits per sample (8, 10, 12, 14 or 16): the unpacked samples lie in `0..<(1 << bitsPerSample)`.
    public var bitsPerSample: Int { packing.bitsPerSample }

    /// Bytes that hold a row of `width` pixels, without padding (the smallest valid row stride).
    public func bytesPerRow(width: Int) -> Int { packing.bytesPerRow(width: width) }
}
