import Foundation
import RawCore
import RawDevelop

/// Linear luma of a raw frame at the analysis scale: one value per CFA block (2x2 on Bayer sensors, 3x3 on
/// X-Trans, each holding every colour; 2x2 pixels on a monochrome sensor, as for linear raws, so that peaking levels
/// and sharpness mean the same blur in pixels on every sensor), the mean of the block's samples above black over the
/// range black...white.
///
/// The grid depends only on the sensor, not on any output size, so focus peaking, sharpness and metering computed
/// on it mean the same for a preview and a full-size file; values are relative to clipping (1 = white level), so
/// a frame exposed one stop less gives half the values everywhere it is not clipped or dark.
public struct LumaGrid: Sendable {
    /// Grid columns.
    public let width: Int
    /// Grid rows.
    public let height: Int
    /// Sensor pixels per grid cell on each side.
    public let block: Int
    /// Row-major values, `width · height`.
    public let values: [Float]

    /// Creates a grid from values (for tests and other sources).
    public init(width: Int, height: Int, block: Int = 1, values: [Float]) {
        precondition(width > 0 && height > 0 && values.count == width * height, "grid size and values disagree")
        self.width = width
        self.height = height
        self.block = block
        self.values = values
    }

    /// The block side for a CFA: 2 for Bayer and for a monochrome sensor (as a linear raw's grid), 3 for X-Trans (every
    /// 3x3 holds all colours), else the smaller side of the pattern.
    public static func blockSide(for cfa: CFALayout) -> Int {
        if cfa.isBayer || cfa.isMonochrome { return 2 }
        if cfa.rows == 6 && cfa.columns == 6 { return 3 }
        return max(1, min(cfa.rows, cfa.columns))
    }

    /// How a frame maps onto its grid: block side, grid size, and the scale and offset that turn a block's sample
    /// sum into luma.
    struct Mapping: Sendable {
        let block: Int
        let width: Int
        let height: Int
        /// Grid rows and columns covered by whole blocks (smaller than the grid only when the area is smaller
        /// than one block).
        let usableWidth: Int
        let usableHeight: Int
        let scale: Float
        let offset: Float

        init(frame: RawFrame) {
            let b = LumaGrid.blockSide(for: frame.cfa)
            let area = frame.activeArea
            block = b
            width = max(1, area.width / b)
            height = max(1, area.height / b)
            usableWidth = min(width, area.width / b)
            usableHeight = min(height, area.height / b)
            // Black per block: the mean black level of the first block's positions times its sample count; exact when the
            // black pattern repeats within a block (a uniform black, or a 2x2 pattern on a Bayer sensor), an average
            // otherwise (a 2x2 black pattern on X-Trans's 3x3 blocks).
            var blackSum = 0.0
            for r in 0..<b { for c in 0..<b { blackSum += frame.blackLevel(row: area.top + r, column: area.left + c) } }
            let blackMean = blackSum / Double(b * b)
            scale = Float(1 / (Double(b * b) * max(1, Double(frame.whiteLevel) - blackMean)))
            offset = Float(blackSum) * scale
        }

        /// Grid row `y` of `frame` into `dst` (`width` values; cells without a whole block are 0).
        func row(_ frame: RawFrame, _ y: Int, into dst: UnsafeMutablePointer<Float>) {
            guard y < usableHeight else {
                for x in 0..<width { dst[x] = 0 }
                return
            }
            let area = frame.activeArea
            let b = block, scale = self.scale, offset = self.offset
            let first = UnsafePointer(frame.storage.baseAddress + (area.top + y * b) * frame.rowStride + area.left)
            if b == 2 {
                let r0 = first, r1 = first + frame.rowStride
                for x in 0..<usableWidth {
                    let s = Int32(r0[2 * x]) &+ Int32(r0[2 * x + 1]) &+ Int32(r1[2 * x]) &+ Int32(r1[2 * x + 1])
                    dst[x] = Float(s) * scale - offset
                }
            } else {
                for x in 0..<usableWidth {
                    var s: Int32 = 0
                    for dy in 0..<b {
                        let row = first + dy * frame.rowStride + x * b
                        for dx in 0..<b { s &+= Int32(row[dx]) }
                    }
                    dst[x] = Float(s) * scale - offset
                }
            }
            for x in usableWidth..<width { dst[x] = 0 }
        }
    }

    /// The luma grid of `frame`'s active area (a last partial block row or column is left out), computed on
    /// `threads` threads.
    public init(frame: RawFrame, threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        let mapping = Mapping(frame: frame)
        let w = mapping.width, h = mapping.height
        let out = [Float](unsafeUninitializedCapacity: w * h) { grid, n in
            let g = grid.baseAddress!
            ParallelRows.run(rows: h, threads: threads, minimumRows: 32) { rows in
                for y in rows { mapping.row(frame, y, into: g + y * w) }
            }
            n = w * h
        }
        self.init(width: w, height: h, block: mapping.block, values: out)
    }
}
