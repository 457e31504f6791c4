import Foundation
import RawCore

extension LumaGrid {
    /// The grid of a linear raw: one cell per pixel of the active area, the mean of its three channels above black
    /// over each channel's range black...white (1 = clipping), so peaking and sharpness read it as they read a mosaic's.
    public init(linear frame: LinearRawFrame, threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        let area = frame.activeArea
        let w = area.width, h = area.height
        let blacks = frame.blackLevels.map { Float($0) }
        let scales = (0..<3).map { c in 1 / (3 * max(1, Float(frame.whiteLevels[c]) - blacks[c])) }
        let values = [Float](unsafeUninitializedCapacity: w * h) { grid, n in
            let g = grid.baseAddress!
            ParallelRows.run(rows: h, threads: threads) { rows in
                for y in rows {
                    let src = frame.row(area.top + y) + area.left * 3, dst = g + y * w
                    for x in 0..<w {
                        let r = (Float(src[3 * x]) - blacks[0]) * scales[0]
                        let gr = (Float(src[3 * x + 1]) - blacks[1]) * scales[1]
                        let b = (Float(src[3 * x + 2]) - blacks[2]) * scales[2]
                        dst[x] = max(0, r) + max(0, gr) + max(0, b)
                    }
                }
            }
            n = w * h
        }
        self.init(width: w, height: h, block: 1, values: values)
    }
}
