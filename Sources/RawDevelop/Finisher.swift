/// Where finished pixels go: interleaved RGB (or grey) samples of one of three types.
enum FinishedBuffer {
    case uint8(UnsafeMutablePointer<UInt8>)
    case uint16(UnsafeMutablePointer<UInt16>)
    case float32(UnsafeMutablePointer<Float>)

    /// Allocates `count` samples of `format`, lets `fill` write all of them, and returns them.
    static func make(_ format: SampleFormat, count: Int, fill: (FinishedBuffer) -> Void) -> DevelopedImage.Samples {
        switch format {
        case .uint8:
            return .uint8([UInt8](unsafeUninitializedCapacity: count) { b, n in fill(.uint8(b.baseAddress!)); n = count })
        case .uint16:
            return .uint16([UInt16](unsafeUninitializedCapacity: count) { b, n in fill(.uint16(b.baseAddress!)); n = count })
        case .float32:
            return .float32([Float](unsafeUninitializedCapacity: count) { b, n in fill(.float32(b.baseAddress!)); n = count })
        }
    }
}

/// The last per-pixel step: highlight reconstruction (optional), the 3x3 matrix to linear output RGB, and the
/// finishing curves, writing 8-bit, 16-bit or float code values into interleaved RGB with any pixel stride.
///
/// 16-bit and float samples use the interpolated square-root-indexed curves of ``FinishTable``; 8-bit samples use
/// the same tables rounded to bytes and read at the nearest entry (4096 steps of √x are fine enough that no byte
/// differs from the exact curve's by more than one), with no interpolation.
struct Finisher: Sendable {
    let m: [Float]
    let table: FinishTable
    let reconstruct: Bool
    /// Per-channel saturation levels of the white-balanced mosaic (reconstruction only).
    let ceilings: [Float]
    /// Byte curves per channel: ``FinishTable``'s entries rounded to bytes (8-bit output only).
    let bytes: [[UInt8]]

    init(plan: ColorPlan, reconstruct: Bool, format: SampleFormat) {
        m = plan.matrix.map { Float($0) }
        table = plan.table
        self.reconstruct = reconstruct
        ceilings = plan.ceilings
        bytes = format == .uint8 ? plan.table.tables.map { t in t.map { UInt8(($0 * 255).rounded()) } } : []
    }

    /// A channel counts as clipped from this fraction of its saturation level on.
    static let clipFraction: Float = 0.995

    /// Finishes `count` pixels from planar camera RGB; pixel `k` goes to samples `(first + k · pixelStride) · 3 ...`.
    func finish(_ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int,
                into buffer: FinishedBuffer, first: Int, pixelStride: Int) {
        let step = 3 * pixelStride
        switch buffer {
        case .uint8(let base):
            finishBytes(r, g, b, count: count, into: base + 3 * first, step: step)
        case .uint16(let base):
            finishWords(r, g, b, count: count, into: base + 3 * first, step: step)
        case .float32(let base):
            let out = base + 3 * first
            curves { curve in
                run(r, g, b, count: count) { k, v0, v1, v2 in
                    let o = out + k * step
                    o[0] = curve(0, v0)
                    o[1] = curve(1, v1)
                    o[2] = curve(2, v2)
                }
            }
        }
    }

