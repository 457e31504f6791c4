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
    func apply(source: FloatPlane, depth: FloatPlane, rows: Range<Int>, columns: Range<Int>, into output: FloatPlane) {
        let w = columns.count, h = rows.count
        precondition(output.width == w && output.height == h, "output plane size")
        // Half-width per pixel, from its depth.
        let widths = FloatPlane(width: w, height: h)
        let horizontal = FloatPlane(width: w, height: h)
        let src = UncheckedBox(source.values), dep = UncheckedBox(depth.values)
        let hw = UncheckedBox(widths.values), hor = UncheckedBox(horizontal.values), out = UncheckedBox(output.values)
        let sourceWidth = source.width
        let chunk = 32
        parallelChunks((h + chunk - 1) / chunk) { c in
            for r in (c * chunk)..<min(h, (c + 1) * chunk) {
                for x in 0..<w {
                    hw.value[r * w + x] = Float(halfWidth(depth: Double(dep.value[(rows.lowerBound + r) * sourceWidth + columns.lowerBound + x])))
                }
            }
        }
        // Horizontal pass: each sub-row (same colour every second pixel).
        parallelChunks((h + chunk - 1) / chunk) { c in
            var line = [Float](repeating: 0, count: w / 2 + 1)
            var widthLine = [Float](repeating: 0, count: w / 2 + 1)
            var result = [Float](repeating: 0, count: w / 2 + 1)
            var prefix = [Double](repeating: 0, count: w / 2 + 2)
            for r in (c * chunk)..<min(h, (c + 1) * chunk) {
                for phase in 0..<2 {
                    let n = (w - phase + 1) / 2
                    let base = (rows.lowerBound + r) * sourceWidth + columns.lowerBound + phase
                    for j in 0..<n {
                        line[j] = src.value[base + 2 * j]
                        widthLine[j] = hw.value[r * w + phase + 2 * j]
                    }
                    Self.boxLine(line, widths: widthLine, count: n, prefix: &prefix, into: &result)
                    for j in 0..<n { hor.value[r * w + phase + 2 * j] = result[j] }
                }
            }
        }
        // Vertical pass: blocks of sub-columns, gathered row by row so memory is read in order.
        let block = 32
        let columnsPerPhase = (w + 1) / 2
        let blocks = (columnsPerPhase + block - 1) / block
        parallelChunks(blocks * 2) { task in
            let phaseX = task % 2, b = task / 2
            let firstColumn = b * block
            let count = min(block, (w - phaseX + 1) / 2 - firstColumn)
            guard count > 0 else { return }
            var line = [Float](repeating: 0, count: h / 2 + 1)
            var widthLine = [Float](repeating: 0, count: h / 2 + 1)
            var result = [Float](repeating: 0, count: h / 2 + 1)
            var prefix = [Double](repeating: 0, count: h / 2 + 2)
            for phaseY in 0..<2 {
                let n = (h - phaseY + 1) / 2
                for k in 0..<count {
                    let x = phaseX + 2 * (firstColumn + k)
                    for i in 0..<n {
                        line[i] = hor.value[(phaseY + 2 * i) * w + x]
                        widthLine[i] = hw.value[(phaseY + 2 * i) * w + x]
                    }
                    Self.boxLine(line, widths: widthLine, count: n, prefix: &prefix, into: &result)
                    for i in 0..<n { out.value[(phaseY + 2 * i) * w + x] = result[i] }
                }
            }
        }
    }

    /// Box-filters `count` values with a per-sample half-width: sample j becomes the mean of the
    /// piecewise-constant signal over [j − hⱼ − ½, j + hⱼ + ½], the signal extended past both ends.
    static func boxLine(_ values: [Float], widths: [Float], count n: Int, prefix: inout [Double], into result: inout [Float]) {
        guard n > 0 else { return }
        prefix[0] = 0
        for j in 0..<n { prefix[j + 1] = prefix[j] + Double(values[j]) }
        let first = Double(values[0]), last = Double(values[n - 1]), total = prefix[n]
        @inline(__always) func cumulative(_ t: Double) -> Double {
            if t <= 0 { return t * first }
            if t >= Double(n) { return total + (t - Double(n)) * last }
            let k = Int(t)
            return prefix[k] + (t - Double(k)) * Double(values[k])
        }
        for j in 0..<n {
            let half = Double(widths[j]) + 0.5
            let centre = Double(j) + 0.5
            result[j] = Float((cumulative(centre + half) - cumulative(centre - half)) / (2 * half))
        }
    }
}
