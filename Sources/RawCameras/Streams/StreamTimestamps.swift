import RawSources

/// The frame timestamps of rpicam-apps' `--save-pts FILE`, and the frames missing between them.
///
/// The file's form (rpicam-apps, `output/output.cpp`): a first line `# timecode format v2`, then one line per frame
/// written, its timestamp in milliseconds with three decimals (microsecond resolution), e.g. `33.367`. The n-th
/// timestamp belongs to the n-th frame of the stream.
///
/// A gap: when consecutive timestamps lie more than 1.5 frame intervals apart, the frames that would have filled it
/// (`round(gap / interval) − 1`, at least 1) never reached the stream. The interval is 1 / `--fps` when the rate is
/// given, otherwise the median of the last ``medianWindow`` positive differences between the timestamps read so far.
///
/// Memory and time stay bounded however long the stream runs: only the timestamps not yet examined are kept, and the
/// median is taken over a fixed window.
public struct StreamTimestamps: Sendable, Hashable {
    /// The frame interval from `--fps`, in milliseconds, or nil for the median of the differences.
    public let nominalIntervalMilliseconds: Double?
    /// Lines that were neither a comment nor a number (counted, not fatal).
    public private(set) var unreadableLines = 0
    /// Timestamps read so far.
    public private(set) var count = 0
    /// Differences the median is taken over, at most.
    public static let medianWindow = 255
    /// A step between consecutive timestamps longer than this (ms), and than 300 intervals, is a discontinuity — a
    /// camera paused or restarted, a clock set — not frames lost: reported, never counted as a run of lost frames.
    public static let discontinuityMilliseconds = 10_000.0

    /// What lies between a frame's timestamp and the one before it.
    public enum Gap: Sendable, Hashable {
        /// `frames` frames never reached the stream.
        case missing(frames: Int)
        /// The timestamps jump by `milliseconds` (more than ``discontinuityMilliseconds`` and 300 intervals): not
        /// counted as frames.
        case discontinuity(milliseconds: Double)
    }

    /// Timestamps from index `examined − 1` on (the last one examined, then those not examined yet), from `head` of
    /// this array on (the ones before it are dropped in batches, so a file far ahead of the stream costs no more).
    private var unexamined: [Double] = []
    private var head = 0
    /// Frames whose gap before them has been examined: 0..<examined.
    private var examined = 0
    /// The last `medianWindow` positive differences, a ring written at `deltaCursor`.
    private var recentDeltas: [Double] = []
    private var deltaCursor = 0
    private var last: Double?
    /// The median of `recentDeltas`, worked out when they change (nil with none).
    private var medianDelta: Double?

    /// Timestamps held now: those not yet examined, the last examined, and up to a batch already examined (for tests:
    /// it stays bounded by what the file is ahead of the stream, never by the stream's length).
    public var retainedCount: Int { unexamined.count }

    /// Timestamps with an interval of 1 / `fps` (nil: the median of the differences).
    public init(fps: Double? = nil) {
        nominalIntervalMilliseconds = fps.map { 1000 / $0 }
    }

    /// Adds the file's lines (comments and blank lines are skipped).
    public mutating func add(lines: [String]) {
        defer { medianDelta = Self.median(recentDeltas) }
        for line in lines {
            let text = line.trimmingSpaces
            if text.isEmpty || text.hasPrefix("#") { continue }
            guard let value = Double(text), value.isFinite else {
                unreadableLines += 1
                continue
            }
            if let last, value > last {
                if recentDeltas.count < Self.medianWindow {
                    recentDeltas.append(value - last)
                } else {
                    recentDeltas[deltaCursor] = value - last
                    deltaCursor = (deltaCursor + 1) % Self.medianWindow
                }
            }
            last = value
            unexamined.append(value)
            count += 1
        }
    }

    /// The frame interval: the nominal one, or the median of the recent differences (nil with fewer than two stamps).
    public var intervalMilliseconds: Double? {
        nominalIntervalMilliseconds ?? medianDelta
    }

    private static func median(_ values: [Double]) -> Double? {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The gaps before the frames up to `frame` (the stream's index, inclusive) not examined before, for those whose
    /// timestamp has arrived: each frame's index with the frames missing before it, or the discontinuity, in order. A
    /// timestamp that arrives late is still examined at a later call: no gap is passed over. Nothing is examined while
    /// the interval is not known.
    public mutating func takeGaps(through frame: Int) -> [(frame: Int, gap: Gap)] {
        guard let interval = intervalMilliseconds, interval > 0 else { return [] }
        var gaps: [(frame: Int, gap: Gap)] = []
        // unexamined[head + k] is the timestamp of frame first + k.
        let first = examined == 0 ? 0 : examined - 1
        while examined <= frame, head + examined - first < unexamined.count {
            if examined > 0 {
                let gap = unexamined[head + examined - first] - unexamined[head + examined - first - 1]
                if gap > max(Self.discontinuityMilliseconds, 300 * interval) {
                    gaps.append((examined, .discontinuity(milliseconds: gap)))
                } else if gap > 1.5 * interval {
                    // At most 300 intervals, or 10 s of frames.
                    let missing = Int((gap / interval).rounded() - 1)
                    gaps.append((examined, .missing(frames: max(1, missing))))
                }
            }
            examined += 1
        }
        // Keep only the last examined timestamp (the next gap starts there) and those still to examine; the others go
        // once they are most of the array.
        head += max(0, examined - 1 - first)
        if head >= 1024 && head * 2 >= unexamined.count {
            unexamined.removeFirst(head)
            head = 0
        }
        return gaps
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and carriage returns.
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = scalars.firstIndex(where: { !blank($0) }), let last = scalars.lastIndex(where: { !blank($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
