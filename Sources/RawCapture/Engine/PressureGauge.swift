/// The governor's measurements: the pool's occupancy and the writers' finished frames over a sliding window of a
/// few frame intervals, from which it predicts when the pool will be full. Owned by one `BurstGovernor` (the
/// sensor thread's), never shared.
struct PressureGauge: Sendable {
    /// Seconds between triggers now (nil: free-running).
    var intervalSeconds: Double?
    /// The writers' finish rate (frames per second) over the last full window, when measured.
    private(set) var lastDrainFPS: Double?

    private var samples: [(seconds: Double, occupied: Int, finished: Int, late: Bool)] = []

    init(intervalSeconds: Double?) {
        self.intervalSeconds = intervalSeconds
    }

    /// The window: four frame intervals, at least 0.3 s.
    var windowSeconds: Double { max(0.3, 4 * (intervalSeconds ?? 0)) }

    /// Records an observation (`late`: its trigger started more than a quarter interval late) and forgets the ones
    /// older than the window (keeping one that spans it).
    mutating func add(seconds: Double, occupied: Int, finished: Int, late: Bool) {
        samples.append((seconds, occupied, finished, late))
        while samples.count > 2 && seconds - samples[1].seconds >= windowSeconds { samples.removeFirst() }
        if let drain = drainFPS { lastDrainFPS = drain }
    }

    /// At least two and a quarter of the window's triggers started late (one late frame is jitter, not pressure).
    var oftenLate: Bool {
        guard settled else { return false }
        let late = samples.dropFirst().filter(\.late).count
        return late >= 2 && late * 4 >= samples.count - 1
    }

    /// A settled window in which no trigger started late and the occupancy grew by less than half a slot: the
    /// burst has room to spare (the governor's evidence for giving rate back).
    var calm: Bool {
        guard settled, !samples.dropFirst().contains(where: \.late) else { return false }
        return (growth ?? 0) * span < 0.5
    }

    /// Forgets everything (after a step: its effect is measured afresh).
    mutating func restart() {
        if let last = samples.last { samples = [last] }
    }

    /// A full window of at least three observations since the last restart.
    var settled: Bool { samples.count >= 3 && span >= windowSeconds * 0.75 }

    private var span: Double { (samples.last?.seconds ?? 0) - (samples.first?.seconds ?? 0) }

    /// Slots per second the occupancy grows by over the window: the least-squares slope of its samples (nil until
    /// two observations).
    var growth: Double? {
        guard samples.count >= 2, span > 0 else { return nil }
        let n = Double(samples.count)
        let meanT = samples.reduce(0) { $0 + $1.seconds } / n
        let meanO = samples.reduce(0) { $0 + Double($1.occupied) } / n
        var covariance = 0.0, variance = 0.0
        for sample in samples {
            covariance += (sample.seconds - meanT) * (Double(sample.occupied) - meanO)
            variance += (sample.seconds - meanT) * (sample.seconds - meanT)
        }
        return variance > 0 ? covariance / variance : nil
    }

    /// The occupancy went up over the window.
    var growing: Bool {
        guard let first = samples.first, let last = samples.last else { return false }
        return (growth ?? 0) > 0 && last.occupied > first.occupied
    }

    /// Frames per second the writers finished over the window (nil until measured: a window in which they finished
    /// fewer than two frames — the burst's first writes, a stall — says nothing about their pace).
    var drainFPS: Double? {
        guard settled, let first = samples.first, let last = samples.last, last.finished - first.finished >= 2 else { return nil }
        return Double(last.finished - first.finished) / span
    }

    /// Seconds until `free` more slots are taken at the measured growth; nil when not filling.
    func secondsToFull(free: Int) -> Double? {
        guard settled, let growth, growth > 0 else { return nil }
        return Double(max(0, free)) / growth
    }

    /// How long a step takes to act: the writers first finish the `occupied` frames queued the old way (at the
    /// measured drain), and at least two frame intervals.
    func leadSeconds(occupied: Int) -> Double {
        let interval = intervalSeconds ?? 0.05
        guard let drain = drainFPS, drain > 0 else { return max(2 * interval, windowSeconds) }
        return max(2 * interval, Double(occupied) / drain)
    }

    /// The rate `lower-rate` sets from `current` triggers per second: 85 % of what the source can make when it is
    /// the slow side (`sensorSeconds` per trigger), otherwise of what the writers were measured to finish (in
    /// triggers); within an eighth and 85 % of the current rate; half the current rate when unmeasured. (The
    /// governor keeps it at least an eighth of the burst's own rate.)
    func sustainableFPS(current: Double, framesPerTrigger: Int, sensorSeconds: Double? = nil) -> Double {
        let pace: Double
        if let sensorSeconds, sensorSeconds > 0 {
            pace = 1 / sensorSeconds
        } else if let drain = lastDrainFPS, drain > 0 {
            pace = drain / Double(max(1, framesPerTrigger))
        } else {
            return current / 2
        }
        return min(current * 0.85, max(current / 8, 0.85 * pace))
    }
}
