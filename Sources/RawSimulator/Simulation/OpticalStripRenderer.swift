import Foundation
import RawCore
import RawSources

/// Renders a frame's defocused optical image strip by strip, top to bottom, without whole-frame planes of the
/// scene: each row of the scene is sampled once, its defocus widths and horizontal blur are computed at once
/// (both only need the row), and the vertical blur of a strip of output rows reads a window of rows that reaches
/// as far above and below the strip as the widest blur of the strip's pixels. The window is the only working
/// memory besides the output (`window.byteCount`); it grows when a strip's blur reaches further than it holds.
///
/// The result is the whole-frame ``DefocusBlur/apply(source:depth:rows:columns:into:workspace:)`` of the
/// frame's ``ScenePlane``, up to rounding: the vertical running sums start at the window's first row instead of
/// the frame's, which moves values by about 1e-7 of themselves (a DN changes only where a value lies that close to
/// a rounding boundary).
struct OpticalStripRenderer {
    /// Output rows per strip.
    static let stripRows = 128

    let sampler: SceneSampler
    let blur: DefocusBlur
    /// The whole frame's scene plane when the sensor keeps one (rows are read from it instead of sampled).
    var scene: ScenePlane?

    /// The rows of the frame the window holds: their defocus half-widths and horizontally blurred values.
    final class Window {
        /// Half-widths, `capacity` rows.
        private(set) var widths: FloatPlane
        /// Horizontally blurred rows, `capacity` rows.
        private(set) var horizontal: FloatPlane
        /// Frame row of the window's first row, and how many rows it holds.
        var firstRow = 0
        var rowCount = 0

        /// A window of `rows` rows of `width` pixels.
        init(width: Int, rows: Int) {
            widths = FloatPlane(width: width, height: max(2, rows), uninitialized: ())
            horizontal = FloatPlane(width: width, height: max(2, rows), uninitialized: ())
        }

        /// Rows the window can hold.
        var capacity: Int { widths.height }
        /// Bytes of its two planes.
        var byteCount: Int { widths.byteCount + horizontal.byteCount }

        /// The rows the window starts with for a `width` x `height` frame: a sixth of the frame, at least 512 rows
        /// (a blur of up to about 190 rows each way at 128 rows a strip), at most the whole frame.
        static func defaultRows(height: Int) -> Int { min(height, max(512, height / 6)) }

        /// Bytes of a window of ``defaultRows(height:)`` rows.
        static func defaultBytes(width: Int, height: Int) -> Int {
            2 * FloatPlane.bytes(width: width, height: max(2, defaultRows(height: height)))
        }

        /// Drops the rows before frame row `row` and makes room for `rows` rows from it (moving the kept rows
        /// to the start, and growing when the window is too small).
        func keep(from row: Int, room rows: Int) {
            let drop = min(max(0, row - firstRow), rowCount)
            if drop > 0 {
                let w = widths.width, kept = rowCount - drop
                if kept > 0 {
                    let bytes = kept * w * MemoryLayout<Float>.stride
                    memmove(widths.values, widths.values + drop * w, bytes)
                    memmove(horizontal.values, horizontal.values + drop * w, bytes)
                }
                firstRow += drop
                rowCount = kept
            }
            if rows > capacity {
                let bigger = Window(width: widths.width, rows: rows)
                bigger.widths.values.initialize(from: widths.values, count: rowCount * widths.width)
                bigger.horizontal.values.initialize(from: horizontal.values, count: rowCount * widths.width)
                widths = bigger.widths
                horizontal = bigger.horizontal
            }
        }
    }

