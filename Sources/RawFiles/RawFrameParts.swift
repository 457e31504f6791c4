import CLibRaw
import RawCore
import RawDNG

/// The pieces of a `RawFrame` while they are being gathered from LibRaw and, for DNG sources, corrected
/// from the file's own tags. `RawFrame` is immutable and validates everything at once, so the reader
/// collects the parts first and builds the frame last.
struct RawFrameParts {
    var width: Int
    var height: Int
    var storage: PixelStorage
    var cfa: CFALayout
    var activeArea: PixelRect
    var defaultCrop: PixelRect?
    var defaultScale: (horizontal: Double, vertical: Double)
    var blackLevels: BlackLevels
    var whiteLevel: UInt32
    /// Largest sample present in the buffer.
    var largestSample: UInt16

    /// Pulls the default crop (the whole active area when the source names none) in to keep ``DNGCropMargin``'s
    /// margin inside the active area, so that a camera raw developed from its source and from the DNG it converts to
    /// show the same picture, and that DNG has the padding Adobe's DNG SDK asks of a CFA image. The samples are
    /// untouched.
    mutating func keepCropMargin() {
        guard let whole = try? PixelRect.whole(width: activeArea.width, height: activeArea.height) else { return }
        defaultCrop = DNGCropMargin.crop(defaultCrop ?? whole, areaWidth: activeArea.width, areaHeight: activeArea.height,
                                         cfa: cfa)
    }

    /// Builds the frame, choosing the smallest sample width that holds the white level and every sample.
    func frame(path: String) throws(RawReadError) -> RawFrame {
        let needed = max(Int(whiteLevel), Int(largestSample))
        var bits = 8
        while bits < 16 && (1 << bits) - 1 < needed { bits += 1 }
        do {
            return try RawFrame(width: width, height: height, storage: storage, cfa: cfa, activeArea: activeArea,
                                defaultCrop: defaultCrop, defaultScale: defaultScale, blackLevels: blackLevels,
                                whiteLevel: whiteLevel, bitsPerSample: bits)
        } catch {
            throw RawReadError(path: path, kind: .invalidValue, detail: error.description)
        }
    }
}

extension RawFrameParts {
    /// Gathers the frame from a LibRaw handle: the full raw buffer from LibRaw's `unpack` — adopted as it is when
    /// its rows are tight (the storage then keeps `handle` alive), else copied bit-exactly (or `samples`, the same buffer read without it, when given; LibRaw then needs only to have opened the
    /// file), the active area, the CFA layout and the black and white levels LibRaw settled on.
    init(libRaw handle: LibRawHandle, samples: PixelStorage? = nil, path: String) throws(RawReadError) {
        let d = handle.data
        let raw = d.pointee.rawdata.raw_image
        // A colour filter array, or a monochrome sensor's one colour (Leica Monochrom, Phase One Achromatic...).
        let monochrome = d.pointee.idata.filters == 0 && d.pointee.idata.colors == 1
        guard samples != nil || raw != nil, d.pointee.idata.filters != 0 || monochrome else {
            throw RawReadError(path: path, kind: .unsupported, detail: "not a colour-filter-array raw")
        }
        if d.pointee.rawdata.ioparams.fuji_width != 0 {
            throw RawReadError(path: path, kind: .unsupported,
                               detail: "Fujifilm SuperCCD sensors (pixels on a 45° grid) are not supported")
        }
        // `unpack` copies the sizes into `rawdata` and sets the pitch of its buffer; after `open` alone they are in `sizes`.
        let sizes = samples == nil ? d.pointee.rawdata.sizes : d.pointee.sizes
        let rawWidth = Int(sizes.raw_width)
        let rawHeight = Int(sizes.raw_height)
        let pitchBytes = Int(sizes.raw_pitch)
        guard rawWidth > 0, rawHeight > 0 else {
            throw RawReadError(path: path, kind: .corrupt, detail: "raw image size \(rawWidth)x\(rawHeight) is empty")
        }
        guard samples != nil || (pitchBytes >= rawWidth * 2 && pitchBytes % 2 == 0) else {
            throw RawReadError(path: path, kind: .corrupt,
                               detail: "raw row pitch \(pitchBytes) bytes is too small for \(rawWidth) samples")
        }
        let top = Int(sizes.top_margin)
        let left = Int(sizes.left_margin)
        let visibleHeight = min(Int(sizes.height), rawHeight - top)
        let visibleWidth = min(Int(sizes.width), rawWidth - left)
        let area: PixelRect
        do {
            area = try PixelRect(top: top, left: left, height: visibleHeight, width: visibleWidth)
        } catch {
            throw RawReadError(path: path, kind: .invalidValue, detail: "visible area: \(error.reason)")
        }

        let storage: PixelStorage
        if let samples {
            guard samples.count == rawWidth * rawHeight else {
                throw RawReadError(path: path, kind: .corrupt,
                                   detail: "raw image holds \(samples.count) samples, not \(rawWidth)x\(rawHeight)")
            }
            storage = samples
        } else if pitchBytes == rawWidth * 2 {
            // Tight rows: the frame takes LibRaw's buffer itself (the handle lives as long as the frame), so the
            // mosaic is held once. LibRaw no longer needs its file.
            handle.closeFile()
            storage = PixelStorage(adopting: raw!, count: rawWidth * rawHeight, owner: handle)
        } else {
            storage = PixelStorage(unsafeUninitializedCount: rawWidth * rawHeight) { destination in
                Self.copyRows(from: raw!, pitchBytes: pitchBytes, width: rawWidth, height: rawHeight, to: destination)
            }
        }

        let cfa = monochrome ? CFALayout.monochrome : try Self.cfaLayout(handle, path: path)
        width = rawWidth
        height = rawHeight
        self.storage = storage
        self.cfa = cfa
        activeArea = area
        defaultCrop = nil
        defaultScale = Self.defaultScale(pixelAspect: sizes.pixel_aspect)
        blackLevels = try Self.blackLevels(handle, cfa: cfa, path: path)
        let maximum = d.pointee.color.maximum
        guard maximum > 0, maximum <= 65535 else {
            throw RawReadError(path: path, kind: .invalidValue, detail: "white level \(maximum) is outside 1...65535")
        }
        whiteLevel = UInt32(maximum)
        largestSample = Self.largestSample(storage)
    }

