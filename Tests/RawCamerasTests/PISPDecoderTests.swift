import RawCameras
import RawCore
import Testing
import TestSupport

/// PISP_COMP1 (PiSP compression mode 1): byte vectors worked out by hand from the kernel's description, and frames
/// from the reference encoder (PISPReferenceEncoder, written from the same description apart from the decoder).
@Suite("PiSP compressed raw (PISP_COMP1)")
struct PISPDecoderTests {
    static func decode(_ bytes: [UInt8], _ format: PixelFormat = .pispComp1(.rggb), width: Int, height: Int = 1,
                       rowStride: RowStride = .tight) throws(PixelFormatError) -> [UInt16] {
        try UnpackErrorTests.unpack(bytes: bytes, format, width: width, height: height, rowStride: rowStride)
    }

    /// Five blocks, ten words, each worked out by hand: fields packed from bit 0 up (mode, 9, 7, 7, 7 bits or mode,
    /// 15, 15 bits), the word little-endian; values are the level's value + 2048, saturated at 65535.
    static let handWords: [(bytes: [UInt8], values: [UInt16])] = [
        // Mode 0, q = 300, 330, 350, 380: f0 = min 330, f1 = 350 - 330 + 64 = 84, q0: 300 - (330 - 64) = 34,
        // q3: 380 - (350 - 64) = 94. 300 is below the knee (16 q), the rest above it (32 (q - 160)).
        ([0x28, 0xA5, 0x8A, 0xBC], [6848, 7488, 8128, 9088]),
        // Mode 0, q = 5, 40, 10, 0: q1 > q2, so f0 = 10, f1 = 10 - 40 + 64 = 34; q0: 5 - max(0, 40 - 64) = 5; q3: 0.
        ([0x28, 0x10, 0x15, 0x00], [2128, 2688, 2208, 2048]),
        // Mode 1, q = 500, 520, 511, 570: f0 = 511, f1 = 511 - 520 + 64 = 55, q0: 500 - 456 = 44, q3: 570 - 447 = 123.
        ([0xFD, 0xBF, 0xB1, 0xF6], [34048, 35328, 34752, 38528]),
        // Mode 2, q = 500, 450, 400, 400: both inner levels in 384...511, so f0 = q1 = 450, f1 = 400 & 127 = 16;
        // q0 next to 450 >= 448: 500 - 384 = 116 (128 * 500 + 2048 saturates); q3 next to 400: 400 - 336 = 64.
        ([0x0A, 0x87, 0xD0, 0x81], [65535, 59648, 53248, 53248]),
        // Mode 2, q = 70, 20, 60, 3: f0 = 20, f1 = 60 - 20 + 64 = 104, q0: 70 - max(0, 20 - 64) = 70, q3: 3 - 0 = 3.
        ([0x52, 0x40, 0x1B, 0x07], [11008, 4608, 9728, 2432]),
        // Mode 3, (q0, q1) = (90, 95): 2816 * 5 + 16 * 95 + 10 = 15610; (q2, q3) = (175, 170): 2816 * 10 + 16 * 170
        // + 15 = 30895. 256 * 90, 512 * (95 - 47), 512 * 128 = 65536 (saturates), 512 * 123.
        ([0xEB, 0xF3, 0x5E, 0xF1], [25088, 26624, 65535, 65024]),
        // Mode 3, (0, 0) and (94, 17): 2816 * 5 + 16 * 17 + 14 = 14366. 256 * 94 = 24064 (the knee), 256 * 17.
        ([0x03, 0x00, 0x3C, 0x70], [2048, 2048, 26112, 6400]),
        // Mode 1, q = 0, 0, 0, 127: f0 = 0, f1 = 64, q0: 0, q3: 127 - max(0, 0 - 64) = 127.
        ([0x01, 0x00, 0x02, 0xFE], [2048, 2048, 2048, 10176]),
        // Mode 2 at the pair coding's lower edge, q = 400, 384, 511, 450: f0 = q1 = 384, f1 = 511 & 127 = 127;
        // q0 next to 384 < 448: 400 - 320 = 80; q3 next to 511 >= 448: 450 - 384 = 66.
        ([0x02, 0xFE, 0x43, 0x85], [53248, 51200, 65535, 59648]),
        // Mode 2 just below it, coded normally, q = 319, 383, 446, 509: f0 = 383, f1 = 446 - 383 + 64 = 127;
        // q0: 319 - 319 = 0; q3 next to 446 < 448: 509 - 382 = 127.
        ([0xFE, 0xFD, 0x03, 0xFE], [42880, 51072, 59136, 65535]),
    ]

