import RawCore
import Testing

@Suite("RawFrame")
struct RawFrameTests {
    /// A storage whose sample at (row, column) is `row * 1000 + column`, `stride` samples per row.
    static func numbered(width: Int, height: Int, stride: Int) -> PixelStorage {
        let storage = PixelStorage(count: stride * height)
        for r in 0..<height {
            for c in 0..<stride { storage.baseAddress[r * stride + c] = UInt16(r * 1000 + c) }
        }
        return storage
    }

    static let black256 = try! BlackLevels(uniform: 256)

    @Test("A valid frame keeps its values; defaults cover the whole buffer")
    func valid() throws {
        let frame = try RawFrame(width: 64, height: 48, cfa: .rggb, blackLevels: Self.black256, whiteLevel: 4095, bitsPerSample: 12)
        #expect(frame.width == 64 && frame.height == 48)
        #expect(frame.rowStride == 64)
        #expect(frame.storage.count == 64 * 48)
        #expect(frame.activeArea == (try PixelRect.whole(width: 64, height: 48)))
        #expect(frame.defaultCrop == (try PixelRect.whole(width: 64, height: 48)))
        #expect(frame.defaultScale == (1, 1))
        #expect(frame.whiteLevel == 4095 && frame.bitsPerSample == 12)
        #expect(frame.storage.buffer.allSatisfy { $0 == 0 })
    }

