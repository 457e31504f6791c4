import RawCore
import RawDevelop

/// The JPEG preview of a frame much larger than the preview, made cheaply in time and memory.
///
/// The default crop's CFA periods are averaged down to exactly one period per preview pixel (each output period is
/// the mean of the 1-2 or more source periods it covers, a box filter on the raw samples), a band of preview rows at
/// a time, and each band is developed with the preview settings. One period is one pixel, so the developer bins
/// without resizing and never holds a picture-sized float image: besides the output, memory is one band (about
/// 2.5 MiB for a 1024 px preview), whatever the frame's size. Every development step of a preview is per pixel
/// (as-shot white balance, matrices, tone curve), so developing band by band gives the picture developing the
/// whole reduced mosaic would.
///
/// Frames it does not fit — non-square pixels, black levels that repeat over more than one CFA period, frames whose
/// crop is not larger than the preview, or pictures so small that the developer's own sampling path is cheaper
/// (thumbnails) — get `nil`, and the caller develops the whole frame.
enum BandedPreview {
    /// Preview rows developed at a time.
    static let bandRows = 128

    /// The preview of `image` with a long edge of `longEdge` pixels, or nil when the frame does not fit (see above).
    static func render(_ image: RawImage, longEdge: Int, developer: RawDeveloper) -> RGB8Image? {
        guard let plan = Plan(image.frame, longEdge: longEdge) else { return nil }
        var pixels = [UInt8](repeating: 0, count: plan.width * plan.height * 3)
        var firstRow = 0
        // The bands share the frame's metadata, calibration and levels: one colour plan develops them all.
        var colorPlan: ColorPlan?
        while firstRow < plan.height {
            let rows = min(bandRows, plan.height - firstRow)
            guard let band = plan.band(firstRow: firstRow, rows: rows, image: image, threads: developer.threads),
                  let (developed, used) = try? developer.preview(band, longEdge: max(plan.width, rows), reusing: colorPlan),
                  developed.width == plan.width, developed.height == rows
            else { return nil }
            colorPlan = used
            // A monochrome frame's grey picture becomes R = G = B: DNG previews are RGB.
            let samples = developed.expandedToRGB().uint8Samples
            guard samples.count == plan.width * rows * 3 else { return nil }
            pixels.replaceSubrange(firstRow * plan.width * 3 ..< (firstRow + rows) * plan.width * 3, with: samples)
            firstRow += rows
        }
        return try? RGB8Image(width: plan.width, height: plan.height, pixels: pixels)
    }

    /// Where each preview pixel's samples come from.
    struct Plan {
        let frame: RawFrame
        /// The default crop, in buffer coordinates.
        let crop: PixelRect
        let periodRows: Int
        let periodColumns: Int
        /// Preview size in pixels (= output periods).
        let width: Int
        let height: Int
        /// First source period of each output period, plus one past the end: output column `i` covers source
        /// period columns `columnStarts[i] ..< columnStarts[i + 1]`.
        let columnStarts: [Int]
        let rowStarts: [Int]
        let cfa: CFALayout
        let blackLevels: BlackLevels
        /// The divisors of the averages, by the number of source periods averaged (index 0 unused).
        let divisors: [ExactDivisor]

        init?(_ frame: RawFrame, longEdge: Int) {
            let pr = frame.cfa.rows, pc = frame.cfa.columns
            guard frame.defaultScale.horizontal == 1, frame.defaultScale.vertical == 1,
                  pr % frame.blackLevels.rows == 0, pc % frame.blackLevels.columns == 0 else { return nil }
            let area = frame.activeArea, inner = frame.defaultCrop
            guard let crop = try? PixelRect(top: area.top + inner.top, left: area.left + inner.left,
                                            height: inner.height, width: inner.width) else { return nil }
            let across = crop.width / pc, down = crop.height / pr
            // The size the developer gives the whole crop, so that both paths make the same picture size.
            let fit = min(1, Double(longEdge) / Double(max(crop.width, crop.height)))
            let width = max(1, Int((Double(crop.width) * fit).rounded()))
            let height = max(1, Int((Double(crop.height) * fit).rounded()))
            // At least one whole period per preview pixel.
            guard longEdge >= 16, width <= across, height <= down else { return nil }
            // Pictures at least 4 times smaller than the periods each way: the developer samples them more cheaply.
            guard across < 4 * width || down < 4 * height else { return nil }
            var blacks: [Double] = []
            for dy in 0..<pr {
                for dx in 0..<pc { blacks.append(frame.blackLevel(row: crop.top + dy, column: crop.left + dx)) }
            }
            // The pattern as seen from the crop's corner (a monochrome frame's stays monochrome).
            let cfa = frame.cfa.shifted(rows: inner.top, columns: inner.left)
            guard let black = try? BlackLevels(rows: pr, columns: pc, values: blacks) else { return nil }
            self.frame = frame
            self.crop = crop
            periodRows = pr
            periodColumns = pc
            self.width = width
            self.height = height
            columnStarts = (0...width).map { $0 * across / width }
            rowStarts = (0...height).map { $0 * down / height }
            let widest = zip(columnStarts.dropFirst(), columnStarts).map { max(1, $0 - $1) }.max() ?? 1
            let tallest = zip(rowStarts.dropFirst(), rowStarts).map { max(1, $0 - $1) }.max() ?? 1
            divisors = (0...(widest * tallest)).map { ExactDivisor(UInt32(max(1, $0))) }
            self.cfa = cfa
            blackLevels = black
        }

