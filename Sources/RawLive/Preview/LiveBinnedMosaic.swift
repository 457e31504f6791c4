import RawCore
import RawDNG
import RawSources

/// A small copy of one raw frame for the live preview: the same-colour samples of each `factor` x `factor` block of
/// CFA periods of the frame's default crop averaged into one period (a box filter on the raw samples), so the copy is
/// still a mosaic with the frame's CFA pattern, levels, calibration and as-shot neutral, and the preview developer
/// bins each of its periods into one picture pixel. Periods left at the right and bottom edges (fewer than `factor`)
/// are averaged over those present; samples of a partial CFA period at the crop's edge are left out.
///
/// The same pass counts, per CFA phase, the full-resolution samples at or above the white level: averaging would hide
/// a clipped highlight smaller than a block.
///
/// The buffers are kept and reused: once a frame of the largest size has been binned, binning allocates nothing. A
/// mosaic belongs to one thread at a time (the sensor thread while it fills it, the preview's worker while it develops
/// it); `LivePreviewer` hands it over under its lock.
// @unchecked: owned by one thread at a time, handed over under `LivePreviewer`'s lock (see above).
public final class LiveBinnedMosaic: @unchecked Sendable {
    /// Periods of the source averaged into one period, each way.
    public private(set) var factor = 1
    /// Mosaic size in samples (whole output periods).
    public private(set) var width = 0
    public private(set) var height = 0
    /// The frame it was binned from: its description (pixels not kept) and where its crop starts.
    public private(set) var source: CapturedFrame?
    private var cropOrigin = (top: 0, left: 0)
    /// The binned samples, `width` x `height`, tight rows.
    private var storage = PixelStorage(count: 1)
    /// Per column of the crop: the sum of the current phase row's samples over the block's rows, and how many of them
    /// were at or above the white level (per phase row of the period).
    private var sums = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    private var clipColumns = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    private var columnCapacity = 1
    private var clipCapacity = 1
    /// Divisors by the number of samples averaged (index = count).
    private var divisors: [ExactDivisor] = [ExactDivisor(1)]
    /// Clipped samples per CFA phase (row-major over the period) and samples counted per phase.
    public private(set) var clippedPerPhase: [Int] = []
    public private(set) var samplesPerPhase = 0

    /// An empty mosaic; its buffers grow with the first frame.
    public init() {}

    deinit {
        sums.deallocate()
        clipColumns.deallocate()
    }

    /// The factor that makes the binned crop of `frame` at most `longEdge` periods on its long side.
    public static func factor(for frame: RawFrame, longEdge: Int) -> Int {
        let across = frame.defaultCrop.width / frame.cfa.columns, down = frame.defaultCrop.height / frame.cfa.rows
        let periods = max(across, down)
        return max(1, (periods + max(1, longEdge) - 1) / max(1, longEdge))
    }

    /// Bins `frame` (its pixels are read only during the call) so that its picture's long edge is at most `longEdge`.
    public func fill(from frame: CapturedFrame, longEdge: Int) {
        fill(from: frame, factor: Self.factor(for: frame.image.frame, longEdge: longEdge))
    }