    /// Copies `height` rows of `width` samples, `pitchBytes` apart, into a tight buffer: one `memcpy` per row,
    /// or one for the whole image when the rows are already tight.
    static func copyRows(from source: UnsafePointer<UInt16>, pitchBytes: Int, width: Int, height: Int,
                         to destination: UnsafeMutablePointer<UInt16>) {
        let rowBytes = width * 2
        if pitchBytes == rowBytes {
            UnsafeMutableRawPointer(destination).copyMemory(from: source, byteCount: rowBytes * height)
            return
        }
        let src = UnsafeRawPointer(source)
        let dst = UnsafeMutableRawPointer(destination)
        for row in 0..<height {
            (dst + row * rowBytes).copyMemory(from: src + row * pitchBytes, byteCount: rowBytes)
        }
    }

    /// The largest sample of the buffer.
    static func largestSample(_ storage: PixelStorage) -> UInt16 {
        // In chunks of 1 Mi samples, on all cores: a 12 MP frame is 24 MB to read through.
        let p = storage.baseAddress, n = storage.count, chunk = 1 << 20
        let chunks = (n + chunk - 1) / chunk
        guard chunks > 1 else { return largestSample(p, count: n) }
        var maxima = [UInt16](repeating: 0, count: chunks)
        maxima.withUnsafeMutableBufferPointer { maxima in
            ParallelRows.run(rows: chunks, threads: ParallelRows.defaultThreads, minimumRows: 1) { range in
                for k in range { maxima[k] = largestSample(p + k * chunk, count: min(chunk, n - k * chunk)) }
            }
        }
        return maxima.max() ?? 0
    }

    /// The largest of `n` samples at `p`.
    private static func largestSample(_ p: UnsafePointer<UInt16>, count n: Int) -> UInt16 {
        var m0: UInt16 = 0, m1: UInt16 = 0, m2: UInt16 = 0, m3: UInt16 = 0
        var i = 0
        while i + 4 <= n {
            m0 = max(m0, p[i]); m1 = max(m1, p[i + 1]); m2 = max(m2, p[i + 2]); m3 = max(m3, p[i + 3])
            i += 4
        }
        while i < n { m0 = max(m0, p[i]); i += 1 }
        return max(max(m0, m1), max(m2, m3))
    }

    /// DNG `DefaultScale` for LibRaw's pixel aspect ratio (pixel width / height).
    static func defaultScale(pixelAspect: Double) -> (horizontal: Double, vertical: Double) {
        guard pixelAspect.isFinite, pixelAspect > 0, abs(pixelAspect - 1) > 1e-6 else { return (1, 1) }
        return pixelAspect > 1 ? (pixelAspect, 1) : (1, 1 / pixelAspect)
    }

