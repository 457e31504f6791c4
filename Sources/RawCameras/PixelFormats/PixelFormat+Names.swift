/// The names and numeric codes of the pixel formats, and parsing from the names users type.
///
/// Sources of the numbers (facts only): the GenICam Pixel Format Naming Convention (PFNC) 2.x value table, which
/// Aravis's public header `arvenums.h` repeats (`ARV_PIXEL_FORMAT_*`); the GigE Vision `Packed` codes are GigE Vision
/// 2.x's (PFNC lists them as deprecated, GigE Vision-specific). The V4L2 fourccs are Linux's
/// `include/uapi/linux/videodev2.h` and the media documentation pages pixfmt-srggb8/10/12/16, pixfmt-srggb10p and
/// pixfmt-srggb12p (pages of kernels before 5.x named SRGGB12P 'pRAA'; the header and later pages say 'pRCC'),
/// pixfmt-srggb8-pisp-comp for the PiSP compressed formats ('PC1R', 'PC1G', 'PC1g', 'PC1B', 'PC1M'; libcamera names
/// those `RGGB_PISP_COMP1` ... `MONO_PISP_COMP1`), and pixfmt-yuv-luma for the greyscale formats ('GREY', 'Y10 ',
/// 'Y12 ', 'Y14 ', 'Y16 ', 'Y10P', 'Y12P', 'Y14P'), which libcamera calls `R8`, `R10`, `R12`, `R16`, `R10_CSI2P` and
/// `R12_CSI2P` (its V4L2 format table; it has no name for Y14 and Y14P).
extension PixelFormat {
    /// The name a user or a camera knows the format by: the PFNC name (`BayerRG12p`, `Mono12Packed`) for GenICam
    /// formats, libcamera's name (`SRGGB12_CSI2P`, `SRGGB12`) for the V4L2 Bayer ones, and the V4L2 name (`GREY`,
    /// `Y10P`) for the V4L2 greyscale ones, whose libcamera names (`R8`, `R10_CSI2P`) are accepted too.
    public var name: String {
        switch family {
        case .genICam: pfncName ?? ""
        case .v4l2: (greyBits == nil ? libcameraName : v4l2Name) ?? ""
        }
    }

    /// The significant bits of a V4L2 greyscale (luma-only) format, nil for any other.
    private var greyBits: Int? {
        guard family == .v4l2, colors == .monochrome, packing != .pispCompressed else { return nil }
        return bitsPerSample
    }

    /// The GenICam PFNC name, for GenICam formats.
    public var pfncName: String? {
        guard family == .genICam else { return nil }
        let prefix = switch colors {
        case .bayer(let order): "Bayer" + order.pfncLetters
        case .monochrome: "Mono"
        }
        return switch packing {
        case .eightBit: prefix + "8"
        case .littleEndian16(let bits): prefix + "\(bits)"
        case .lsbFirst(let bits): prefix + "\(bits)p"
        case .gigEVisionPacked(let bits): prefix + "\(bits)Packed"
        case .mipiCSI2, .pispCompressed: nil
        }
    }