    /// The hand words as 5 blocks (even word, odd word) and the 40 samples they decode to, interleaved.
    static var handBlocks: (bytes: [UInt8], samples: [UInt16]) {
        var bytes: [UInt8] = [], samples: [UInt16] = []
        for block in 0..<5 {
            let even = handWords[2 * block], odd = handWords[2 * block + 1]
            bytes += even.bytes + odd.bytes
            for k in 0..<4 { samples += [even.values[k], odd.values[k]] }
        }
        return (bytes, samples)
    }

    @Test("hand-worked words of every quantisation mode and branch decode to the values the description gives")
    func handVectors() throws {
        let (bytes, samples) = Self.handBlocks
        #expect(try Self.decode(bytes, width: 40) == samples)
        // A row cut short inside its third block: the block is still 8 bytes; only its first 5 pixels are kept.
        #expect(try Self.decode(Array(bytes.prefix(24)), .pispComp1(.bggr), width: 21) == Array(samples.prefix(21)))
        // Two rows of 16 pixels, stride 20: the 4 padding bytes (an invalid escape code if read) are skipped.
        let padded = Array(bytes[0..<16]) + [0xFF, 0xFF, 0xFF, 0xFF] + Array(bytes[16..<32])
        #expect(try Self.decode(padded, .pispComp1Mono, width: 16, height: 2, rowStride: .bytes(20))
                == Array(samples.prefix(32)))
    }

    @Test("the reference encoder packs the hand-worked words the same way")
    func encoderAgreesWithHand() {
        let words: [[(Int, Int)]] = [
            [(0, 2), (330, 9), (84, 7), (34, 7), (94, 7)], [(0, 2), (10, 9), (34, 7), (5, 7), (0, 7)],
            [(1, 2), (511, 9), (55, 7), (44, 7), (123, 7)], [(2, 2), (450, 9), (16, 7), (116, 7), (64, 7)],
            [(2, 2), (20, 9), (104, 7), (70, 7), (3, 7)], [(3, 2), (15610, 15), (30895, 15)],
            [(3, 2), (0, 15), (14366, 15)], [(1, 2), (0, 9), (64, 7), (0, 7), (127, 7)],
            [(2, 2), (384, 9), (127, 7), (80, 7), (66, 7)], [(2, 2), (383, 9), (127, 7), (0, 7), (127, 7)],
        ]
        for (fields, hand) in zip(words, Self.handWords) {
            let word = PISPReferenceEncoder.pack(fields)
            #expect((0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } == hand.bytes)
        }
    }

    /// Test images: noise of several amplitudes around several levels, ramps, hard edges, bright flats, full-range
    /// random values, and the extremes.
    static func image(_ kind: Int, width: Int, height: Int, seed: UInt64) -> [UInt16] {
        var rng = SplitMix64(seed: seed)
        return (0..<(width * height)).map { i in
            let x = i % width, y = i / width
            let noise = Int(rng.next() % 65536)
            let value: Int = switch kind {
            case 0: 4096 + noise % 64                                   // dark, low noise: mode 0
            case 1: 2048 + (x * 37 + y * 11) % 6000                    // gentle ramp: modes 0 and 1
            case 2: 30000 + noise % 3000                               // mid grey, more noise: mode 1
            case 3: 52000 + noise % 12000                              // bright: mode 2, the pair coding
            case 4: (x / 3 + y) % 2 == 0 ? 2048 : 60000 + noise % 5000 // hard edges: the escape mode 3
            case 5: noise                                              // anything
            default: [0, 65535, 2047, 2048, 2049, 65535 - 2048][i % 6]  // the extremes and the offset
            }
            return UInt16(clamping: value)
        }
    }

    @Test("random and structured frames through the reference encoder decode to exactly its quantised values")
    func roundTrip() throws {
        var modesSeen = Set<UInt8>()
        for (index, size) in [(64, 4), (13, 3), (8, 1), (1, 2), (250, 6), (4056, 2)].enumerated() {
            for kind in 0...6 {
                let samples = Self.image(kind, width: size.0, height: size.1, seed: UInt64(100 * index + kind))
                let encoded = PISPReferenceEncoder.frame(samples, width: size.0, height: size.1,
                                                         padValue: UInt16(truncatingIfNeeded: 9973 * kind))
                for word in stride(from: 0, to: encoded.bytes.count, by: 4) {
                    modesSeen.insert(encoded.bytes[word] & 3)
                }
                for order in BayerOrder.allCases {
                    let out = try Self.decode(encoded.bytes, .pispComp1(order), width: size.0, height: size.1)
                    #expect(out == encoded.decoded, "kind \(kind), \(size.0)x\(size.1), \(order)")
                }
                // The quantisation is fine where the description says: mode 0 keeps dark samples within half its
                // step of 16 (whole blocks only: padding pixels of 0 beside them force a coarser mode).
                if kind == 0, size.0 % 8 == 0 {
                    #expect(zip(samples, encoded.decoded).allSatisfy { abs(Int($0) - Int($1)) <= 8 })
                }
            }
        }
        #expect(modesSeen == [0, 1, 2, 3])
    }

    @Test("padded rows: the padding is never read; the last row needs none")
    func rowStride() throws {
        let width = 21, height = 5
        let samples = Self.image(5, width: width, height: height, seed: 9)
        #expect(PixelFormat.pispComp1(.rggb).bytesPerRow(width: width) == 24)
        #expect(PixelFormat.pispComp1(.rggb).bytesPerRow(width: 4056) == 4056)
        for stride in [24, 25, 32, 64, 100] {
            // 0xFF garbage is an invalid escape code: reading it would throw.
            let encoded = PISPReferenceEncoder.frame(samples, width: width, height: height, stride: stride)
            #expect(encoded.bytes.count == stride * height)
            #expect(try Self.decode(encoded.bytes, width: width, height: height, rowStride: .bytes(stride))
                    == encoded.decoded)
            let lastRowBare = Array(encoded.bytes.dropLast(stride - 24))
            #expect(PixelFormat.pispComp1(.rggb).byteCount(width: width, height: height, rowStride: .bytes(stride))
                    == lastRowBare.count)
            #expect(try Self.decode(lastRowBare, width: width, height: height, rowStride: .bytes(stride))
                    == encoded.decoded)
        }
        #expect(throws: PixelFormatError.strideTooSmall(stride: 23, minimum: 24)) {
            _ = try Self.decode([UInt8](repeating: 0, count: 200), width: width, height: height, rowStride: .bytes(23))
        }
    }

    @Test("a truncated frame or an invalid code is a typed error naming where, never a crash")
    func malformed() throws {
        let width = 40, height = 4
        let encoded = PISPReferenceEncoder.frame(Self.image(2, width: width, height: height, seed: 3), width: width,
                                                 height: height)
        #expect(throws: PixelFormatError.sourceTooShort(bytes: 159, needed: 160)) {
            _ = try Self.decode(Array(encoded.bytes.dropLast()), width: width, height: height)
        }
        // Row 2, block 3, odd word: mode 3 with a first field of 30976 = 2816 * 11, level 176 (there are 176: 0...175).
        var bad = encoded.bytes
        let at = 2 * 40 + 3 * 8 + 4
        bad.replaceSubrange(at..<at + 4, with: [0x03, 0xE4, 0x01, 0x00])
        #expect(throws: PixelFormatError.invalidCode(row: 2, column: 24)) {
            _ = try Self.decode(bad, width: width, height: height)
        }
        // The same code in the second pair field, and the largest valid code beside it, decode or fail as they should.
        #expect(throws: PixelFormatError.invalidCode(row: 0, column: 0)) {
            _ = try Self.decode([0x03, 0x00, 0x00, 0xF2, 0, 0, 0, 0], width: 8)
        }
        // 30975 = 2816 * 10 + 16 * 175 + 15: levels 175 and 175, both saturating. The odd word is all zeros: mode 0,
        // f0 = 0, f1 = 0 < 64, so q1 = 0 + 64 - 0 = 64 (1024 + 2048) and the rest 0.
        let largest = PISPReferenceEncoder.pack([(3, 2), (30975, 15), (30975, 15)])
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: largest >> (8 * $0)) } + [0, 0, 0, 0]
        #expect(try Self.decode(bytes, width: 8) == [65535, 2048, 65535, 3072, 65535, 2048, 65535, 2048])
        #expect(PixelFormatError.invalidCode(row: 2, column: 24).message.contains("row 2, pixel 24"))
    }

    @Test("random bytes: every frame decodes to 2048...65535 or fails at its first escape level above 175")
    func randomBytes() {
        var rng = SplitMix64(seed: 77)
        var outcomes = (decoded: 0, refused: 0)
        for trial in 0..<200 {
            let width = 2 + Int(rng.next() % 40), height = 1 + Int(rng.next() % 4)
            let stride = (width + 7) / 8 * 8 + Int(rng.next() % 9)
            let bytes = (0..<(stride * height)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            // The first invalid word, from the description: mode 3 with a pair field of 2816 * 11 or more.
            var expected: PixelFormatError?
            search: for row in 0..<height {
                for word in 0..<((width + 7) / 8 * 2) {
                    let at = row * stride + 4 * word
                    let value = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
                    if value & 3 == 3, (value >> 2) % 32768 >= 30976 || value >> 17 >= 30976 {
                        expected = .invalidCode(row: row, column: word / 2 * 8)
                        break search
                    }
                }
            }
            do throws(PixelFormatError) {
                let out = try Self.decode(bytes, width: width, height: height, rowStride: .bytes(stride))
                #expect(expected == nil && out.allSatisfy { $0 >= 2048 }, "trial \(trial)")
                outcomes.decoded += 1
            } catch {
                #expect(error == expected, "trial \(trial)")
                outcomes.refused += 1
            }
        }
        #expect(outcomes.decoded > 20 && outcomes.refused > 20)
    }

    @Test("names: V4L2's PISP_COMP1_RGGB and fourccs, libcamera's RGGB_PISP_COMP1, 16-bit samples")
    func names() throws {
        let expected: [(PixelFormat, String, String, String)] = [
            (.pispComp1(.rggb), "PC1R", "PISP_COMP1_RGGB", "RGGB_PISP_COMP1"),
            (.pispComp1(.grbg), "PC1G", "PISP_COMP1_GRBG", "GRBG_PISP_COMP1"),
            (.pispComp1(.gbrg), "PC1g", "PISP_COMP1_GBRG", "GBRG_PISP_COMP1"),
            (.pispComp1(.bggr), "PC1B", "PISP_COMP1_BGGR", "BGGR_PISP_COMP1"),
            (.pispComp1Mono, "PC1M", "PISP_COMP1_MONO", "MONO_PISP_COMP1"),
        ]
        for (format, fourcc, v4l2, libcamera) in expected {
            #expect(format.v4l2FourCCText == fourcc)
            #expect(format.v4l2Name == v4l2 && format.libcameraName == libcamera && format.name == libcamera)
            #expect(try PixelFormat(name: v4l2) == format)
            #expect(try PixelFormat(name: libcamera.lowercased()) == format)
            #expect(try PixelFormat(name: "V4L2_PIX_FMT_" + v4l2) == format)
            #expect(PixelFormat(v4l2FourCC: format.v4l2FourCC!) == format)
            #expect(format.bitsPerSample == 16 && format.pfncCode == nil && !format.packing.isLossless)
        }
        // v4l2_fourcc('P', 'C', '1', 'R').
        #expect(PixelFormat.pispComp1(.rggb).v4l2FourCC == 0x5231_4350)
        #expect(PixelFormat.pispComp1(.gbrg).cfa == .gbrg && PixelFormat.pispComp1Mono.cfa == .monochrome)
    }
}
