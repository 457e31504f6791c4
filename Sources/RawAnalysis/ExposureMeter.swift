import Foundation
import RawCore

/// A plane a meter can read: linear values (signal above black), row-major, on a CFA-like pixel grid.
public protocol MeteredPlane {
    /// Columns.
    var width: Int { get }
    /// Rows.
    var height: Int { get }
    /// The value at (row, column), linear in light.
    func value(row: Int, column: Int) -> Double
}

/// Measures the brightness of a plane the way a camera's meter does: matrix, centre-weighted, spot or one zone of
/// the 3x3 grid (`MeteringMode`). The simulated sensor's auto exposure meters its scene with this code and
/// `rawburst analyze` meters frames with it.
///
/// Samples are whole 2x2 blocks (so every colour of a Bayer mosaic counts), taken every 8 pixels; each sample is
/// first scaled by `scale` and clipped at `clip`, so that a meter looking at a scene sees what a frame would record.
public enum ExposureMeter {
    /// Mean value of what `mode` selects.
    public static func meter(_ plane: some MeteredPlane, mode: MeteringMode, scale: Double = 1, clip: Double = .infinity) -> Double {
        switch mode {
        case .matrix:
            return matrixMean(zones: zoneMeans(plane, scale: scale, clip: clip))
        case .centreWeighted:
            return weightedMean(plane, scale: scale, clip: clip) { x, y in
                let dx = x - 0.5, dy = y - 0.5
                return exp(-(dx * dx + dy * dy) / (2 * 0.2 * 0.2))
            }
        case .spot(let point):
            return spotMean(plane, at: point, scale: scale, clip: clip)
        case .zone(let index):
            return zoneMeans(plane, scale: scale, clip: clip)[index]
        }
    }

    /// Evaluative metering from the nine zone means: their log-average, so one bright zone does not dominate.
    public static func matrixMean(zones: [Double]) -> Double {
        exp(zones.map { log(max($0, 1e-9)) }.reduce(0, +) / Double(max(1, zones.count)))
    }

    /// Radius of the spot circle, as a fraction of the width.
    public static let spotRadius = 0.02

    /// The mean in a circle of ``spotRadius`` around `point` (normalised coordinates).
    public static func spotMean(_ plane: some MeteredPlane, at point: NormalisedPoint, scale: Double = 1,
                                clip: Double = .infinity) -> Double {
        let radius = spotRadius
        let aspect = Double(plane.height) / Double(plane.width)
        return weightedMean(plane, step: 2, scale: scale, clip: clip) { x, y in
            let dx = x - point.x, dy = (y - point.y) * aspect
            return dx * dx + dy * dy <= radius * radius ? 1 : 0
        }
    }

    /// Means of the nine zones of the 3x3 grid (row by row) in one pass.
    public static func zoneMeans(_ plane: some MeteredPlane, step: Int = 4, scale: Double = 1,
                                 clip: Double = .infinity) -> [Double] {
        var sums = [Double](repeating: 0, count: 9), counts = [Double](repeating: 0, count: 9)
        let w = plane.width, h = plane.height
        var row = 0
        while row + 1 < h {
            let zy = Int(min(2, (Double(row) + 1) / Double(h) * 3))
            var column = 0
            while column + 1 < w {
                let zx = Int(min(2, (Double(column) + 1) / Double(w) * 3))
                sums[zy * 3 + zx] += block(plane, row, column, scale, clip)
                counts[zy * 3 + zx] += 1
                column += 2 * step
            }
            row += 2 * step
        }
        return (0..<9).map { counts[$0] > 0 ? sums[$0] / counts[$0] : 0 }
    }

    /// Weighted mean over 2x2 blocks every `step` blocks; `weight` gets normalised block centres (0...1).
    public static func weightedMean(_ plane: some MeteredPlane, step: Int = 4, scale: Double = 1, clip: Double = .infinity,
                                    weight: (Double, Double) -> Double) -> Double {
        var sum = 0.0, total = 0.0
        let w = plane.width, h = plane.height
        var row = 0
        while row + 1 < h {
            var column = 0
            let y = (Double(row) + 1) / Double(h)
            while column + 1 < w {
                let x = (Double(column) + 1) / Double(w)
                let wt = weight(x, y)
                if wt > 0 {
                    sum += wt * block(plane, row, column, scale, clip)
                    total += wt
                }
                column += 2 * step
            }
            row += 2 * step
        }
        return total > 0 ? sum / total : 0
    }

    /// The mean of the 2x2 block at (row, column), each value scaled and clipped.
    @inline(__always)
    static func block(_ plane: some MeteredPlane, _ row: Int, _ column: Int, _ scale: Double, _ clip: Double) -> Double {
        (min(plane.value(row: row, column: column) * scale, clip) + min(plane.value(row: row, column: column + 1) * scale, clip)
            + min(plane.value(row: row + 1, column: column) * scale, clip)
            + min(plane.value(row: row + 1, column: column + 1) * scale, clip)) / 4
    }
}
