/// Black (zero-light) levels that repeat over the sensor, as the DNG `BlackLevelRepeatDim` + `BlackLevel` tags.
///
/// Levels are given in raw code values and may be fractional (DNG stores them as rationals).
/// A 2x2 repeat gives one level per Bayer position; a 1x1 repeat gives one level for every pixel.
public struct BlackLevels: Sendable, Hashable, CustomStringConvertible {
    /// Rows of the repeat.
    public let rows: Int
    /// Columns of the repeat.
    public let columns: Int
    /// Levels, row-major, `rows * columns` of them, each in `0 ..< 65536`.
    public let values: [Double]

    /// Creates repeating black levels.
    public init(rows: Int, columns: Int, values: [Double]) throws(InvalidValueError) {
        try require((1...16).contains(rows) && (1...16).contains(columns), "black levels",
                    "repeat size \(rows)x\(columns) is outside 1x1...16x16")
        try require(values.count == rows * columns, "black levels",
                    "\(values.count) levels given for a \(rows)x\(columns) repeat")
        for v in values {
            try require(v.isFinite && v >= 0 && v < 65536, "black levels", "level \(v) is outside 0..<65536")
        }
        self.rows = rows
        self.columns = columns
        self.values = values
    }

    /// One level for every pixel.
    public init(uniform level: Double) throws(InvalidValueError) {
        try self.init(rows: 1, columns: 1, values: [level])
    }

    /// The level at `row`, `column` of the frame.
    @inlinable
    public func level(row: Int, column: Int) -> Double {
        values[(row % rows) * columns + (column % columns)]
    }

    /// The same levels seen from a window that starts `rowOffset` rows and `columnOffset` columns in.
    public func shifted(rows rowOffset: Int, columns columnOffset: Int) -> BlackLevels {
        var out: [Double] = []
        for r in 0..<rows {
            for c in 0..<columns {
                out.append(level(row: ((r + rowOffset) % rows + rows) % rows,
                                 column: ((c + columnOffset) % columns + columns) % columns))
            }
        }
        return try! BlackLevels(rows: rows, columns: columns, values: out) // same size and range as self
    }

    /// The largest level.
    public var maximum: Double { values.max() ?? 0 }

    /// True when every position has the same level.
    public var isUniform: Bool { Set(values).count == 1 }

    public var description: String {
        values.map { $0 == $0.rounded() ? String(Int($0)) : String($0) }.joined(separator: " ")
    }
}
