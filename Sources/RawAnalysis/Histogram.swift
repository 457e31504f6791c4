/// Counts of integer samples in equal bins: values `0..<range` fall into `bins` bins, value `v` into bin
/// `v · bins / range` (integer division), so with `bins == range` every value has its own bin and with a power of
/// two it is `numpy.histogram(values, bins, range=(0, range))` exactly.
public struct Histogram: Sendable, Hashable, Codable {
    /// Samples per bin, lowest bin first.
    public let counts: [Int]
    /// The values binned are `0..<range`.
    public let range: Int

    /// Creates a histogram from its counts.
    public init(counts: [Int], range: Int) {
        precondition(!counts.isEmpty && range >= counts.count, "a histogram needs 1...range bins")
        self.counts = counts
        self.range = range
    }

    /// Re-bins full-depth counts (one per value of `0..<values.count`) into `bins` bins.
    public init(fullDepth values: [Int], bins: Int) {
        let range = values.count
        let n = min(max(1, bins), range)
        var counts = [Int](repeating: 0, count: n)
        if n == range {
            counts = values
        } else {
            for (v, c) in values.enumerated() where c != 0 { counts[v * n / range] += c }
        }
        self.init(counts: counts, range: range)
    }

    /// The number of bins.
    public var bins: Int { counts.count }
    /// The number of samples counted.
    public var total: Int { counts.reduce(0, +) }

    /// The first value of bin `index`.
    public func lowerEdge(_ index: Int) -> Int { (index * range + bins - 1) / bins }

    /// Running sums: `cumulative[k]` samples fall in bins `0...k`.
    public var cumulative: [Int] {
        var sum = 0
        return counts.map { sum += $0; return sum }
    }

    /// The value below which a fraction `q` (0...1) of the samples lie: the first value of the first bin where
    /// the running count reaches `q · total` (with full-depth bins, the exact sample value). Nil when empty.
    public func quantile(_ q: Double) -> Int? {
        let total = self.total
        guard total > 0 else { return nil }
        let needed = max(1, Int((min(max(q, 0), 1) * Double(total)).rounded(.up)))
        var sum = 0
        for (index, c) in counts.enumerated() {
            sum += c
            if sum >= needed { return lowerEdge(index) }
        }
        return lowerEdge(bins - 1)
    }

    /// The mean value, each sample taken at the middle of its bin's values (exact with full-depth bins).
    public var mean: Double? {
        let total = self.total
        guard total > 0 else { return nil }
        var sum = 0.0
        for (index, c) in counts.enumerated() where c != 0 {
            let low = lowerEdge(index), high = index + 1 < bins ? lowerEdge(index + 1) - 1 : range - 1
            sum += Double(c) * Double(low + high) / 2
        }
        return sum / Double(total)
    }
}
