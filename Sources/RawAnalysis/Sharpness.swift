/// How sharp a frame is: the mean squared edge strength (Tenengrad) of its ``GradientField`` over the squared mean
/// luma, so exposure does not change it, for the whole frame and each zone of a 3x3 grid (row by row).
///
/// Defocus spreads every edge, which lowers the squared gradient sum, so the score falls as focus moves away
/// from the subject; noise keeps a floor under it.
public struct Sharpness: Sendable, Hashable, Codable {
    /// The whole frame's score.
    public let score: Double
    /// The nine zones' scores, row by row.
    public let zones: [Double]

    /// The scores of `field` computed on `luma` (the grid the field came from).
    public init(_ field: GradientField, luma: LumaGrid) {
        precondition(field.width == luma.width && field.height == luma.height, "field and luma grids differ")
        let w = field.width, h = field.height
        var squares = [Double](repeating: 0, count: 9), light = [Double](repeating: 0, count: 9)
        var cells = [Double](repeating: 0, count: 9)
        field.magnitudes.withUnsafeBufferPointer { m in
            luma.values.withUnsafeBufferPointer { l in
                for zy in 0..<3 {
                    let rows = (zy * h / 3)..<((zy + 1) * h / 3)
                    for zx in 0..<3 {
                        let columns = (zx * w / 3)..<((zx + 1) * w / 3)
                        var s: Float = 0, t: Float = 0
                        var sumS = 0.0, sumT = 0.0
                        for y in rows {
                            s = 0; t = 0
                            let mr = m.baseAddress! + y * w, lr = l.baseAddress! + y * w
                            for x in columns { s += mr[x] * mr[x]; t += lr[x] }
                            sumS += Double(s); sumT += Double(t)
                        }
                        let z = zy * 3 + zx
                        squares[z] = sumS
                        light[z] = sumT
                        cells[z] = Double(rows.count * columns.count)
                    }
                }
            }
        }
        func tenengrad(_ s: Double, _ t: Double, _ n: Double) -> Double {
            guard n > 0 else { return 0 }
            let mean = t / n
            return mean > 1e-9 ? (s / n) / (mean * mean) : 0
        }
        zones = (0..<9).map { tenengrad(squares[$0], light[$0], cells[$0]) }
        score = tenengrad(squares.reduce(0, +), light.reduce(0, +), cells.reduce(0, +))
    }
}
