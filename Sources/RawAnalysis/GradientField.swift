import Foundation
import RawCore
import RawDevelop

/// The edge strength of a ``LumaGrid``: a 3x3 binomial noise filter ([1 2 1]/4 along each axis), then the Sobel
/// derivatives, and their magnitude `√(gx² + gy²)` at every cell. Borders repeat the edge cell (`nearest`).
///
/// Each filter runs as 1-D passes in a fixed order (filter rows down the columns first, then along the rows; for
/// each Sobel derivative the difference along its axis, then the smoothing across), the same order
/// `scipy.ndimage` uses, so a reference built from `correlate1d` calls matches to float rounding.
public struct GradientField: Sendable {
    /// Grid columns.
    public let width: Int
    /// Grid rows.
    public let height: Int
    /// Row-major magnitudes.
    public let magnitudes: [Float]
    /// Row-major local brightness: the largest noise-filtered luma among each cell and its eight neighbours (the
    /// bright side of an edge through the cell), in the luma's units (1 = white). Focus peaking divides the magnitude
    /// by it, so an edge's contrast, not the exposure, decides whether it is marked.
    public let brightness: [Float]
    /// How many magnitudes share each value of the top 16 bits of their float bit pattern (an order-preserving,
    /// 1/128-stop-fine coarse histogram of the non-negative magnitudes), when asked for; ``FocusPeaking`` finds its
    /// fraction threshold from it without sorting the field.
    let coarseCounts: [Int]?

    /// Bins of ``coarseCounts``: one per value of the top 16 bits of a `Float`.
    static let coarseBins = 1 << 16

    /// Computes the field of `luma` on `threads` threads, in bands of rows with a two-row margin; with
    /// `countingMagnitudes`, also the coarse histogram of the magnitudes (counted per band while its rows are in cache).
    public init(_ luma: LumaGrid, threads: Int = ProcessInfo.processInfo.activeProcessorCount, countingMagnitudes: Bool = false) {
        let w = luma.width, h = luma.height
        width = w
        height = h
        let bandCounts = CountTables(count: countingMagnitudes ? max(1, threads) : 0, bins: Self.coarseBins)
        var bright: [Float] = []
        let out = [Float](unsafeUninitializedCapacity: w * h) { target, count in
            bright = [Float](unsafeUninitializedCapacity: w * h) { brightTarget, brightCount in
                luma.values.withUnsafeBufferPointer { source in
                    let src = source.baseAddress!, dst = target.baseAddress!, light = brightTarget.baseAddress!
                    ParallelRows.run(rows: h, threads: threads, minimumRows: 16) { rows in
                        Self.band(src, lumaFirstRow: 0, width: w, height: h, rows: rows, into: dst, brightness: light)
                        if countingMagnitudes {
                            bandCounts.count(dst + rows.lowerBound * w, n: rows.count * w)
                        }
                    }
                }
                brightCount = w * h
            }
            count = w * h
        }
        magnitudes = out
        brightness = bright
        coarseCounts = countingMagnitudes ? bandCounts.merged() : nil
    }

    /// The field of `frame`'s ``LumaGrid`` without storing the grid: each band computes the luma rows it needs
    /// (its rows and two more each side) from the frame, in cache. The same values as
    /// `GradientField(LumaGrid(frame: frame))`, for when only edges are wanted (live focus peaking).
    public init(frame: RawFrame, threads: Int = ProcessInfo.processInfo.activeProcessorCount, countingMagnitudes: Bool = false) {
        let mapping = LumaGrid.Mapping(frame: frame)
        let w = mapping.width, h = mapping.height
        width = w
        height = h
        let bandCounts = CountTables(count: countingMagnitudes ? max(1, threads) : 0, bins: Self.coarseBins)
        var bright: [Float] = []
        let out = [Float](unsafeUninitializedCapacity: w * h) { target, count in
            bright = [Float](unsafeUninitializedCapacity: w * h) { brightTarget, brightCount in
                let dst = target.baseAddress!, light = brightTarget.baseAddress!
                ParallelRows.run(rows: h, threads: threads, minimumRows: 16) { rows in
                    let low = max(0, rows.lowerBound - 2), high = min(h - 1, rows.upperBound + 1)
                    let luma = UnsafeMutablePointer<Float>.allocate(capacity: (high - low + 1) * w)
                    defer { luma.deallocate() }
                    for y in low...high { mapping.row(frame, y, into: luma + (y - low) * w) }
                    Self.band(luma, lumaFirstRow: low, width: w, height: h, rows: rows, into: dst, brightness: light)
                    if countingMagnitudes {
                        bandCounts.count(dst + rows.lowerBound * w, n: rows.count * w)
                    }
                }
                brightCount = w * h
            }
            count = w * h
        }
        magnitudes = out
        brightness = bright
        coarseCounts = countingMagnitudes ? bandCounts.merged() : nil
    }

