import RawSources

/// The frame timestamps of rpicam-apps' `--save-pts FILE`, and the frames missing between them.
///
/// The file's form (rpicam-apps, `output/output.cpp`): a first line `# timecode format v2`, then one line per frame
/// written, its timestamp in milliseconds with three decimals (microsecond resolution), e.g. `33.367`. The n-th
/// timestamp belongs to the n-th frame of the stream.
///
/// A gap: when consecutive timestamps lie more than 1.5 frame intervals apart, the frames that would have filled it
/// (`round(gap / interval) − 1`, at least 1) never reached the stream. The interval is 1 / `--fps` when the rate is
/// given, otherwise the median of the differences between the timestamps read so far (the whole file when it is
/// complete; what rpicam has written so far when it is still running).
public struct StreamTimestamps: Sendable, Hashable {
    /// Timestamps in milliseconds, in the order of the file.
    public private(set) var milliseconds: [Double] = []
    /// The frame interval from `--fps`, in milliseconds, or nil for the median of the differences.
    public let nominalIntervalMilliseconds: Double?
    /// Lines that were neither a comment nor a number (counted, not fatal).
    public private(set) var unreadableLines = 0

    /// Timestamps with an interval of 1 / `fps` (nil: the median of the differences).
    public init(fps: Double? = nil) {
        nominalIntervalMilliseconds = fps.map { 1000 / $0 }
    }

    /// Adds the file's lines (comments and blank lines are skipped).
    public mutating func add(lines: [String]) {
        for line in lines {
            let text = line.trimmingSpaces
            if text.isEmpty || text.hasPrefix("#") { continue }
            guard let value = Double(text), value.isFinite else {
                unreadableLines += 1
                continue
            }
            milliseconds.append(value)
        }
    }

    /// The frame interval: the nominal one, or the median of the differences so far (nil with fewer than two stamps).
    public var intervalMilliseconds: Double? {
        if let nominalIntervalMilliseconds { return nominalIntervalMilliseconds }
        let deltas = zip(milliseconds, milliseconds.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }.sorted()
        guard !deltas.isEmpty else { return nil }
        let middle = deltas.count / 2
        return deltas.count % 2 == 1 ? deltas[middle] : (deltas[middle - 1] + deltas[middle]) / 2
    }

    /// Frames missing between the stream's frame `index − 1` and frame `index` (0 for the first frame, for a frame
    /// without a timestamp yet, or when the interval is not known).
    public func missingFrames(before index: Int) -> Int {
        guard index > 0, index < milliseconds.count, let interval = intervalMilliseconds, interval > 0 else { return 0 }
        let gap = milliseconds[index] - milliseconds[index - 1]
        guard gap > 1.5 * interval else { return 0 }
        let missing = (gap / interval).rounded() - 1
        return missing.isFinite ? max(1, Int(min(missing, 1_000_000))) : 0
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
