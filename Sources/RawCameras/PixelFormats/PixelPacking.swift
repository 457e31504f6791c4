/// How the samples of one row are laid out in bytes. Every unpacker writes each sample to a `UInt16`, its value in
/// the low `bitsPerSample` bits.
///
/// The layouts, as the specifications give them (bit 0 is a byte's least significant bit; `P0` is the row's first
/// pixel):
///
/// - ``eightBit``: one byte per sample (PFNC `Mono8`/`BayerXX8`; V4L2 `SXXXX8`).
/// - ``littleEndian16(bits:)``: one 16-bit little-endian word per sample, the value in the low bits and the unused
///   high bits zero (PFNC `Mono10`/`Mono12`/`Mono16`, `BayerXX10/12/16`; V4L2 `SXXXX10/12/16`, whose documentation
///   pages pixfmt-srggb10, pixfmt-srggb12 and pixfmt-srggb16 say the high bits are filled with zeros, and the
///   greyscale `Y10`/`Y12`/`Y14`/`Y16`, page pixfmt-yuv-luma: byte 0 = Y[7:0], byte 1 = zeros above Y[9:8], Y[11:8] or
///   Y[13:8], or Y[15:8]). Set high bits are cleared, so a sample never exceeds `2^bits - 1`.
/// - ``lsbFirst(bits:)``: GenICam PFNC "p" packing (`Mono10p`, `Mono12p`, `BayerXX10p`, `BayerXX12p`; PFNC 2.x,
///   "lsb" packing, which USB3 Vision cameras use): the samples form one contiguous bit stream with no padding, each
///   sample's least significant bit first, filling each byte from bit 0 up. For 12 bits: byte 0 = P0[7:0], byte 1 =
///   P1[3:0] << 4 | P0[11:8], byte 2 = P1[11:4]. For 10 bits, 4 pixels in 5 bytes: byte 0 = P0[7:0], byte 1 =
///   P1[5:0] << 2 | P0[9:8], byte 2 = P2[3:0] << 4 | P1[9:6], byte 3 = P3[1:0] << 6 | P2[9:4], byte 4 = P3[9:2].
/// - ``gigEVisionPacked(bits:)``: GigE Vision's own packing, older than PFNC (GigE Vision 2.x pixel formats
///   `Mono10Packed`, `Mono12Packed`, `BayerXX10Packed`, `BayerXX12Packed`): 2 pixels in 3 bytes, the byte that holds
///   the low bits in the middle. 12 bits: byte 0 = P0[11:4], byte 1 = P1[3:0] << 4 | P0[3:0], byte 2 = P1[11:4].
///   10 bits: byte 0 = P0[9:2], byte 1 = P1[1:0] << 4 | P0[1:0] (bits 3:2 and 7:6 unused), byte 2 = P1[9:2].
///   At an odd width the pairs run on into the next row (GigE Vision: the next row's first pixel does not start on
///   a 3-byte boundary).
/// - ``mipiCSI2(bits:)``: MIPI CSI-2 RAW10/RAW12/RAW14 as V4L2 passes it on (V4L2 `SXXXX10P`, `SXXXX12P` and the
///   greyscale `Y10P`, `Y12P`, `Y14P`; libcamera `SXXXX10_CSI2P`, `SXXXX12_CSI2P`, `R10_CSI2P`, `R12_CSI2P`; kernel
///   documentation pixfmt-srggb10p, pixfmt-srggb12p, pixfmt-yuv-luma). 10 bits: 4 pixels in 5 bytes, bytes 0-3 =
///   P0..P3[9:2], byte 4 = P3[1:0] << 6 | P2[1:0] << 4 | P1[1:0] << 2 | P0[1:0]. 12 bits: 2 pixels in 3 bytes,
///   bytes 0-1 = P0[11:4], P1[11:4], byte 2 = P1[3:0] << 4 | P0[3:0]. 14 bits: 4 pixels in 7 bytes, bytes 0-3 =
///   P0..P3[13:6], byte 4 = P1[1:0] << 6 | P0[5:0], byte 5 = P2[3:0] << 4 | P1[5:2], byte 6 = P3[5:0] << 2 | P2[5:4].
/// - ``pispCompressed``: the Raspberry Pi PiSP compressed raw format, mode 1 (V4L2 `PISP_COMP1_XXXX`, libcamera
///   `XXXX_PISP_COMP1`; kernel documentation pixfmt-srggb8-pisp-comp): blocks of 8 pixels in 8 bytes, each block two
///   little-endian words of quantised levels and differences, decoded to 16-bit values with the
///   compressor's offset of 2048 added back. Lossy: the samples are the levels the compressor chose, not the sensor's.
public enum PixelPacking: Sendable, Hashable, CustomStringConvertible {
    /// One byte per sample.
    case eightBit
    /// One little-endian 16-bit word per sample holding `bits` (10, 12, 14 or 16) significant low bits.
    case littleEndian16(bits: Int)
    /// GenICam PFNC's "p" packing: one LSB-first bit stream of `bits`-bit samples (10 or 12).
    case lsbFirst(bits: Int)
    /// GigE Vision's "Packed" layout: 2 samples of `bits` (10 or 12) in 3 bytes.
    case gigEVisionPacked(bits: Int)
    /// MIPI CSI-2 RAW10 (4 samples in 5 bytes), RAW12 (2 samples in 3 bytes) or RAW14 (4 samples in 7 bytes), `bits`
    /// 10, 12 or 14.
    case mipiCSI2(bits: Int)
    /// Raspberry Pi PiSP compressed raw, mode 1: 8 pixels in 8 bytes, decoded to 16-bit values.
    case pispCompressed

