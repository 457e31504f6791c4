import RawCore

/// Resizes camera RGB that arrives in horizontal strips, top to bottom, and hands each output row on as soon as it
/// is complete, so a demosaic whose output is resized holds neither the whole demosaiced image nor the whole resized
/// one: each strip is resized along its rows (area averaging, as ``Resampler`` does), every output row the strip
/// reaches adds the strip's rows with its vertical weights into a ring of rows, and the rows no later strip reaches
/// go to the sink. Owner: the caller, which adds strips one after another, each at most `stripRows` rows (within one
/// ``add(_:top:threads:sink:)`` each output row is written by one worker only).
final class StripResizer {
    let width: Int
    let height: Int
    /// Rows of the ring: the most output rows one strip can reach.
    let ringRows: Int
    private let ring: PlanarImage
    /// A strip's rows resized along the row (nil when the width is kept), allocated once.
    private let middle: PlanarImage?
    private let horizontal: Resampler.FlatTaps
    private let vertical: Resampler.FlatTaps
    /// Output rows handed to the sink so far, and rows whose ring row has been cleared for them.
    private var finished = 0
    private var entered = 0

    /// A resizer from `inputWidth` x `inputHeight` to `width` x `height` for strips of at most `stripRows` rows.
    init(inputWidth: Int, inputHeight: Int, width: Int, height: Int, stripRows: Int) {
        (self.width, self.height) = (width, height)
        horizontal = Resampler.FlatTaps(Resampler.taps(from: inputWidth, to: width))
        vertical = Resampler.FlatTaps(Resampler.taps(from: inputHeight, to: height))
        // Output rows reaching into `stripRows` input rows: the share of the output of one more input row (an
        // enlarging tap reads the row after its own), a partial row at each end, and two for rounding.
        ringRows = min(height, (stripRows + 1) * height / inputHeight + 4)
        ring = PlanarImage(width: width, height: ringRows)
        middle = inputWidth == width ? nil : PlanarImage(width: width, height: min(stripRows, inputHeight))
    }

    /// Float pixels of the planes one strip of `stripRows` rows and `inputWidth` columns costs with this resizer:
    /// the strip, its rows resized (unless the width is kept) and the ring.
    func workingPixels(inputWidth: Int, stripRows: Int) -> Int {
        inputWidth * stripRows + (inputWidth == width ? 0 : width * stripRows) + width * ringRows
    }

    /// Adds `strip`, whose row 0 is input row `top`, and hands every output row now complete to `sink` (output row,
    /// red, green, blue; `width` values each), from several threads at once.
    func add(_ strip: PlanarImage, top: Int, threads: Int,
             sink: (Int, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> Void) {
        let width = self.width, bottom = top + strip.height
        let middle: PlanarImage
        if let resized = self.middle {
            middle = resized
            let horizontal = self.horizontal
            ParallelRows.run(rows: strip.height, threads: threads) { rows in
                for c in 0..<3 {
                    for y in rows { horizontal.apply(strip.row(c, y), into: middle.row(c, y), width: width) }
                }
            }
        } else {
            middle = strip
        }
        // The output rows whose taps reach into this strip (taps are in increasing order).
        var first = finished
        while first < height && vertical.first[first] + vertical.count[first] <= top { first += 1 }
        var last = first
        while last < height && vertical.first[last] < bottom { last += 1 }
        precondition(last - finished <= ringRows, "a strip reached more output rows than the ring holds")
        for o in entered..<max(entered, last) {
            for c in 0..<3 { ring.row(c, o % ringRows).update(repeating: 0, count: width) }
        }
        entered = max(entered, last)
        let ring = self.ring, ringRows = self.ringRows, vertical = self.vertical
        ParallelRows.run(rows: last - first, threads: threads, minimumRows: 4) { range in
            vertical.weights.withUnsafeBufferPointer { weights in
                for o in range.lowerBound + first..<range.upperBound + first {
                    let w = weights.baseAddress! + vertical.offset[o]
                    for k in 0..<vertical.count[o] {
                        let i = vertical.first[o] + k
                        guard i >= top && i < bottom else { continue }
                        let wk = w[k]
                        for c in 0..<3 {
                            let dst = ring.row(c, o % ringRows), src = middle.row(c, i - top)
                            for x in 0..<width { dst[x] += wk * src[x] }
                        }
                    }
                }
            }
        }
        // Rows no later strip reaches are complete.
        var done = finished
        while done < height && vertical.first[done] + vertical.count[done] <= bottom { done += 1 }
        let start = finished
        ParallelRows.run(rows: done - start, threads: threads, minimumRows: 4) { range in
            for o in range.lowerBound + start..<range.upperBound + start {
                let r = o % ringRows
                sink(o, ring.row(0, r), ring.row(1, r), ring.row(2, r))
            }
        }
        finished = done
    }
}

extension GradientDemosaic {
    /// Rows of the strips ``run(frame:rect:gains:ceilings:threads:into:sink:)`` demosaics at a time: one band per thread
    /// (each band is several tiles, so the threads stay busy).
    static func stripRows(threads: Int) -> Int { bandRows * max(1, threads) }

    /// Demosaics `rect` in strips of ``stripRows(threads:)`` rows and resizes each through `resizer` as it is made,
    /// handing the resized rows to `sink` as they complete: the same pixels as one
    /// ``run(frame:rect:gains:ceilings:threads:sink:)`` over the whole rectangle resized (a band reads its margins from
    /// the frame, whichever strip it is in), with a strip's planes instead of the whole image's.
    func run(frame: RawFrame, rect: PixelRect, gains: [Double], ceilings: [Float], threads: Int, into resizer: StripResizer,
             sink: (Int, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> Void) {
        let stripRows = Self.stripRows(threads: threads)
        let strip = PlanarImage(width: rect.width, height: min(stripRows, rect.height))
        let workspaces = (0..<max(1, threads)).map { _ in Self.workspace(forWidth: rect.width) }
        var top = 0
        while top < rect.height {
            let rows = min(stripRows, rect.height - top)
            let part = try! PixelRect(top: rect.top + top, left: rect.left, height: rows, width: rect.width) // inside `rect`
            run(frame: frame, rect: part, gains: gains, ceilings: ceilings, threads: threads, workspaces: workspaces) { y, x, n, r, g, b in
                (strip.row(0, y) + x).update(from: r, count: n)
                (strip.row(1, y) + x).update(from: g, count: n)
                (strip.row(2, y) + x).update(from: b, count: n)
            }
            resizer.add(rows == strip.height ? strip : strip.prefix(rows: rows), top: top, threads: threads, sink: sink)
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
