/// The figures a burst is judged by, computed from its report: rates, percentiles of encode time, sensor-to-slot
/// latency and lateness, for the manifest, the summary and `rawburst stress`.
public struct BurstStatistics: Sendable, Hashable, Codable {
    /// Frames made per second (dropped late ones not counted: they were never made), over all sensors, from the
    /// first trigger's start to the last's.
    public let producedFPS: Double
    /// Triggers per second (the frame rate each sensor ran at).
    public let triggersPerSecond: Double
    /// Frames written per second over the whole burst (start of `run()` to its end).
    public let writtenFPS: Double
    /// Bytes written per second over the whole burst.
    public let writtenBytesPerSecond: Double
    /// Encode time (writer took the slot → file durable), milliseconds.
    public let encodeP50Milliseconds: Double
    public let encodeP99Milliseconds: Double
    /// Sensor-to-slot latency (trigger → slot in hand), milliseconds.
    public let slotLatencyP50Milliseconds: Double
    public let slotLatencyP99Milliseconds: Double
    /// Frames that started more than 1 ms after their due time, and the worst lateness in milliseconds.
    public let lateFrames: Int
    public let maxLatenessMilliseconds: Double
    /// Time from `run()` to the first frame in the pool, milliseconds.
    public let firstFrameMilliseconds: Double?

    /// The figures of `report`.
    public init(_ report: BurstSession.Report) {
        let starts = report.triggerNanoseconds
        if let first = starts.first, let last = starts.last, last > first {
            triggersPerSecond = Self.rounded(Double(starts.count - 1) / (Double(last - first) / 1e9))
        } else {
            triggersPerSecond = 0
        }
        let made = report.producedCount - report.drops.filter { $0.drop.reason.isLate }.count
        producedFPS = Self.rounded(triggersPerSecond * Double(made) / Double(max(1, starts.count)))
        let seconds = max(report.seconds, 1e-9)
        writtenFPS = Self.rounded(Double(report.writtenCount) / seconds)
        writtenBytesPerSecond = (Double(report.frames.reduce(0) { $0 + $1.bytes }) / seconds).rounded()
        let encode = report.frames.map { $0.encodeSeconds * 1000 }
        encodeP50Milliseconds = Self.rounded(Self.percentile(encode, 0.5))
        encodeP99Milliseconds = Self.rounded(Self.percentile(encode, 0.99))
        let latency = report.slotLatencies.map { Double($0) / 1e6 }
        slotLatencyP50Milliseconds = Self.rounded(Self.percentile(latency, 0.5))
        slotLatencyP99Milliseconds = Self.rounded(Self.percentile(latency, 0.99))
        let lateness = report.frames.map(\.latenessNanoseconds)
        lateFrames = lateness.filter { $0 > 1_000_000 }.count
        maxLatenessMilliseconds = Self.rounded(Double(lateness.max() ?? 0) / 1e6)
        firstFrameMilliseconds = report.firstFrameNanoseconds.map {
            Self.rounded(Double($0 - min($0, report.startedNanoseconds)) / 1e6)
        }
    }

    /// The `q` quantile of `values` (nearest rank), 0 for none.
    public static func percentile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// Two decimals.
    static func rounded(_ v: Double) -> Double { (v * 100).rounded() / 100 }
}