    /// Bins `frame` by `factor` periods each way.
    public func fill(from frame: CapturedFrame, factor k: Int) {
        let raw = frame.image.frame
        let pr = raw.cfa.rows, pc = raw.cfa.columns
        let crop = (top: raw.activeArea.top + raw.defaultCrop.top, left: raw.activeArea.left + raw.defaultCrop.left)
        let across = raw.defaultCrop.width / pc, down = raw.defaultCrop.height / pr
        let outAcross = (across + k - 1) / k, outDown = (down + k - 1) / k
        factor = k
        width = outAcross * pc
        height = outDown * pr
        source = frame
        cropOrigin = crop
        reserve(samples: width * height, columns: across * pc, phases: pr * pc, largestBlock: k * k)
        let usedWidth = across * pc
        for i in 0..<clipCapacity { clipColumns[i] = 0 }
        let white = UInt32(min(raw.whiteLevel, 65535))
        for j in 0..<outDown {
            let firstPeriod = j * k, rowsOfPeriods = min(k, down - firstPeriod)
            for dy in 0..<pr {
                // Down: the block's rows of this phase row summed per column of the crop.
                let first = raw.storage.baseAddress + (crop.top + firstPeriod * pr + dy) * raw.rowStride + crop.left
                sumRows(first, rowStep: pr * raw.rowStride, rows: rowsOfPeriods, width: usedWidth, white: white,
                        clips: clipColumns + dy * usedWidth)
                // Across: each output period averages the block's periods, phase by phase.
                average(into: storage.baseAddress + (j * pr + dy) * width, periods: across, outputs: outAcross,
                        pc: pc, k: k, rows: rowsOfPeriods)
            }
        }
        countClipping(pr: pr, pc: pc, usedWidth: usedWidth)
        samplesPerPhase = across * down
    }

    /// `sums` = the column sums of `rows` rows of `width` samples from `first`, `rowStep` apart; `clips` counts, per
    /// column, the samples at or above `white` (branch-free: a sample plus 65536 - white reaches bit 16 exactly when it
    /// is at or above white). The first row sets the sums, the others are added two at a time.
    private func sumRows(_ first: UnsafeMutablePointer<UInt16>, rowStep: Int, rows: Int, width: Int, white: UInt32,
                         clips: UnsafeMutablePointer<UInt32>) {
        let sums = sums, bias = 65536 - white
        for x in 0..<width {
            let v = UInt32(first[x])
            sums[x] = v
            clips[x] &+= (v &+ bias) >> 16
        }
        var s = 1
        while s + 1 < rows {
            let a = first + s * rowStep, b = a + rowStep
            for x in 0..<width {
                let va = UInt32(a[x]), vb = UInt32(b[x])
                sums[x] &+= va &+ vb
                clips[x] &+= ((va &+ bias) >> 16) &+ ((vb &+ bias) >> 16)
            }
            s += 2
        }
        if s < rows {
            let a = first + s * rowStep
            for x in 0..<width {
                let va = UInt32(a[x])
                sums[x] &+= va
                clips[x] &+= (va &+ bias) >> 16
            }
        }
    }

    /// One output row: output period `i` of phase `dx` is the rounded mean of `sums` over source periods
    /// `i * k ..< min((i + 1) * k, periods)` of that phase (`rows` rows each). Bayer blocks of 2x2 periods (a 12 MP
    /// frame at 1024 px) take an unrolled path.
    private func average(into target: UnsafeMutablePointer<UInt16>, periods: Int, outputs: Int, pc: Int, k: Int, rows: Int) {
        let sums = sums
        var start = 0
        if pc == 2 && k == 2 && rows == 2 {
            let full = periods / 2
            for i in 0..<full {
                let m = i &* 4
                target[2 &* i] = UInt16(truncatingIfNeeded: (sums[m] &+ sums[m &+ 2] &+ 2) >> 2)
                target[2 &* i &+ 1] = UInt16(truncatingIfNeeded: (sums[m &+ 1] &+ sums[m &+ 3] &+ 2) >> 2)
            }
            start = full
        }
        divisors.withUnsafeBufferPointer { divisors in
            for i in start..<outputs {
                let count = min(k, periods - i * k)
                let divisor = divisors[count * rows]
                for dx in 0..<pc {
                    var total: UInt32 = 0
                    var m = i * k * pc + dx
                    for _ in 0..<count {
                        total &+= sums[m]
                        m += pc
                    }
                    target[i * pc + dx] = UInt16(truncatingIfNeeded: divisor.roundedQuotient(total))
                }
            }
        }
    }

