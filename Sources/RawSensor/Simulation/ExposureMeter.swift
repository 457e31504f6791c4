import Foundation

/// Measures the brightness of a scene plane the way a camera's meter does, in scene-plane response units.
///
/// The same code serves the simulated sensor's auto exposure and (later) the analysis of any frame. Samples
/// are whole 2x2 CFA blocks (so every colour counts), taken every 8 pixels.
enum ExposureMeter {
    /// Mean response of the zone or weighting `mode` selects, each sample first scaled by `scale` and
    /// clipped at `clip` (so that a meter looking at a frame sees what the frame records).
    static func meter(_ plane: FloatPlane, mode: MeteringMode, scale: Double = 1, clip: Double = .infinity) -> Double {
        switch mode {
        case .matrix:
            // Evaluative: the log-average of the nine zones, so one bright zone does not dominate.
            let zones = zoneMeans(plane, scale: scale, clip: clip).map { max($0, 1e-9) }
            return exp(zones.map { log($0) }.reduce(0, +) / 9)
        case .centreWeighted:
            return weightedMean(plane, scale: scale, clip: clip) { x, y in
                let dx = x - 0.5, dy = y - 0.5
                return exp(-(dx * dx + dy * dy) / (2 * 0.2 * 0.2))
            }
        case .spot(let point):
            let radius = 0.02
            let aspect = Double(plane.height) / Double(plane.width)
            return weightedMean(plane, step: 2, scale: scale, clip: clip) { x, y in
                let dx = x - point.x, dy = (y - point.y) * aspect
                return dx * dx + dy * dy <= radius * radius ? 1 : 0
            }
        case .zone(let index):
            return zoneMeans(plane, scale: scale, clip: clip)[index]
        }
    }

    /// Means of the nine zones of the 3x3 grid (row by row) in one pass.
    static func zoneMeans(_ plane: FloatPlane, step: Int = 4, scale: Double = 1, clip: Double = .infinity) -> [Double] {
        var sums = [Double](repeating: 0, count: 9), counts = [Double](repeating: 0, count: 9)
        let w = plane.width, h = plane.height
        var row = 0
        while row + 1 < h {
            let zy = Int(min(2, (Double(row) + 1) / Double(h) * 3))
            var column = 0
            while column + 1 < w {
                let zx = Int(min(2, (Double(column) + 1) / Double(w) * 3))
                let p = plane.values + row * w + column
                let block = min(Double(p[0]) * scale, clip) + min(Double(p[1]) * scale, clip)
                    + min(Double(p[w]) * scale, clip) + min(Double(p[w + 1]) * scale, clip)
                sums[zy * 3 + zx] += block / 4
                counts[zy * 3 + zx] += 1
                column += 2 * step
            }
            row += 2 * step
        }
        return (0..<9).map { counts[$0] > 0 ? sums[$0] / counts[$0] : 0 }
    }

    /// Weighted mean over 2x2 blocks every `step` blocks; `weight` gets normalised block centres (0...1).
    static func weightedMean(_ plane: FloatPlane, step: Int = 4, scale: Double = 1, clip: Double = .infinity,
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
                    let p = plane.values + row * w + column
                    let block = min(Double(p[0]) * scale, clip) + min(Double(p[1]) * scale, clip)
                        + min(Double(p[w]) * scale, clip) + min(Double(p[w + 1]) * scale, clip)
                    sum += wt * block / 4
                    total += wt
                }
                column += 2 * step
            }
            row += 2 * step
        }
        return total > 0 ? sum / total : 0
    }
}
