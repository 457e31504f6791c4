import RawCameras
import RawCore
import Testing

/// Names, codes and colours of the pixel formats, against the values in the PFNC table (as Aravis's arvenums.h and
/// vendor SDKs list them) and Linux's videodev2.h.
@Suite("Pixel format names and codes")
struct PixelFormatNameTests {
    @Test("PFNC codes, written out from the PFNC value table")
    func pfncCodes() {
        let expected: [(PixelFormat, UInt32)] = [
            (.mono8, 0x0108_0001), (.mono10, 0x0110_0003), (.mono12, 0x0110_0005), (.mono16, 0x0110_0007),
            (.mono10p, 0x010A_0046), (.mono12p, 0x010C_0047), (.mono10Packed, 0x010C_0004), (.mono12Packed, 0x010C_0006),
            (.bayer8(.grbg), 0x0108_0008), (.bayer8(.rggb), 0x0108_0009), (.bayer8(.gbrg), 0x0108_000A),
            (.bayer8(.bggr), 0x0108_000B),
            (.bayer10(.grbg), 0x0110_000C), (.bayer10(.rggb), 0x0110_000D), (.bayer10(.gbrg), 0x0110_000E),
            (.bayer10(.bggr), 0x0110_000F),
            (.bayer12(.grbg), 0x0110_0010), (.bayer12(.rggb), 0x0110_0011), (.bayer12(.gbrg), 0x0110_0012),
            (.bayer12(.bggr), 0x0110_0013),
            (.bayer16(.grbg), 0x0110_002E), (.bayer16(.rggb), 0x0110_002F), (.bayer16(.gbrg), 0x0110_0030),
            (.bayer16(.bggr), 0x0110_0031),
            (.bayer10p(.bggr), 0x010A_0052), (.bayer10p(.gbrg), 0x010A_0054), (.bayer10p(.grbg), 0x010A_0056),
            (.bayer10p(.rggb), 0x010A_0058),
            (.bayer12p(.bggr), 0x010C_0053), (.bayer12p(.gbrg), 0x010C_0055), (.bayer12p(.grbg), 0x010C_0057),
            (.bayer12p(.rggb), 0x010C_0059),
            (.bayer10Packed(.grbg), 0x010C_0026), (.bayer10Packed(.rggb), 0x010C_0027),
            (.bayer10Packed(.gbrg), 0x010C_0028), (.bayer10Packed(.bggr), 0x010C_0029),
            (.bayer12Packed(.grbg), 0x010C_002A), (.bayer12Packed(.rggb), 0x010C_002B),
            (.bayer12Packed(.gbrg), 0x010C_002C), (.bayer12Packed(.bggr), 0x010C_002D),
        ]
        for (format, code) in expected {
            #expect(format.pfncCode == code, "\(format.name)")
            #expect(PixelFormat(pfncCode: code) == format)
        }
        // Every GenICam format is in the table; bits 23-16 of the code are the bits a pixel occupies.
        let genICam = PixelFormat.allCases.filter { $0.family == .genICam }
        #expect(genICam.count == expected.count)
        for format in genICam {
            let occupied = Int(format.pfncCode! >> 16 & 0xFF)
            let expectedBits = format.packing.bytesPerGroup * 8 / format.packing.pixelsPerGroup
            #expect(occupied == expectedBits, "\(format.name)")
        }
        #expect(PixelFormat(pfncCode: 0x0218_0014) == nil)  // RGB8: not a raw format
    }

