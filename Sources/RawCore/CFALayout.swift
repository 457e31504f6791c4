/// The repeating pattern of colour filters over a sensor, from the top-left pixel of the frame.
///
/// A 2x2 Bayer pattern in any of its four phases and larger patterns such as Fujifilm's 6x6 X-Trans
/// are both described by a repeat size and a row-major list of colours. A monochrome sensor (no colour filters:
/// machine-vision, scientific and astronomy cameras) is ``monochrome``: a 1x1 "pattern" of one unfiltered colour,
/// one plane; its DNG is LinearRaw with one sample per pixel, never a CFA.
public struct CFALayout: Sendable, Hashable, CustomStringConvertible {
    /// Number of rows before the pattern repeats.
    public let rows: Int
    /// Number of columns before the pattern repeats.
    public let columns: Int
    /// Colours, row-major, `rows * columns` of them.
    public let pattern: [CFAColor]

    /// Creates a layout; the pattern must have `rows * columns` entries, between 1x1 and 16x16, and use
    /// at least three distinct colours (a colour image cannot be reconstructed from fewer).
    public init(rows: Int, columns: Int, pattern: [CFAColor]) throws(InvalidValueError) {
        try require((1...16).contains(rows) && (1...16).contains(columns), "CFA layout",
                    "repeat size \(rows)x\(columns) is outside 1x1...16x16")
        try require(pattern.count == rows * columns, "CFA layout",
                    "pattern has \(pattern.count) colours, a \(rows)x\(columns) repeat needs \(rows * columns)")
        try require(Set(pattern).count >= 3, "CFA layout",
                    "pattern \(pattern.map(\.description).joined()) has fewer than three distinct colours")
        self.rows = rows
        self.columns = columns
        self.pattern = pattern
    }

    /// Parses a pattern string such as `"RGGB"` (2x2), or a 36-letter X-Trans string read row by row.
    /// Strings of 4 letters are 2x2; 36 letters are 6x6; other perfect squares are n x n. `mono` (or `monochrome`)
    /// is ``monochrome``.
    public init(_ text: String) throws(InvalidValueError) {
        if ["mono", "monochrome"].contains(text.lowercased()) {
            self = .monochrome
            return
        }
        var colours: [CFAColor] = []
        for ch in text where !ch.isWhitespace && ch != "/" {
            guard let colour = CFAColor(letter: ch) else {
                throw InvalidValueError("CFA layout", "'\(ch)' in \"\(text)\" is not one of R, G, B, C, M, Y, W")
            }
            colours.append(colour)
        }
        let side = Int(Double(colours.count).squareRoot().rounded())
        try require(side * side == colours.count && side > 0, "CFA layout",
                    "\"\(text)\" has \(colours.count) colours; give a square pattern such as RGGB")
        try self.init(rows: side, columns: side, pattern: colours)
    }

    /// The colour of the pixel at `row`, `column` of the frame (both may be any non-negative value).
    @inlinable
    public func color(row: Int, column: Int) -> CFAColor {
        pattern[(row % rows) * columns + (column % columns)]
    }

    /// The same sensor seen from a window that starts `rowOffset` rows and `columnOffset` columns in.
    public func shifted(rows rowOffset: Int, columns columnOffset: Int) -> CFALayout {
        var out: [CFAColor] = []
        out.reserveCapacity(pattern.count)
        for r in 0..<rows {
            for c in 0..<columns {
                out.append(color(row: ((r + rowOffset) % rows + rows) % rows,
                                 column: ((c + columnOffset) % columns + columns) % columns))
            }
        }
        // A shift of a valid pattern is valid: same size, same set of colours.
        return CFALayout(uncheckedRows: rows, columns: columns, pattern: out)
    }

    private init(uncheckedRows rows: Int, columns: Int, pattern: [CFAColor]) {
        self.rows = rows
        self.columns = columns
        self.pattern = pattern
    }

    /// True for a monochrome sensor (``monochrome``): every pixel measures the same, unfiltered light.
    public var isMonochrome: Bool { rows == 1 && columns == 1 }

    /// True for a 2x2 pattern with two greens on a diagonal and one red and one blue.
    public var isBayer: Bool {
        guard rows == 2, columns == 2 else { return false }
        let p = pattern
        return p[0] == p[3] && p[0] == .green && Set([p[1], p[2]]) == [.red, .blue]
            || p[1] == p[2] && p[1] == .green && Set([p[0], p[3]]) == [.red, .blue]
    }

    /// The distinct colours of the pattern in ascending DNG code order (the DNG `CFAPlaneColor`).
    public var planeColors: [CFAColor] {
        Array(Set(pattern)).sorted { $0.rawValue < $1.rawValue }
    }

    /// The pattern as letters, row by row (`"RGGB"`), or `mono` for ``monochrome``.
    public var description: String { isMonochrome ? "mono" : pattern.map(\.description).joined() }

    /// A monochrome sensor: no colour filter array, every pixel one sample of the same (unfiltered, `W`) light.
    /// The only layout with fewer than three colours; ``init(rows:columns:pattern:)`` refuses such patterns, so a
    /// frame is monochrome only when its source says so.
    public static let monochrome = CFALayout(uncheckedRows: 1, columns: 1, pattern: [.white])

    /// Bayer RGGB: red at the top-left pixel.
    public static let rggb = CFALayout(uncheckedRows: 2, columns: 2, pattern: [.red, .green, .green, .blue])
    /// Bayer GRBG.
    public static let grbg = CFALayout(uncheckedRows: 2, columns: 2, pattern: [.green, .red, .blue, .green])
    /// Bayer GBRG.
    public static let gbrg = CFALayout(uncheckedRows: 2, columns: 2, pattern: [.green, .blue, .red, .green])
    /// Bayer BGGR.
    public static let bggr = CFALayout(uncheckedRows: 2, columns: 2, pattern: [.blue, .green, .green, .red])
    /// The four Bayer phases.
    public static let bayerPhases: [CFALayout] = [.rggb, .grbg, .gbrg, .bggr]
    /// Fujifilm X-Trans (6x6), in the phase LibRaw reports for X-Trans III sensors.
    public static let xTrans = CFALayout(uncheckedRows: 6, columns: 6, pattern: "GGRGGBGGBGGRBRGRBGGGBGGRGGRGGBRBGBRG".map {
        CFAColor(letter: $0)!
    })
}
