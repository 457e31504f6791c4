import RawCapture

/// The last 256 durations of something, for its median and 95th percentile (recording allocates nothing).
struct TimingRing {
    private var values = [UInt64](repeating: 0, count: 256)
    private var count = 0

    /// Records one duration (ns).
    mutating func record(_ nanoseconds: UInt64) {
        values[count % values.count] = nanoseconds
        count += 1
    }

    /// Median and 95th percentile of the recorded durations, in ms (0 when none).
    func percentiles() -> (Double, Double) {
        let recent = values.prefix(min(count, values.count)).map { Double($0) / 1e6 }
        return (BurstStatistics.percentile(recent, 0.5), BurstStatistics.percentile(recent, 0.95))
    }
}
