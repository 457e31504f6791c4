import RawCore
/// Resizes planar images (three planes or one) with separable filters: area averaging (each output pixel the exact
/// mean of the input it covers) when shrinking, linear interpolation when enlarging an axis (non-square pixels).
enum Resampler {
    /// Weights of one output sample along one axis.
    struct Tap {
        let first: Int
        let weights: [Float]
    }

    static func taps(from input: Int, to output: Int) -> [Tap] {
        let scale = Double(input) / Double(output)
        return (0..<output).map { o in
            if scale >= 1 {
                let start = Double(o) * scale, end = start + scale
                let first = Int(start), last = min(input - 1, Int((end - 1e-9).rounded(.down)))
                var weights: [Float] = []
                for i in first...max(first, last) {
                    let covered = min(end, Double(i + 1)) - max(start, Double(i))
                    weights.append(Float(max(0, covered) / scale))
                }
                return Tap(first: first, weights: weights)
            }
            let centre = (Double(o) + 0.5) * scale - 0.5
            let i = min(max(0, Int(centre.rounded(.down))), input - 1)
            let f = Float(min(max(centre - Double(i), 0), 1))
            return i + 1 < input ? Tap(first: i, weights: [1 - f, f]) : Tap(first: i, weights: [1])
        }
    }

    /// Taps flattened for the inner loops: tap `o` reads `count[o]` inputs from `first[o]` with the weights at
    /// `offset[o]...` of `weights` (no array per tap to retain and bounds-check in the hot loop).
    struct FlatTaps: Sendable {
        let first: [Int]
        let count: [Int]
        let offset: [Int]
        let weights: [Float]

        init(_ taps: [Tap]) {
            first = taps.map(\.first)
            count = taps.map(\.weights.count)
            var offsets: [Int] = [], running = 0
            for t in taps { offsets.append(running); running += t.weights.count }
            offset = offsets
            weights = taps.flatMap(\.weights)
        }
    }

    /// `image` resized to `width` x `height`.
    static func resize(_ image: PlanarImage, width: Int, height: Int, threads: Int) -> PlanarImage {
        vertical(horizontal(image, width: width, threads: threads), height: height, threads: threads)
    }

    /// `image` resized to `width` columns (its height kept): the first, row-wise pass of ``resize(_:width:height:threads:)``.
    static func horizontal(_ image: PlanarImage, width: Int, threads: Int) -> PlanarImage {
        if image.width == width { return image }
        let horizontal = FlatTaps(taps(from: image.width, to: width))
        let middle = PlanarImage(width: width, height: image.height, planes: image.planes.count)
        ParallelRows.run(rows: image.height, threads: threads) { rows in
            for c in 0..<image.planes.count {
                for y in rows { horizontal.apply(image.row(c, y), into: middle.row(c, y), width: width) }
            }
        }
        return middle
    }

    /// `image` resized to `height` rows (its width kept).
    static func vertical(_ middle: PlanarImage, height: Int, threads: Int) -> PlanarImage {
        if middle.height == height { return middle }
        let out = PlanarImage(width: middle.width, height: height, planes: middle.planes.count)
        verticalRows(middle, height: height, threads: threads) { y, r, g, b in
            for (c, source) in [r, g, b].prefix(out.planes.count).enumerated() {
                out.row(c, y).update(from: source, count: middle.width)
            }
        }
        return out
    }

    /// `middle` resized to `height` rows, handed row by row to `sink` (row, red, green, blue; `middle.width` values
    /// each; a one-plane image hands its one row three times) from several threads at once, so the resized image is
    /// never stored: each worker computes its rows into one row of scratch.
    static func verticalRows(_ middle: PlanarImage, height: Int, threads: Int,
                             sink: (Int, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> Void) {
        let width = middle.width, planes = middle.planes.count
        if middle.height == height {
            ParallelRows.run(rows: height, threads: threads) { rows in
                for y in rows { sink(y, middle.rowOrOnly(0, y), middle.rowOrOnly(1, y), middle.rowOrOnly(2, y)) }
            }
            return
        }
        let vertical = FlatTaps(taps(from: middle.height, to: height))
        ParallelRows.run(rows: height, threads: threads, minimumRows: 4) { rows in
            let scratch = PlanarImage(width: width, height: 1, planes: planes)
            vertical.weights.withUnsafeBufferPointer { weights in
                for y in rows {
                    let first = vertical.first[y], w = weights.baseAddress! + vertical.offset[y], n = vertical.count[y]
                    for c in 0..<planes {
                        let dst = scratch.row(c, 0), top = middle.row(c, first), w0 = w[0]
                        for x in 0..<width { dst[x] = w0 * top[x] }
                        for k in 1..<max(1, n) {
                            let src = middle.row(c, first + k), wk = w[k]
                            for x in 0..<width { dst[x] += wk * src[x] }
                        }
                    }
                    sink(y, scratch.rowOrOnly(0, 0), scratch.rowOrOnly(1, 0), scratch.rowOrOnly(2, 0))
                }
            }
        }
    }
}

extension Resampler.FlatTaps {
    /// One row: `dst[x] = Σ weights · src[first[x] ...]` for `x` in `0..<width`.
    func apply(_ src: UnsafePointer<Float>, into dst: UnsafeMutablePointer<Float>, width: Int) {
        first.withUnsafeBufferPointer { first in
            count.withUnsafeBufferPointer { count in
                offset.withUnsafeBufferPointer { offset in
                    weights.withUnsafeBufferPointer { weights in
                        for x in 0..<width {
                            let s = src + first[x], w = weights.baseAddress! + offset[x]
                            var sum: Float = 0
                            for k in 0..<count[x] { sum += w[k] * s[k] }
                            dst[x] = sum
                        }
                    }
                }
            }
        }
    }
}