    /// The 32-bit code a GigE Vision or USB3 Vision camera reports for the format (PFNC value table): bit 24 and up
    /// say mono or colour, bits 23-16 the bits a pixel occupies, bits 15-0 the format's identifier.
    public var pfncCode: UInt32? {
        switch self {
        case .mono8: 0x0108_0001
        case .mono10: 0x0110_0003
        case .mono12: 0x0110_0005
        case .mono16: 0x0110_0007
        case .mono10p: 0x010A_0046
        case .mono12p: 0x010C_0047
        case .mono10Packed: 0x010C_0004
        case .mono12Packed: 0x010C_0006
        // Bayer codes run GR, RG, GB, BG for the older formats and BG, GB, GR, RG (odd or even steps) for 10p/12p.
        case .bayer8(let o): 0x0108_0008 + Self.grFirst(o)
        case .bayer10(let o): 0x0110_000C + Self.grFirst(o)
        case .bayer12(let o): 0x0110_0010 + Self.grFirst(o)
        case .bayer16(let o): 0x0110_002E + Self.grFirst(o)
        case .bayer10Packed(let o): 0x010C_0026 + Self.grFirst(o)
        case .bayer12Packed(let o): 0x010C_002A + Self.grFirst(o)
        case .bayer10p(let o): 0x010A_0052 + 2 * Self.bgFirst(o)
        case .bayer12p(let o): 0x010C_0053 + 2 * Self.bgFirst(o)
        case .v4l2Bayer8, .v4l2Bayer10, .v4l2Bayer12, .v4l2Bayer16, .v4l2Bayer10CSI2P, .v4l2Bayer12CSI2P, .pispComp1,
             .pispComp1Mono, .v4l2Grey8, .v4l2Grey10, .v4l2Grey12, .v4l2Grey14, .v4l2Grey16, .v4l2Grey10CSI2P,
             .v4l2Grey12CSI2P, .v4l2Grey14CSI2P: nil
        }
    }

    private static func grFirst(_ order: BayerOrder) -> UInt32 {
        switch order {
        case .grbg: 0
        case .rggb: 1
        case .gbrg: 2
        case .bggr: 3
        }
    }

    private static func bgFirst(_ order: BayerOrder) -> UInt32 {
        switch order {
        case .bggr: 0
        case .gbrg: 1
        case .grbg: 2
        case .rggb: 3
        }
    }

    /// True for the MIPI CSI-2 packed formats (a `P` in V4L2's name, `_CSI2P` in libcamera's).
    private var isCSI2Packed: Bool {
        if case .mipiCSI2 = packing { return true }
        return false
    }

    /// The V4L2 name without its `V4L2_PIX_FMT_` prefix (`SRGGB12P`, `PISP_COMP1_RGGB`, `GREY`, `Y10P`), for V4L2
    /// formats.
    public var v4l2Name: String? {
        if packing == .pispCompressed { return "PISP_COMP1_" + Self.pispLetters(colors) }
        if let bits = greyBits { return bits == 8 ? "GREY" : "Y\(bits)" + (isCSI2Packed ? "P" : "") }
        guard family == .v4l2, case .bayer(let order) = colors else { return nil }
        return "S" + order.v4l2Letters + "\(bitsPerSample)" + (isCSI2Packed ? "P" : "")
    }

    /// libcamera's name (`SRGGB12_CSI2P` for the CSI-2 packed formats, `RGGB_PISP_COMP1` for the PiSP compressed
    /// ones, `R8` ... `R16` and `R10_CSI2P`, `R12_CSI2P` for the greyscale ones, the V4L2 name otherwise), for V4L2
    /// formats libcamera names (not Y14 and Y14P).
    public var libcameraName: String? {
        if packing == .pispCompressed { return Self.pispLetters(colors) + "_PISP_COMP1" }
        if let bits = greyBits { return bits == 14 ? nil : "R\(bits)" + (isCSI2Packed ? "_CSI2P" : "") }
        guard family == .v4l2, case .bayer(let order) = colors else { return nil }
        return "S" + order.v4l2Letters + "\(bitsPerSample)" + (isCSI2Packed ? "_CSI2P" : "")
    }

