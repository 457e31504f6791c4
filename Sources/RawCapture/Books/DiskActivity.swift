/// What a burst saw its disk do: the spans during which the disk was taking its files (each DNG's flush, rename and
/// directory flush, and a simulated disk's waits) and the bytes of those files. Its bandwidth is the bytes over the
/// time at least one span was open (the union of the spans: two writers flushing at once share the disk).
public struct DiskActivity: Sendable, Hashable {
    /// The spans kept (`CLOCK_MONOTONIC`, ns), in the order they ended.
    public private(set) var spans: [ClosedRange<UInt64>] = []
    /// Bytes of the files whose spans were kept.
    public private(set) var bytes = 0

    /// The most spans kept: a long burst's first spans are measure enough.
    public static let maximumSpans = 100_000

    public init() {}

    /// Adds a file of `bytes` whose disk work took `spans`.
    package mutating func record(bytes: Int, spans new: [ClosedRange<UInt64>]) {
        guard spans.count < Self.maximumSpans, !new.isEmpty else { return }
        spans += new
        self.bytes += bytes
    }

    /// Seconds at least one span was open.
    public var busySeconds: Double {
        var total: UInt64 = 0
        var current: ClosedRange<UInt64>?
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let open = current, span.lowerBound <= open.upperBound {
                current = open.lowerBound...max(open.upperBound, span.upperBound)
            } else {
                if let open = current { total += open.upperBound - open.lowerBound }
                current = span
            }
        }
        if let open = current { total += open.upperBound - open.lowerBound }
        return Double(total) / 1e9
    }

    /// MB/s (10^6 bytes) over the busy time, nil before any span.
    public var megabytesPerSecond: Double? {
        let busy = busySeconds
        return busy > 0 ? Double(bytes) / busy / 1e6 : nil
    }
}
