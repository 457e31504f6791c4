import Foundation

/// A small row-major matrix of colour coefficients, e.g. a DNG `ColorMatrix1` (XYZ → camera, N x 3)
/// or `ForwardMatrix1` (white-balanced camera → XYZ D50, 3 x N).
public struct ColorMatrix: Sendable, Hashable, CustomStringConvertible {
    public let rows: Int
    public let columns: Int
    /// Coefficients, row-major.
    public let values: [Double]

    /// Creates a matrix; sizes 1...4, finite values, not all zero.
    public init(rows: Int, columns: Int, values: [Double]) throws(InvalidValueError) {
        try require((1...4).contains(rows) && (1...4).contains(columns), "colour matrix",
                    "size \(rows)x\(columns) is outside 1...4")
        try require(values.count == rows * columns, "colour matrix",
                    "\(values.count) values given for \(rows)x\(columns)")
        try require(values.allSatisfy(\.isFinite), "colour matrix", "has a value that is not a finite number")
        try require(values.contains { $0 != 0 }, "colour matrix", "is all zeros")
        self.rows = rows
        self.columns = columns
        self.values = values
    }

    /// A 3x3 matrix from rows.
    public init(_ r0: [Double], _ r1: [Double], _ r2: [Double]) throws(InvalidValueError) {
        try self.init(rows: 3, columns: 3, values: r0 + r1 + r2)
    }

    /// The 3x3 identity.
    public static let identity3 = try! ColorMatrix([1, 0, 0], [0, 1, 0], [0, 0, 1])

    @inlinable
    public subscript(row: Int, column: Int) -> Double { values[row * columns + column] }

    /// Matrix product `self * other`.
    public func multiplied(by other: ColorMatrix) throws(InvalidValueError) -> ColorMatrix {
        try require(columns == other.rows, "colour matrix", "cannot multiply \(rows)x\(columns) by \(other.rows)x\(other.columns)")
        var out = [Double](repeating: 0, count: rows * other.columns)
        for r in 0..<rows {
            for c in 0..<other.columns {
                var sum = 0.0
                for k in 0..<columns { sum += self[r, k] * other[k, c] }
                out[r * other.columns + c] = sum
            }
        }
        return ColorMatrix(uncheckedRows: rows, columns: other.columns, values: out)
    }

    private init(uncheckedRows rows: Int, columns: Int, values: [Double]) {
        self.rows = rows
        self.columns = columns
        self.values = values
    }

    /// Applies the matrix to a vector of `columns` values.
    public func apply(_ v: [Double]) -> [Double] {
        (0..<rows).map { r in (0..<columns).reduce(0.0) { $0 + self[r, $1] * v[$1] } }
    }

    /// Inverse of a 3x3 matrix; throws when singular.
    public func inverted() throws(InvalidValueError) -> ColorMatrix {
        try require(rows == 3 && columns == 3, "colour matrix", "only 3x3 matrices can be inverted, not \(rows)x\(columns)")
        let m = values
        let c00 = m[4] * m[8] - m[5] * m[7], c01 = m[5] * m[6] - m[3] * m[8], c02 = m[3] * m[7] - m[4] * m[6]
        let det = m[0] * c00 + m[1] * c01 + m[2] * c02
        let scale = m.map(abs).max() ?? 0
        try require(det.isFinite && abs(det) > 1e-12 * scale * scale * scale, "colour matrix",
                    "is singular (determinant \(det))")
        let inv = [
            c00, m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            c01, m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            c02, m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ].map { $0 / det }
        return try ColorMatrix(rows: 3, columns: 3, values: inv)
    }

    public var description: String {
        (0..<rows).map { r in (0..<columns).map { String(format: "%.4f", self[r, $0]) }.joined(separator: " ") }
            .joined(separator: " / ")
    }
}
