import RawCameras
import RawCore
import Testing

/// Unpacking where the frame lies (a camera buffer that is a frame pool's slot): the frame, built from the
/// specifications' bit layouts (SpecPacker), is placed at the safe offset of a buffer of `2 * width * height` bytes
/// (and further in, with a chunk trailer after it) and must come out as the exact samples at the buffer's start.
@Suite("Pixel format unpacking in place")
struct InPlaceUnpackTests {
    /// Sizes that end GenICam streams' runs inside and on packing groups, and a run-sized multiple.
    /// 17x241 = 4097 pixels: a GenICam stream's last run is one pixel (a whole 3-byte group in GigE Vision's packing).
    static let sizes: [(width: Int, height: Int)] = [(8, 3), (10, 2), (66, 6), (4096, 2), (130, 64), (2, 1), (17, 241),
                                                     (4097, 3)]

    static func inPlace(_ bytes: [UInt8], at offset: Int, capacity: Int, format: PixelFormat, width: Int,
                        height: Int) throws -> [UInt16] {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xEE)
        memory.baseAddress!.advanced(by: offset).copyMemory(from: bytes, byteCount: bytes.count)
        try format.unpackInPlace(memory, from: offset, width: width, height: height)
        let samples = memory.bindMemory(to: UInt16.self)
        return Array(samples.prefix(width * height))
    }

    @Test("at the safe offset and beyond: the exact samples", arguments: UnpackTests.lossless)
    func exactSamples(format: PixelFormat) throws {
        for (index, size) in Self.sizes.enumerated() {
            let values = UnpackTests.samples(size.width * size.height, bits: format.bitsPerSample, seed: 300 + UInt64(index))
            let bytes = SpecPacker.frame(values, width: size.width, height: size.height, format: format, stride: nil)
            let minimum = try #require(format.inPlaceOffset(width: size.width, height: size.height))
            let frame16 = 2 * size.width * size.height
            #expect(minimum >= max(0, frame16 - bytes.count), "\(format.name)")
            // At the safe offset in a buffer exactly the samples' size, and at the end of a larger buffer.
            let further = max(minimum, frame16 - bytes.count) + 40
            for (offset, capacity) in [(minimum, max(frame16, minimum + bytes.count)), (further, further + bytes.count)] {
                let out = try Self.inPlace(bytes, at: offset, capacity: capacity, format: format, width: size.width,
                                           height: size.height)
                #expect(out == values, "\(format.name) \(size.width)x\(size.height) at \(offset) of \(capacity)")
            }
        }
    }

    @Test("GigE Vision 12Packed, 4097 pixels: the safe offset keeps the 4096-pixel run off the last group's bytes")
    func lastGroupOfAnOddCount() throws {
        // 17x241 = 4097 pixels in 6147 bytes: the frame's end gives 8194 - 6147 = 2047, but the first run (4096 pixels,
        // 6144 bytes) writes up to byte 8192, where the last pixel's group starts at offset + 6144: offset ≥ 2048.
        #expect(PixelFormat.bayer12Packed(.rggb).inPlaceOffset(width: 17, height: 241) == 2048)
        // 8192 pixels in 12288 bytes: the frame's end decides, 16384 - 12288.
        #expect(PixelFormat.bayer12Packed(.rggb).inPlaceOffset(width: 4096, height: 2) == 4096)
    }

    @Test("16-bit words with garbage above the format's bits are cleared where they lie")
    func clearsHighBits() throws {
        let format = try PixelFormat(name: "BayerRG12")
        let words: [UInt16] = [0xF123, 0x0FFF, 0xA000, 0x1001]
        let bytes = words.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let out = try Self.inPlace(bytes, at: 0, capacity: 8, format: format, width: 2, height: 2)
        #expect(out == [0x123, 0xFFF, 0x000, 0x001])
    }

    @Test("below the safe offset, too short or too small: refused before writing")
    func refusals() throws {
        let format = try PixelFormat(name: "BayerRG8")
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 32, alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 7)
        #expect(throws: PixelFormatError.sourceOverlapsSamples(offset: 15, minimum: 16)) {
            try format.unpackInPlace(memory, from: 15, width: 4, height: 4)
        }
        #expect(throws: PixelFormatError.sourceTooShort(bytes: 15, needed: 16)) {
            try format.unpackInPlace(memory, from: 17, width: 4, height: 4)
        }
        #expect(throws: PixelFormatError.destinationTooSmall(samples: 16, needed: 25)) {
            try format.unpackInPlace(memory, from: 25, width: 5, height: 5)
        }
        #expect(memory.allSatisfy { $0 == 7 })
    }
}
