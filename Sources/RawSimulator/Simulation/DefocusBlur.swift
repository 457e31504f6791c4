import Foundation
import RawCore
import RawSources

/// Thin-lens defocus: every point is spread over its circle of confusion, whose diameter grows with the
/// distance between the point and the plane of focus.
///
/// For a lens of focal length f at f-number N focused at s, a point at depth d makes a circle of diameter
/// c = (f / N) · f · |d − s| / (d · (s − f)) on the sensor (c = f² / (N · d) when focused at infinity). The
/// simulator spreads each colour sub-plane of the mosaic with a box of that width (a separable stand-in for
/// the disc, applied per pixel with the pixel's own depth) on top of a small fixed blur for diffraction and
/// the anti-aliasing filter. Widths are fractional, so the blur, and the sharpness of the image, change
/// smoothly and monotonically with the focus error.
struct DefocusBlur: Sendable {
    /// Focus distance in metres (`.infinity` allowed).
    let focusMetres: Double
    /// f-number.
    let fNumber: Double
    /// Focal length in millimetres.
    let focalLength: Double
    /// Pixel pitch in micrometres.
    let pixelPitch: Double

    /// Half-width of the optics' own blur (diffraction, anti-aliasing filter), in sub-plane pixels.
    static let baseHalfWidth = 0.35

    /// Diameter of the circle of confusion in millimetres for a point at `depth` metres.
    func circleOfConfusion(depth: Double) -> Double {
        let f = focalLength, aperture = focalLength / fNumber
        let d = max(depth * 1000, f * 1.001)
        if focusMetres.isInfinite { return aperture * f / d }
        let s = max(focusMetres * 1000, f * 1.001)
        return aperture * f * abs(d - s) / (d * (s - f))
    }

    /// Box half-width in sub-plane pixels (one sub-plane pixel = two sensor pixels) for a point at `depth`.
    func halfWidth(depth: Double) -> Double {
        let radiusInPixels = circleOfConfusion(depth: depth) / 2 / (pixelPitch / 1000)
        let sub = radiusInPixels / 2
        return (sub * sub + Self.baseHalfWidth * Self.baseHalfWidth).squareRoot()
    }

    /// Blurs the rectangle rows `rows`, columns `columns` (even bounds) of `source` into `output`, which
    /// has the rectangle's size; the rectangle's edges are extended outwards.
    /// `workspace`, when given, holds the intermediate planes (reused between calls of the same size).
    func apply(source: FloatPlane, depth: FloatPlane, rows: Range<Int>, columns: Range<Int>, into output: FloatPlane,
               workspace: Workspace? = nil) {
        let w = columns.count, h = rows.count
        precondition(output.width == w && output.height == h, "output plane size")
        let space = workspace.flatMap { $0.widths.width == w && $0.widths.height == h ? $0 : nil }
            ?? Workspace(width: w, height: h)
        // The passes reach the workspace's planes through raw pointers only: keep it alive until they are done.
        defer { withExtendedLifetime(space) {} }
        let planes = Planes(src: UncheckedBox(source.values), dep: UncheckedBox(depth.values),
                            hw: UncheckedBox(space.widths.values), hor: UncheckedBox(space.horizontal.values),
                            out: UncheckedBox(output.values), sourceWidth: source.width, rows: rows,
                            columns: columns, w: w, h: h)
        // Half-width per pixel, from its depth.
        computeWidths(planes)
        // Horizontal pass: each sub-row (same colour every second pixel).
        Self.horizontalPass(planes)
        // Vertical pass: blocks of neighbouring pixel columns (both colour phases, so each cache line is read
        // and written by one task only).
        Self.verticalPass(planes)
    }

    /// The planes of one ``apply(source:depth:rows:columns:into:workspace:)`` call as pointers shared by its
    /// tasks (source, depth, half-widths, horizontal result, output), with the rectangle and its size.
    private struct Planes {
        let src: UncheckedBox<UnsafeMutablePointer<Float>>
        let dep: UncheckedBox<UnsafeMutablePointer<Float>>
        let hw: UncheckedBox<UnsafeMutablePointer<Float>>
        let hor: UncheckedBox<UnsafeMutablePointer<Float>>
        let out: UncheckedBox<UnsafeMutablePointer<Float>>
        let sourceWidth: Int
        let rows: Range<Int>
        let columns: Range<Int>
        let w: Int
        let h: Int
    }

    /// Pass 1: the box half-width of every pixel of the rectangle, from its depth, into `planes.hw`.
    private func computeWidths(_ planes: Planes) {
        let dep = planes.dep, hw = planes.hw, sourceWidth = planes.sourceWidth
        let rows = planes.rows, columns = planes.columns, w = planes.w, h = planes.h
        let chunk = 32
        ParallelRows.perform(iterations: (h + chunk - 1) / chunk) { c in
            // Scenes are mostly surfaces of one depth: neighbours usually share it, so reuse the last width.
            var lastDepth = Float.nan, lastWidth: Float = 0
            for r in (c * chunk)..<min(h, (c + 1) * chunk) {
                let depthRow = dep.value + (rows.lowerBound + r) * sourceWidth + columns.lowerBound
                let widthRow = hw.value + r * w
                for x in 0..<w {
                    let d = depthRow[x]
                    if d != lastDepth {
                        lastDepth = d
                        lastWidth = Float(halfWidth(depth: Double(d)))
                    }
                    widthRow[x] = lastWidth
                }
            }
        }
    }

