import Foundation
import RawCore

extension LumaGrid {
    /// The grid of a linear raw: one cell per 2x2 pixels of the active area (as on a Bayer mosaic, so peaking levels
    /// and sharpness mean the same blur in pixels for both; a last odd row or column is left out; an area a single
    /// pixel wide or high gets one cell per pixel), each the mean over its pixels of the three channels above black
    /// over each channel's range black...white (1 = clipping).
    public init(linear frame: LinearRawFrame, threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        let area = frame.activeArea
        let block = area.width >= 2 && area.height >= 2 ? 2 : 1
        let w = area.width / block, h = area.height / block
        let blacks = frame.blackLevels.map { Float($0) }
        let cellPixels = Float(block * block)
        let scales = (0..<3).map { c in 1 / (3 * cellPixels * max(1, Float(frame.whiteLevels[c]) - blacks[c])) }
        let values = [Float](unsafeUninitializedCapacity: w * h) { grid, n in
            let g = grid.baseAddress!
            ParallelRows.run(rows: h, threads: threads) { rows in
                for y in rows {
                    let dst = g + y * w
                    for x in 0..<w { dst[x] = 0 }
                    for dy in 0..<block {
                        let src = frame.row(area.top + y * block + dy) + area.left * 3
                        for x in 0..<w {
                            for dx in 0..<block {
                                let p = src + (x * block + dx) * 3
                                let r = (Float(p[0]) - blacks[0]) * scales[0]
                                let gr = (Float(p[1]) - blacks[1]) * scales[1]
                                let b = (Float(p[2]) - blacks[2]) * scales[2]
                                dst[x] += max(0, r) + max(0, gr) + max(0, b)
                            }
                        }
                    }
                }
            }
            n = w * h
        }
        self.init(width: w, height: h, block: block, values: values)
    }
}
