import RawCameras
import Testing

/// Small byte vectors written out by hand from each specification's layout description, with the expected samples
/// written literally: they pin the bit layouts independently of SpecPacker.
@Suite("Pixel formats: hand-written vectors")
struct HandVectorTests {
    static func unpack(_ bytes: [UInt8], _ format: PixelFormat, width: Int, height: Int = 1,
                       rowStride: RowStride = .tight) throws -> [UInt16] {
        var out = [UInt16](repeating: 0xDEAD, count: width * height)
        try bytes.withUnsafeBytes { source in
            try out.withUnsafeMutableBufferPointer { target in
                try format.unpack(source, width: width, height: height, rowStride: rowStride, into: target)
            }
        }
        return out
    }

    @Test("CSI-2 RAW12 (V4L2 pixfmt-srggb12p): P0 high, P1 high, then P1 low << 4 | P0 low")
    func csi2Raw12() throws {
        // 0xABC, 0x123 → 0xAB, 0x12, 0x3C; 0xFFF, 0x000 → 0xFF, 0x00, 0x0F.
        #expect(try Self.unpack([0xAB, 0x12, 0x3C, 0xFF, 0x00, 0x0F], .v4l2Bayer12CSI2P(.rggb), width: 4)
                == [0xABC, 0x123, 0xFFF, 0x000])
        // Two rows of 2 pixels, stride 5: bytes 3-4 of row 0 are padding.
        #expect(try Self.unpack([0x80, 0x01, 0x21, 0xEE, 0xEE, 0x00, 0xFF, 0xF0], .v4l2Bayer12CSI2P(.bggr), width: 2,
                                height: 2, rowStride: .bytes(5))
                == [0x801, 0x012, 0x000, 0xFFF])
    }

    @Test("CSI-2 RAW10 (V4L2 pixfmt-srggb10p): four high bytes, then the low bits, P0 in bits 1:0")
    func csi2Raw10() throws {
        // 0x3FF, 0x000, 0x2AA, 0x155 → 0xFF, 0x00, 0xAA, 0x55, then 01 10 00 11 = 0x63.
        #expect(try Self.unpack([0xFF, 0x00, 0xAA, 0x55, 0x63], .v4l2Bayer10CSI2P(.rggb), width: 4)
                == [0x3FF, 0x000, 0x2AA, 0x155])
        // Width 3: the group is whole in the row; the fourth pixel's bits (set) are not read.
        #expect(try Self.unpack([0x01, 0x02, 0x03, 0xFF, 0xE4], .v4l2Bayer10CSI2P(.grbg), width: 3)
                == [0x004, 0x009, 0x00E])
    }

    @Test("PFNC 12p: LSB-first bit stream")
    func pfnc12p() throws {
        // 0xABC, 0x123 → 0xBC, 0x3A, 0x12.
        #expect(try Self.unpack([0xBC, 0x3A, 0x12], .bayer12p(.rggb), width: 2) == [0xABC, 0x123])
        // Three pixels 0xFFF, 0x000, 0x801 → FF 0F 00 01 08 (4.5 bytes, the last nibble unused).
        #expect(try Self.unpack([0xFF, 0x0F, 0x00, 0x01, 0x08], .mono12p, width: 3) == [0xFFF, 0x000, 0x801])
    }

    @Test("PFNC 10p: LSB-first bit stream, 4 pixels in 5 bytes")
    func pfnc10p() throws {
        // 0x3FF, 0x000, 0x2AA, 0x155 → the 40-bit value 0x556AA003FF, little-endian.
        #expect(try Self.unpack([0xFF, 0x03, 0xA0, 0x6A, 0x55], .bayer10p(.bggr), width: 4)
                == [0x3FF, 0x000, 0x2AA, 0x155])
        // A 3x1 frame + the same stream continued: 2x3 tight is 6 pixels in 7.5 → 8 bytes.
        // 1, 2, 3, 4, 0x3FF, 0x200 → bits: 0x001 | 0x002<<10 | 0x003<<20 | 0x004<<30 | 0x3FF<<40 | 0x200<<50.
        #expect(try Self.unpack([0x01, 0x08, 0x30, 0x00, 0x01, 0xFF, 0x03, 0x08], .mono10p, width: 2, height: 3)
                == [1, 2, 3, 4, 0x3FF, 0x200])
    }

    @Test("GigE Vision 12Packed: P0 high, P1 low << 4 | P0 low, P1 high")
    func gigE12Packed() throws {
        // 0xABC, 0x123 → 0xAB, 0x3C, 0x12 (the Basler/GigE Vision Mono12Packed table).
        #expect(try Self.unpack([0xAB, 0x3C, 0x12], .bayer12Packed(.rggb), width: 2) == [0xABC, 0x123])
        // Odd width, tight: the pair runs on into the next row (3x1 + 3x1 = one stream of 6 pixels).
        #expect(try Self.unpack([0x10, 0x32, 0x20, 0x30, 0x54, 0x40, 0xFF, 0x0F, 0x00], .mono12Packed, width: 3,
                                height: 2)
                == [0x102, 0x203, 0x304, 0x405, 0xFFF, 0x000])
    }

    @Test("GigE Vision 10Packed: P0[9:2], P1[1:0] in bits 5:4 and P0[1:0] in bits 1:0, P1[9:2]")
    func gigE10Packed() throws {
        // 0x3FE, 0x101 → 0xFF, 0x12, 0x40; unused bits 3:2 and 7:6 set in the second group: 0xDE = 11 01 11 10.
        #expect(try Self.unpack([0xFF, 0x12, 0x40, 0x00, 0xDE, 0x80], .mono10Packed, width: 4)
                == [0x3FE, 0x101, 0x002, 0x201])
    }

    @Test("16-bit little-endian words; 10 and 12 bits in the low bits")
    func unpacked16() throws {
        #expect(try Self.unpack([0x34, 0x12, 0xFF, 0xFF, 0x00, 0x00], .bayer16(.rggb), width: 3) == [0x1234, 0xFFFF, 0])
        #expect(try Self.unpack([0xBC, 0x0A, 0xFF, 0x0F], .v4l2Bayer12(.gbrg), width: 2) == [0xABC, 0xFFF])
        #expect(try Self.unpack([0xFF, 0x03, 0x55, 0x01], .mono10, width: 2) == [0x3FF, 0x155])
        // High bits that the specifications say are zero are cleared.
        #expect(try Self.unpack([0xFF, 0xFF, 0x00, 0xF4], .v4l2Bayer10(.rggb), width: 2) == [0x3FF, 0x000])
    }

    @Test("8-bit")
    func eightBit() throws {
        #expect(try Self.unpack([0x00, 0x7F, 0x80, 0xFF], .mono8, width: 2, height: 2) == [0x00, 0x7F, 0x80, 0xFF])
        #expect(try Self.unpack([0x01, 0x02, 0xEE, 0x03, 0x04], .v4l2Bayer8(.bggr), width: 2, height: 2,
                                rowStride: .bytes(3)) == [1, 2, 3, 4])
    }
}