    /// Pass 2: box-filters each sub-row of the source (same colour every second pixel) into `planes.hor`.
    private static func horizontalPass(_ planes: Planes) {
        let src = planes.src, hw = planes.hw, hor = planes.hor, sourceWidth = planes.sourceWidth
        let rows = planes.rows, columns = planes.columns, w = planes.w, h = planes.h
        let chunk = 32
        ParallelRows.perform(iterations: (h + chunk - 1) / chunk) { c in
            let scratch = LineScratch(length: w / 2 + 1)
            defer { scratch.deallocate() }
            for r in (c * chunk)..<min(h, (c + 1) * chunk) {
                horizontalRow(source: src.value + (rows.lowerBound + r) * sourceWidth + columns.lowerBound,
                              widths: hw.value + r * w, into: hor.value + r * w, width: w, scratch: scratch)
            }
        }
    }

    /// Box-filters one row of `width` values (both colour phases, each over its own sub-row) with the per-pixel
    /// half-widths `widths` into `target`. `scratch` holds at least `width / 2 + 1` values.
    static func horizontalRow(source: UnsafePointer<Float>, widths: UnsafePointer<Float>, into target: UnsafeMutablePointer<Float>,
                              width w: Int, scratch: LineScratch) {
        for phase in 0..<2 {
            let n = (w - phase + 1) / 2
            let base = source + phase, widthBase = widths + phase
            for j in 0..<n {
                scratch.line[j] = base[2 * j]
                scratch.widths[j] = widthBase[2 * j]
            }
            Self.boxLine(scratch, count: n)
            let out = target + phase
            for j in 0..<n { out[2 * j] = scratch.result[j] }
        }
    }

    /// Pass 3: box-filters each column's sub-column of `planes.hor` (same colour every second row) into
    /// `planes.out`.
    private static func verticalPass(_ planes: Planes) {
        verticalPass(VerticalWindow(horizontal: planes.hor, widths: planes.hw, output: planes.out, width: planes.w,
                                    rows: planes.h, outputRows: 0..<planes.h))
    }

    /// Rows of a horizontally blurred image to filter vertically: `rows` rows of `width` values (half-widths
    /// beside them), of which the rows `outputRows` are written to `output` (row r of the window at row r of
    /// `output`). The window's first row must have the colour phase of the frame's first row (an even row).
    struct VerticalWindow {
        let horizontal: UncheckedBox<UnsafeMutablePointer<Float>>
        let widths: UncheckedBox<UnsafeMutablePointer<Float>>
        let output: UncheckedBox<UnsafeMutablePointer<Float>>
        let width: Int
        let rows: Int
        let outputRows: Range<Int>
    }

    /// Box-filters each column's sub-column of the window (same colour every second row), in blocks of
    /// neighbouring pixel columns (both colour phases, so each cache line is read and written by one task only).
    /// A block is copied out row by row (reading memory in order), each of its columns is filtered over the rows
    /// of one colour phase as a contiguous line, and the output rows are copied back.
    static func verticalPass(_ window: VerticalWindow) {
        let hw = window.widths, hor = window.horizontal, out = window.output, w = window.width, h = window.rows
        let outputRows = window.outputRows
        let block = 32
        let blocks = (w + block - 1) / block
        // One task per core, each with its scratch allocated once (fresh memory for every block would cost
        // a page fault and a page clearing per 4 KiB), taking every `tasks`-th block.
        let tasks = min(blocks, max(1, ProcessInfo.processInfo.activeProcessorCount))
        let length = h / 2 + 1
        ParallelRows.perform(iterations: tasks) { task in
            let values = UnsafeMutablePointer<Float>.allocate(capacity: block * length)
            let widthValues = UnsafeMutablePointer<Float>.allocate(capacity: block * length)
            let results = UnsafeMutablePointer<Float>.allocate(capacity: block * length)
            let prefix = UnsafeMutablePointer<Double>.allocate(capacity: length + 1)
            defer {
                values.deallocate()
                widthValues.deallocate()
                results.deallocate()
                prefix.deallocate()
            }
            for b in stride(from: task, to: blocks, by: tasks) {
                let firstX = b * block
                let count = min(block, w - firstX)
                for phaseY in 0..<2 {
                    let n = (h - phaseY + 1) / 2
                    for i in 0..<n {
                        let row = (phaseY + 2 * i) * w + firstX
                        let horizontalRow = hor.value + row, widthRow = hw.value + row
                        for k in 0..<count {
                            values[k * length + i] = horizontalRow[k]
                            widthValues[k * length + i] = widthRow[k]
                        }
                    }
                    for k in 0..<count {
                        Self.boxLine(values: values + k * length, widths: widthValues + k * length,
                                     result: results + k * length, prefix: prefix, count: n)
                    }
                    // Sub-rows i whose row phaseY + 2i lies in the output rows.
                    let first = max(0, (outputRows.lowerBound - phaseY + 1) / 2)
                    let end = min(n, max(first, (outputRows.upperBound - phaseY + 1) / 2))
                    for i in first..<end {
                        let target = out.value + (phaseY + 2 * i) * w + firstX
                        for k in 0..<count { target[k] = results[k * length + i] }
                    }
                }
            }
        }
    }

