import RawCameras
import TestSupport

/// Packs samples into bytes the way each specification lays them out, written from the specifications' tables and
/// independently of the unpackers: a bit writer for PFNC's LSB-first stream, explicit per-byte formulas for CSI-2
/// and GigE Vision. Padding and unused bits are filled with garbage that the unpackers must ignore.
enum SpecPacker {
    /// Appends values bit by bit, least significant bit first, filling each byte from bit 0 up (PFNC "p" packing).
    struct LSBFirstBitWriter {
        var bytes: [UInt8] = []
        var bitCount = 0

        mutating func append(_ value: UInt16, bits: Int) {
            for k in 0..<bits {
                if bitCount % 8 == 0 { bytes.append(0) }
                let bit = UInt8(truncatingIfNeeded: value >> k & 1)
                bytes[bytes.count - 1] |= bit << (bitCount % 8)
                bitCount += 1
            }
        }
    }

    /// The value a missing pixel of a group cut short by the row's end gets: all ones, so that an unpacker mixing
    /// its bits into a real pixel shows.
    static let missing: UInt16 = 0xFFFF

    /// The bytes of one row (or, for a tight GenICam stream, of the whole frame) in `packing`.
    static func row(_ values: [UInt16], _ packing: PixelPacking) -> [UInt8] {
        switch packing {
        case .eightBit:
            return values.map { UInt8(truncatingIfNeeded: $0) }
        case .littleEndian16:
            return values.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        case .lsbFirst(let bits):
            var writer = LSBFirstBitWriter()
            for value in values { writer.append(value, bits: bits) }
            return writer.bytes
        case .gigEVisionPacked(let bits):
            return groups(values, size: 2).flatMap { bits == 10 ? gigE10($0[0], $0[1]) : gigE12($0[0], $0[1]) }
        case .mipiCSI2(let bits):
            switch bits {
            case 10: return groups(values, size: 4).flatMap { csi2Raw10($0) }
            case 14: return groups(values, size: 4).flatMap { csi2Raw14($0) }
            default: return groups(values, size: 2).flatMap { csi2Raw12($0[0], $0[1]) }
            }
        case .pispCompressed:
            return PISPReferenceEncoder.frame(values, width: values.count, height: 1).bytes
        }
    }

    static func groups(_ values: [UInt16], size: Int) -> [[UInt16]] {
        stride(from: 0, to: values.count, by: size).map { start in
            (0..<size).map { start + $0 < values.count ? values[start + $0] : missing }
        }
    }

    /// GigE Vision Mono12Packed: byte 0 = P0[11:4], byte 1 = P1[3:0] << 4 | P0[3:0], byte 2 = P1[11:4].
    static func gigE12(_ p0: UInt16, _ p1: UInt16) -> [UInt8] {
        [UInt8(truncatingIfNeeded: p0 >> 4), UInt8(truncatingIfNeeded: (p1 & 0xF) << 4 | p0 & 0xF),
         UInt8(truncatingIfNeeded: p1 >> 4)]
    }

    /// GigE Vision Mono10Packed: byte 0 = P0[9:2], byte 1 = P1[1:0] at bits 5:4 and P0[1:0] at bits 1:0, byte 2 =
    /// P1[9:2]. Bits 3:2 and 7:6 of byte 1 are unused: set to ones here.
    static func gigE10(_ p0: UInt16, _ p1: UInt16) -> [UInt8] {
        [UInt8(truncatingIfNeeded: p0 >> 2), UInt8(truncatingIfNeeded: (p1 & 3) << 4 | p0 & 3) | 0b1100_1100,
         UInt8(truncatingIfNeeded: p1 >> 2)]
    }

    /// CSI-2 RAW12 (V4L2 pixfmt-srggb12p): P0[11:4], P1[11:4], P1[3:0] << 4 | P0[3:0].
    static func csi2Raw12(_ p0: UInt16, _ p1: UInt16) -> [UInt8] {
        [UInt8(truncatingIfNeeded: p0 >> 4), UInt8(truncatingIfNeeded: p1 >> 4),
         UInt8(truncatingIfNeeded: (p1 & 0xF) << 4 | p0 & 0xF)]
    }

    /// CSI-2 RAW10 (V4L2 pixfmt-srggb10p): P0..P3[9:2], then P3[1:0] bits 7:6, P2[1:0] 5:4, P1[1:0] 3:2, P0[1:0] 1:0.
    static func csi2Raw10(_ p: [UInt16]) -> [UInt8] {
        p.map { UInt8(truncatingIfNeeded: $0 >> 2) }
            + [UInt8(truncatingIfNeeded: (p[3] & 3) << 6 | (p[2] & 3) << 4 | (p[1] & 3) << 2 | p[0] & 3)]
    }

    /// CSI-2 RAW14 (V4L2 pixfmt-yuv-luma, Y14P): P0..P3[13:6], then P1[1:0] in bits 7:6 and P0[5:0] in 5:0,
    /// P2[3:0] in 7:4 and P1[5:2] in 3:0, P3[5:0] in 7:2 and P2[5:4] in 1:0.
    static func csi2Raw14(_ p: [UInt16]) -> [UInt8] {
        p.map { UInt8(truncatingIfNeeded: $0 >> 6) }
            + [UInt8(truncatingIfNeeded: (p[1] & 0x3) << 6 | p[0] & 0x3F),
               UInt8(truncatingIfNeeded: (p[2] & 0xF) << 4 | (p[1] >> 2) & 0xF),
               UInt8(truncatingIfNeeded: (p[3] & 0x3F) << 2 | (p[2] >> 4) & 0x3)]
    }

    /// A frame: each row packed and padded to `stride` bytes with garbage (`stride` nil: no padding). A tight GenICam
    /// stream packs the whole frame as one row, as the formats define.
    static func frame(_ values: [UInt16], width: Int, height: Int, format: PixelFormat, stride: Int?,
                      garbage: UInt8 = 0xA5) -> [UInt8] {
        if stride == nil, format.family == .genICam {
            return row(values, format.packing)
        }
        var out: [UInt8] = []
        for y in 0..<height {
            var bytes = row(Array(values[y * width..<(y + 1) * width]), format.packing)
            if let stride {
                precondition(stride >= bytes.count)
                bytes += (0..<(stride - bytes.count)).map { garbage &+ UInt8(truncatingIfNeeded: $0 * 37) }
            }
            out += bytes
        }
        return out
    }
}
