import RawCore

/// The fast path of previews: every whole CFA period of a rectangle becomes one camera-RGB pixel, the mean of
/// each colour's samples in it (normalised, white-balanced and clipped like the mosaic of a full development).
/// For small pictures of large frames (thumbnails), ``sample(frame:rect:width:height:gains:ceilings:)`` looks at
/// 2x2 periods around each output pixel's centre only, so the cost follows the output's size, not the frame's.
///
/// A monochrome frame's period is one pixel: its pictures have one plane, the pixel's normalised light.
enum PeriodBinning {
    /// `width` x `height` camera-RGB pixels (one plane of light for a monochrome frame), each the mean of the 2x2 CFA
    /// periods at the centre of the part of `rect` it covers (fewer where `rect` is smaller than that).
    static func sample(frame: RawFrame, rect: PixelRect, width outW: Int, height outH: Int, gains: [Double],
                       ceilings: [Float]) -> PlanarImage {
        let pr = frame.cfa.rows, pc = frame.cfa.columns
        let mono = frame.cfa.isMonochrome
        let out = PlanarImage(width: outW, height: outH, planes: mono ? 1 : 3)
        let white = Double(frame.whiteLevel)
        let windowRows = min(rect.height / pr, 2) * pr, windowColumns = min(rect.width / pc, 2) * pc
        let cellH = Double(rect.height) / Double(outH), cellW = Double(rect.width) / Double(outW)
        var channel = [Int](repeating: -1, count: pr * pc), black = [Double](repeating: 0, count: pr * pc)
        for dy in 0..<pr {
            for dx in 0..<pc {
                switch frame.color(row: rect.top + dy, column: rect.left + dx) {
                case .red: channel[dy * pc + dx] = 0
                case .green: channel[dy * pc + dx] = 1
                case .blue: channel[dy * pc + dx] = 2
                case .white where mono: channel[dy * pc + dx] = 0
                default: break
                }
                black[dy * pc + dx] = frame.blackLevel(row: rect.top + dy, column: rect.left + dx)
            }
        }
        for oy in 0..<outH {
            let centre = Int((Double(oy) + 0.5) * cellH)
            let y0 = min(max(0, centre - windowRows / 2) / pr * pr, max(0, rect.height - windowRows))
            for ox in 0..<outW {
                let centreX = Int((Double(ox) + 0.5) * cellW)
                let x0 = min(max(0, centreX - windowColumns / 2) / pc * pc, max(0, rect.width - windowColumns))
                var sums = [0.0, 0.0, 0.0], counts = [0.0, 0.0, 0.0]
                for dy in 0..<max(1, windowRows) {
                    let row = frame.storage.baseAddress + (rect.top + y0 + dy) * frame.rowStride + rect.left + x0
                    for dx in 0..<max(1, windowColumns) {
                        let p = (dy % pr) * pc + dx % pc
                        let c = channel[p]
                        guard c >= 0 else { continue }
                        let v = (Double(row[dx]) - black[p]) * gains[c] / max(1, white - black[p])
                        sums[c] += min(max(v, 0), Double(ceilings[c]))
                        counts[c] += 1
                    }
                }
                for c in 0..<out.planes.count { out.row(c, oy)[ox] = counts[c] > 0 ? Float(sums[c] / counts[c]) : 0 }
            }
        }
        return out
    }

    /// Every whole CFA period of `rect` binned into one pixel; with `toWidth`, each binned row is resized to that
    /// width right away (area averaging, as ``Resampler`` does) while it is in cache, so the full-width binned image
    /// is never stored. A monochrome frame gives one plane (``monochrome(frame:rect:threads:toWidth:)``).
    static func bin(frame: RawFrame, rect: PixelRect, gains: [Double], ceilings: [Float], threads: Int,
                    toWidth: Int? = nil) -> PlanarImage {
        if frame.cfa.isMonochrome { return monochrome(frame: frame, rect: rect, threads: threads, toWidth: toWidth) }
        let pr = frame.cfa.rows, pc = frame.cfa.columns
        let binnedW = max(1, rect.width / pc), outH = max(1, rect.height / pr)
        let outW = toWidth ?? binnedW
        let out = PlanarImage(width: outW, height: outH)
        let horizontal = toWidth.map { Resampler.FlatTaps(Resampler.taps(from: binnedW, to: $0)) }
        let table = periodTable(frame: frame, rect: rect, gains: gains)
        let target = BinTarget(base: frame.storage.baseAddress, stride: frame.rowStride, rect: rect,
                               binnedW: binnedW, outW: outW, outH: outH, out: out, horizontal: horizontal)
        // A Bayer period, the common case, gets a loop without the per-position table.
        if pr == 2 && pc == 2 && frame.cfa.isBayer {
            binBayer(target, table: table, ceilings: ceilings, threads: threads)
        } else {
            binPeriods(target, table: table, periodRows: pr, periodColumns: pc, ceilings: ceilings, threads: threads)
        }
        return out
    }

