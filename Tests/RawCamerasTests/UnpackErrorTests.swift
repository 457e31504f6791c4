import RawCameras
import Testing

/// Sizes are checked before anything is written, each failure with its own typed case.
@Suite("Pixel format unpacking: errors")
struct UnpackErrorTests {
    static func unpack(_ byteCount: Int, _ format: PixelFormat, width: Int, height: Int, rowStride: RowStride = .tight,
                       samples: Int? = nil) throws(PixelFormatError) -> [UInt16] {
        try unpack(bytes: [UInt8](repeating: 0x5A, count: byteCount), format, width: width, height: height,
                   rowStride: rowStride, samples: samples)
    }

    /// `bytes` unpacked into `samples` (default `width * height`) samples, or the typed error.
    static func unpack(bytes: [UInt8], _ format: PixelFormat, width: Int, height: Int, rowStride: RowStride = .tight,
                       samples: Int? = nil) throws(PixelFormatError) -> [UInt16] {
        var out = [UInt16](repeating: 0xDEAD, count: samples ?? max(0, width * height))
        var failure: PixelFormatError?
        bytes.withUnsafeBytes { source in
            out.withUnsafeMutableBufferPointer { target in
                do throws(PixelFormatError) {
                    try format.unpack(source, width: width, height: height, rowStride: rowStride, into: target)
                } catch {
                    failure = error
                }
            }
        }
        if let failure { throw failure }
        return out
    }

    @Test("a buffer one byte short", arguments: PixelFormat.allCases)
    func shortBuffer(format: PixelFormat) throws {
        let width = 10, height = 3
        let needed = format.byteCount(width: width, height: height)!
        #expect(throws: PixelFormatError.sourceTooShort(bytes: needed - 1, needed: needed)) {
            _ = try Self.unpack(needed - 1, format, width: width, height: height)
        }
        let stride = format.bytesPerRow(width: width) + 3
        let paddedNeeded = 2 * stride + format.bytesPerRow(width: width)
        #expect(throws: PixelFormatError.sourceTooShort(bytes: paddedNeeded - 1, needed: paddedNeeded)) {
            _ = try Self.unpack(paddedNeeded - 1, format, width: width, height: height, rowStride: .bytes(stride))
        }
        #expect(try Self.unpack(paddedNeeded, format, width: width, height: height, rowStride: .bytes(stride)).count
                == width * height)
    }

    @Test("a stride smaller than a row", arguments: PixelFormat.allCases)
    func smallStride(format: PixelFormat) {
        let minimum = format.bytesPerRow(width: 16)
        #expect(throws: PixelFormatError.strideTooSmall(stride: minimum - 1, minimum: minimum)) {
            _ = try Self.unpack(10_000, format, width: 16, height: 2, rowStride: .bytes(minimum - 1))
        }
    }

    @Test("empty frames, overflowing sizes and a small destination")
    func sizes() {
        let format = PixelFormat.v4l2Bayer12CSI2P(.rggb)
        #expect(throws: PixelFormatError.badSize(width: 0, height: 4)) { _ = try Self.unpack(100, format, width: 0, height: 4) }
        #expect(throws: PixelFormatError.badSize(width: 4, height: -1)) {
            _ = try Self.unpack(100, format, width: 4, height: -1, samples: 4)
        }
        #expect(throws: PixelFormatError.badSize(width: Int.max / 2, height: 4)) {
            _ = try Self.unpack(100, format, width: Int.max / 2, height: 4, samples: 4)
        }
        #expect(throws: PixelFormatError.destinationTooSmall(samples: 15, needed: 16)) {
            _ = try Self.unpack(100, format, width: 4, height: 4, samples: 15)
        }
        // A huge stride cannot overflow the size check.
        #expect(throws: PixelFormatError.sourceTooShort(bytes: 100, needed: Int.max)) {
            _ = try Self.unpack(100, format, width: 4, height: 4, rowStride: .bytes(Int.max / 2))
        }
    }

    @Test("nothing is written when the unpack fails")
    func nothingWritten() {
        let bytes = [UInt8](repeating: 0, count: 5)
        var out = [UInt16](repeating: 0xDEAD, count: 16)
        bytes.withUnsafeBytes { source in
            out.withUnsafeMutableBufferPointer { target in
                _ = #expect(throws: PixelFormatError.self) {
                    try PixelFormat.mono8.unpack(source, width: 4, height: 4, into: target)
                }
            }
        }
        #expect(out.allSatisfy { $0 == 0xDEAD })
    }
}
