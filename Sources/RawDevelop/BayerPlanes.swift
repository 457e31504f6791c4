import RawCore

/// The four sub-lattices of a Bayer mosaic — red, green on red rows, green on blue rows, blue — normalised
/// (black subtracted, scaled to white = 1), white-balanced and clipped, over the 2x2 blocks that cover a
/// rectangle of the frame, with one block of margin on every side.
///
/// Block (0, 0) starts at the red pixel at or just above and left of the rectangle's top-left corner. Margin
/// samples come from the frame beyond the rectangle where the active area has them, and are mirrored at the
/// active area's edges (mirroring about a pixel keeps each position's colour). Splitting the mosaic this way
/// makes every demosaic stencil a unit-stride loop over four small planes, which the compiler vectorises.
final class BayerPlanes: Sendable {
    /// Blocks covering the rectangle.
    let blockRows: Int
    let blockColumns: Int
    /// Distance between plane rows (`blockColumns + 2`).
    let stride: Int
    /// Buffer coordinates of block (0, 0)'s red pixel.
    let originRow: Int
    let originColumn: Int
    /// Red, green-on-red-rows, green-on-blue-rows, blue.
    let planes: [PlaneBuffer]

    /// Builds the planes for `rect` (buffer coordinates, inside the active area) of a Bayer `frame`.
    init(frame: RawFrame, rect: PixelRect, gains: [Double], ceilings: [Float], threads: Int) {
        // Where is red? Look at the rectangle's first 2x2 pixels.
        var redRow = rect.top, redColumn = rect.left
        search: for dy in 0..<2 {
            for dx in 0..<2 where frame.color(row: rect.top + dy, column: rect.left + dx) == .red {
                redRow = rect.top + dy
                redColumn = rect.left + dx
                break search
            }
        }
        originRow = redRow > rect.top ? redRow - 2 : redRow
        originColumn = redColumn > rect.left ? redColumn - 2 : redColumn
        blockRows = (rect.bottom - originRow + 1) / 2
        blockColumns = (rect.right - originColumn + 1) / 2
        stride = blockColumns + 2
        let count = (blockRows + 2) * stride
        planes = (0..<4).map { _ in PlaneBuffer(count: count) }

        let area = frame.activeArea
        // Source columns of each block's even and odd pixel, margin included.
        let columns: [[Int]] = (0..<2).map { dx in
            (0..<stride).map { pj in mirrored(originColumn + 2 * (pj - 1) + dx, area.left, area.right) }
        }
        // Colour of each plane: R at (0,0), G at (0,1) and (1,0), B at (1,1).
        let channel = [0, 1, 1, 2]
        // Black level per plane when the black pattern repeats within 2x2 (nearly always); else per pixel.
        let blackPerPlane = 2 % frame.blackLevels.rows == 0 && 2 % frame.blackLevels.columns == 0
        let white = Double(frame.whiteLevel)
        let base = frame.storage.baseAddress
        let rowStride = frame.rowStride
        let planePointers = planes.map(\.base)
        let blockStride = stride
        let (oy, ox) = (originRow, originColumn)
        let planeBlack: [Double] = (0..<4).map { p in
            frame.blackLevel(row: oy + p / 2, column: ox + p % 2)
        }
        ParallelRows.run(rows: blockRows + 2, threads: threads) { rows in
            for pi in rows {
                for p in 0..<4 {
                    let dy = p / 2, dx = p % 2
                    let y = mirrored(oy + 2 * (pi - 1) + dy, area.top, area.bottom)
                    let src = base + y * rowStride
                    let dst = planePointers[p] + pi * blockStride
                    let cols = columns[dx]
                    let c = channel[p]
                    let ceiling = ceilings[c]
                    if blackPerPlane {
                        let black = Float(planeBlack[p])
                        let scale = Float(gains[c] / max(1, white - planeBlack[p]))
                        cols.withUnsafeBufferPointer { cp in
                            for j in 0..<cp.count {
                                let v = (Float(src[cp[j]]) - black) * scale
                                dst[j] = min(max(v, 0), ceiling)
                            }
                        }
                    } else {
                        for j in 0..<cols.count {
                            let black = frame.blackLevel(row: y, column: cols[j])
                            let v = Float((Double(src[cols[j]]) - black) * gains[c] / max(1, white - black))
                            dst[j] = min(max(v, 0), ceiling)
                        }
                    }
                }
            }
        }
    }

    /// Pointer to block (`row`, 0) of plane `plane` (row −1 and column −1 are the margin).
    @inline(__always)
    func row(_ plane: Int, _ row: Int) -> UnsafeMutablePointer<Float> {
        planes[plane].base + (row + 1) * stride + 1
    }
}
