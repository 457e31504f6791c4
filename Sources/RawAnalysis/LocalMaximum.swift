import Foundation
import RawCore

/// The largest value within a square window around every cell of a grid (`radius` cells each side, clamped at the
/// borders), as two one-dimensional passes: along the rows, then down the columns.
///
/// Focus peaking measures an edge's contrast against the brightest light within this window, so a blurred ramp's
/// dark foot is measured against the ramp's top and not against its own shadow.
enum LocalMaximum {
    /// The windowed maximum of `values` (`width · height`, row-major).
    static func of(_ values: [Float], width w: Int, height h: Int, radius r: Int, threads: Int) -> [Float] {
        guard r > 0, w > 0, h > 0 else { return values }
        let along = [Float](unsafeUninitializedCapacity: w * h) { target, count in
            values.withUnsafeBufferPointer { source in
                let src = source.baseAddress!, dst = target.baseAddress!
                ParallelRows.run(rows: h, threads: threads, minimumRows: 32) { rows in
                    let padded = UnsafeMutablePointer<Float>.allocate(capacity: w + 2 * r)
                    defer { padded.deallocate() }
                    for y in rows {
                        let row = src + y * w, out = dst + y * w
                        // The row with its edge cells repeated `r` times each side, so every window is whole.
                        for i in 0..<r { padded[i] = row[0]; padded[w + r + i] = row[w - 1] }
                        (padded + r).update(from: row, count: w)
                        out.update(from: padded, count: w)
                        for d in 1...(2 * r) {
                            let shifted = padded + d
                            for x in 0..<w { out[x] = max(out[x], shifted[x]) }
                        }
                    }
                }
            }
            count = w * h
        }
        return [Float](unsafeUninitializedCapacity: w * h) { target, count in
            along.withUnsafeBufferPointer { source in
                let src = source.baseAddress!, dst = target.baseAddress!
                ParallelRows.run(rows: h, threads: threads, minimumRows: 32) { rows in
                    for y in rows {
                        let out = dst + y * w
                        let low = max(0, y - r), high = min(h - 1, y + r)
                        out.update(from: src + low * w, count: w)
                        for k in (low + 1)..<(high + 1) {
                            let row = src + k * w
                            for x in 0..<w { out[x] = max(out[x], row[x]) }
                        }
                    }
                }
            }
            count = w * h
        }
    }
}
