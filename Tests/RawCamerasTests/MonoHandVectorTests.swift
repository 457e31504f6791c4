import RawCameras
import RawCore
import Testing

/// The monochrome formats' bytes written out by hand from the specifications' tables, with the samples written
/// literally: the Linux media documentation's luma-only page (pixfmt-yuv-luma: GREY, Y10, Y12, Y14, Y16 and the MIPI
/// CSI-2 packed Y10P, Y12P, Y14P) and the PFNC / GigE Vision layouts of Mono8 ... Mono12Packed. They pin the bit
/// layouts independently of SpecPacker and of the unpackers.
@Suite("Pixel formats: monochrome hand-written vectors")
struct MonoHandVectorTests {
    static func unpack(_ bytes: [UInt8], _ format: PixelFormat, width: Int, height: Int = 1,
                       rowStride: RowStride = .tight) throws -> [UInt16] {
        try HandVectorTests.unpack(bytes, format, width: width, height: height, rowStride: rowStride)
    }

    @Test("GREY: one byte per pixel; rows padded to the stride")
    func grey() throws {
        #expect(try Self.unpack([0x00, 0x80, 0xFF, 0x01], .v4l2Grey8, width: 4) == [0x00, 0x80, 0xFF, 0x01])
        // 3x2, stride 4: the fourth byte of row 0 is padding.
        #expect(try Self.unpack([0x10, 0x20, 0x30, 0xEE, 0x40, 0x50, 0xFF], .v4l2Grey8, width: 3, height: 2,
                                rowStride: .bytes(4)) == [0x10, 0x20, 0x30, 0x40, 0x50, 0xFF])
    }

    @Test("Y10, Y12, Y14, Y16: byte 0 = Y[7:0], byte 1 = the high bits (zeros above them)")
    func unpacked16() throws {
        // Y10: 0x3FF → FF 03, 0x155 → 55 01, 0x2AA → AA 02.
        #expect(try Self.unpack([0xFF, 0x03, 0x55, 0x01, 0xAA, 0x02], .v4l2Grey10, width: 3) == [0x3FF, 0x155, 0x2AA])
        // Y12: 0xABC → BC 0A, 0x800 → 00 08.
        #expect(try Self.unpack([0xBC, 0x0A, 0x00, 0x08], .v4l2Grey12, width: 2) == [0xABC, 0x800])
        // Y14: 0x3FFF → FF 3F, 0x2ABC → BC 2A, 1 → 01 00.
        #expect(try Self.unpack([0xFF, 0x3F, 0xBC, 0x2A, 0x01, 0x00], .v4l2Grey14, width: 3) == [0x3FFF, 0x2ABC, 1])
        // Y16: 0xFEDC → DC FE; the whole word.
        #expect(try Self.unpack([0xDC, 0xFE, 0x00, 0x80], .v4l2Grey16, width: 2) == [0xFEDC, 0x8000])
        // The page says the bits above are zero: set ones are not a sample's.
        #expect(try Self.unpack([0xFF, 0xFF, 0xFF, 0xFF], .v4l2Grey14, width: 1, height: 2) == [0x3FFF, 0x3FFF])
        // Two rows of two Y10 pixels, stride 6: bytes 4-5 of row 0 are padding.
        #expect(try Self.unpack([0x01, 0x00, 0x02, 0x00, 0xEE, 0xEE, 0x03, 0x00, 0xFF, 0x03], .v4l2Grey10, width: 2,
                                height: 2, rowStride: .bytes(6)) == [1, 2, 3, 0x3FF])
    }

    @Test("Y10P: four high bytes, then Y3[1:0] Y2[1:0] Y1[1:0] Y0[1:0] from bit 7 down")
    func y10p() throws {
        // 0x001, 0x102, 0x203, 0x304 → 00 40 80 C1, low bits 00 11 10 01 = 0x39.
        #expect(try Self.unpack([0x00, 0x40, 0x80, 0xC1, 0x39], .v4l2Grey10CSI2P, width: 4) == [0x001, 0x102, 0x203, 0x304])
        // OV9281-style padding: 4x2, stride 8 (3 bytes of garbage after each row's 5).
        #expect(try Self.unpack([0xFF, 0x00, 0xAA, 0x55, 0x63, 0xEE, 0xEE, 0xEE, 0x00, 0x40, 0x80, 0xC1, 0x39],
                                .v4l2Grey10CSI2P, width: 4, height: 2, rowStride: .bytes(8))
                == [0x3FF, 0x000, 0x2AA, 0x155, 0x001, 0x102, 0x203, 0x304])
        // Width 2: the group is whole in the row; the two missing pixels' bits (set) are not read.
        #expect(try Self.unpack([0x80, 0x01, 0xFF, 0xFF, 0xF6], .v4l2Grey10CSI2P, width: 2) == [0x202, 0x005])
    }

    @Test("Y12P: Y0[11:4], Y1[11:4], then Y1[3:0] << 4 | Y0[3:0]")
    func y12p() throws {
        // 0x801, 0x7FE → 80 7F E1.
        #expect(try Self.unpack([0x80, 0x7F, 0xE1], .v4l2Grey12CSI2P, width: 2) == [0x801, 0x7FE])
        // Width 3: the second group holds one pixel (0xFFF); the missing one's byte and nibble are garbage.
        #expect(try Self.unpack([0x12, 0x34, 0x65, 0xFF, 0x55, 0x5F], .v4l2Grey12CSI2P, width: 3) == [0x125, 0x346, 0xFFF])
    }

    @Test("Y14P: four high bytes Y[13:6], then the 6-bit lows across three bytes")
    func y14p() throws {
        // 0x3FFF, 0, 0x2ABC, 0x1555: FF 00 AA 55, then 00|111111 = 3F, 1100|0000 = C0, 010101|11 = 57.
        #expect(try Self.unpack([0xFF, 0x00, 0xAA, 0x55, 0x3F, 0xC0, 0x57], .v4l2Grey14CSI2P, width: 4)
                == [0x3FFF, 0x0000, 0x2ABC, 0x1555])
        // 0x21, 0x07, 0x30, 0x3FC0: 00 00 00 FF, then 11|100001 = E1, 0000|0001 = 01, 000000|11 = 03.
        #expect(try Self.unpack([0x00, 0x00, 0x00, 0xFF, 0xE1, 0x01, 0x03], .v4l2Grey14CSI2P, width: 4)
                == [0x21, 0x07, 0x30, 0x3FC0])
        // Width 3, stride 9: the fourth pixel's byte and bits (set) and the padding are not read.
        #expect(try Self.unpack([0x00, 0x00, 0x00, 0xEE, 0xE1, 0x01, 0xFF, 0xEE, 0xEE, 0x01, 0x02, 0x03, 0xFF, 0x00, 0x00, 0xFC],
                                .v4l2Grey14CSI2P, width: 3, height: 2, rowStride: .bytes(9))
                == [0x21, 0x07, 0x30, 0x40, 0x80, 0xC0])
    }

    @Test("PFNC Mono12 and Mono16 (16-bit little-endian), GigE Vision Mono12Packed at an odd width")
    func pfncMono() throws {
        #expect(try Self.unpack([0xBC, 0x0A, 0xFF, 0x0F], .mono12, width: 2) == [0xABC, 0xFFF])
        #expect(try Self.unpack([0x34, 0x12, 0xFF, 0xFF], .mono16, width: 2) == [0x1234, 0xFFFF])
        // 0xABC, 0x123 → AB 3C 12 (byte 1: P1 low nibble high, P0's low); a last pixel alone takes a whole group.
        #expect(try Self.unpack([0xAB, 0x3C, 0x12, 0x80, 0x01, 0x00], .mono12Packed, width: 3) == [0xABC, 0x123, 0x801])
    }
}