    @Test("V4L2 fourccs, written out from videodev2.h")
    func v4l2FourCCs() {
        let expected: [(PixelFormat, String, String, String)] = [
            (.v4l2Bayer8(.rggb), "RGGB", "SRGGB8", "SRGGB8"), (.v4l2Bayer8(.grbg), "GRBG", "SGRBG8", "SGRBG8"),
            (.v4l2Bayer8(.gbrg), "GBRG", "SGBRG8", "SGBRG8"), (.v4l2Bayer8(.bggr), "BA81", "SBGGR8", "SBGGR8"),
            (.v4l2Bayer10(.rggb), "RG10", "SRGGB10", "SRGGB10"), (.v4l2Bayer10(.grbg), "BA10", "SGRBG10", "SGRBG10"),
            (.v4l2Bayer10(.gbrg), "GB10", "SGBRG10", "SGBRG10"), (.v4l2Bayer10(.bggr), "BG10", "SBGGR10", "SBGGR10"),
            (.v4l2Bayer12(.rggb), "RG12", "SRGGB12", "SRGGB12"), (.v4l2Bayer12(.grbg), "BA12", "SGRBG12", "SGRBG12"),
            (.v4l2Bayer12(.gbrg), "GB12", "SGBRG12", "SGBRG12"), (.v4l2Bayer12(.bggr), "BG12", "SBGGR12", "SBGGR12"),
            (.v4l2Bayer16(.rggb), "RG16", "SRGGB16", "SRGGB16"), (.v4l2Bayer16(.grbg), "GR16", "SGRBG16", "SGRBG16"),
            (.v4l2Bayer16(.gbrg), "GB16", "SGBRG16", "SGBRG16"), (.v4l2Bayer16(.bggr), "BYR2", "SBGGR16", "SBGGR16"),
            (.v4l2Bayer10CSI2P(.rggb), "pRAA", "SRGGB10P", "SRGGB10_CSI2P"),
            (.v4l2Bayer10CSI2P(.grbg), "pgAA", "SGRBG10P", "SGRBG10_CSI2P"),
            (.v4l2Bayer10CSI2P(.gbrg), "pGAA", "SGBRG10P", "SGBRG10_CSI2P"),
            (.v4l2Bayer10CSI2P(.bggr), "pBAA", "SBGGR10P", "SBGGR10_CSI2P"),
            (.v4l2Bayer12CSI2P(.rggb), "pRCC", "SRGGB12P", "SRGGB12_CSI2P"),
            (.v4l2Bayer12CSI2P(.grbg), "pgCC", "SGRBG12P", "SGRBG12_CSI2P"),
            (.v4l2Bayer12CSI2P(.gbrg), "pGCC", "SGBRG12P", "SGBRG12_CSI2P"),
            (.v4l2Bayer12CSI2P(.bggr), "pBCC", "SBGGR12P", "SBGGR12_CSI2P"),
        ]
        for (format, fourcc, v4l2, libcamera) in expected {
            #expect(format.v4l2FourCCText == fourcc)
            #expect(format.v4l2Name == v4l2)
            #expect(format.libcameraName == libcamera)
            #expect(format.name == libcamera)
            #expect(PixelFormat(v4l2FourCC: format.v4l2FourCC!) == format)
        }
        // The PiSP compressed formats' codes are in PISPDecoderTests, the greyscale ones' in greyFourCCs.
        #expect(PixelFormat.allCases.filter { $0.family == .v4l2 && $0.packing.isLossless && !$0.isMonochrome }.count
                == expected.count)
        // v4l2_fourcc('p', 'R', 'A', 'A') = 'p' | 'R' << 8 | 'A' << 16 | 'A' << 24.
        #expect(PixelFormat.v4l2Bayer10CSI2P(.rggb).v4l2FourCC == 0x4141_5270)
    }

    @Test("V4L2 greyscale fourccs and names, written out from videodev2.h and pixfmt-yuv-luma; libcamera's R names")
    func greyFourCCs() throws {
        let expected: [(PixelFormat, String, UInt32, String, String?, Int)] = [
            (.v4l2Grey8, "GREY", 0x5945_5247, "GREY", "R8", 8),
            (.v4l2Grey10, "Y10 ", 0x2030_3159, "Y10", "R10", 10),
            (.v4l2Grey12, "Y12 ", 0x2032_3159, "Y12", "R12", 12),
            (.v4l2Grey14, "Y14 ", 0x2034_3159, "Y14", nil, 14),
            (.v4l2Grey16, "Y16 ", 0x2036_3159, "Y16", "R16", 16),
            (.v4l2Grey10CSI2P, "Y10P", 0x5030_3159, "Y10P", "R10_CSI2P", 10),
            (.v4l2Grey12CSI2P, "Y12P", 0x5032_3159, "Y12P", "R12_CSI2P", 12),
            (.v4l2Grey14CSI2P, "Y14P", 0x5034_3159, "Y14P", nil, 14),
        ]
        for (format, text, code, v4l2, libcamera, bits) in expected {
            #expect(format.v4l2FourCCText == text && format.v4l2FourCC == code, "\(v4l2)")
            #expect(format.v4l2Name == v4l2 && format.libcameraName == libcamera && format.name == v4l2)
            #expect(PixelFormat(v4l2FourCC: code) == format)
            #expect(format.isMonochrome && format.cfa == .monochrome && format.bitsPerSample == bits && format.pfncCode == nil)
            // Both spellings parse, in any case, with or without V4L2_PIX_FMT_.
            #expect(try PixelFormat(name: v4l2.lowercased()) == format)
            #expect(try PixelFormat(name: "V4L2_PIX_FMT_" + v4l2) == format)
            if let libcamera { #expect(try PixelFormat(name: libcamera) == format) }
        }
        #expect(PixelFormat.allCases.filter { $0.family == .v4l2 && $0.isMonochrome && $0.packing.isLossless }.count
                == expected.count)
        // Row sizes: the CSI-2 groups (5, 3 and 7 bytes) and the 16-bit words.
        #expect(PixelFormat.v4l2Grey10CSI2P.bytesPerRow(width: 1280) == 1600)
        #expect(PixelFormat.v4l2Grey12CSI2P.bytesPerRow(width: 5) == 9)
        #expect(PixelFormat.v4l2Grey14CSI2P.bytesPerRow(width: 5) == 14)
        #expect(PixelFormat.v4l2Grey14.bytesPerRow(width: 5) == 10)
    }

    @Test("colours, bits and CFA layouts")
    func colours() {
        #expect(PixelFormat.v4l2Bayer12CSI2P(.rggb).cfa == .rggb)
        #expect(PixelFormat.bayer12p(.gbrg).cfa == .gbrg)
        #expect(PixelFormat.bayer10Packed(.grbg).cfa == .grbg)
        #expect(PixelFormat.v4l2Bayer8(.bggr).cfa == .bggr)
        #expect(PixelFormat.mono16.cfa == .monochrome && PixelFormat.mono16.isMonochrome)
        #expect(PixelFormat.mono16.colors == .monochrome && !PixelFormat.bayer16(.rggb).isMonochrome)
        #expect(PixelFormat.allCases.filter { $0.family == .genICam && $0.isMonochrome }
                == [.mono8, .mono10, .mono12, .mono16, .mono10p, .mono12p, .mono10Packed, .mono12Packed])
        #expect(PixelFormat.bayer10Packed(.rggb).bitsPerSample == 10)
        #expect(PixelFormat.mono8.bitsPerSample == 8)
        #expect(PixelFormat.v4l2Bayer16(.rggb).bitsPerSample == 16)
        // Row sizes: CSI-2 whole groups, PFNC bit streams to the byte.
        #expect(PixelFormat.v4l2Bayer12CSI2P(.rggb).bytesPerRow(width: 4056) == 6084)
        #expect(PixelFormat.v4l2Bayer10CSI2P(.rggb).bytesPerRow(width: 6) == 10)
        #expect(PixelFormat.bayer10p(.rggb).bytesPerRow(width: 6) == 8)
        #expect(PixelFormat.bayer12Packed(.rggb).bytesPerRow(width: 5) == 9)
        #expect(PixelFormat.mono12p.bytesPerRow(width: 5) == 8)
        #expect(PixelFormat.mono16.bytesPerRow(width: 5) == 10)
    }

    @Test("names parse as users type them, ignoring case")
    func parsing() throws {
        #expect(try PixelFormat(name: "SRGGB12_CSI2P") == .v4l2Bayer12CSI2P(.rggb))
        #expect(try PixelFormat(name: "srggb12_csi2p") == .v4l2Bayer12CSI2P(.rggb))
        #expect(try PixelFormat(name: "V4L2_PIX_FMT_SBGGR10P") == .v4l2Bayer10CSI2P(.bggr))
        #expect(try PixelFormat(name: "sgrbg10p") == .v4l2Bayer10CSI2P(.grbg))
        #expect(try PixelFormat(name: "BayerRG12p") == .bayer12p(.rggb))
        #expect(try PixelFormat(name: "bayerrg12P") == .bayer12p(.rggb))
        #expect(try PixelFormat(name: "BayerGB12Packed") == .bayer12Packed(.gbrg))
        #expect(try PixelFormat(name: " Mono16 ") == .mono16)
        #expect(try PixelFormat(name: "SBGGR16") == .v4l2Bayer16(.bggr))
        for format in PixelFormat.allCases {
            #expect(try PixelFormat(name: format.name) == format)
            #expect(try PixelFormat(name: format.name.lowercased()) == format)
        }
        // No two formats share a name, whatever the case.
        let names = PixelFormat.knownNames.map { $0.uppercased() }
        #expect(Set(names).count == names.count)
    }

    @Test("an unknown name is a typed error that lists the known names")
    func unknownName() {
        for name in ["SRGGB14P", "BayerRG12pp", "", "RGB8", "pRCC"] {
            #expect(throws: PixelFormatError.unknownName(name)) { try PixelFormat(name: name) }
        }
        let message = PixelFormatError.unknownName("nope").message
        #expect(message.contains("SRGGB12_CSI2P") && message.contains("BayerRG12p") && message.contains("Mono16"))
    }
}