    /// Sums the columns' clip counts per phase.
    private func countClipping(pr: Int, pc: Int, usedWidth: Int) {
        for p in 0..<clippedPerPhase.count { clippedPerPhase[p] = 0 }
        for dy in 0..<pr {
            let row = clipColumns + dy * usedWidth
            for x in 0..<usedWidth { clippedPerPhase[dy * pc + x % pc] += Int(row[x]) }
        }
    }

    /// Grows the buffers to hold a mosaic of `samples`, rows of `columns` and `phases` CFA phases, blocks of up to
    /// `largestBlock` periods (nothing is allocated when they already do).
    private func reserve(samples: Int, columns: Int, phases: Int, largestBlock: Int) {
        if storage.count < samples { storage = PixelStorage(count: samples) }
        if columnCapacity < columns {
            sums.deallocate()
            sums = .allocate(capacity: columns)
            columnCapacity = columns
        }
        // One row of counts per phase row of the period: `columns` x the period's rows, at most x its phases.
        let clipNeeded = columns * phases
        if clipCapacity < clipNeeded {
            clipColumns.deallocate()
            clipColumns = .allocate(capacity: clipNeeded)
            clipCapacity = clipNeeded
        }
        if divisors.count <= largestBlock { divisors = (0...largestBlock).map { ExactDivisor(UInt32(max(1, $0))) } }
        if clippedPerPhase.count != phases { clippedPerPhase = [Int](repeating: 0, count: phases) }
    }

    /// True when the binned frame is monochrome (one plane, no colours).
    public var isMonochrome: Bool { source?.image.frame.cfa.isMonochrome ?? false }

    /// The fraction of samples at or above the white level per colour: red, green, blue (0 for a colour the CFA lacks);
    /// a monochrome frame's one fraction three times (its samples are every colour's light).
    public var clippedFractions: [Double] {
        guard let raw = source?.image.frame else { return [0, 0, 0] }
        if raw.cfa.isMonochrome {
            let fraction = samplesPerPhase == 0 ? 0 : Double(clippedPerPhase.reduce(0, +)) / Double(samplesPerPhase)
            return [fraction, fraction, fraction]
        }
        var clipped = [0, 0, 0], counted = [0, 0, 0]
        for dy in 0..<raw.cfa.rows {
            for dx in 0..<raw.cfa.columns {
                let colour = raw.color(row: cropOrigin.top + dy, column: cropOrigin.left + dx)
                guard let c = [CFAColor.red, .green, .blue].firstIndex(of: colour) else { continue }
                clipped[c] += clippedPerPhase[dy * raw.cfa.columns + dx]
                counted[c] += samplesPerPhase
            }
        }
        return (0..<3).map { counted[$0] == 0 ? 0 : Double(clipped[$0]) / Double(counted[$0]) }
    }

    /// The binned mosaic as a raw image (over this mosaic's buffer: valid until it is filled again): the source's CFA
    /// pattern and black levels at the crop's phase, its white level, metadata and calibration.
    public func image() throws(InvalidValueError) -> RawImage {
        guard let source else { throw InvalidValueError("binned mosaic", "nothing has been binned yet") }
        let raw = source.image.frame
        let pr = raw.cfa.rows, pc = raw.cfa.columns
        var blacks: [Double] = []
        for dy in 0..<pr {
            for dx in 0..<pc { blacks.append(raw.blackLevel(row: cropOrigin.top + dy, column: cropOrigin.left + dx)) }
        }
        // The pattern as seen from the crop's corner (a monochrome frame's stays monochrome).
        let cfa = raw.cfa.shifted(rows: cropOrigin.top - raw.activeArea.top, columns: cropOrigin.left - raw.activeArea.left)
        let frame = try RawFrame(width: width, height: height, storage: storage, cfa: cfa,
                                 blackLevels: try BlackLevels(rows: pr, columns: pc, values: blacks),
                                 whiteLevel: raw.whiteLevel, bitsPerSample: raw.bitsPerSample)
        return RawImage(frame: frame, metadata: source.image.metadata, calibration: source.image.calibration)
    }
}
