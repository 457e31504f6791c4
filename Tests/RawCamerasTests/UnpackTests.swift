import RawCameras
import RawCore
import Testing

/// Every format unpacks frames built from the specifications' bit layouts (SpecPacker) to the exact samples:
/// extreme values, alternating bits, random values, odd widths, rows padded with garbage, tight streams.
@Suite("Pixel format unpacking")
struct UnpackTests {
    /// Extremes and alternating bit patterns first, then random values, all within the format's bits.
    static func samples(_ count: Int, bits: Int, seed: UInt64) -> [UInt16] {
        let mask = UInt16(truncatingIfNeeded: (1 << bits) - 1)
        let fixed: [UInt16] = [0, mask, 0x5555 & mask, 0xAAAA & mask, 1, mask - 1, 1 << (bits - 1), mask >> 1]
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { i in i < fixed.count ? fixed[i] : UInt16(truncatingIfNeeded: rng.next()) & mask }
    }

    static func unpack(_ bytes: [UInt8], format: PixelFormat, width: Int, height: Int,
                       rowStride: RowStride) throws -> [UInt16] {
        var out = [UInt16](repeating: 0xDEAD, count: width * height)
        try bytes.withUnsafeBytes { source in
            try out.withUnsafeMutableBufferPointer { target in
                try format.unpack(source, width: width, height: height, rowStride: rowStride, into: target)
            }
        }
        return out
    }

    /// The formats that give back exactly the packed values (the PiSP compression quantises: PISPDecoderTests).
    static let lossless = PixelFormat.allCases.filter(\.packing.isLossless)

    /// Widths that end rows on and inside packing groups (every remainder of 4), at two heights.
    static let sizes: [(width: Int, height: Int)] = [(8, 3), (9, 2), (10, 3), (11, 2), (1, 1), (2, 5), (3, 4), (64, 4)]

    @Test("padded rows: exact samples, padding ignored", arguments: lossless)
    func paddedRows(format: PixelFormat) throws {
        for (index, size) in Self.sizes.enumerated() {
            let values = Self.samples(size.width * size.height, bits: format.bitsPerSample, seed: UInt64(index))
            let minimum = format.bytesPerRow(width: size.width)
            for padding in [0, 1, 7, 64] {
                let stride = minimum + padding
                let bytes = SpecPacker.frame(values, width: size.width, height: size.height, format: format, stride: stride)
                #expect(bytes.count == stride * size.height)
                let out = try Self.unpack(bytes, format: format, width: size.width, height: size.height,
                                          rowStride: .bytes(stride))
                #expect(out == values, "\(format.name) \(size.width)x\(size.height) stride \(stride)")
            }
        }
    }

    @Test("tight frames (a GenICam stream runs on across rows)", arguments: lossless)
    func tightFrames(format: PixelFormat) throws {
        for (index, size) in Self.sizes.enumerated() {
            let values = Self.samples(size.width * size.height, bits: format.bitsPerSample, seed: 100 + UInt64(index))
            let bytes = SpecPacker.frame(values, width: size.width, height: size.height, format: format, stride: nil)
            #expect(bytes.count == format.byteCount(width: size.width, height: size.height))
            let out = try Self.unpack(bytes, format: format, width: size.width, height: size.height, rowStride: .tight)
            #expect(out == values, "\(format.name) \(size.width)x\(size.height) tight")
        }
    }

    @Test("a padded last row is not needed; only the bytes of the frame are read", arguments: lossless)
    func lastRowWithoutPadding(format: PixelFormat) throws {
        let width = 7, height = 3
        let values = Self.samples(width * height, bits: format.bitsPerSample, seed: 7)
        let stride = format.bytesPerRow(width: width) + 5
        var bytes = SpecPacker.frame(values, width: width, height: height, format: format, stride: stride)
        bytes.removeLast(5)
        #expect(bytes.count == format.byteCount(width: width, height: height, rowStride: .bytes(stride)))
        let out = try Self.unpack(bytes, format: format, width: width, height: height, rowStride: .bytes(stride))
        #expect(out == values)
    }

    @Test("the unpacked samples stay within the format's bits, whatever the bytes", arguments: lossless)
    func samplesWithinBits(format: PixelFormat) throws {
        let width = 12, height = 2
        let bytes = [UInt8](repeating: 0xFF, count: format.bytesPerRow(width: width) * height)
        let out = try Self.unpack(bytes, format: format, width: width, height: height,
                                  rowStride: .bytes(format.bytesPerRow(width: width)))
        #expect(out == [UInt16](repeating: UInt16(truncatingIfNeeded: (1 << format.bitsPerSample) - 1), count: width * height))
    }
}
