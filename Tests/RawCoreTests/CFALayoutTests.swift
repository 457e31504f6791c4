import RawCore
import Testing

@Suite("CFALayout and CFAColor")
struct CFALayoutTests {
    @Test("The four Bayer phases parse from strings and equal the named constants",
          arguments: [("RGGB", CFALayout.rggb), ("GRBG", .grbg), ("GBRG", .gbrg), ("BGGR", .bggr)])
    func bayerPhases(text: String, expected: CFALayout) throws {
        let layout = try CFALayout(text)
        #expect(layout == expected)
        #expect(layout.rows == 2 && layout.columns == 2)
        #expect(layout.isBayer)
        #expect(layout.description == text)
        #expect(layout.planeColors == [.red, .green, .blue])
        // color(row:column:) reads the pattern row-major and repeats it.
        let letters = Array(text)
        for row in 0..<6 {
            for column in 0..<6 {
                #expect(layout.color(row: row, column: column).letter == letters[(row % 2) * 2 + column % 2])
            }
        }
    }

    @Test("Pattern strings may be lowercase and contain slashes or spaces")
    func lenientParsing() throws {
        #expect(try CFALayout("rggb") == .rggb)
        #expect(try CFALayout("RG/GB") == .rggb)
        #expect(try CFALayout("GR BG") == .grbg)
        #expect(CFALayout.bayerPhases == [.rggb, .grbg, .gbrg, .bggr])
    }

    @Test("Invalid pattern strings are rejected",
          arguments: ["", "RGB", "RGGBR", "RRRR", "RGGX", "RGG1", "RRGG/RRGG/RRGG/RRGG", "R", String(repeating: "RGB", count: 96) + "R"])
    func invalidStrings(text: String) {
        expectInvalid("CFA layout") { () throws(InvalidValueError) in try CFALayout(text) }
    }

    @Test("The memberwise initialiser checks sizes and colours")
    func memberwiseValidation() throws {
        expectInvalid("CFA layout") { () throws(InvalidValueError) in try CFALayout(rows: 0, columns: 2, pattern: []) }
        expectInvalid("CFA layout") { () throws(InvalidValueError) in
            try CFALayout(rows: 17, columns: 1, pattern: Array(repeating: .green, count: 17))
        }
        expectInvalid("CFA layout") { () throws(InvalidValueError) in
            try CFALayout(rows: 2, columns: 2, pattern: [.red, .green, .blue])
        }
        expectInvalid("CFA layout") { () throws(InvalidValueError) in
            try CFALayout(rows: 2, columns: 2, pattern: [.red, .green, .green, .red])
        }
        // A 2x4 CYGM-style layout is fine (not square, so only through the memberwise init).
        let cygm = try CFALayout(rows: 2, columns: 4, pattern: [.cyan, .yellow, .cyan, .yellow, .green, .magenta, .green, .magenta])
        #expect(!cygm.isBayer)
        #expect(cygm.planeColors == [.green, .cyan, .magenta, .yellow])
        #expect(cygm.color(row: 3, column: 5) == .magenta)
    }

    @Test("X-Trans is 6x6 with 20 green, 8 red and 8 blue, and red and blue in every row and column")
    func xTrans() throws {
        let x = CFALayout.xTrans
        #expect(x.rows == 6 && x.columns == 6)
        #expect(x.pattern.count == 36)
        #expect(x.pattern.filter { $0 == .green }.count == 20)
        #expect(x.pattern.filter { $0 == .red }.count == 8)
        #expect(x.pattern.filter { $0 == .blue }.count == 8)
        #expect(!x.isBayer)
        #expect(x.planeColors == [.red, .green, .blue])
        for i in 0..<6 {
            let row = (0..<6).map { x.color(row: i, column: $0) }
            let column = (0..<6).map { x.color(row: $0, column: i) }
            #expect(row.contains(.red) && row.contains(.blue), "row \(i)")
            #expect(column.contains(.red) && column.contains(.blue), "column \(i)")
        }
        // The 36-letter string form parses to the same layout.
        #expect(try CFALayout(x.description) == x)
        #expect(x.description == "GGRGGBGGBGGRBRGRBGGGBGGRGGRGGBRBGBRG")
    }

    @Test("shifted(rows:columns:) moves the phase: RGGB seen one column in is GRBG, and so on")
    func shiftedBayer() {
        #expect(CFALayout.rggb.shifted(rows: 0, columns: 1) == .grbg)
        #expect(CFALayout.rggb.shifted(rows: 1, columns: 0) == .gbrg)
        #expect(CFALayout.rggb.shifted(rows: 1, columns: 1) == .bggr)
        #expect(CFALayout.rggb.shifted(rows: 2, columns: 4) == .rggb)
        #expect(CFALayout.grbg.shifted(rows: 0, columns: 1) == .rggb)
        #expect(CFALayout.gbrg.shifted(rows: 1, columns: 0) == .rggb)
        #expect(CFALayout.bggr.shifted(rows: 3, columns: 3) == .rggb)
        for phase in CFALayout.bayerPhases {
            #expect(phase.shifted(rows: 0, columns: 0) == phase)
            #expect(phase.shifted(rows: 1, columns: 1).shifted(rows: 1, columns: 1) == phase)
        }
    }

    @Test("shifted(rows:columns:) agrees with color(row:column:) for X-Trans at every offset")
    func shiftedXTrans() {
        for dr in 0..<7 {
            for dc in 0..<7 {
                let s = CFALayout.xTrans.shifted(rows: dr, columns: dc)
                #expect(s.rows == 6 && s.columns == 6)
                for r in 0..<6 {
                    for c in 0..<6 {
                        #expect(s.color(row: r, column: c) == CFALayout.xTrans.color(row: r + dr, column: c + dc))
                    }
                }
            }
        }
        #expect(CFALayout.xTrans.shifted(rows: 6, columns: 12) == .xTrans)
    }

    @Test("CFAColor codes and letters follow DNG CFAPattern numbering")
    func colorCodes() {
        #expect(CFAColor.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5, 6])
        #expect(CFAColor.allCases.map(\.letter) == ["R", "G", "B", "C", "M", "Y", "W"])
        for colour in CFAColor.allCases {
            #expect(CFAColor(letter: colour.letter) == colour)
            #expect(CFAColor(letter: Character(colour.letter.lowercased())) == colour)
        }
        #expect(CFAColor(letter: "X") == nil)
        #expect(CFAColor(letter: "1") == nil)
    }

    // Regression: CFAColor.init?(letter:) used to build
    // `Character(letter.uppercased())`, which traps when the uppercase form has two characters
    // ("ß" → "SS", "ﬁ" → "FI"). So `try CFALayout("ßGGB")` crashes the process instead of throwing
    // InvalidValueError (regression test).
    @Test("A letter whose uppercase form is two characters is rejected, not a crash")
    func multiCharacterUppercaseLetter() {
        #expect(CFAColor(letter: "ß") == nil)
        #expect(throws: InvalidValueError.self) { try CFALayout("ßGGB") }
        #expect(CFAColor(letter: "g") == .green)
    }
}
