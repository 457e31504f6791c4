import Testing

/// Checks frame timestamps against a start-to-start schedule of `interval` nanoseconds from the first frame,
/// in a way that holds on a loaded machine (tests run in parallel on two cores):
/// - no frame starts early (`stamp ≥ due`, 0.1 ms of clock granularity allowed);
/// - each frame's lateness is exactly how far its start is behind its due time (0.1 ms);
/// - the schedule does not drift: due times are computed from the first frame, never from the previous one;
/// - most frames are on time: the median lateness is under `medianLimit` nanoseconds.
public func expectStartToStart(stamps: [UInt64], lateness: [UInt64], interval: Double, medianLimit: UInt64 = 10_000_000,
                        sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(stamps.count == lateness.count && stamps.count >= 2, sourceLocation: sourceLocation)
    guard stamps.count == lateness.count, let first = stamps.first else { return }
    #expect(lateness[0] == 0, "the first frame starts the schedule", sourceLocation: sourceLocation)
    for n in 1..<stamps.count {
        let due = Double(first) + Double(n) * interval
        let behind = Double(stamps[n]) - due
        #expect(behind >= -100_000, "frame \(n) started \(-behind / 1e6) ms early", sourceLocation: sourceLocation)
        #expect(abs(max(behind, 0) - Double(lateness[n])) <= 100_000,
                "frame \(n): \(behind / 1e6) ms behind its due time, lateness says \(Double(lateness[n]) / 1e6) ms",
                sourceLocation: sourceLocation)
    }
    let median = lateness.sorted()[lateness.count / 2]
    #expect(median < medianLimit, "median lateness \(Double(median) / 1e6) ms; lateness \(lateness)",
            sourceLocation: sourceLocation)
}
