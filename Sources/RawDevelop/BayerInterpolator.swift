import RawCore

/// The Bayer planes' indices in `BayerPlanes`: red, green on red rows, green on blue rows, blue.
private let R = 0, GR = 1, GB = 2, B = 3

/// Fills in the two missing colours at every site of a ``BayerPlanes`` block row, bilinearly or with the
/// Malvar-He-Cutler kernels.
///
/// MHC (Malvar, He, Cutler: "High-quality linear interpolation for demosaicing of Bayer-patterned color
/// images", ICASSP 2004) adds to the bilinear estimate a fraction of the known colour's Laplacian at the
/// same site, with 5x5 kernels whose weights the paper derives from image statistics. Here every kernel is
/// written out per site on the four sub-lattice planes: N/S/E/W are the nearest pixels, N2/S2/E2/W2 the
/// same-colour pixels two away, NW/NE/SW/SE the diagonals. Results are clamped to 0...`ceiling`.
struct BayerInterpolator: Sendable {
    let method: DemosaicMethod
    let ceiling: Float

    /// Interpolates every block row of `planes` (in parallel) and hands each site's pixels that fall inside `rect`
    /// to `sink` as (row and column within `rect`, pixel count, red, green, blue): every other pixel of one row,
    /// so the sink steps two pixels per value.
    func run(_ planes: BayerPlanes, rect: PixelRect, threads: Int,
             sink: (Int, Int, Int, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> Void) {
        ParallelRows.run(rows: planes.blockRows, threads: threads, minimumRows: 8) { blockRows in
            let scratch = PlaneBuffer(count: 12 * planes.blockColumns)
            let rows = (0..<12).map { scratch.base + $0 * planes.blockColumns }
            for i in blockRows {
                interpolate(planes, blockRow: i, into: rows)
                for site in 0..<4 {
                    let y = planes.originRow + 2 * i + site / 2
                    guard y >= rect.top && y < rect.bottom else { continue }
                    let firstColumn = planes.originColumn + site % 2
                    let jStart = firstColumn < rect.left ? 1 : 0
                    let jEnd = min(planes.blockColumns, (rect.right - firstColumn + 1) / 2)
                    guard jEnd > jStart else { continue }
                    sink(y - rect.top, firstColumn + 2 * jStart - rect.left, jEnd - jStart,
                         rows[site * 3] + jStart, rows[site * 3 + 1] + jStart, rows[site * 3 + 2] + jStart)
                }
            }
        }
    }

    /// The 12 rows (site × channel) of one block row: `output[site * 3 + channel]`, sites in the order red,
    /// green-on-red-row, green-on-blue-row, blue; each row `planes.blockColumns` long.
    func interpolate(_ planes: BayerPlanes, blockRow i: Int, into output: [UnsafeMutablePointer<Float>]) {
        redSite(planes, blockRow: i, into: output)
        greenOnRedRow(planes, blockRow: i, into: output)
        greenOnBlueRow(planes, blockRow: i, into: output)
        blueSite(planes, blockRow: i, into: output)
    }

    /// Red site: R known; G from the cross, B from the diagonals.
    private func redSite(_ planes: BayerPlanes, blockRow i: Int, into output: [UnsafeMutablePointer<Float>]) {
        let (n, hi, mhc) = (planes.blockColumns, ceiling, method != .bilinear)
        let c = planes.row(R, i), n2 = planes.row(R, i - 1), s2 = planes.row(R, i + 1)
        let gN = planes.row(GB, i - 1), gS = planes.row(GB, i), gWE = planes.row(GR, i)
        let bN = planes.row(B, i - 1), bS = planes.row(B, i)
        let oR = output[0], oG = output[1], oB = output[2]
        for j in 0..<n {
            let cross = gN[j] + gS[j] + gWE[j - 1] + gWE[j]
            let diagonal = bN[j - 1] + bN[j] + bS[j - 1] + bS[j]
            var g: Float, b: Float
            if mhc {
                let far = n2[j] + s2[j] + c[j - 1] + c[j + 1]
                g = (4 * c[j] + 2 * cross - far) * 0.125
                b = (6 * c[j] + 2 * diagonal - 1.5 * far) * 0.125
            } else {
                g = cross * 0.25
                b = diagonal * 0.25
            }
            oR[j] = c[j]
            oG[j] = min(max(g, 0), hi)
            oB[j] = min(max(b, 0), hi)
        }
    }

    /// Green on a red row: R left/right, B above/below.
    private func greenOnRedRow(_ planes: BayerPlanes, blockRow i: Int, into output: [UnsafeMutablePointer<Float>]) {
        let (n, hi, mhc) = (planes.blockColumns, ceiling, method != .bilinear)
        let c = planes.row(GR, i), n2 = planes.row(GR, i - 1), s2 = planes.row(GR, i + 1)
        let rWE = planes.row(R, i), bN = planes.row(B, i - 1), bS = planes.row(B, i)
        let dN = planes.row(GB, i - 1), dS = planes.row(GB, i)
        let oR = output[3], oG = output[4], oB = output[5]
        for j in 0..<n {
            let horizontal = rWE[j] + rWE[j + 1]
            let vertical = bN[j] + bS[j]
            var r: Float, b: Float
            if mhc {
                let diagonal = dN[j] + dN[j + 1] + dS[j] + dS[j + 1]
                let farH = c[j - 1] + c[j + 1], farV = n2[j] + s2[j]
                r = (5 * c[j] + 4 * horizontal - diagonal - farH + 0.5 * farV) * 0.125
                b = (5 * c[j] + 4 * vertical - diagonal - farV + 0.5 * farH) * 0.125
            } else {
                r = horizontal * 0.5
                b = vertical * 0.5
            }
            oR[j] = min(max(r, 0), hi)
            oG[j] = c[j]
            oB[j] = min(max(b, 0), hi)
        }
    }

    /// Green on a blue row: B left/right, R above/below.
    private func greenOnBlueRow(_ planes: BayerPlanes, blockRow i: Int, into output: [UnsafeMutablePointer<Float>]) {
        let (n, hi, mhc) = (planes.blockColumns, ceiling, method != .bilinear)
        let c = planes.row(GB, i), n2 = planes.row(GB, i - 1), s2 = planes.row(GB, i + 1)
        let bWE = planes.row(B, i), rN = planes.row(R, i), rS = planes.row(R, i + 1)
        let dN = planes.row(GR, i), dS = planes.row(GR, i + 1)
        let oR = output[6], oG = output[7], oB = output[8]
        for j in 0..<n {
            let horizontal = bWE[j - 1] + bWE[j]
            let vertical = rN[j] + rS[j]
            var r: Float, b: Float
            if mhc {
                let diagonal = dN[j - 1] + dN[j] + dS[j - 1] + dS[j]
                let farH = c[j - 1] + c[j + 1], farV = n2[j] + s2[j]
                b = (5 * c[j] + 4 * horizontal - diagonal - farH + 0.5 * farV) * 0.125
                r = (5 * c[j] + 4 * vertical - diagonal - farV + 0.5 * farH) * 0.125
            } else {
                b = horizontal * 0.5
                r = vertical * 0.5
            }
            oR[j] = min(max(r, 0), hi)
            oG[j] = c[j]
            oB[j] = min(max(b, 0), hi)
        }
    }

    /// Blue site: B known; G from the cross, R from the diagonals.
    private func blueSite(_ planes: BayerPlanes, blockRow i: Int, into output: [UnsafeMutablePointer<Float>]) {
        let (n, hi, mhc) = (planes.blockColumns, ceiling, method != .bilinear)
        let c = planes.row(B, i), n2 = planes.row(B, i - 1), s2 = planes.row(B, i + 1)
        let gN = planes.row(GR, i), gS = planes.row(GR, i + 1), gWE = planes.row(GB, i)
        let rN = planes.row(R, i), rS = planes.row(R, i + 1)
        let oR = output[9], oG = output[10], oB = output[11]
        for j in 0..<n {
            let cross = gN[j] + gS[j] + gWE[j] + gWE[j + 1]
            let diagonal = rN[j] + rN[j + 1] + rS[j] + rS[j + 1]
            var g: Float, r: Float
            if mhc {
                let far = n2[j] + s2[j] + c[j - 1] + c[j + 1]
                g = (4 * c[j] + 2 * cross - far) * 0.125
                r = (6 * c[j] + 2 * diagonal - 1.5 * far) * 0.125
            } else {
                g = cross * 0.25
                r = diagonal * 0.25
            }
            oR[j] = min(max(r, 0), hi)
            oG[j] = min(max(g, 0), hi)
            oB[j] = c[j]
        }
    }
}
