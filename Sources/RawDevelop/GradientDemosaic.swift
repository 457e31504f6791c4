import RawCore

/// Gradient-weighted directional demosaic for Bayer mosaics, after Pekkucuksen and Altunbasak's
/// "gradient based threshold free" (GBTF, ICIP 2010) method.
///
/// 1. Along every row and every column, a Hamilton-Adams estimate of the missing colour (kept between its two
///    neighbours, so it cannot overshoot at an edge) gives a colour difference (green minus red or blue) at every
///    pixel, horizontally (Δh) and vertically (Δv).
/// 2. How fast each difference changes (|Δ one pixel before − Δ one pixel after|) is summed over 5x5 windows
///    north, south, west and east of each red or blue pixel; each direction's smoothed colour difference is
///    weighted by the inverse square of its window's sum, so the estimate follows edges instead of crossing
///    them, without a threshold to tune.
/// 3. Green = known colour + weighted difference; red and blue elsewhere come from the green and the
///    neighbouring colour differences (the four diagonal ones at blue/red pixels; on green pixels the horizontal
///    and vertical pairs, weighted like the green).
/// 4. Refinement: where a colour was estimated, its difference to green is replaced by the 3x3 median of the
///    differences around it, which removes the isolated errors that show as zipper and false colour at edges.
///
/// The frame is processed in bands of rows with an 8-pixel margin (mirrored at the active area's edges), so
/// the working memory is a few bands, not the frame.
struct GradientDemosaic: Sendable {
    static let margin = 10
    static let bandRows = 64
    static let tileColumns = 448

    let ceiling: Float

    /// Demosaics `rect` of `frame` (normalised, white-balanced and clipped with `gains`/`ceilings`) and hands each
    /// finished piece of a row to `sink` as (row and column within `rect`, pixel count, red, green, blue), from several
    /// threads at once. Tiles of 64 x 448 pixels keep a worker's planes within its cache.
    func run(frame: RawFrame, rect: PixelRect, gains: [Double], ceilings: [Float], threads: Int,
             sink: (Int, Int, Int, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> Void) {
        let bands = (rect.height + Self.bandRows - 1) / Self.bandRows
        let tiles = (rect.width + Self.tileColumns - 1) / Self.tileColumns
        ParallelRows.run(rows: bands * tiles, threads: threads, minimumRows: 1) { range in
            let workspace = Workspace(width: min(rect.width, Self.tileColumns) + 2 * Self.margin,
                                      height: Self.bandRows + 2 * Self.margin)
            for index in range {
                let y0 = (index / tiles) * Self.bandRows, x0 = (index % tiles) * Self.tileColumns
                process(frame: frame, rect: rect, firstRow: y0, rows: min(Self.bandRows, rect.height - y0),
                        firstColumn: x0, columns: min(Self.tileColumns, rect.width - x0), gains: gains, ceilings: ceilings,
                        workspace: workspace, sink: sink)
            }
        }
    }

    /// Scratch planes of one band.
    final class Workspace {
        let width: Int
        let height: Int
        let mosaic, dh, dv, gradH, gradV, boxH, boxV, meanH, meanV, green, difference, scratch: PlaneBuffer
        let red: PlaneBuffer, blue: PlaneBuffer

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            let n = width * height
            (mosaic, dh, dv, gradH, gradV) = (PlaneBuffer(count: n), PlaneBuffer(count: n), PlaneBuffer(count: n),
                                             PlaneBuffer(count: n), PlaneBuffer(count: n))
            (boxH, boxV, meanH, meanV) = (PlaneBuffer(count: n), PlaneBuffer(count: n), PlaneBuffer(count: n), PlaneBuffer(count: n))
            (green, difference, scratch) = (PlaneBuffer(count: n), PlaneBuffer(count: n), PlaneBuffer(count: n))
            (red, blue) = (PlaneBuffer(count: n), PlaneBuffer(count: n))
        }
    }