    /// Per position of the period (relative to the rectangle): channel, black, scale; and 1 / samples per channel.
    private struct PeriodTable {
        let channel: [Int]
        let black: [Float]
        let scale: [Float]
        let inverseCounts: [Float]
    }

    /// The samples ``bin(frame:rect:gains:ceilings:threads:toWidth:)`` reads and the image it writes (with the
    /// optional horizontal resize), as pointers and sizes.
    private struct BinTarget {
        let base: UnsafeMutablePointer<UInt16>
        let stride: Int
        let rect: PixelRect
        let binnedW: Int
        let outW: Int
        let outH: Int
        let out: PlanarImage
        let horizontal: Resampler.FlatTaps?
    }

    /// The channel, black level, scale (gain over the black-to-white range) of each position of the CFA period at
    /// the top left of `rect`, and the inverse of each channel's sample count in one period.
    private static func periodTable(frame: RawFrame, rect: PixelRect, gains: [Double]) -> PeriodTable {
        let pr = frame.cfa.rows, pc = frame.cfa.columns
        let white = Double(frame.whiteLevel)
        var channel = [Int](repeating: -1, count: pr * pc)
        var black = [Float](repeating: 0, count: pr * pc)
        var scale = [Float](repeating: 0, count: pr * pc)
        var counts = [Float](repeating: 0, count: 3)
        for dy in 0..<pr {
            for dx in 0..<pc {
                let p = dy * pc + dx
                switch frame.color(row: rect.top + dy, column: rect.left + dx) {
                case .red: channel[p] = 0
                case .green: channel[p] = 1
                case .blue: channel[p] = 2
                default: continue
                }
                let b = frame.blackLevel(row: rect.top + dy, column: rect.left + dx)
                black[p] = Float(b)
                scale[p] = Float(gains[channel[p]] / max(1, white - b))
                counts[channel[p]] += 1
            }
        }
        let inverseCounts = counts.map { $0 > 0 ? 1 / $0 : 0 }
        return PeriodTable(channel: channel, black: black, scale: scale, inverseCounts: inverseCounts)
    }

    /// Bins a 2x2 Bayer period per pixel (one red, two greens averaged, one blue), without the per-position table.
    private static func binBayer(_ target: BinTarget, table: PeriodTable, ceilings: [Float], threads: Int) {
        let base = target.base, stride = target.stride, rect = target.rect
        let binnedW = target.binnedW, outW = target.outW, outH = target.outH
        let out = target.out, horizontal = target.horizontal
        let ids = table.channel, bl = table.black, sc = table.scale
        let rIndex = ids.firstIndex(of: 0)!, bIndex = ids.firstIndex(of: 2)!
        let gIndices = ids.indices.filter { ids[$0] == 1 }
        let (g0, g1) = (gIndices[0], gIndices[1])
        let cR = ceilings[0], cG = ceilings[1], cB = ceilings[2]
        ParallelRows.run(rows: outH, threads: threads) { range in
            let scratch = horizontal == nil ? nil : PlanarImage(width: binnedW, height: 1)
            for y in range {
                let top = base + (rect.top + 2 * y) * stride + rect.left
                let row = [top, top + stride]
                let pR = row[rIndex / 2] + rIndex % 2, pB = row[bIndex / 2] + bIndex % 2
                let pG0 = row[g0 / 2] + g0 % 2, pG1 = row[g1 / 2] + g1 % 2
                let oR = scratch?.row(0, 0) ?? out.row(0, y), oG = scratch?.row(1, 0) ?? out.row(1, y)
                let oB = scratch?.row(2, 0) ?? out.row(2, y)
                // Constants hoisted and clamps written as selects: `Swift.min`/`max` on floats keep the loop scalar.
                let bR = bl[rIndex], bG0 = bl[g0], bG1 = bl[g1], bB = bl[bIndex]
                let sR = sc[rIndex], sG0 = sc[g0] * 0.5, sG1 = sc[g1] * 0.5, sB = sc[bIndex]
                for x in 0..<binnedW {
                    let r = (Float(pR[2 * x]) - bR) * sR
                    let g = (Float(pG0[2 * x]) - bG0) * sG0 + (Float(pG1[2 * x]) - bG1) * sG1
                    let b = (Float(pB[2 * x]) - bB) * sB
                    let r0 = r > 0 ? r : 0, g0v = g > 0 ? g : 0, b0 = b > 0 ? b : 0
                    oR[x] = r0 < cR ? r0 : cR
                    oG[x] = g0v < cG ? g0v : cG
                    oB[x] = b0 < cB ? b0 : cB
                }
                if let horizontal, let scratch {
                    for c in 0..<3 { horizontal.apply(scratch.row(c, 0), into: out.row(c, y), width: outW) }
                }
            }
        }
    }

