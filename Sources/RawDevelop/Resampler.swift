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

    /// `image` resized to `width` x `height`.
    static func resize(_ image: PlanarImage, width: Int, height: Int, threads: Int) -> PlanarImage {
        if image.width == width && image.height == height { return image }
        let horizontal = taps(from: image.width, to: width)
        let vertical = taps(from: image.height, to: height)
        // Horizontal pass into an intermediate of input height.
        let middle = PlanarImage(width: width, height: image.height)
        ParallelRows.run(rows: image.height, threads: threads) { rows in
            for c in 0..<3 {
                for y in rows {
                    let src = image.row(c, y), dst = middle.row(c, y)
                    for (x, tap) in horizontal.enumerated() {
                        var sum: Float = 0
                        for (k, w) in tap.weights.enumerated() { sum += w * src[tap.first + k] }
                        dst[x] = sum
                    }
                }
            }
        }
        let out = PlanarImage(width: width, height: height)
        ParallelRows.run(rows: height, threads: threads, minimumRows: 4) { rows in
            for c in 0..<3 {
                for y in rows {
                    let tap = vertical[y]
                    let dst = out.row(c, y)
                    for x in 0..<width { dst[x] = 0 }
                    for (k, w) in tap.weights.enumerated() {
                        let src = middle.row(c, tap.first + k)
                        for x in 0..<width { dst[x] += w * src[x] }
                    }
                }
            }
        }
        return out
    }
}
