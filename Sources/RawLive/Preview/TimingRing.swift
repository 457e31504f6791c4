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
        let recent = values.prefix(min(count, values.count)).sorted()
        guard !recent.isEmpty else { return (0, 0) }
        func at(_ q: Double) -> Double { Double(recent[min(recent.count - 1, Int(q * Double(recent.count)))]) / 1e6 }
        return (at(0.5), at(0.95))
    }
}
