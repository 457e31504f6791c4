import Foundation

/// How strong an edge must be to be marked.
public enum PeakingThreshold: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Mark the strongest `fraction` of the cells (0 < fraction < 1): the threshold is the magnitude that many cells
    /// reach, so it follows the picture and not its exposure or size.
    case fraction(Double)
    /// Strength levels: a cell reaches level n when its magnitude is at least mean + kₙ · standard deviation of all
    /// magnitudes (k ascending, at most 3 levels).
    case deviations([Double])

    /// The default: the strongest 4 % of the cells.
    public static let standard = PeakingThreshold.fraction(0.04)

    /// Parses `4%`, `0.04`, or `sd:1,2,3`.
    public init?(parsing text: String) {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t.hasPrefix("sd:") {
            let ks = t.dropFirst(3).split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard !ks.isEmpty, ks.count <= 3, ks.allSatisfy({ $0 != nil && $0!.isFinite }) else { return nil }
            let values = ks.map { $0! }
            guard values == values.sorted() else { return nil }
            self = .deviations(values)
            return
        }
        let percent = t.hasSuffix("%")
        guard let v = Double(percent ? String(t.dropLast()) : t) else { return nil }
        let f = percent ? v / 100 : v
        guard f > 0, f < 1 else { return nil }
        self = .fraction(f)
    }

    /// `4%` or `sd:1,2,3`.
    public var description: String {
        switch self {
        case .fraction(let f): return "\(f * 100)%"
        case .deviations(let ks): return "sd:" + ks.map { "\($0)" }.joined(separator: ",")
        }
    }
}

/// A focus-peaking mask: the in-focus edges of a frame, one cell per ``LumaGrid`` cell.
public struct FocusPeaking: Sendable {
    /// Grid columns.
    public let width: Int
    /// Grid rows.
    public let height: Int
    /// 0 for unmarked cells, else the strength level (1 for a fraction threshold; 1...3 for deviation bands).
    public let mask: [UInt8]
    /// The magnitude each level starts at, ascending.
    public let thresholds: [Float]
    /// The rule used.
    public let rule: PeakingThreshold

    /// Marks the cells of `field` that reach `rule`'s threshold.
    public init(_ field: GradientField, rule: PeakingThreshold = .standard) {
        width = field.width
        height = field.height
        self.rule = rule
        let values = field.magnitudes
        switch rule {
        case .fraction(let f):
            let count = max(1, Int((Double(values.count) * f).rounded()))
            thresholds = [Self.largest(values, rank: count)]
        case .deviations(let ks):
            var sum = 0.0, sumSquares = 0.0
            for v in values { sum += Double(v); sumSquares += Double(v) * Double(v) }
            let n = Double(values.count)
            let mean = sum / n
            let sd = (max(0, sumSquares / n - mean * mean)).squareRoot()
            thresholds = ks.prefix(3).map { Float(mean + $0 * sd) }
        }
        var mask = [UInt8](repeating: 0, count: values.count)
        let t = thresholds
        values.withUnsafeBufferPointer { v in
            mask.withUnsafeMutableBufferPointer { m in
                for level in t.indices {
                    let threshold = t[level], mark = UInt8(level + 1)
                    for i in 0..<v.count { m[i] = v[i] >= threshold ? mark : m[i] }
                }
            }
        }
        self.mask = mask
    }

    /// Fraction of cells marked (any level).
    public var markedFraction: Double {
        Double(mask.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }) / Double(max(1, mask.count))
    }

    /// The `rank`-th largest value (1 = the largest): a coarse histogram finds its bin, then the bin's values are sorted.
    static func largest(_ values: [Float], rank: Int) -> Float {
        guard !values.isEmpty else { return 0 }
        var top: Float = 0
        for v in values where v > top { top = v }
        guard top > 0 else { return 0 }
        let bins = 4096
        let scale = Float(bins) / top
        var counts = [Int](repeating: 0, count: bins + 1)
        for v in values { counts[min(bins, Int(max(0, v) * scale))] += 1 }
        var above = 0, bin = bins
        while bin > 0 && above + counts[bin] < rank { above += counts[bin]; bin -= 1 }
        var inBin: [Float] = []
        inBin.reserveCapacity(counts[bin])
        for v in values where min(bins, Int(max(0, v) * scale)) == bin { inBin.append(v) }
        inBin.sort(by: >)
        let index = min(inBin.count - 1, max(0, rank - above - 1))
        return inBin.isEmpty ? 0 : inBin[index]
    }
}