    /// The V4L2 four-character code as its four characters (`pRCC`), for V4L2 formats. Case matters: `pgAA` (GRBG)
    /// and `pGAA` (GBRG) are different formats.
    public var v4l2FourCCText: String? {
        if packing == .pispCompressed {
            return switch colors {
            case .bayer(.rggb): "PC1R"
            case .bayer(.grbg): "PC1G"
            case .bayer(.gbrg): "PC1g"
            case .bayer(.bggr): "PC1B"
            case .monochrome: "PC1M"
            }
        }
        if let bits = greyBits {
            // 'GREY', then 'Y10 ', 'Y12 ', 'Y14 ', 'Y16 ' (a space fills the fourth character) and 'Y10P' ... 'Y14P'.
            return bits == 8 ? "GREY" : "Y\(bits)" + (isCSI2Packed ? "P" : " ")
        }
        guard family == .v4l2, case .bayer(let order) = colors else { return nil }
        let table: [BayerOrder: String] = switch packing {
        case .eightBit: [.rggb: "RGGB", .grbg: "GRBG", .gbrg: "GBRG", .bggr: "BA81"]
        case .littleEndian16(10): [.rggb: "RG10", .grbg: "BA10", .gbrg: "GB10", .bggr: "BG10"]
        case .littleEndian16(12): [.rggb: "RG12", .grbg: "BA12", .gbrg: "GB12", .bggr: "BG12"]
        case .littleEndian16: [.rggb: "RG16", .grbg: "GR16", .gbrg: "GB16", .bggr: "BYR2"]
        case .mipiCSI2(10): [.rggb: "pRAA", .grbg: "pgAA", .gbrg: "pGAA", .bggr: "pBAA"]
        case .mipiCSI2: [.rggb: "pRCC", .grbg: "pgCC", .gbrg: "pGCC", .bggr: "pBCC"]
        case .lsbFirst, .gigEVisionPacked, .pispCompressed: [:]
        }
        return table[order]
    }

    /// `RGGB` ... `BGGR`, or `MONO`: the colours in the PiSP formats' names.
    private static func pispLetters(_ colors: PixelColors) -> String {
        switch colors {
        case .bayer(let order): order.v4l2Letters
        case .monochrome: "MONO"
        }
    }

    /// The V4L2 fourcc as the 32-bit value V4L2 uses (`v4l2_fourcc(a, b, c, d)` = a | b << 8 | c << 16 | d << 24).
    public var v4l2FourCC: UInt32? {
        guard let text = v4l2FourCCText else { return nil }
        return text.utf8.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The format a GigE Vision or USB3 Vision camera reports by its PFNC code, or nil for a code this module does not
    /// unpack.
    public init?(pfncCode: UInt32) {
        guard let match = Self.allCases.first(where: { $0.pfncCode == pfncCode }) else { return nil }
        self = match
    }

    /// The V4L2 format with this fourcc, or nil for one this module does not unpack.
    public init?(v4l2FourCC: UInt32) {
        guard let match = Self.allCases.first(where: { $0.v4l2FourCC == v4l2FourCC }) else { return nil }
        self = match
    }

    /// Parses a name as users type it, ignoring case and surrounding spaces: a PFNC name (`BayerRG12p`,
    /// `Mono12Packed`), a V4L2 name with or without `V4L2_PIX_FMT_` (`SRGGB12P`, `GREY`, `Y10P`), or a libcamera name
    /// (`SRGGB12_CSI2P`, `R10_CSI2P`). Throws ``PixelFormatError/unknownName(_:)`` for anything else.
    public init(name: String) throws(PixelFormatError) {
        var key = name.trimmingWhitespace().uppercased()
        if key.hasPrefix("V4L2_PIX_FMT_") { key.removeFirst("V4L2_PIX_FMT_".count) }
        guard let match = Self.byName[key] else { throw .unknownName(name) }
        self = match
    }

    /// Every name ``init(name:)`` accepts (without the optional `V4L2_PIX_FMT_` prefix), in ``allCases`` order, each
    /// format's ``name`` first.
    public static var knownNames: [String] {
        allCases.flatMap { format in
            var names = [format.name]
            for other in [format.pfncName, format.libcameraName, format.v4l2Name].compactMap({ $0 }) where !names.contains(other) {
                names.append(other)
            }
            return names
        }
    }

    private static let byName: [String: PixelFormat] = {
        var table: [String: PixelFormat] = [:]
        for format in allCases {
            for name in [format.pfncName, format.libcameraName, format.v4l2Name].compactMap({ $0 }) {
                table[name.uppercased()] = format
            }
        }
        return table
    }()
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
