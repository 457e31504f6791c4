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
    /// With `workspaces` (one per worker, each at least ``workspace(forWidth:)``'s size), the workers use those
    /// instead of allocating their own: a caller demosaicing strip after strip allocates them once.
    func run(frame: RawFrame, rect: PixelRect, gains: [Double], ceilings: [Float], threads: Int,
             workspaces: [Workspace]? = nil,
             sink: (Int, Int, Int, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> Void) {
        let bands = (rect.height + Self.bandRows - 1) / Self.bandRows
        let tiles = (rect.width + Self.tileColumns - 1) / Self.tileColumns
        func tile(_ index: Int, _ workspace: Workspace) {
            let y0 = (index / tiles) * Self.bandRows, x0 = (index % tiles) * Self.tileColumns
            process(frame: frame, rect: rect, firstRow: y0, rows: min(Self.bandRows, rect.height - y0),
                    firstColumn: x0, columns: min(Self.tileColumns, rect.width - x0), gains: gains, ceilings: ceilings,
                    workspace: workspace, sink: sink)
        }
        if let workspaces, !workspaces.isEmpty {
            // Worker k takes tiles k, k + n, k + 2n ... with its own workspace.
            let n = min(workspaces.count, bands * tiles)
            ParallelRows.perform(iterations: n) { k in
                for index in stride(from: k, to: bands * tiles, by: n) { tile(index, workspaces[k]) }
            }
            return
        }
        ParallelRows.run(rows: bands * tiles, threads: threads, minimumRows: 1) { range in
            let workspace = Self.workspace(forWidth: rect.width)
            for index in range { tile(index, workspace) }
        }
    }

    /// A worker's scratch planes for a rectangle `width` pixels wide.
    static func workspace(forWidth width: Int) -> Workspace {
        Workspace(width: min(width, tileColumns) + 2 * margin, height: bandRows + 2 * margin)
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
        // Band pixel (y, x) is buffer pixel (rect.top + firstRow + y − m, rect.left + x − m).
        let top = rect.top + firstRow - m, left = rect.left + firstColumn - m
        let tile = Tile(frame: frame, top: top, left: left, width: columns + 2 * m, height: rows + 2 * m)
        normalise(frame, top: top, left: left, tile: tile, gains: gains, ceilings: ceilings, ws: ws)
        directionalDifferences(tile, ws)
        gradients(tile, ws)
        interpolateGreen(tile, ws)
        oppositeColours(tile, ws)
        redAndBlue(tile, ws)
        refineDifferences(tile, ws)
        let w = tile.w
        for y in 0..<rows {
            let by = y + m
            sink(firstRow + y, firstColumn, columns, ws.red.base + by * w + m, ws.green.base + by * w + m, ws.blue.base + by * w + m)
        }
    }

    /// A tile's buffer geometry (margins included) and the colours of its first 2x2, which mirroring keeps at every
    /// position of the same parity.
    private struct Tile {
        let w: Int, h: Int
        /// `colour[row parity][column parity]`: 0 red, 1 green, 2 blue.
        let colour: [[Int]]
        /// Per row parity: is column 0 green? (Sign of the colour difference: +1 where the pixel is red or blue,
        /// Δ = estimate of G − known, −1 on green.)
        let greenAtEven: [Bool]

        init(frame: RawFrame, top: Int, left: Int, width: Int, height: Int) {
            let area = frame.activeArea
            var colour = [[Int]](repeating: [0, 0], count: 2)
            for dy in 0..<2 {
                for dx in 0..<2 {
                    let y = mirrored(top + dy, area.top, area.bottom), x = mirrored(left + dx, area.left, area.right)
                    switch frame.color(row: y, column: x) { case .red: colour[dy][dx] = 0; case .blue: colour[dy][dx] = 2; default: colour[dy][dx] = 1 }
                }
            }
            (w, h, self.colour) = (width, height, colour)
            greenAtEven = [colour[0][0] == 1, colour[1][0] == 1]
        }
    }

    /// 1. The normalised mosaic: black level off, white-balance gain, clipped to each colour's ceiling.
    private func normalise(_ frame: RawFrame, top: Int, left: Int, tile: Tile, gains: [Double], ceilings: [Float], ws: Workspace) {
        let (w, h, colour, area) = (tile.w, tile.h, tile.colour, frame.activeArea)
        let white = Double(frame.whiteLevel)
        let sourceColumns = (0..<w).map { mirrored(left + $0, area.left, area.right) }
        for y in 0..<h {
            let sy = mirrored(top + y, area.top, area.bottom)
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
            if left >= area.left && left + w <= area.right {
                // The usual case: the band's columns are all inside the active area, one contiguous run.
                let run = src + left
                let (b0, b1, s0, s1, c0, c1) = (black[0], black[1], scale[0], scale[1], cap[0], cap[1])
                for x in 0..<w {
                    let odd = x & 1 == 1
                    let v = (Float(run[x]) - (odd ? b1 : b0)) * (odd ? s1 : s0)
                    let top = odd ? c1 : c0
                    dst[x] = v < 0 ? 0 : (v > top ? top : v)
                }
            } else {
                for x in 0..<w {
                    let p = x & 1
                    dst[x] = min(max((Float(src[sourceColumns[x]]) - black[p]) * scale[p], 0), cap[p])
                }
            }
        }
    }

    /// 2. Directional colour differences (Hamilton-Adams estimates of the missing colour).
    private func directionalDifferences(_ tile: Tile, _ ws: Workspace) {
        let (w, h, mo) = (tile.w, tile.h, ws.mosaic.base)
        let greenAtEven = tile.greenAtEven
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
    }

    /// 3. Gradients of the differences, their 5x5 sums, and 5-tap means of the differences.
    private func gradients(_ tile: Tile, _ ws: Workspace) {
        let (w, h) = (tile.w, tile.h)
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
            let r0 = ws.dv.base + (y - 2) * w, r1 = r0 + w, r2 = r1 + w, r3 = r2 + w, r4 = r3 + w
            for x in 0..<w { mv[x] = (r0[x] + r1[x] + r2[x] + r3[x] + r4[x]) * 0.2 }
        }
    }

    /// 4. Green at red and blue pixels: the known colour plus the gradient-weighted difference.
    private func interpolateGreen(_ tile: Tile, _ ws: Workspace) {
        let (w, h, mo) = (tile.w, tile.h, ws.mosaic.base)
        let greenAtEven = tile.greenAtEven
        // Each step is a small kernel over a few rows (few pointers: the vectoriser gives up on loops needing many
        // run-time alias checks), computed at every pixel and kept by selects where the colour is red or blue.
        let epsilon: Float = 1e-6
        let delta = ws.scratch.base
        for y in 6..<(h - 6) {
            let row = mo + y * w, g = ws.green.base + y * w, d = ws.difference.base + y * w
            Self.weightedDifference(boxH: ws.boxH.base + y * w, boxVUp: ws.boxV.base + (y - 2) * w,
                                    boxVDown: ws.boxV.base + (y + 2) * w, meanH: ws.meanH.base + y * w,
                                    meanVUp: ws.meanV.base + (y - 2) * w, meanVDown: ws.meanV.base + (y + 2) * w,
                                    range: 6..<(w - 6), epsilon: epsilon, into: delta + y * w)
            for x in 0..<w { g[x] = row[x]; d[x] = 0 }
            Self.addDifference(row, delta + y * w, colourAtEven: !greenAtEven[y & 1], ceiling: ceiling, range: 6..<(w - 6),
                               green: g, difference: d)
        }
    }

    /// 5. Red at blue pixels and blue at red pixels: green minus the mean of the four diagonal differences.
    private func oppositeColours(_ tile: Tile, _ ws: Workspace) {
        let (w, h, colour) = (tile.w, tile.h, tile.colour)
        // The planes of the directional means, no longer needed, then hold G − R and G − B at every red and blue
        // pixel; what they hold at green pixels is never read.
        let dR = ws.meanH.base, dB = ws.meanV.base
        for y in 7..<(h - 7) {
            let rowIsRed = colour[y & 1].contains(0)
            let own = (rowIsRed ? dR : dB) + y * w, other = (rowIsRed ? dB : dR) + y * w
            (own + 7).update(from: ws.difference.base + y * w + 7, count: w - 14)
            Self.diagonalMean(up: ws.difference.base + (y - 1) * w, down: ws.difference.base + (y + 1) * w,
                              range: 7..<(w - 7), into: other)
        }
    }

    /// 6. Red and blue everywhere: known, or green minus the neighbours' weighted differences.
    private func redAndBlue(_ tile: Tile, _ ws: Workspace) {
        let (w, h, mo) = (tile.w, tile.h, ws.mosaic.base)
        let (colour, greenAtEven) = (tile.colour, tile.greenAtEven)
        let dR = ws.meanH.base, dB = ws.meanV.base
        let epsilon: Float = 1e-6
        // On green pixels the four neighbours' differences, horizontal and vertical pairs weighted by the inverse
        // square of their gradient sums.
        for y in 8..<(h - 8) {
            let rowIsRed = colour[y & 1].contains(0)
            let greenAtEvenColumns = greenAtEven[y & 1]
            for (plane, out, known) in [(dR, ws.red.base, rowIsRed), (dB, ws.blue.base, !rowIsRed)] {
                Self.fillColour(mosaic: mo + y * w, green: ws.green.base + y * w, boxH: ws.boxH.base + y * w,
                                boxV: ws.boxV.base + y * w, difference: plane + y * w, differenceUp: plane + (y - 1) * w,
                                differenceDown: plane + (y + 1) * w, knownHere: known, greenAtEven: greenAtEvenColumns,
                                epsilon: epsilon, ceiling: ceiling, range: 8..<(w - 8), into: out + y * w)
            }
        }
    }

    /// 7. Refinement: 3x3 medians of the colour differences where a colour was estimated.
    private func refineDifferences(_ tile: Tile, _ ws: Workspace) {
        let (w, h, colour, greenAtEven) = (tile.w, tile.h, tile.colour, tile.greenAtEven)
        // R − G and B − G are replaced by their 3x3 medians where the colour was estimated (a lone wrong difference
        // along an edge is what makes zipper and false colour).
        do {
            let rd = ws.dh.base, bd = ws.dv.base
            for y in 7..<(h - 7) {
                let g = ws.green.base + y * w, r = ws.red.base + y * w, b = ws.blue.base + y * w
                let rdRow = rd + y * w, bdRow = bd + y * w
                for x in 7..<(w - 7) { rdRow[x] = r[x] - g[x]; bdRow[x] = b[x] - g[x] }
            }
            for y in 9..<(h - 9) {
                let g = ws.green.base + y * w, r = ws.red.base + y * w, b = ws.blue.base + y * w
                // Medians of every pixel first (a loop the compiler vectorises), then the ones that were estimated.
                let medianR = ws.gradH.base + y * w, medianB = ws.gradV.base + y * w
                Self.medians9(rd + y * w, width: w, range: 9..<(w - 9), into: medianR)
                Self.medians9(bd + y * w, width: w, range: 9..<(w - 9), into: medianB)
                let rowIsRed = colour[y & 1].contains(0)
                let greenEven = greenAtEven[y & 1]
                Self.refine(green: g, median: medianR, range: 9..<(w - 9), greenAtEven: greenEven, keepColour: rowIsRed,
                            ceiling: ceiling, into: r)
                Self.refine(green: g, median: medianB, range: 9..<(w - 9), greenAtEven: greenEven, keepColour: !rowIsRed,
                            ceiling: ceiling, into: b)
            }
        }
    }

    /// The gradient-weighted colour difference at every pixel of `range` of one row: the four directions' 5-pixel
    /// mean differences, weighted by the inverse fourth power of their 5x5 gradient sums.
    static func weightedDifference(boxH: UnsafePointer<Float>, boxVUp: UnsafePointer<Float>, boxVDown: UnsafePointer<Float>,
                                   meanH: UnsafePointer<Float>, meanVUp: UnsafePointer<Float>, meanVDown: UnsafePointer<Float>,
                                   range: Range<Int>, epsilon: Float, into out: UnsafeMutablePointer<Float>) {
        let bhW = boxH - 2, bhE = boxH + 2, mhW = meanH - 2, mhE = meanH + 2
        for x in range {
            let bn = boxVUp[x] + epsilon, bs = boxVDown[x] + epsilon, bw = bhW[x] + epsilon, be = bhE[x] + epsilon
            // Weights 1/b⁴ with one division: 1/bn = bs·bw·be / (bn·bs·bw·be), and so on.
            let r = 1 / (bn * bs * bw * be)
            let inN = bs * bw * be * r, inS = bn * bw * be * r, inW = bn * bs * be * r, inE = bn * bs * bw * r
            let wn = (inN * inN) * (inN * inN), ws = (inS * inS) * (inS * inS)
            let ww = (inW * inW) * (inW * inW), we = (inE * inE) * (inE * inE)
            out[x] = (wn * meanVUp[x] + ws * meanVDown[x] + ww * mhW[x] + we * mhE[x]) / (wn + ws + ww + we)
        }
    }

    /// Green where the mosaic is red or blue: known colour + difference, clamped; `difference` keeps green − known.
    static func addDifference(_ mosaic: UnsafePointer<Float>, _ delta: UnsafePointer<Float>, colourAtEven: Bool, ceiling: Float,
                              range: Range<Int>, green: UnsafeMutablePointer<Float>, difference: UnsafeMutablePointer<Float>) {
        let colourParity = colourAtEven ? 0 : 1
        for x in range {
            let m = mosaic[x]
            let sum = m + delta[x]
            let estimate = sum < 0 ? 0 : (sum > ceiling ? ceiling : sum)
            let isColour = x & 1 == colourParity
            let g = isColour ? estimate : m
            green[x] = g
            difference[x] = g - m
        }
    }

    /// The mean of the four diagonal neighbours' values (rows above and below).
    static func diagonalMean(up: UnsafePointer<Float>, down: UnsafePointer<Float>, range: Range<Int>,
                             into out: UnsafeMutablePointer<Float>) {
        let uw = up - 1, ue = up + 1, dw = down - 1, de = down + 1
        for x in range { out[x] = (uw[x] + ue[x] + dw[x] + de[x]) * 0.25 }
    }

    /// One colour (red or blue) over a row: the mosaic where it is that colour (`knownHere` on its pixels of this row),
    /// green minus the difference on the other colour's pixels, and on green pixels green minus the weighted mean of
    /// the horizontal and vertical neighbours' differences.
    static func fillColour(mosaic: UnsafePointer<Float>, green: UnsafePointer<Float>, boxH: UnsafePointer<Float>,
                           boxV: UnsafePointer<Float>, difference: UnsafePointer<Float>, differenceUp: UnsafePointer<Float>,
                           differenceDown: UnsafePointer<Float>, knownHere: Bool, greenAtEven: Bool, epsilon: Float,
                           ceiling: Float, range: Range<Int>, into out: UnsafeMutablePointer<Float>) {
        let dW = difference - 1, dE = difference + 1
        let greenParity = greenAtEven ? 0 : 1
        for x in range {
            let eh = boxH[x] + epsilon, ev = boxV[x] + epsilon
            let a = eh * eh, c = ev * ev
            let neighbours = (c * (dW[x] + dE[x]) + a * (differenceUp[x] + differenceDown[x])) * (0.5 / (a + c))
            let isGreen = x & 1 == greenParity
            let d = difference[x], m = mosaic[x]
            let estimate = green[x] - (isGreen ? neighbours : d)
            let clamped = estimate < 0 ? 0 : (estimate > ceiling ? ceiling : estimate)
            out[x] = !isGreen && knownHere ? m : clamped
        }
    }

    /// Refinement of one colour: green + the median difference wherever the colour was estimated.
    static func refine(green: UnsafePointer<Float>, median: UnsafePointer<Float>, range: Range<Int>, greenAtEven: Bool,
                       keepColour: Bool, ceiling: Float, into out: UnsafeMutablePointer<Float>) {
        let greenParity = greenAtEven ? 0 : 1
        for x in range {
            let isGreen = x & 1 == greenParity
            let sum = green[x] + median[x]
            let refined = sum < 0 ? 0 : (sum > ceiling ? ceiling : sum)
            let old = out[x]
            out[x] = isGreen || !keepColour ? refined : old
        }
    }

    /// The medians of the 3x3 neighbourhoods of `row[x]` for `x` in `range` (rows `w` apart) into `out[x]`: a fixed
    /// network of 19 compare-exchanges (Paeth's) per pixel. The exchanges are written as `a < b ? a : b` selects,
    /// which the loop vectoriser turns into packed min/max (`Swift.min`/`max` keep it scalar here).
    static func medians9(_ row: UnsafePointer<Float>, width w: Int, range: Range<Int>, into out: UnsafeMutablePointer<Float>) {
        // Shifted row pointers, so the loop indexes with `x` alone: `x ± 1` with a lower bound the compiler cannot see
        // would be overflow-checked, and checks stop the vectoriser.
        let u0 = row - w - 1, u1 = row - w, u2 = row - w + 1, r0 = row - 1, r2 = row + 1
        let d0 = row + w - 1, d1 = row + w, d2 = row + w + 1
        @inline(__always) func order(_ a: inout Float, _ b: inout Float) {
            let low = a < b ? a : b
            b = a < b ? b : a
            a = low
        }
        for x in range {
            var p0 = u0[x], p1 = u1[x], p2 = u2[x]
            var p3 = r0[x], p4 = row[x], p5 = r2[x]
            var p6 = d0[x], p7 = d1[x], p8 = d2[x]
            order(&p1, &p2); order(&p4, &p5); order(&p7, &p8); order(&p0, &p1); order(&p3, &p4); order(&p6, &p7); order(&p1, &p2); order(&p4, &p5); order(&p7, &p8); order(&p0, &p3); order(&p5, &p8); order(&p4, &p7); order(&p3, &p6); order(&p1, &p4); order(&p2, &p5); order(&p4, &p7); order(&p4, &p2); order(&p6, &p4); order(&p4, &p2)
            _ = (p0, p1, p3, p5, p6, p7, p8)
            out[x] = p4
        }
    }

    /// 5x5 box sums of `source` (rows and columns within 2 of an edge are left as they were).
    static func box5(_ source: PlaneBuffer, into out: PlaneBuffer, scratch: PlaneBuffer, width w: Int, height h: Int) {
        for y in 0..<h {
            let s = source.base + y * w, t = scratch.base + y * w
            for x in 2..<(w - 2) { t[x] = s[x - 2] + s[x - 1] + s[x] + s[x + 1] + s[x + 2] }
        }
        for y in 2..<(h - 2) {
            let o = out.base + y * w
            let r0 = scratch.base + (y - 2) * w, r1 = r0 + w, r2 = r1 + w, r3 = r2 + w, r4 = r3 + w
            for x in 0..<w { o[x] = r0[x] + r1[x] + r2[x] + r3[x] + r4[x] }
        }
    }
}
