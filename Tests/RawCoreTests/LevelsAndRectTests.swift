import RawCore
import Testing

@Suite("BlackLevels and PixelRect")
struct LevelsAndRectTests {
    @Test("A 2x2 repeat gives one level per Bayer position and repeats over the frame")
    func repeatingLevels() throws {
        let levels = try BlackLevels(rows: 2, columns: 2, values: [256, 257, 258, 259.5])
        #expect(levels.level(row: 0, column: 0) == 256)
        #expect(levels.level(row: 0, column: 1) == 257)
        #expect(levels.level(row: 1, column: 0) == 258)
        #expect(levels.level(row: 1, column: 1) == 259.5)
        #expect(levels.level(row: 10, column: 7) == 257)
        #expect(levels.maximum == 259.5)
        #expect(!levels.isUniform)
        #expect(levels.description == "256 257 258 259.5")
    }

    @Test("A uniform level applies everywhere")
    func uniform() throws {
        let levels = try BlackLevels(uniform: 2056)
        #expect(levels.rows == 1 && levels.columns == 1)
        #expect(levels.isUniform)
        #expect(levels.level(row: 1181, column: 1887) == 2056)
        #expect(levels.maximum == 2056)
        #expect(levels.description == "2056")
        #expect(try BlackLevels(rows: 2, columns: 2, values: [64, 64, 64, 64]).isUniform)
    }

    @Test("shifted(rows:columns:) moves the repeat's phase")
    func shifted() throws {
        let levels = try BlackLevels(rows: 2, columns: 2, values: [1, 2, 3, 4])
        #expect(levels.shifted(rows: 0, columns: 1).values == [2, 1, 4, 3])
        #expect(levels.shifted(rows: 1, columns: 0).values == [3, 4, 1, 2])
        #expect(levels.shifted(rows: 1, columns: 1).values == [4, 3, 2, 1])
        #expect(levels.shifted(rows: 2, columns: 2) == levels)
    }

    @Test("Invalid black levels are rejected")
    func invalid() {
        expectInvalid("black levels") { () throws(InvalidValueError) in try BlackLevels(rows: 2, columns: 2, values: [1, 2, 3]) }
        expectInvalid("black levels") { () throws(InvalidValueError) in try BlackLevels(rows: 0, columns: 1, values: []) }
        expectInvalid("black levels") { () throws(InvalidValueError) in try BlackLevels(uniform: -1) }
        expectInvalid("black levels") { () throws(InvalidValueError) in try BlackLevels(uniform: 65536) }
        expectInvalid("black levels") { () throws(InvalidValueError) in try BlackLevels(uniform: .nan) }
        expectInvalid("black levels") { () throws(InvalidValueError) in try BlackLevels(uniform: .infinity) }
        #expect(throws: Never.self) { try BlackLevels(uniform: 65535.5) }
    }

    @Test("PixelRect edges, containment and description")
    func rect() throws {
        let r = try PixelRect(top: 26, left: 152, height: 1156, width: 1734)
        #expect(r.bottom == 1182 && r.right == 1886)
        #expect(r.description == "1734x1156+152+26")
        let whole = try PixelRect.whole(width: 1888, height: 1182)
        #expect(whole.top == 0 && whole.left == 0 && whole.width == 1888 && whole.height == 1182)
        #expect(whole.contains(r))
        #expect(!r.contains(whole))
        #expect(r.contains(r))
        #expect(!whole.contains(try PixelRect(top: 1, left: 0, height: 1182, width: 1888)))
        #expect(!whole.contains(try PixelRect(top: 0, left: 1, height: 1182, width: 1888)))
    }

    @Test("PixelRect rejects negative origins and empty sizes")
    func invalidRect() {
        expectInvalid("rectangle") { () throws(InvalidValueError) in try PixelRect(top: -1, left: 0, height: 1, width: 1) }
        expectInvalid("rectangle") { () throws(InvalidValueError) in try PixelRect(top: 0, left: -1, height: 1, width: 1) }
        expectInvalid("rectangle") { () throws(InvalidValueError) in try PixelRect(top: 0, left: 0, height: 0, width: 1) }
        expectInvalid("rectangle") { () throws(InvalidValueError) in try PixelRect(top: 0, left: 0, height: 1, width: -3) }
        expectInvalid("rectangle") { () throws(InvalidValueError) in try PixelRect.whole(width: 0, height: 10) }
    }
}