    /// Bins a CFA period of any size per pixel through the per-position table (channel, black, scale).
    private static func binPeriods(_ target: BinTarget, table: PeriodTable, periodRows pr: Int, periodColumns pc: Int,
                                   ceilings: [Float], threads: Int) {
        let base = target.base, stride = target.stride, rect = target.rect
        let binnedW = target.binnedW, outW = target.outW, outH = target.outH
        let out = target.out, horizontal = target.horizontal
        let channel = table.channel, black = table.black, scale = table.scale, inverseCounts = table.inverseCounts
        let rows = min(pr, rect.height), columns = min(pc, rect.width)
        ParallelRows.run(rows: outH, threads: threads) { range in
            let scratch = horizontal == nil ? nil : PlanarImage(width: binnedW, height: 1)
            for y in range {
                let o0 = scratch?.row(0, 0) ?? out.row(0, y), o1 = scratch?.row(1, 0) ?? out.row(1, y)
                let o2 = scratch?.row(2, 0) ?? out.row(2, y)
                for x in 0..<binnedW {
                    var sums: (Float, Float, Float) = (0, 0, 0)
                    for dy in 0..<rows {
                        let src = base + (rect.top + y * pr + dy) * stride + rect.left + x * pc
                        for dx in 0..<columns {
                            let p = dy * pc + dx
                            let v = (Float(src[dx]) - black[p]) * scale[p]
                            switch channel[p] {
                            case 0: sums.0 += min(max(v, 0), ceilings[0])
                            case 1: sums.1 += min(max(v, 0), ceilings[1])
                            case 2: sums.2 += min(max(v, 0), ceilings[2])
                            default: break
                            }
                        }
                    }
                    o0[x] = sums.0 * inverseCounts[0]
                    o1[x] = sums.1 * inverseCounts[1]
                    o2[x] = sums.2 * inverseCounts[2]
                }
                if let horizontal, let scratch {
                    for c in 0..<3 { horizontal.apply(scratch.row(c, 0), into: out.row(c, y), width: outW) }
                }
            }
        }
    }
}

extension PeriodBinning {
    /// A monochrome frame's `rect` as one plane of light (each sample less its black level over the range
    /// black...white, clamped to 0...1), row by row; with `toWidth`, each row resized to that width while it is in
    /// cache (area averaging), so the full-width plane is never stored.
    static func monochrome(frame: RawFrame, rect: PixelRect, threads: Int, toWidth: Int? = nil) -> PlanarImage {
        let outW = toWidth ?? rect.width
        let out = PlanarImage(width: outW, height: rect.height, planes: 1)
        let horizontal = outW == rect.width ? nil : Resampler.FlatTaps(Resampler.taps(from: rect.width, to: outW))
        ParallelRows.run(rows: rect.height, threads: threads) { rows in
            let scratch = horizontal == nil ? nil : PlaneBuffer(count: rect.width)
            for y in rows {
                let target = out.row(0, y)
                light(frame, row: rect.top + y, left: rect.left, count: rect.width, into: scratch?.base ?? target)
                if let horizontal, let scratch { horizontal.apply(scratch.base, into: target, width: outW) }
            }
        }
        return out
    }

    /// `count` samples of a monochrome frame's `row` from column `left` as light: less their black level, over the
    /// range black...white, clamped to 0...1.
    static func light(_ frame: RawFrame, row: Int, left: Int, count: Int, into dst: UnsafeMutablePointer<Float>) {
        let src = UnsafePointer(frame.storage.baseAddress + row * frame.rowStride + left)
        let white = Float(frame.whiteLevel)
        let phases = frame.blackLevels.columns
        if phases == 1 {
            // One black level along the row: a loop the compiler vectorises (clamps written as selects).
            let black = Float(frame.blackLevel(row: row, column: left))
            let scale = 1 / max(1, white - black)
            for x in 0..<count {
                let v = (Float(src[x]) - black) * scale
                let low = v > 0 ? v : 0
                dst[x] = low < 1 ? low : 1
            }
            return
        }
        for phase in 0..<min(phases, count) {
            let black = Float(frame.blackLevel(row: row, column: left + phase))
            let scale = 1 / max(1, white - black)
            var x = phase
            while x < count {
                let v = (Float(src[x]) - black) * scale
                dst[x] = min(max(v, 0), 1)
                x += phases
            }
        }
    }
}