    /// Significant bits of a sample.
    public var bitsPerSample: Int {
        switch self {
        case .eightBit: 8
        case .pispCompressed: 16
        case .littleEndian16(let bits), .lsbFirst(let bits), .gigEVisionPacked(let bits), .mipiCSI2(let bits): bits
        }
    }

    /// Pixels in one packing group: the smallest run of pixels that fills whole bytes.
    public var pixelsPerGroup: Int {
        switch self {
        case .eightBit, .littleEndian16: 1
        case .lsbFirst(let bits): bits == 10 ? 4 : 2
        case .gigEVisionPacked: 2
        case .mipiCSI2(let bits): bits == 12 ? 2 : 4
        case .pispCompressed: 8
        }
    }

    /// Bytes of one packing group.
    public var bytesPerGroup: Int {
        switch self {
        case .eightBit: 1
        case .littleEndian16: 2
        case .lsbFirst(let bits): bits == 10 ? 5 : 3
        case .gigEVisionPacked: 3
        case .mipiCSI2(let bits): bits == 12 ? 3 : bits * 4 / 8
        case .pispCompressed: 8
        }
    }

    /// True when the packing is one bit stream without group boundaries (PFNC "p"): a row of `width` pixels then
    /// takes `ceil(width * bits / 8)` bytes, and a group cut short by the end of a row takes only the bytes its
    /// pixels need.
    public var isBitStream: Bool {
        if case .lsbFirst = self { return true }
        return false
    }

    /// True when unpacking gives back exactly the values that were packed; false for the PiSP compression, whose
    /// samples are quantised.
    public var isLossless: Bool { self != .pispCompressed }

    /// Bytes that hold a row of `width` pixels, without padding. A row that ends inside a packing group takes the
    /// whole group (GigE Vision, CSI-2: the layout is defined per group, the pixels missing from it are not read; PiSP:
    /// every row is padded to whole blocks of 8 pixels),
    /// except for PFNC's bit stream, which takes only the bytes that hold its bits.
    public func bytesPerRow(width: Int) -> Int {
        if isBitStream { return (width * bitsPerSample + 7) / 8 }
        return (width + pixelsPerGroup - 1) / pixelsPerGroup * bytesPerGroup
    }

    /// `8-bit`, `16-bit little-endian (12 significant)`, `PFNC 12p ...`, `GigE Vision 12Packed`, `MIPI CSI-2 RAW12`,
    /// `PiSP compressed (mode 1)`.
    public var description: String {
        switch self {
        case .eightBit: "8-bit"
        case .littleEndian16(let bits): "16-bit little-endian (\(bits) significant)"
        case .lsbFirst(let bits): "PFNC \(bits)p (LSB-first bit stream)"
        case .gigEVisionPacked(let bits): "GigE Vision \(bits)Packed"
        case .mipiCSI2(let bits): "MIPI CSI-2 RAW\(bits)"
        case .pispCompressed: "PiSP compressed (mode 1)"
        }
    }
}