    /// Renders the whole frame into `output` (frame-sized), using and keeping `window`.
    func render(into output: FloatPlane, window: Window) {
        let h = sampler.height, w = sampler.width
        precondition(output.width == w && output.height == h, "output plane size")
        window.firstRow = 0
        window.rowCount = 0
        var r0 = 0, lastMargin = 0
        while r0 < h {
            // Strips at least twice as tall as the last blur reached, so that re-reading the margins stays cheap.
            let r1 = min(h, r0 + max(Self.stripRows, 2 * lastMargin))
            let from = max(window.firstRow, r0 - lastMargin)
            window.keep(from: from, room: max(window.firstRow + window.rowCount, r1) - from)
            append(upTo: r1, window: window)
            // Sub-rows a box of the strip reaches beyond its pixel: ⌈half-width⌉ + 2 (both ends, and the next
            // running sum); in rows of the frame twice that.
            let margin = 2 * (Int(maximumWidth(rows: r0..<r1, window: window).rounded(.up)) + 2)
            let low = max(0, r0 - margin), high = min(h, r1 + margin)
            if low < window.firstRow {
                // Rows dropped for an earlier, narrower strip are needed again: start the window over.
                window.firstRow = low
                window.rowCount = 0
            }
            window.keep(from: low, room: high - low)
            append(upTo: high, window: window)
            let offset = (low - window.firstRow) * w
            DefocusBlur.verticalPass(.init(horizontal: UncheckedBox(window.horizontal.values + offset),
                                           widths: UncheckedBox(window.widths.values + offset),
                                           output: UncheckedBox(output.values + low * w), width: w,
                                           rows: high - low, outputRows: (r0 - low)..<(r1 - low)))
            r0 = r1
            lastMargin = margin
        }
    }

    /// The largest half-width of rows `rows` (held by the window).
    private func maximumWidth(rows: Range<Int>, window: Window) -> Float {
        let w = sampler.width
        var largest: Float = 0
        let start = window.widths.values + (rows.lowerBound - window.firstRow) * w
        for i in 0..<(rows.count * w) { largest = max(largest, start[i]) }
        return largest
    }

    /// Samples the frame rows from the window's end up to `end` into it: their half-widths and horizontal blur.
    private func append(upTo end: Int, window: Window) {
        let first = window.firstRow + window.rowCount
        guard end > first else { return }
        precondition(end - window.firstRow <= window.capacity, "window capacity")
        let w = sampler.width, sampler = sampler, blur = blur
        let kept = scene.map { (UncheckedBox($0.response.values), UncheckedBox($0.depth.values)) }
        let widths = UncheckedBox(window.widths.values + (first - window.firstRow) * w)
        let horizontal = UncheckedBox(window.horizontal.values + (first - window.firstRow) * w)
        let rows = end - first, rowsPerChunk = 8
        ParallelRows.perform(iterations: (rows + rowsPerChunk - 1) / rowsPerChunk) { chunk in
            let sampledResponse = UnsafeMutablePointer<Float>.allocate(capacity: w)
            let sampledDepth = UnsafeMutablePointer<Float>.allocate(capacity: w)
            let scratch = DefocusBlur.LineScratch(length: w / 2 + 1)
            defer {
                sampledResponse.deallocate()
                sampledDepth.deallocate()
                scratch.deallocate()
            }
            // Scenes are mostly surfaces of one depth: neighbours usually share it, so reuse the last width.
            var lastDepth = Float.nan, lastWidth: Float = 0
            for r in (chunk * rowsPerChunk)..<min(rows, (chunk + 1) * rowsPerChunk) {
                var response = sampledResponse, depth = sampledDepth
                if let (keptResponse, keptDepth) = kept {
                    response = keptResponse.value + (first + r) * w
                    depth = keptDepth.value + (first + r) * w
                } else {
                    sampler.fill(row: first + r, columns: 0..<w, response: response, depth: depth)
                }
                let widthRow = widths.value + r * w
                for x in 0..<w {
                    let d = depth[x]
                    if d != lastDepth {
                        lastDepth = d
                        lastWidth = Float(blur.halfWidth(depth: Double(d)))
                    }
                    widthRow[x] = lastWidth
                }
                DefocusBlur.horizontalRow(source: response, widths: widthRow, into: horizontal.value + r * w, width: w,
                                          scratch: scratch)
            }
        }
        window.rowCount = end - window.firstRow
    }
}