    /// The intermediate planes of ``apply(source:depth:rows:columns:into:workspace:)``: per-pixel half-widths
    /// and the horizontally blurred image.
    final class Workspace: Sendable {
        let widths: FloatPlane
        let horizontal: FloatPlane
        init(width: Int, height: Int) {
            widths = FloatPlane(width: width, height: height, uninitialized: ())
            horizontal = FloatPlane(width: width, height: height, uninitialized: ())
        }
    }

    /// Working memory of one line of the box filter.
    struct LineScratch {
        let line: UnsafeMutablePointer<Float>
        let widths: UnsafeMutablePointer<Float>
        let result: UnsafeMutablePointer<Float>
        let prefix: UnsafeMutablePointer<Double>

        init(length: Int) {
            line = .allocate(capacity: length)
            widths = .allocate(capacity: length)
            result = .allocate(capacity: length)
            prefix = .allocate(capacity: length + 1)
        }

        func deallocate() {
            line.deallocate()
            widths.deallocate()
            result.deallocate()
            prefix.deallocate()
        }
    }

    /// Box-filters `count` values of `scratch.line` with per-sample half-widths `scratch.widths` into
    /// `scratch.result`: sample j becomes the mean of the piecewise-constant signal over
    /// [j − hⱼ − ½, j + hⱼ + ½], the signal extended past both ends.
    ///
    /// Runs of equal half-width (a surface at one depth) take a branch-free loop: both ends of the box sit
    /// at the same fractional offset from every sample of the run.
    static func boxLine(_ scratch: LineScratch, count n: Int) {
        boxLine(values: scratch.line, widths: scratch.widths, result: scratch.result, prefix: scratch.prefix, count: n)
    }

    /// ``boxLine(_:count:)`` over separate buffers (`prefix` holds `count + 1` values).
    static func boxLine(values: UnsafeMutablePointer<Float>, widths: UnsafeMutablePointer<Float>,
                        result: UnsafeMutablePointer<Float>, prefix: UnsafeMutablePointer<Double>, count n: Int) {
        guard n > 0 else { return }
        prefix[0] = 0
        for j in 0..<n { prefix[j + 1] = prefix[j] + Double(values[j]) }
        let first = Double(values[0]), last = Double(values[n - 1]), total = prefix[n], end = Double(n)
        @inline(__always) func cumulative(_ t: Double) -> Double {
            if t <= 0 { return t * first }
            if t >= end { return total + (t - end) * last }
            let k = Int(t)
            return prefix[k] + (t - Double(k)) * Double(values[k])
        }
        var runStart = 0
        while runStart < n {
            let width = widths[runStart]
            var runEnd = runStart + 1
            while runEnd < n && widths[runEnd] == width { runEnd += 1 }
            let half = Double(width) + 0.5
            let scale = 1 / (2 * half)
            // t = j + 0.5 ± half = j + offset; offset = k + fraction with 0 ≤ fraction < 1.
            let highOffset = 0.5 + half, lowOffset = 0.5 - half
            let kHigh = Int(highOffset.rounded(.down)), kLow = Int(lowOffset.rounded(.down))
            let fHigh = highOffset - Double(kHigh), fLow = lowOffset - Double(kLow)
            // Inside, both ends fall within the line: j + kLow ≥ 0 and j + kHigh ≤ n − 1.
            let innerStart = min(max(runStart, -kLow), runEnd)
            let inner = innerStart..<max(innerStart, min(runEnd, n - kHigh))
            for j in runStart..<inner.lowerBound {
                let centre = Double(j) + 0.5
                result[j] = Float((cumulative(centre + half) - cumulative(centre - half)) * scale)
            }
            for j in inner {
                let hi = prefix[j + kHigh] + fHigh * Double(values[j + kHigh])
                let lo = prefix[j + kLow] + fLow * Double(values[j + kLow])
                result[j] = Float((hi - lo) * scale)
            }
            for j in inner.upperBound..<runEnd {
                let centre = Double(j) + 0.5
                result[j] = Float((cumulative(centre + half) - cumulative(centre - half)) * scale)
            }
            runStart = runEnd
        }
    }
}
