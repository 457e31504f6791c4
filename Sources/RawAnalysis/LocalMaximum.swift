import Foundation
import RawCore

/// The largest value within a square window around every cell of a grid (`radius` cells each side, clamped at the
/// borders), as two one-dimensional passes: along the rows, then down the columns.
///
/// Focus peaking measures an edge's contrast against the brightest light within this window, so a blurred ramp's
/// dark foot is measured against the ramp's top and not against its own shadow.
///
/// Each pass widens windows by doubling (the maximum of two windows of width w, w apart, covers 2w), then covers
/// the window's length L with two overlapping windows of the largest power of two P ≤ L: ⌈log₂ L⌉ comparisons a
/// cell instead of L − 1.
enum LocalMaximum {
    /// The windowed maximum of `values` (`width · height`, row-major).
    static func of(_ values: [Float], width w: Int, height h: Int, radius r: Int, threads: Int) -> [Float] {
        guard r > 0, w > 0, h > 0 else { return values }
        let length = 2 * r + 1
        var power = 1
        while power * 2 <= length { power *= 2 }
        // Along the rows: each row with its edge cells repeated r times each side, widened in place.
        let along = [Float](unsafeUninitializedCapacity: w * h) { target, count in
            values.withUnsafeBufferPointer { source in
                let src = source.baseAddress!, dst = target.baseAddress!
                ParallelRows.run(rows: h, threads: threads, minimumRows: 32) { rows in
                    let n = w + 2 * r
                    let line = UnsafeMutablePointer<Float>.allocate(capacity: n)
                    defer { line.deallocate() }
                    for y in rows {
                        let row = src + y * w
                        for i in 0..<r { line[i] = row[0]; line[w + r + i] = row[w - 1] }
                        (line + r).update(from: row, count: w)
                        var width = 1
                        while width < power {
                            // Windows of 2 · width from two of width: only those wholly inside the line.
                            let ahead = line + width
                            for i in 0...(n - 2 * width) { line[i] = max(line[i], ahead[i]) }
                            width *= 2
                        }
                        let out = dst + y * w, far = line + (length - power)
                        for x in 0..<w { out[x] = max(line[x], far[x]) }
                    }
                }
            }
            count = w * h
        }
        // Down the columns: rows clamped at the borders, widened by doubling between two buffers of padded rows.
        let paddedRows = h + 2 * r
        var current = UnsafeMutablePointer<Float>.allocate(capacity: paddedRows * w)
        var next = UnsafeMutablePointer<Float>.allocate(capacity: paddedRows * w)
        defer { current.deallocate(); next.deallocate() }
        along.withUnsafeBufferPointer { source in
            let src = source.baseAddress!
            for y in 0..<paddedRows { (current + y * w).update(from: src + min(h - 1, max(0, y - r)) * w, count: w) }
        }
        var width = 1
        while width < power {
            let (a, b, step) = (current, next, width)
            // Windows of 2 · step rows from two of step rows: only those wholly inside the padded rows.
            ParallelRows.run(rows: paddedRows - 2 * step + 1, threads: threads, minimumRows: 32) { rows in
                for y in rows {
                    let top = a + y * w, below = a + (y + step) * w, out = b + y * w
                    for x in 0..<w { out[x] = max(top[x], below[x]) }
                }
            }
            swap(&current, &next)
            width *= 2
        }
        let windows = current, farRow = length - power
        return [Float](unsafeUninitializedCapacity: w * h) { target, count in
            let dst = target.baseAddress!
            ParallelRows.run(rows: h, threads: threads, minimumRows: 32) { rows in
                for y in rows {
                    let top = windows + y * w, bottom = windows + (y + farRow) * w, out = dst + y * w
                    for x in 0..<w { out[x] = max(top[x], bottom[x]) }
                }
            }
            count = w * h
        }
    }
}
