import Foundation
import RawCore
import RawDevelop
import Synchronization

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

    /// True for ``fraction(_:)``.
    public var isFraction: Bool { if case .fraction = self { true } else { false } }

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

    /// Marks the cells of `field` that reach `rule`'s threshold, on `threads` threads.
    public init(_ field: GradientField, rule: PeakingThreshold = .standard,
                threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        width = field.width
        height = field.height
        self.rule = rule
        let values = field.magnitudes
        switch rule {
        case .fraction(let f):
            let count = max(1, Int((Double(values.count) * f).rounded()))
            thresholds = [Self.largest(field, rank: count, threads: threads)]
        case .deviations(let ks):
            let (sum, sumSquares) = Self.sums(values)
            let n = Double(values.count)
            let mean = sum / n
            let sd = (max(0, sumSquares / n - mean * mean)).squareRoot()
            thresholds = ks.prefix(3).map { Float(mean + $0 * sd) }
        }
        // A threshold of 0 (a flat or wholly clipped frame) would mark every cell: edges must be stronger than nothing.
        let t = thresholds.map { $0 > 0 ? $0 : Float.leastNonzeroMagnitude }
        let w = field.width
        mask = [UInt8](unsafeUninitializedCapacity: values.count) { m, count in
            values.withUnsafeBufferPointer { v in
                let source = v.baseAddress!, target = m.baseAddress!
                ParallelRows.run(rows: field.height, threads: threads, minimumRows: 32) { rows in
                    let v = source + rows.lowerBound * w, m = target + rows.lowerBound * w
                    let n = rows.count * w
                    let first = t.first ?? .infinity
                    for i in 0..<n { m[i] = v[i] >= first ? 1 : 0 }
                    for level in t.indices.dropFirst() {
                        let threshold = t[level], mark = UInt8(level + 1)
                        for i in 0..<n { m[i] = v[i] >= threshold ? mark : m[i] }
                    }
                }
            }
            count = values.count
        }
    }

    /// Fraction of cells marked (any level).
    public var markedFraction: Double {
        Double(mask.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }) / Double(max(1, mask.count))
    }

    /// Σv and Σv² in Double, from Float partial sums of 8 lanes over runs of 4096 values (a loop the compiler
    /// vectorises; a single Double accumulator would keep it scalar and serial).
    static func sums(_ values: [Float]) -> (Double, Double) {
        var sum = 0.0, sumSquares = 0.0
        values.withUnsafeBufferPointer { v in
            var start = 0
            while start < v.count {
                let end = min(v.count, start + 4096)
                var a = [Float](repeating: 0, count: 8), b = [Float](repeating: 0, count: 8)
                a.withUnsafeMutableBufferPointer { la in
                    b.withUnsafeMutableBufferPointer { lb in
                        var i = start
                        while i + 8 <= end {
                            for k in 0..<8 { let x = v[i + k]; la[k] += x; lb[k] += x * x }
                            i += 8
                        }
                        while i < end { la[0] += v[i]; lb[0] += v[i] * v[i]; i += 1 }
                    }
                }
                for k in 0..<8 { sum += Double(a[k]); sumSquares += Double(b[k]) }
                start = end
            }
        }
        return (sum, sumSquares)
    }

    /// The `rank`-th largest value (1 = the largest): from the field's coarse histogram (counted while it was
    /// computed, or here) the bin holding that rank, then only that bin's values sorted.
    static func largest(_ field: GradientField, rank: Int, threads: Int) -> Float {
        let values = field.magnitudes
        guard !values.isEmpty else { return 0 }
        let counts: [Int]
        if let c = field.coarseCounts {
            counts = c
        } else {
            let tables = CountTables(count: 1, bins: GradientField.coarseBins)
            values.withUnsafeBufferPointer { tables.count($0.baseAddress!, n: $0.count) }
            counts = tables.merged()
        }
        var above = 0, bin = counts.count - 1
        while bin > 0 && above + counts[bin] < rank { above += counts[bin]; bin -= 1 }
        let key = UInt32(bin)
        // The bin's values, gathered band by band on all threads.
        let gathered = Gathered()
        values.withUnsafeBufferPointer { v in
            let source = v.baseAddress!
            let w = field.width
            ParallelRows.run(rows: field.height, threads: threads, minimumRows: 32) { rows in
                let start = source + rows.lowerBound * w
                let bits = UnsafeRawPointer(start).assumingMemoryBound(to: UInt32.self)
                var found: [Float] = []
                for i in 0..<(rows.count * w) where bits[i] >> 16 == key { found.append(start[i]) }
                gathered.add(found)
            }
        }
        var inBin = gathered.values
        guard !inBin.isEmpty else { return 0 }
        inBin.sort(by: >)
        return inBin[min(inBin.count - 1, max(0, rank - above - 1))]
    }
}

/// Values gathered by several workers.
private final class Gathered: Sendable {
    private let gathered = Mutex<[Float]>([])
    var values: [Float] { gathered.withLock { $0 } }
    func add(_ more: [Float]) { gathered.withLock { $0 += more } }
}