    /// Side of the square window of visible pixels sampled to find the CFA period (a multiple of 16 and 6).
    private static let sampleSide = 48

    /// The colour filter layout from the top-left visible pixel, reduced to its smallest period.
    static func cfaLayout(_ handle: LibRawHandle, path: String) throws(RawReadError) -> CFALayout {
        let d = handle.data
        let description = CTuple.bytes(d.pointee.idata.cdesc)
        let n = sampleSide
        var grid = [CFAColor](repeating: .green, count: n * n)
        for row in 0..<n {
            for column in 0..<n {
                let index = handle.colorIndex(row: row, column: column)
                guard (0..<4).contains(index), index < description.count, description[index] != 0 else {
                    throw RawReadError(path: path, kind: .unsupported, detail: "not a colour-filter-array raw")
                }
                let letter = Character(Unicode.Scalar(description[index]))
                guard let colour = CFAColor(letter: letter) else {
                    throw RawReadError(path: path, kind: .unsupported,
                                       detail: "colour filter '\(letter)' has no DNG CFA colour code")
                }
                grid[row * n + column] = colour
            }
        }
        let (rows, columns) = PeriodFinder.smallestPeriod(of: grid, rows: n, columns: n, limit: 16)
        guard let rows, let columns else {
            throw RawReadError(path: path, kind: .unsupported,
                               detail: "colour filter pattern does not repeat within 16x16 pixels")
        }
        var pattern: [CFAColor] = []
        for r in 0..<rows {
            for c in 0..<columns { pattern.append(grid[r * n + c]) }
        }
        do {
            return try CFALayout(rows: rows, columns: columns, pattern: pattern)
        } catch {
            throw RawReadError(path: path, kind: .unsupported,
                               detail: "not a colour-filter-array raw (\(error.reason))")
        }
    }

    /// Per-position black levels: `black + cblack[colour] + cblack[6...]` pattern, over the active area.
    static func blackLevels(_ handle: LibRawHandle, cfa: CFALayout, path: String) throws(RawReadError) -> BlackLevels {
        let d = handle.data
        let common = Int(d.pointee.color.black)
        let perColour = (0..<4).map { handle.cblack($0) }
        var patternRows = handle.cblack(4), patternColumns = handle.cblack(5)
        let patternSize = patternRows.multipliedReportingOverflow(by: patternColumns)
        if patternRows <= 0 || patternColumns <= 0 || patternSize.overflow || patternSize.partialValue > handle.cblackCount - 6 {
            patternRows = 0
            patternColumns = 0
        }
        let spanRows = PeriodFinder.lcm(cfa.rows, max(patternRows, 1))
        let spanColumns = PeriodFinder.lcm(cfa.columns, max(patternColumns, 1))
        guard spanRows <= 96, spanColumns <= 96 else {
            throw RawReadError(path: path, kind: .unsupported,
                               detail: "black levels repeat every \(spanColumns)x\(spanRows) pixels, more than 16x16")
        }
        // Two whole repeats each way, so that a period found in the window is a period of the whole pattern.
        let windowRows = 2 * spanRows, windowColumns = 2 * spanColumns
        var grid: [Double] = []
        grid.reserveCapacity(windowRows * windowColumns)
        for row in 0..<windowRows {
            for column in 0..<windowColumns {
                var level = common + perColour[min(max(handle.colorIndex(row: row, column: column), 0), 3)]
                if patternRows > 0 {
                    level += handle.cblack(6 + (row % patternRows) * patternColumns + column % patternColumns)
                }
                grid.append(Double(level))
            }
        }
        var (rows, columns) = PeriodFinder.smallestPeriod(of: grid, rows: windowRows, columns: windowColumns,
                                                            limit: 16)
        if cfa.isBayer, let r = rows, let c = columns {
            rows = PeriodFinder.lcm(2, r)
            columns = PeriodFinder.lcm(2, c)
        }
        guard let rows, let columns else {
            throw RawReadError(path: path, kind: .unsupported,
                               detail: "black levels repeat every \(spanColumns)x\(spanRows) pixels, more than 16x16")
        }
        var values: [Double] = []
        for r in 0..<rows {
            for c in 0..<columns { values.append(grid[(r % windowRows) * windowColumns + c % windowColumns]) }
        }
        do {
            return try BlackLevels(rows: rows, columns: columns, values: values)
        } catch {
            throw RawReadError(path: path, kind: .invalidValue, detail: error.description)
        }
    }
}