        /// Preview rows `firstRow ..< firstRow + rows` as a small raw image: one CFA period per preview pixel.
        func band(firstRow: Int, rows: Int, image: RawImage, threads: Int) -> RawImage? {
            let bandWidth = width * periodColumns, bandHeight = rows * periodRows
            let storage = PixelStorage(unsafeUninitializedCount: bandWidth * bandHeight) { out in
                ParallelRows.run(rows: rows, threads: threads, minimumRows: 4) { outputRows in
                    reduce(outputRows.lowerBound + firstRow ..< outputRows.upperBound + firstRow,
                           into: out + (outputRows.lowerBound * periodRows) * bandWidth)
                }
            }
            guard let band = try? RawFrame(width: bandWidth, height: bandHeight, storage: storage, cfa: cfa,
                                           blackLevels: blackLevels, whiteLevel: frame.whiteLevel,
                                           bitsPerSample: frame.bitsPerSample) else { return nil }
            return RawImage(frame: band, metadata: image.metadata, calibration: image.calibration)
        }

        /// Averages the source periods of preview rows `outputRows` into `out` (their mosaic rows, tight).
        private func reduce(_ outputRows: Range<Int>, into out: UnsafeMutablePointer<UInt16>) {
            let pr = periodRows, pc = periodColumns, bandWidth = width * pc, across = columnStarts[width]
            let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: crop.width)
            defer { sums.deallocate() }
            // Running totals of `sums` along each phase: prefix[m] is the sum of sums[m - pc], sums[m - 2 pc] ...
            let prefix = UnsafeMutablePointer<UInt32>.allocate(capacity: (across + 1) * pc)
            defer { prefix.deallocate() }
            // Each output column's first source period and number of periods.
            let columns = UnsafeMutablePointer<(first: Int, count: Int)>.allocate(capacity: width)
            defer { columns.deallocate() }
            for i in 0..<width {
                columns[i] = (columnStarts[i], max(1, columnStarts[i + 1] - columnStarts[i]))
            }
            let base = frame.storage.baseAddress, stride = frame.rowStride
            divisors.withUnsafeBufferPointer { divisors in
                for (k, j) in outputRows.enumerated() {
                    let first = rowStarts[j], count = max(1, rowStarts[j + 1] - first)
                    for dy in 0..<pr {
                        // Down the covered rows of this phase, vectorised: the first row sets the sums, the others
                        // are added two at a time (one pass over the sums per two rows).
                        func row(_ s: Int) -> UnsafeMutablePointer<UInt16> {
                            base + (crop.top + (first + s) * pr + dy) * stride + crop.left
                        }
                        let top = row(0)
                        for x in 0..<crop.width { sums[x] = UInt32(top[x]) }
                        var s = 1
                        while s + 1 < count {
                            let a = row(s), b = row(s + 1)
                            for x in 0..<crop.width { sums[x] &+= UInt32(a[x]) &+ UInt32(b[x]) }
                            s += 2
                        }
                        if s < count {
                            let last = row(s)
                            for x in 0..<crop.width { sums[x] &+= UInt32(last[x]) }
                        }
                        // Across: each output period averages the periods it covers, phase by phase. With running
                        // totals a period's sum is one subtraction (wrapping, exact: every sum fits in 32 bits), and
                        // its average one multiplication (`ExactDivisor`: the integer division's quotient).
                        prefix.update(repeating: 0, count: pc)
                        for m in 0..<(across * pc) { prefix[m &+ pc] = prefix[m] &+ sums[m] }
                        let target = out + (k * pr + dy) * bandWidth
                        for i in 0..<width {
                            let column = columns[i], divisor = divisors[column.count &* count]
                            let low = prefix + column.first &* pc, high = low + column.count &* pc
                            for dx in 0..<pc {
                                target[i &* pc &+ dx] = UInt16(truncatingIfNeeded: divisor.roundedQuotient(high[dx] &- low[dx]))
                            }
                        }
                    }
                }
            }
        }
    }
}
