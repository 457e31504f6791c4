/// Finding the smallest repeat of a two-dimensional pattern sampled over a window.
enum PeriodFinder {
    /// The smallest row and column periods (each at most `limit`) with which `grid` (row-major,
    /// `rows` x `columns`) repeats; nil for a direction in which no period up to `limit` fits the sample.
    /// The sample must be larger than the period it is to reveal.
    static func smallestPeriod<T: Equatable>(of grid: [T], rows: Int, columns: Int, limit: Int) -> (Int?, Int?) {
        precondition(grid.count == rows * columns, "grid size")
        let rowPeriod = (1...max(1, min(limit, rows))).first { p in
            (0..<(rows - p)).allSatisfy { r in
                (0..<columns).allSatisfy { c in grid[r * columns + c] == grid[(r + p) * columns + c] }
            }
        }
        let columnPeriod = (1...max(1, min(limit, columns))).first { p in
            (0..<rows).allSatisfy { r in
                (0..<(columns - p)).allSatisfy { c in grid[r * columns + c] == grid[r * columns + c + p] }
            }
        }
        return (rowPeriod, columnPeriod)
    }

    /// Greatest common divisor of two positive integers.
    static func gcd(_ a: Int, _ b: Int) -> Int {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }

    /// Least common multiple of two positive integers.
    static func lcm(_ a: Int, _ b: Int) -> Int { a / gcd(a, b) * b }
}