    /// Finishes `count` grey pixels from one plane of light (a monochrome frame's) into one sample each: pixel `k`
    /// goes to sample `first + k`. The gain is the matrix's first entry (a monochrome plan's matrix is its exposure
    /// gain times the identity) and the curve the first table (a grey plan's three tables are one curve); 8-bit
    /// samples take the nearest byte entry as ``finish(_:_:_:count:into:first:pixelStride:)`` does.
    func finishGrey(_ light: UnsafePointer<Float>, count: Int, into buffer: FinishedBuffer, first: Int) {
        let gain = m[0]
        switch buffer {
        case .uint8(let base):
            let out = base + first, chunk = Finisher.chunk
            let scale = gain / table.inputMaximum, n = Float(FinishTable.entries), magic: Float = 8_388_608
            bytes[0].withUnsafeBufferPointer { curve in
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: chunk) { space in
                    let index = space.baseAddress!
                    var start = 0
                    while start < count {
                        let length = min(chunk, count - start), source = light + start
                        for k in 0..<length {
                            var x = source[k] * scale
                            x = x >= 0 ? x : 0
                            x = x < 1 ? x : 1
                            index[k] = (x.squareRoot() * n + magic).bitPattern & 0x7F_FFFF
                        }
                        let target = out + start
                        for k in 0..<length { target[k] = curve[Int(index[k])] }
                        start += length
                    }
                }
            }
        case .uint16(let base):
            let out = base + first
            curves { curve in
                for k in 0..<count { out[k] = UInt16(curve(0, gain * light[k]) * 65535 + 0.5) }
            }
        case .float32(let base):
            let out = base + first
            curves { curve in
                for k in 0..<count { out[k] = curve(0, gain * light[k]) }
            }
        }
    }

    /// Pixels per pass of the 8-bit path: its table indices stay in the L1 cache between the two loops.
    static let chunk = 512

    /// The 8-bit path in two loops per chunk: one the compiler vectorises (matrix, clamp, square root, nearest
    /// table index), then the byte lookups. Highlight reconstruction, when on, runs first into linear temporaries.
    private func finishBytes(_ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int,
                             into out: UnsafeMutablePointer<UInt8>, step: Int) {
        let chunk = Finisher.chunk
        let scale = 1 / table.inputMaximum
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 3 * chunk) { indexSpace in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: reconstruct ? 3 * chunk : 0) { linearSpace in
                let i0 = indexSpace.baseAddress!, i1 = i0 + chunk, i2 = i1 + chunk
                bytes[0].withUnsafeBufferPointer { t0 in
                    bytes[1].withUnsafeBufferPointer { t1 in
                        bytes[2].withUnsafeBufferPointer { t2 in
                            var start = 0
                            while start < count {
                                let n = min(chunk, count - start)
                                if reconstruct {
                                    let l0 = linearSpace.baseAddress!, l1 = l0 + chunk, l2 = l1 + chunk
                                    run(r + start, g + start, b + start, count: n) { k, v0, v1, v2 in
                                        l0[k] = v0; l1[k] = v1; l2[k] = v2
                                    }
                                    Finisher.tableIndices(l0, l1, l2, count: n, matrix: Finisher.identity, scale: scale,
                                                          into: i0, i1, i2)
                                } else {
                                    Finisher.tableIndices(r + start, g + start, b + start, count: n, matrix: m, scale: scale,
                                                          into: i0, i1, i2)
                                }
                                let o = out + start * step
                                for k in 0..<n {
                                    let p = o + k * step
                                    p[0] = t0[Int(i0[k])]
                                    p[1] = t1[Int(i1[k])]
                                    p[2] = t2[Int(i2[k])]
                                }
                                start += n
                            }
                        }
                    }
                }
            }
        }
    }

    /// The 16-bit path in two loops per chunk, as the 8-bit one: one the compiler vectorises (matrix, clamp, square
    /// root: each sample's position in its table), then the interpolated lookups. The arithmetic is the curve lookup's
    /// (``curves(_:)``), so the samples are the same; only the integer parts and the final rounding take the 2²³ trick
    /// instead of checked float-to-integer conversions, which kept the loop scalar and cost a third of a 16-bit
    /// development (docs/benchmarks.md, "Issue #33: TIFF output").
    private func finishWords(_ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int,
                             into out: UnsafeMutablePointer<UInt16>, step: Int) {
        let chunk = Finisher.chunk
        let scale = 1 / table.inputMaximum
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * chunk) { positionSpace in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: reconstruct ? 3 * chunk : 0) { linearSpace in
                let p0 = positionSpace.baseAddress!, p1 = p0 + chunk, p2 = p1 + chunk
                table.tables[0].withUnsafeBufferPointer { t0 in
                    table.tables[1].withUnsafeBufferPointer { t1 in
                        table.tables[2].withUnsafeBufferPointer { t2 in
                            var start = 0
                            while start < count {
                                let n = min(chunk, count - start)
                                if reconstruct {
                                    let l0 = linearSpace.baseAddress!, l1 = l0 + chunk, l2 = l1 + chunk
                                    run(r + start, g + start, b + start, count: n) { k, v0, v1, v2 in
                                        l0[k] = v0; l1[k] = v1; l2[k] = v2
                                    }
                                    Finisher.tablePositions(l0, l1, l2, count: n, matrix: Finisher.identity, scale: scale,
                                                            into: p0, p1, p2)
                                } else {
                                    Finisher.tablePositions(r + start, g + start, b + start, count: n, matrix: m, scale: scale,
                                                            into: p0, p1, p2)
                                }
                                let o = out + start * step
                                for k in 0..<n {
                                    let q = o + k * step
                                    q[0] = Finisher.word(t0, at: p0[k])
                                    q[1] = Finisher.word(t1, at: p1[k])
                                    q[2] = Finisher.word(t2, at: p2[k])
                                }
                                start += n
                            }
                        }
                    }
                }
            }
        }
    }

    /// The 2²³ trick: the integer `x` holds (0...2²²), without a checked conversion.
    @inline(__always)
    private static func integer(_ x: Float) -> Int { Int((x + 8_388_608).bitPattern & 0x7F_FFFF) }

    /// Matrix, then for each channel the position in a √-indexed table, `√(clamp(x · scale, 0, 1)) · entries`: the
    /// ``curves(_:)`` lookup's, operation for operation (NaN clamps to 0).
    @inline(__always)
    private static func tablePositions(_ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
                                       count: Int, matrix m: [Float], scale: Float,
                                       into p0: UnsafeMutablePointer<Float>, _ p1: UnsafeMutablePointer<Float>,
                                       _ p2: UnsafeMutablePointer<Float>) {
        let m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3], m4 = m[4], m5 = m[5], m6 = m[6], m7 = m[7], m8 = m[8]
        let n = Float(FinishTable.entries)
        for k in 0..<count {
            let cr = r[k], cg = g[k], cb = b[k]
            var x0 = (m0 * cr + m1 * cg + m2 * cb) * scale, x1 = (m3 * cr + m4 * cg + m5 * cb) * scale
            var x2 = (m6 * cr + m7 * cg + m8 * cb) * scale
            x0 = x0 >= 0 ? x0 : 0; x1 = x1 >= 0 ? x1 : 0; x2 = x2 >= 0 ? x2 : 0
            x0 = x0 < 1 ? x0 : 1; x1 = x1 < 1 ? x1 : 1; x2 = x2 < 1 ? x2 : 1
            p0[k] = x0.squareRoot() * n
            p1[k] = x1.squareRoot() * n
            p2[k] = x2.squareRoot() * n
        }
    }

    /// The 16-bit code value at table position `u` (0...entries): the entries either side interpolated, as
    /// ``curves(_:)`` does, times 65535, rounded.
    @inline(__always)
    private static func word(_ t: UnsafeBufferPointer<Float>, at u: Float) -> UInt16 {
        let i = min(integer(u.rounded(.down)), FinishTable.entries - 1)
        let f = u - Float(i)
        let v = t[i] + f * (t[i + 1] - t[i])
        return UInt16(truncatingIfNeeded: integer((v * 65535 + 0.5).rounded(.down)))
    }

    private static let identity: [Float] = [1, 0, 0, 0, 1, 0, 0, 0, 1]

    /// Matrix, then for each channel the nearest entry of a √-indexed table: `round(√(clamp(x · scale, 0, 1)) · entries)`.
    /// The rounding adds 2²³ and keeps the mantissa bits (exact for 0...2²²) instead of a checked float-to-integer
    /// conversion, which would keep the loop scalar; NaN clamps to 0.
    @inline(__always)
    private static func tableIndices(_ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
                                     count: Int, matrix m: [Float], scale: Float,
                                     into i0: UnsafeMutablePointer<UInt32>, _ i1: UnsafeMutablePointer<UInt32>,
                                     _ i2: UnsafeMutablePointer<UInt32>) {
        let m0 = m[0] * scale, m1 = m[1] * scale, m2 = m[2] * scale, m3 = m[3] * scale, m4 = m[4] * scale
        let m5 = m[5] * scale, m6 = m[6] * scale, m7 = m[7] * scale, m8 = m[8] * scale
        let n = Float(FinishTable.entries), magic: Float = 8_388_608
        for k in 0..<count {
            let cr = r[k], cg = g[k], cb = b[k]
            var x0 = m0 * cr + m1 * cg + m2 * cb, x1 = m3 * cr + m4 * cg + m5 * cb, x2 = m6 * cr + m7 * cg + m8 * cb
            x0 = x0 >= 0 ? x0 : 0; x1 = x1 >= 0 ? x1 : 0; x2 = x2 >= 0 ? x2 : 0
            x0 = x0 < 1 ? x0 : 1; x1 = x1 < 1 ? x1 : 1; x2 = x2 < 1 ? x2 : 1
            i0[k] = (x0.squareRoot() * n + magic).bitPattern & 0x7F_FFFF
            i1[k] = (x1.squareRoot() * n + magic).bitPattern & 0x7F_FFFF
            i2[k] = (x2.squareRoot() * n + magic).bitPattern & 0x7F_FFFF
        }
    }

    /// Calls `body` with the interpolated curve lookup (channel, linear value) → code value 0...1.
    @inline(__always)
    private func curves(_ body: ((Int, Float) -> Float) -> Void) {
        let scale = 1 / table.inputMaximum
        let n = Float(FinishTable.entries)
        let last = FinishTable.entries - 1
        table.tables[0].withUnsafeBufferPointer { t0 in
            table.tables[1].withUnsafeBufferPointer { t1 in
                table.tables[2].withUnsafeBufferPointer { t2 in
                    let t = [t0, t1, t2]
                    body { c, x in
                        let u = min(max(x * scale, 0), 1).squareRoot() * n
                        let i = min(Int(u), last)
                        let f = u - Float(i)
                        return t[c][i] + f * (t[c][i + 1] - t[c][i])
                    }
                }
            }
        }
    }

    /// Reconstruction and the matrix, pixel by pixel; `store` gets each pixel's linear output RGB.
    @inline(__always)
    private func run(_ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int,
                     store: (Int, Float, Float, Float) -> Void) {
        let m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3], m4 = m[4], m5 = m[5], m6 = m[6], m7 = m[7], m8 = m[8]
        let c0 = ceilings[0] * Finisher.clipFraction, c1 = ceilings[1] * Finisher.clipFraction
        let c2 = ceilings[2] * Finisher.clipFraction
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
            store(k, m0 * cr + m1 * cg + m2 * cb, m3 * cr + m4 * cg + m5 * cb, m6 * cr + m7 * cg + m8 * cb)
        }
    }
}
