import RawCore

/// Resizes camera RGB that arrives in horizontal strips, top to bottom, into planes of the output's size, so a
/// demosaic whose output is resized never holds the whole demosaiced image: each strip is resized along its rows
/// (area averaging, as ``Resampler`` does), then every output row the strip reaches adds the strip's rows with its
/// vertical weights. Owner: the caller, which adds strips one after another (each ``add(_:top:threads:)`` writes
/// an output row from one worker only).
final class StripResizer {
    /// The resized image: complete once every input row has been added.
    let output: PlanarImage
    private let inputWidth: Int
    private let horizontal: Resampler.FlatTaps
    private let vertical: Resampler.FlatTaps

    /// A resizer from `inputWidth` x `inputHeight` to `width` x `height`.
    init(inputWidth: Int, inputHeight: Int, width: Int, height: Int) {
        self.inputWidth = inputWidth
        output = PlanarImage(width: width, height: height) // zeroed: rows accumulate
        horizontal = Resampler.FlatTaps(Resampler.taps(from: inputWidth, to: width))
        vertical = Resampler.FlatTaps(Resampler.taps(from: inputHeight, to: height))
    }

    /// Adds `strip` (`inputWidth` wide), whose row 0 is input row `top`.
    func add(_ strip: PlanarImage, top: Int, threads: Int) {
        let width = output.width, rows = strip.height, bottom = top + rows
        let middle = Resampler.horizontal(strip, width: width, threads: threads)
        // The output rows whose taps reach into this strip (taps are in increasing order).
        var first = 0
        while first < output.height && vertical.first[first] + vertical.count[first] <= top { first += 1 }
        var last = first
        while last < output.height && vertical.first[last] < bottom { last += 1 }
        guard last > first else { return }
        ParallelRows.run(rows: last - first, threads: threads, minimumRows: 4) { range in
            vertical.weights.withUnsafeBufferPointer { weights in
                for o in range.lowerBound + first..<range.upperBound + first {
                    let w = weights.baseAddress! + vertical.offset[o]
                    for k in 0..<vertical.count[o] {
                        let i = vertical.first[o] + k
                        guard i >= top && i < bottom else { continue }
                        let wk = w[k]
                        for c in 0..<3 {
                            let dst = output.row(c, o), src = middle.row(c, i - top)
                            for x in 0..<width { dst[x] += wk * src[x] }
                        }
                    }
                }
            }
        }
    }
}

extension GradientDemosaic {
    /// Demosaics `rect` in strips of whole bands (a few per thread) and resizes each into `resizer` as it is made:
    /// the same pixels as one ``run(frame:rect:gains:ceilings:threads:sink:)`` over the whole rectangle (a band reads
    /// its margins from the frame, whichever strip it is in), with a strip's planes instead of the whole image's.
    func run(frame: RawFrame, rect: PixelRect, gains: [Double], ceilings: [Float], threads: Int, into resizer: StripResizer) {
        let stripRows = Self.bandRows * 2 * max(1, threads)
        let strip = PlanarImage(width: rect.width, height: min(stripRows, rect.height))
        var top = 0
        while top < rect.height {
            let rows = min(stripRows, rect.height - top)
            let part = try! PixelRect(top: rect.top + top, left: rect.left, height: rows, width: rect.width) // inside `rect`
            run(frame: frame, rect: part, gains: gains, ceilings: ceilings, threads: threads) { y, x, n, r, g, b in
                (strip.row(0, y) + x).update(from: r, count: n)
                (strip.row(1, y) + x).update(from: g, count: n)
                (strip.row(2, y) + x).update(from: b, count: n)
            }
            resizer.add(rows == strip.height ? strip : strip.prefix(rows: rows), top: top, threads: threads)
            top += rows
        }
    }
}

extension PlanarImage {
    /// The first `rows` rows of this image, sharing its planes (the last strip of a demosaic is shorter).
    func prefix(rows: Int) -> PlanarImage {
        PlanarImage(width: width, height: rows, planes: planes)
    }
}