    @Test("White level must fit in bitsPerSample bits",
          arguments: [(8, 255 as UInt32), (10, 1023), (12, 4095), (14, 16383), (14, 15000), (16, 65535)])
    func whiteLevelLimit(bits: Int, white: UInt32) throws {
        let levels = try BlackLevels(uniform: 0)
        #expect(throws: Never.self) {
            try RawFrame(width: 4, height: 4, cfa: .rggb, blackLevels: levels, whiteLevel: white, bitsPerSample: bits)
        }
        let limit = UInt32((1 << bits) - 1)
        if limit < UInt32.max {
            expectInvalid("white level") { () throws(InvalidValueError) in
                try RawFrame(width: 4, height: 4, cfa: .rggb, blackLevels: levels, whiteLevel: limit + 1, bitsPerSample: bits)
            }
        }
    }

    @Test("Out-of-range white levels and bit depths are rejected")
    func invalidLevels() throws {
        let zero = try BlackLevels(uniform: 0)
        expectInvalid("white level") { () throws(InvalidValueError) in
            try RawFrame(width: 4, height: 4, cfa: .rggb, blackLevels: zero, whiteLevel: 4096, bitsPerSample: 12)
        }
        expectInvalid("white level") { () throws(InvalidValueError) in
            try RawFrame(width: 4, height: 4, cfa: .rggb, blackLevels: zero, whiteLevel: 0, bitsPerSample: 12)
        }
        expectInvalid("white level") { () throws(InvalidValueError) in
            try RawFrame(width: 4, height: 4, cfa: .rggb, blackLevels: zero, whiteLevel: 65536, bitsPerSample: 16)
        }
        expectInvalid("bits per sample") { () throws(InvalidValueError) in
            try RawFrame(width: 4, height: 4, cfa: .rggb, blackLevels: zero, whiteLevel: 127, bitsPerSample: 7)
        }
        expectInvalid("bits per sample") { () throws(InvalidValueError) in
            try RawFrame(width: 4, height: 4, cfa: .rggb, blackLevels: zero, whiteLevel: 4095, bitsPerSample: 17)
        }
    }

    @Test("Black levels must be below the white level")
    func blackBelowWhite() throws {
        expectInvalid("black levels") { () throws(InvalidValueError) in
            try RawFrame(width: 4, height: 4, cfa: .rggb, blackLevels: BlackLevels(uniform: 1023), whiteLevel: 1023, bitsPerSample: 10)
        }
        expectInvalid("black levels") { () throws(InvalidValueError) in
            try RawFrame(width: 4, height: 4, cfa: .rggb,
                         blackLevels: BlackLevels(rows: 2, columns: 2, values: [32, 32, 32, 2000]),
                         whiteLevel: 1023, bitsPerSample: 10)
        }
        #expect(throws: Never.self) {
            try RawFrame(width: 4, height: 4, cfa: .rggb, blackLevels: BlackLevels(uniform: 1022.5), whiteLevel: 1023, bitsPerSample: 10)
        }
    }

    @Test("Sizes, stride and storage are checked")
    func geometry() throws {
        expectInvalid("frame size") { () throws(InvalidValueError) in
            try RawFrame(width: 0, height: 4, cfa: .rggb, blackLevels: Self.black256, whiteLevel: 4095, bitsPerSample: 12)
        }
        expectInvalid("frame size") { () throws(InvalidValueError) in
            try RawFrame(width: 65536, height: 1, storage: PixelStorage(count: 65536), cfa: .rggb,
                         blackLevels: Self.black256, whiteLevel: 4095, bitsPerSample: 12)
        }
        expectInvalid("row stride") { () throws(InvalidValueError) in
            try RawFrame(width: 8, height: 4, rowStride: 7, storage: PixelStorage(count: 64), cfa: .rggb,
                         blackLevels: Self.black256, whiteLevel: 4095, bitsPerSample: 12)
        }
        expectInvalid("frame storage") { () throws(InvalidValueError) in
            try RawFrame(width: 8, height: 4, storage: PixelStorage(count: 31), cfa: .rggb,
                         blackLevels: Self.black256, whiteLevel: 4095, bitsPerSample: 12)
        }
        // The last row needs only `width` samples, not a whole stride.
        #expect(throws: Never.self) {
            try RawFrame(width: 8, height: 4, rowStride: 10, storage: PixelStorage(count: 38), cfa: .rggb,
                         blackLevels: Self.black256, whiteLevel: 4095, bitsPerSample: 12)
        }
        expectInvalid("frame storage") { () throws(InvalidValueError) in
            try RawFrame(width: 8, height: 4, rowStride: 10, storage: PixelStorage(count: 37), cfa: .rggb,
                         blackLevels: Self.black256, whiteLevel: 4095, bitsPerSample: 12)
        }
        expectInvalid("default scale") { () throws(InvalidValueError) in
            try RawFrame(width: 8, height: 4, storage: PixelStorage(count: 32), cfa: .rggb, defaultScale: (0, 1),
                         blackLevels: Self.black256, whiteLevel: 4095, bitsPerSample: 12)
        }
        expectInvalid("default scale") { () throws(InvalidValueError) in
            try RawFrame(width: 8, height: 4, storage: PixelStorage(count: 32), cfa: .rggb, defaultScale: (1, .nan),
                         blackLevels: Self.black256, whiteLevel: 4095, bitsPerSample: 12)
        }
    }

    @Test("An active area or default crop outside its container is rejected")
    func areas() throws {
        let storage = PixelStorage(count: 64 * 48)
        func make(active: PixelRect?, crop: PixelRect? = nil) throws(InvalidValueError) -> RawFrame {
            try RawFrame(width: 64, height: 48, storage: storage, cfa: .rggb, activeArea: active, defaultCrop: crop,
                         blackLevels: Self.black256, whiteLevel: 4095, bitsPerSample: 12)
        }
        expectInvalid("active area") { () throws(InvalidValueError) in try make(active: PixelRect(top: 8, left: 0, height: 41, width: 64)) }
        expectInvalid("active area") { () throws(InvalidValueError) in try make(active: PixelRect(top: 0, left: 1, height: 48, width: 64)) }
        expectInvalid("active area") { () throws(InvalidValueError) in try make(active: PixelRect(top: 48, left: 0, height: 1, width: 1)) }
        let active = try PixelRect(top: 4, left: 6, height: 40, width: 50)
        let frame = try make(active: active, crop: PixelRect(top: 2, left: 2, height: 36, width: 46))
        #expect(frame.activeArea == active)
        #expect(frame.defaultCrop == (try PixelRect(top: 2, left: 2, height: 36, width: 46)))
        // Without a crop, the crop is the whole active area, relative to its top-left.
        #expect(try make(active: active).defaultCrop == (try PixelRect(top: 0, left: 0, height: 40, width: 50)))
        // The crop is measured inside the active area, not the buffer.
        expectInvalid("default crop") { () throws(InvalidValueError) in
            try make(active: active, crop: PixelRect(top: 4, left: 6, height: 40, width: 50))
        }
        expectInvalid("default crop") { () throws(InvalidValueError) in
            try make(active: active, crop: PixelRect(top: 0, left: 0, height: 40, width: 51))
        }
    }

    @Test("activeSamples() copies exactly the active area, row by row, skipping the stride padding")
    func activeSamples() throws {
        let (width, height, stride) = (20, 12, 23)
        let storage = Self.numbered(width: width, height: height, stride: stride)
        let active = try PixelRect(top: 3, left: 5, height: 7, width: 11)
        let frame = try RawFrame(width: width, height: height, rowStride: stride, storage: storage, cfa: .rggb,
                                 activeArea: active, blackLevels: Self.black256, whiteLevel: 65535, bitsPerSample: 16)
        let samples = frame.activeSamples()
        #expect(samples.count == 77)
        var expected: [UInt16] = []
        for r in 3..<10 { for c in 5..<16 { expected.append(UInt16(r * 1000 + c)) } }
        #expect(samples == expected)
        #expect(samples.first == 3005 && samples.last == 9015)
        // Without an active area, activeSamples() is the whole buffer minus padding.
        let whole = try RawFrame(width: width, height: height, rowStride: stride, storage: storage, cfa: .rggb,
                                 blackLevels: Self.black256, whiteLevel: 65535, bitsPerSample: 16)
        #expect(whole.activeSamples().count == width * height)
        #expect(whole.activeSamples()[width] == 1000)
    }

    @Test("The subscript and withRow address rows through the stride")
    func subscriptAndRows() throws {
        let storage = Self.numbered(width: 6, height: 4, stride: 9)
        let frame = try RawFrame(width: 6, height: 4, rowStride: 9, storage: storage, cfa: .rggb,
                                 blackLevels: Self.black256, whiteLevel: 65535, bitsPerSample: 16)
        #expect(frame[2, 5] == 2005)
        frame[3, 1] = 42
        #expect(storage.baseAddress[3 * 9 + 1] == 42)
        frame.withRow(1) { row in
            #expect(row.count == 6)
            #expect(Array(row) == [1000, 1001, 1002, 1003, 1004, 1005])
        }
    }

    @Test("color(row:column:) and blackLevel(row:column:) repeat from the active area's top-left",
          arguments: [(0, 0), (1, 0), (0, 1), (1, 1), (3, 5), (2, 7)])
    func colorRelativeToActiveArea(top: Int, left: Int) throws {
        let active = try PixelRect(top: top, left: left, height: 12 - top, width: 16 - left)
        let levels = try BlackLevels(rows: 2, columns: 2, values: [10, 20, 30, 40])
        let frame = try RawFrame(width: 16, height: 12, storage: PixelStorage(count: 16 * 12), cfa: .rggb,
                                 activeArea: active, blackLevels: levels, whiteLevel: 4095, bitsPerSample: 12)
        // The top-left pixel of the active area is red and gets the first black level.
        #expect(frame.color(row: top, column: left) == .red)
        #expect(frame.color(row: top, column: left + 1) == .green)
        #expect(frame.color(row: top + 1, column: left) == .green)
        #expect(frame.color(row: top + 1, column: left + 1) == .blue)
        #expect(frame.blackLevel(row: top, column: left) == 10)
        #expect(frame.blackLevel(row: top + 1, column: left + 1) == 40)
        for row in 0..<12 {
            for column in 0..<16 {
                let dr = ((row - top) % 2 + 2) % 2, dc = ((column - left) % 2 + 2) % 2
                #expect(frame.color(row: row, column: column) == CFALayout.rggb.color(row: dr, column: dc))
                #expect(frame.blackLevel(row: row, column: column) == levels.level(row: dr, column: dc))
            }
        }
        // Seen from the buffer's origin, the layout is the active-area layout shifted back.
        let fromOrigin = CFALayout.rggb.shifted(rows: (2 - top % 2) % 2, columns: (2 - left % 2) % 2)
        #expect(frame.color(row: 0, column: 0) == fromOrigin.color(row: 0, column: 0))
        #expect(frame.color(row: 1, column: 1) == fromOrigin.color(row: 1, column: 1))
    }

    @Test("X-Trans colours are relative to the active area too")
    func xTransActiveArea() throws {
        let active = try PixelRect(top: 5, left: 4, height: 31, width: 32)
        let frame = try RawFrame(width: 36, height: 36, storage: PixelStorage(count: 36 * 36), cfa: .xTrans,
                                 activeArea: active, blackLevels: Self.black256, whiteLevel: 16383, bitsPerSample: 14)
        for row in 0..<36 {
            for column in 0..<36 {
                let r = ((row - 5) % 6 + 6) % 6, c = ((column - 4) % 6 + 6) % 6
                #expect(frame.color(row: row, column: column) == CFALayout.xTrans.color(row: r, column: c))
            }
        }
        #expect(frame.color(row: 5, column: 4) == CFALayout.xTrans.pattern[0])
    }

    @Test("PixelStorage copies samples and starts zero-filled")
    func storage() {
        let copy = PixelStorage(copying: [1, 2, 3, 65535] as [UInt16])
        #expect(copy.count == 4)
        #expect(Array(copy.buffer) == [1, 2, 3, 65535])
        let empty = PixelStorage(count: 0)
        #expect(empty.count == 0 && empty.buffer.isEmpty)
        let zeros = PixelStorage(count: 1000)
        #expect(zeros.buffer.allSatisfy { $0 == 0 })
    }
}
