import RawCore
/// Resizes planar images with separable filters: area averaging (each output pixel the exact mean of the
/// input it covers) when shrinking, linear interpolation when enlarging an axis (non-square pixels).
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
        if image.width == width && image.height == height { return image }
        let horizontal = FlatTaps(taps(from: image.width, to: width))
        // Horizontal pass into an intermediate of input height.
        let middle = PlanarImage(width: width, height: image.height)
        ParallelRows.run(rows: image.height, threads: threads) { rows in
            for c in 0..<3 {
                for y in rows { horizontal.apply(image.row(c, y), into: middle.row(c, y), width: width) }
            }
        }
        return vertical(middle, height: height, threads: threads)
    }

    /// `image` resized to `height` rows (its width kept).
    static func vertical(_ middle: PlanarImage, height: Int, threads: Int) -> PlanarImage {
        if middle.height == height { return middle }
        let width = middle.width
        let vertical = taps(from: middle.height, to: height)
        let out = PlanarImage(width: width, height: height)
        ParallelRows.run(rows: height, threads: threads, minimumRows: 4) { rows in
            for c in 0..<3 {
                for y in rows {
                    let tap = vertical[y]
                    let dst = out.row(c, y)
                    tap.weights.withUnsafeBufferPointer { weights in
                        let first = middle.row(c, tap.first)
                        let w0 = weights[0]
                        for x in 0..<width { dst[x] = w0 * first[x] }
                        for k in 1..<max(1, weights.count) {
                            let src = middle.row(c, tap.first + k), w = weights[k]
                            for x in 0..<width { dst[x] += w * src[x] }
                        }
                    }
                }
            }
        }
        return out
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