    /// One band: rows `rows` of the magnitude and the brightness from rows `rows ± 2` of the luma (row `y` at
    /// `luma + (y − lumaFirstRow) · w`).
    private static func band(_ lumaRows: UnsafePointer<Float>, lumaFirstRow: Int, width w: Int, height h: Int, rows: Range<Int>,
                             into out: UnsafeMutablePointer<Float>, brightness: UnsafeMutablePointer<Float>) {
        let luma = lumaRows - lumaFirstRow * w
        // Band-local rows: blurred luma for rows.lower-1 ... rows.upper (clamped), stored at index row - first.
        let first = rows.lowerBound - 1, last = rows.upperBound      // inclusive range of blurred rows needed
        let count = last - first + 1
        let stride = w + 2                                            // one repeated cell each side
        let blurred = UnsafeMutablePointer<Float>.allocate(capacity: count * stride)
        let line = UnsafeMutablePointer<Float>.allocate(capacity: w)
        defer { blurred.deallocate(); line.deallocate() }
        @inline(__always) func clampRow(_ y: Int) -> Int { y < 0 ? 0 : (y >= h ? h - 1 : y) }
        for k in 0..<count {
            let y = first + k
            // Down the columns: [1 2 1]/4 over rows y-1, y, y+1 (each clamped to the grid).
            let a = luma + clampRow(clampRow(y) - 1) * w, b = luma + clampRow(y) * w, c = luma + clampRow(clampRow(y) + 1) * w
            for x in 0..<w { line[x] = (a[x] + 2 * b[x] + c[x]) * 0.25 }
            // Along the row: [1 2 1]/4 with the edge cells repeated.
            let row = blurred + k * stride + 1
            let left = line - 1, right = line + 1
            if w > 1 {
                row[0] = (line[0] + 2 * line[0] + line[1]) * 0.25
                for x in 1..<(w - 1) { row[x] = (left[x] + 2 * line[x] + right[x]) * 0.25 }
                row[w - 1] = (line[w - 2] + 2 * line[w - 1] + line[w - 1]) * 0.25
            } else {
                row[0] = line[0]
            }
            row[-1] = row[0]
            row[w] = row[w - 1]
        }
        for y in rows {
            // Rows y-1, y, y+1 of the blurred luma (the grid's edge rows repeat: blurred row clamp(y±1)).
            let up = blurred + (clampRow(y - 1) - first) * stride + 1
            let mid = blurred + (y - first) * stride + 1
            let down = blurred + (clampRow(y + 1) - first) * stride + 1
            let upW = up - 1, upE = up + 1, midW = mid - 1, midE = mid + 1, downW = down - 1, downE = down + 1
            let o = out + y * w, b = brightness + y * w
            for x in 0..<w {
                // gx: difference along the row, then [1 2 1] down the columns; gy: difference down, [1 2 1] along.
                let gx = (upE[x] - upW[x]) + 2 * (midE[x] - midW[x]) + (downE[x] - downW[x])
                let gy = (downW[x] - upW[x]) + 2 * (down[x] - up[x]) + (downE[x] - upE[x])
                o[x] = (gx * gx + gy * gy).squareRoot()
                let top = max(max(upW[x], up[x]), upE[x]), middle = max(max(midW[x], mid[x]), midE[x])
                let bottom = max(max(downW[x], down[x]), downE[x])
                b[x] = max(max(top, middle), bottom)
            }
        }
    }
}

/// Per-worker count tables for the coarse histogram of float magnitudes: a worker takes a free table, counts a
/// band into it, and gives it back; the tables are summed at the end.
// @unchecked: `tables` and `free` change only under `lock`; a taken table belongs to one worker until it is given back.
final class CountTables: @unchecked Sendable {
    private var tables: [UnsafeMutablePointer<UInt32>]
    private var free: [Int]
    private let bins: Int
    private let lock = NSLock()

    init(count: Int, bins: Int) {
        self.bins = bins
        tables = (0..<count).map { _ in
            let t = UnsafeMutablePointer<UInt32>.allocate(capacity: bins)
            t.initialize(repeating: 0, count: bins)
            return t
        }
        free = Array(0..<count)
    }

    deinit { for t in tables { t.deallocate() } }

    /// Counts `n` non-negative floats by the top 16 bits of their bit pattern. Takes a free table, or makes one when
    /// more workers run at once than tables were made (`concurrentPerform` may run as many as there are CPUs).
    func count(_ values: UnsafePointer<Float>, n: Int) {
        let index: Int = lock.withLock {
            if let free = free.popLast() { return free }
            let t = UnsafeMutablePointer<UInt32>.allocate(capacity: bins)
            t.initialize(repeating: 0, count: bins)
            tables.append(t)
            return tables.count - 1
        }
        let table = lock.withLock { tables[index] }
        let bits = UnsafeRawPointer(values).assumingMemoryBound(to: UInt32.self)
        for i in 0..<n { table[Int(bits[i] >> 16)] &+= 1 }
        lock.withLock { free.append(index) }
    }

    /// The tables summed.
    func merged() -> [Int] {
        var out = [Int](repeating: 0, count: bins)
        for t in tables { for b in 0..<bins where t[b] != 0 { out[b] += Int(t[b]) } }
        return out
    }
}