    private func process(frame: RawFrame, rect: PixelRect, firstRow: Int, rows: Int, firstColumn: Int, columns: Int,
                         gains: [Double], ceilings: [Float], workspace ws: Workspace,
                         sink: (Int, Int, Int, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> Void) {
        let m = Self.margin
        let w = columns + 2 * m
        let h = rows + 2 * m
        let area = frame.activeArea
        func reflect(_ p: Int, _ low: Int, _ high: Int) -> Int {
            var q = p
            if q < low { q = 2 * low - q }
            if q >= high { q = 2 * (high - 1) - q }
            return min(max(q, low), high - 1)
        }
        // Band pixel (y, x) is buffer pixel (rect.top + firstRow + y − m, rect.left + x − m).
        let top = rect.top + firstRow - m, left = rect.left + firstColumn - m
        // Colour of the band's first 2x2 (mirroring keeps each position's colour).
        var colour = [[Int]](repeating: [0, 0], count: 2)
        for dy in 0..<2 {
            for dx in 0..<2 {
                let y = reflect(top + dy, area.top, area.bottom), x = reflect(left + dx, area.left, area.right)
                switch frame.color(row: y, column: x) { case .red: colour[dy][dx] = 0; case .blue: colour[dy][dx] = 2; default: colour[dy][dx] = 1 }
            }
        }
        let white = Double(frame.whiteLevel)
        let sourceColumns = (0..<w).map { reflect(left + $0, area.left, area.right) }
        // 1. Normalised mosaic.
        for y in 0..<h {
            let sy = reflect(top + y, area.top, area.bottom)
            let src = frame.storage.baseAddress + sy * frame.rowStride
            let dst = ws.mosaic.base + y * w
            var scale: [Float] = [0, 0], black: [Float] = [0, 0], cap: [Float] = [0, 0]
            for p in 0..<2 {
                let c = colour[y & 1][p]
                let b = frame.blackLevel(row: sy, column: sourceColumns[p])
                black[p] = Float(b)
                scale[p] = Float(gains[c] / max(1, white - b))
                cap[p] = ceilings[c]
            }
            for x in 0..<w {
                let p = x & 1
                dst[x] = min(max((Float(src[sourceColumns[x]]) - black[p]) * scale[p], 0), cap[p])
            }
        }
        // Sign of the colour difference: +1 where the pixel is red or blue (Δ = estimate of G − known), −1 on green.
        let greenAtEven: [Bool] = [colour[0][0] == 1, colour[1][0] == 1]   // per row parity: is column 0 green?
        let mo = ws.mosaic.base
        // 2. Directional colour differences (Hamilton-Adams estimates of the missing colour).
        for y in 0..<h {
            let row = mo + y * w, dh = ws.dh.base + y * w
            let sEven: Float = greenAtEven[y & 1] ? -1 : 1
            for x in 2..<(w - 2) {
                let raw = (row[x - 1] + row[x + 1]) * 0.5 + (2 * row[x] - row[x - 2] - row[x + 2]) * 0.25
                let estimate = min(max(raw, min(row[x - 1], row[x + 1])), max(row[x - 1], row[x + 1]))
                let s = x & 1 == 0 ? sEven : -sEven
                dh[x] = s * (estimate - row[x])
            }
        }
        for y in 2..<(h - 2) {
            let up2 = mo + (y - 2) * w, up = mo + (y - 1) * w, row = mo + y * w, down = mo + (y + 1) * w, down2 = mo + (y + 2) * w
            let dv = ws.dv.base + y * w
            let sEven: Float = greenAtEven[y & 1] ? -1 : 1
            for x in 0..<w {
                let raw = (up[x] + down[x]) * 0.5 + (2 * row[x] - up2[x] - down2[x]) * 0.25
                let estimate = min(max(raw, min(up[x], down[x])), max(up[x], down[x]))
                let s = x & 1 == 0 ? sEven : -sEven
                dv[x] = s * (estimate - row[x])
            }
        }
        // 3. Gradients of the differences, their 5x5 sums, and 5-tap means of the differences.
        for y in 0..<h {
            let dh = ws.dh.base + y * w, gh = ws.gradH.base + y * w
            for x in 3..<(w - 3) { gh[x] = abs(dh[x - 1] - dh[x + 1]) }
        }
        for y in 3..<(h - 3) {
            let up = ws.dv.base + (y - 1) * w, down = ws.dv.base + (y + 1) * w, gv = ws.gradV.base + y * w
            for x in 0..<w { gv[x] = abs(up[x] - down[x]) }
        }
        Self.box5(ws.gradH, into: ws.boxH, scratch: ws.scratch, width: w, height: h)
        Self.box5(ws.gradV, into: ws.boxV, scratch: ws.scratch, width: w, height: h)
        for y in 0..<h {
            let dh = ws.dh.base + y * w, mh = ws.meanH.base + y * w
            for x in 4..<(w - 4) { mh[x] = (dh[x - 2] + dh[x - 1] + dh[x] + dh[x + 1] + dh[x + 2]) * 0.2 }
        }
        for y in 4..<(h - 4) {
            let mv = ws.meanV.base + y * w
            let r = (-2...2).map { ws.dv.base + (y + $0) * w }
            for x in 0..<w { mv[x] = (r[0][x] + r[1][x] + r[2][x] + r[3][x] + r[4][x]) * 0.2 }
        }
        // 4. Green at red and blue pixels: the known colour plus the gradient-weighted difference.
        let epsilon: Float = 1e-6
        for y in 6..<(h - 6) {
            let row = mo + y * w, g = ws.green.base + y * w, d = ws.difference.base + y * w
            let bhRow = ws.boxH.base + y * w, bvUp = ws.boxV.base + (y - 2) * w, bvDown = ws.boxV.base + (y + 2) * w
            let mhRow = ws.meanH.base + y * w, mvUp = ws.meanV.base + (y - 2) * w, mvDown = ws.meanV.base + (y + 2) * w
            let firstColour = greenAtEven[y & 1] ? 1 : 0
            for x in 0..<w { g[x] = row[x]; d[x] = 0 }
            var x = 6 + ((firstColour - 6) & 1)
            while x < w - 6 {
                let bn = bvUp[x] + epsilon, bs = bvDown[x] + epsilon, bw = bhRow[x - 2] + epsilon, be = bhRow[x + 2] + epsilon
                // Weights 1/b⁴ with one division: 1/bn = bs·bw·be / (bn·bs·bw·be), and so on.
                let r = 1 / (bn * bs * bw * be)
                let inN = bs * bw * be * r, inS = bn * bw * be * r, inW = bn * bs * be * r, inE = bn * bs * bw * r
                let wn = (inN * inN) * (inN * inN), ws2 = (inS * inS) * (inS * inS)
                let ww = (inW * inW) * (inW * inW), we = (inE * inE) * (inE * inE)
                let delta = (wn * mvUp[x] + ws2 * mvDown[x] + ww * mhRow[x - 2] + we * mhRow[x + 2]) / (wn + ws2 + ww + we)
                g[x] = min(max(row[x] + delta, 0), ceiling)
                d[x] = g[x] - row[x]
                x += 2
            }
        }
        // 5. Red at blue pixels and blue at red pixels: green minus the mean of the four diagonal differences.
        //    (The planes of the directional means, no longer needed, then hold G − R and G − B at every red and blue pixel.)
        let dR = ws.meanH.base, dB = ws.meanV.base
        for y in 7..<(h - 7) {
            let rowIsRed = colour[y & 1].contains(0)
            let greenEven = greenAtEven[y & 1]
            let d = ws.difference.base + y * w, dUp = ws.difference.base + (y - 1) * w, dDown = ws.difference.base + (y + 1) * w
            let own = (rowIsRed ? dR : dB) + y * w, other = (rowIsRed ? dB : dR) + y * w
            for x in 7..<(w - 7) where (x & 1 == 0) != greenEven {
                own[x] = d[x]
                other[x] = (dUp[x - 1] + dUp[x + 1] + dDown[x - 1] + dDown[x + 1]) * 0.25
            }
        }
        // 6. Red and blue everywhere: known, or green minus a difference — on green pixels the four neighbours'
        //    differences, horizontal and vertical pairs weighted by the inverse square of their gradient sums.
        for y in 8..<(h - 8) {
            let row = mo + y * w, g = ws.green.base + y * w
            let r = ws.red.base + y * w, b = ws.blue.base + y * w
            let bh = ws.boxH.base + y * w, bv = ws.boxV.base + y * w
            let rowIsRed = colour[y & 1].contains(0)
            let greenEven = greenAtEven[y & 1]
            let dRRow = dR + y * w, dRUp = dR + (y - 1) * w, dRDown = dR + (y + 1) * w
            let dBRow = dB + y * w, dBUp = dB + (y - 1) * w, dBDown = dB + (y + 1) * w
            for x in 8..<(w - 8) {
                if (x & 1 == 0) == greenEven {
                    let eh = bh[x] + epsilon, ev = bv[x] + epsilon
                    let wh = 1 / (eh * eh), wv = 1 / (ev * ev)
                    let norm = 1 / (wh + wv)
                    let redDifference = (wh * (dRRow[x - 1] + dRRow[x + 1]) + wv * (dRUp[x] + dRDown[x])) * 0.5 * norm
                    let blueDifference = (wh * (dBRow[x - 1] + dBRow[x + 1]) + wv * (dBUp[x] + dBDown[x])) * 0.5 * norm
                    r[x] = min(max(g[x] - redDifference, 0), ceiling)
                    b[x] = min(max(g[x] - blueDifference, 0), ceiling)
                } else {
                    r[x] = rowIsRed ? row[x] : min(max(g[x] - dRRow[x], 0), ceiling)
                    b[x] = rowIsRed ? min(max(g[x] - dBRow[x], 0), ceiling) : row[x]
                }
            }
        }
        // 7. Refinement: the colour differences R − G and B − G are replaced by their 3x3 medians where the colour
        //    was estimated (a lone wrong difference along an edge is what makes zipper and false colour).
        do {
            let rd = ws.dh.base, bd = ws.dv.base
            for y in 7..<(h - 7) {
                let g = ws.green.base + y * w, r = ws.red.base + y * w, b = ws.blue.base + y * w
                for x in 7..<(w - 7) { rd[y * w + x] = r[x] - g[x]; bd[y * w + x] = b[x] - g[x] }
            }
            for y in 9..<(h - 9) {
                let g = ws.green.base + y * w, r = ws.red.base + y * w, b = ws.blue.base + y * w
                // Medians of every pixel first (a loop the compiler vectorises), then the ones that were estimated.
                let medianR = ws.gradH.base + y * w, medianB = ws.gradV.base + y * w
                for x in 9..<(w - 9) {
                    medianR[x] = Self.median9(rd, y * w + x, w)
                    medianB[x] = Self.median9(bd, y * w + x, w)
                }
                let rowIsRed = colour[y & 1].contains(0)
                let greenEven = greenAtEven[y & 1]
                for x in 9..<(w - 9) {
                    let isGreen = (x & 1 == 0) == greenEven
                    if isGreen || !rowIsRed { r[x] = min(max(g[x] + medianR[x], 0), ceiling) }
                    if isGreen || rowIsRed { b[x] = min(max(g[x] + medianB[x], 0), ceiling) }
                }
            }
        }
        for y in 0..<rows {
            let by = y + m
            sink(firstRow + y, firstColumn, columns, ws.red.base + by * w + m, ws.green.base + by * w + m, ws.blue.base + by * w + m)
        }
    }


    @inline(__always)
    static func median9(_ p: UnsafeMutablePointer<Float>, _ i: Int, _ w: Int) -> Float {
        var a = (p[i - w - 1], p[i - w], p[i - w + 1], p[i - 1], p[i], p[i + 1], p[i + w - 1], p[i + w], p[i + w + 1])
        @inline(__always) func s(_ x: inout Float, _ y: inout Float) { let lo = min(x, y); y = max(x, y); x = lo }
        s(&a.1, &a.2); s(&a.4, &a.5); s(&a.7, &a.8); s(&a.0, &a.1); s(&a.3, &a.4); s(&a.6, &a.7)
        s(&a.1, &a.2); s(&a.4, &a.5); s(&a.7, &a.8); s(&a.0, &a.3); s(&a.5, &a.8); s(&a.4, &a.7)
        s(&a.3, &a.6); s(&a.1, &a.4); s(&a.2, &a.5); s(&a.4, &a.7); s(&a.4, &a.2); s(&a.6, &a.4)
        s(&a.4, &a.2)
        return a.4
    }

    /// 5x5 box sums of `source` (rows and columns within 2 of an edge are left as they were).
    static func box5(_ source: PlaneBuffer, into out: PlaneBuffer, scratch: PlaneBuffer, width w: Int, height h: Int) {
        for y in 0..<h {
            let s = source.base + y * w, t = scratch.base + y * w
            for x in 2..<(w - 2) { t[x] = s[x - 2] + s[x - 1] + s[x] + s[x + 1] + s[x + 2] }
        }
        for y in 2..<(h - 2) {
            let o = out.base + y * w
            let r = (-2...2).map { scratch.base + (y + $0) * w }
            for x in 0..<w { o[x] = r[0][x] + r[1][x] + r[2][x] + r[3][x] + r[4][x] }
        }
    }
}
