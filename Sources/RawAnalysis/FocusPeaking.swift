import Foundation
import RawCore
import RawDevelop
import Synchronization

/// A focus-peaking mask: the in-focus edges of a frame, one cell per ``LumaGrid`` cell.
///
/// The default rule is absolute (``PeakingThreshold/contrast(_:)``): a cell is marked when its edge contrast reaches
/// the level, and its magnitude stands ``noiseFactor`` times clear of the median that the frame's own noise gives at
/// its brightness (``EdgeNoise``). The contrast is the Sobel magnitude over four times the brightest filtered luma
/// within ``contrastRadius`` cells: a sharp step from black to white measures 0.75 (the filters spread it over two
/// cells), a step blurred over `W` cells about 2/W, and exposure changes neither. A defocused subject spreads every
/// edge over many cells and loses its contrast, so it is not marked; a flat noisy frame is not marked either.
public struct FocusPeaking: Sendable {
    /// Grid columns.
    public let width: Int
    /// Grid rows.
    public let height: Int
    /// 0 for unmarked cells, else the strength level (1 for a contrast or fraction threshold; 1...3 for deviation bands).
    public let mask: [UInt8]
    /// What each level starts at, ascending: an edge contrast for a contrast rule, a magnitude otherwise.
    public let thresholds: [Float]
    /// The rule used.
    public let rule: PeakingThreshold
    /// The noise model a contrast rule measured (nil for the other rules).
    public let noise: EdgeNoise?

    /// How far above the noise's median magnitude an edge must be: 4x, which pure noise reaches in 2⁻¹⁶ of the
    /// cells (its squared magnitude is exponential: P(M² > 16 · median) = 2⁻¹⁶).
    public static let noiseFactor: Float = 4
    /// Cells each side of the window whose brightest light an edge's contrast is measured against. A blurred ramp
    /// wider than this still measures at most 2 / radius = 0.25 at its dark foot, below every named level.
    public static let contrastRadius = 8
    /// Brightness below which contrast is measured against this floor (about ten stops under white): deep shadows
    /// are not peaked for their noise.
    public static let brightnessFloor: Float = 1.0 / 1024

    /// Marks the cells of `field` that reach `rule`'s threshold, on `threads` threads.
    public init(_ field: GradientField, rule: PeakingThreshold = .standard,
                threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        width = field.width
        height = field.height
        self.rule = rule
        let values = field.magnitudes
        switch rule {
        case .contrast(let c):
            let model = EdgeNoise(field)
            noise = model
            thresholds = [Float(c)]
            mask = Self.contrastMask(field, contrast: Float(c), noise: model, threads: threads)
            return
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
        noise = nil
        mask = Self.levelMask(field, thresholds: thresholds, threads: threads)
    }

    /// The mask of magnitude thresholds: level n + 1 where the magnitude reaches `thresholds[n]`.
    static func levelMask(_ field: GradientField, thresholds: [Float], threads: Int) -> [UInt8] {
        // A threshold of 0 (a flat or wholly clipped frame) would mark every cell: edges must be stronger than nothing.
        let t = thresholds.map { $0 > 0 ? $0 : Float.leastNonzeroMagnitude }
        let w = field.width, values = field.magnitudes
        return [UInt8](unsafeUninitializedCapacity: values.count) { m, count in
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

    /// The contrast mask: 1 where `M ≥ 4 · contrast · max(B, floor)` and `M² ≥ noiseFactor² · median(B)`, compared
    /// without a division or a square root (both sides are non-negative).
    static func contrastMask(_ field: GradientField, contrast: Float, noise: EdgeNoise, threads: Int) -> [UInt8] {
        let w = field.width, count = field.magnitudes.count
        let light = LocalMaximum.of(field.brightness, width: w, height: field.height, radius: contrastRadius - 1,
                                    threads: threads)
        let scale = 4 * contrast, floor = brightnessFloor
        let k2 = noiseFactor * noiseFactor
        let slope = k2 * Float(noise.slope), offset = k2 * Float(noise.offset)
        return [UInt8](unsafeUninitializedCapacity: count) { m, initialised in
            field.magnitudes.withUnsafeBufferPointer { v in
                field.brightness.withUnsafeBufferPointer { l in
                  light.withUnsafeBufferPointer { wide in
                    let source = v.baseAddress!, local = l.baseAddress!, window = wide.baseAddress!, target = m.baseAddress!
                    ParallelRows.run(rows: field.height, threads: threads, minimumRows: 32) { rows in
                        let start = rows.lowerBound * w, n = rows.count * w
                        let v = source + start, l = local + start, b = window + start, m = target + start
                        for i in 0..<n {
                            let magnitude = v[i]
                            let edge = magnitude >= scale * max(b[i], floor) && magnitude > 0
                            let clear = magnitude * magnitude >= slope * l[i] + offset
                            m[i] = edge && clear ? 1 : 0
                        }
                    }
                  }
                }
            }
            initialised = count
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
