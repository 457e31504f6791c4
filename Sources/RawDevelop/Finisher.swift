/// The last per-pixel step: highlight reconstruction (optional), the 3x3 matrix to linear output RGB, and the
/// finishing curves, writing 16-bit or float code values into interleaved RGB with any pixel stride.
struct Finisher: Sendable {
    let m: [Float]
    let table: FinishTable
    let reconstruct: Bool
    /// Per-channel saturation levels of the white-balanced mosaic (reconstruction only).
    let ceilings: [Float]

    init(plan: ColorPlan, reconstruct: Bool) {
        m = plan.matrix.map { Float($0) }
        table = plan.table
        self.reconstruct = reconstruct
        ceilings = plan.ceilings
    }

    /// A channel counts as clipped from this fraction of its saturation level on.
    static let clipFraction: Float = 0.995

    /// Finishes `count` pixels from planar camera RGB into 16-bit samples; pixel `k` goes to
    /// `out[k * pixelStride ..< k * pixelStride + 3]`.
    func finish(_ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int,
                into out: UnsafeMutablePointer<UInt16>, pixelStride: Int) {
        run(r, g, b, count: count) { k, v0, v1, v2 in
            let o = out + k * pixelStride
            o[0] = UInt16(v0 * 65535 + 0.5)
            o[1] = UInt16(v1 * 65535 + 0.5)
            o[2] = UInt16(v2 * 65535 + 0.5)
        }
    }

    /// The same into float samples (0...1).
    func finish(_ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int,
                into out: UnsafeMutablePointer<Float>, pixelStride: Int) {
        run(r, g, b, count: count) { k, v0, v1, v2 in
            let o = out + k * pixelStride
            o[0] = v0
            o[1] = v1
            o[2] = v2
        }
    }

    @inline(__always)
    private func run(_ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int,
                     store: (Int, Float, Float, Float) -> Void) {
        let m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3], m4 = m[4], m5 = m[5], m6 = m[6], m7 = m[7], m8 = m[8]
        let scale = 1 / table.inputMaximum
        let n = Float(FinishTable.entries)
        let last = FinishTable.entries - 1
        let c0 = ceilings[0] * Finisher.clipFraction, c1 = ceilings[1] * Finisher.clipFraction
        let c2 = ceilings[2] * Finisher.clipFraction
        table.tables[0].withUnsafeBufferPointer { t0 in
            table.tables[1].withUnsafeBufferPointer { t1 in
                table.tables[2].withUnsafeBufferPointer { t2 in
                    @inline(__always) func curve(_ t: UnsafeBufferPointer<Float>, _ x: Float) -> Float {
                        let u = min(max(x * scale, 0), 1).squareRoot() * n
                        let i = min(Int(u), last)
                        let f = u - Float(i)
                        return t[i] + f * (t[i + 1] - t[i])
                    }
                    for k in 0..<count {
                        var cr = r[k], cg = g[k], cb = b[k]
                        if reconstruct {
                            let clipR = cr >= c0, clipG = cg >= c1, clipB = cb >= c2
                            if clipR || clipG || clipB {
                                var sum: Float = 0, number: Float = 0
                                if !clipR { sum += cr; number += 1 }
                                if !clipG { sum += cg; number += 1 }
                                if !clipB { sum += cb; number += 1 }
                                let fill = number > 0 ? sum / number : max(cr, cg, cb)
                                if clipR { cr = max(cr, fill) }
                                if clipG { cg = max(cg, fill) }
                                if clipB { cb = max(cb, fill) }
                                if number == 0 { cr = fill; cg = fill; cb = fill }
                            }
                        }
                        let x0 = m0 * cr + m1 * cg + m2 * cb
                        let x1 = m3 * cr + m4 * cg + m5 * cb
                        let x2 = m6 * cr + m7 * cg + m8 * cb
                        store(k, curve(t0, x0), curve(t1, x1), curve(t2, x2))
                    }
                }
            }
        }
    }
}
