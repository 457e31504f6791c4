import Foundation
import RawCore

/// What frames cost in real bursts against the standalone figures a plan takes from `FrameCostCalibration` and the
/// sensor's timing, by the bursts' rates: the factor the next plan at a like rate multiplies its CPU figures by.
///
/// The standalone figures are measured one write at a time on a quiet machine; in a burst the same write runs beside
/// the sensor's rendering and the other writers, on frames of the burst's size, and a burst's CPU also holds work the
/// figures leave out (the pool's slots, the journal) — measured 1.2x at 2 fps and 1.5–2.3x at 30 fps on a 2-core
/// machine (docs/benchmarks.md). Measuring the figures again alone gives the same figures again; the burst's own measure
/// (`CalibrationCheck.cpu`) is what the next plan needs. A factor is kept only for the figures it was measured
/// against (their `measured` stamp): figures measured again start without one.
public struct InBurstCost: Sendable, Hashable, Codable {
    /// One burst's measure.
    public struct Sample: Sendable, Hashable, Codable {
        /// The burst's rate (triggers per second).
        public let fps: Double
        /// CPU per frame in the burst over the standalone figures' (1.5: frames cost half as much again).
        public let factor: Double
        /// Frames the burst wrote, and when it ran (ISO 8601).
        public let frames: Int
        public let date: String
        /// The `measured` stamps of the writer's and the sensors' figures the factor is relative to.
        public let against: String

        /// A sample taken at `now`.
        public init(fps: Double, factor: Double, frames: Int, against: String, now: Date = Date()) {
            self.fps = fps
            self.factor = factor
            self.frames = frames
            self.against = against
            date = CalibrationCache.stamp(now)
        }
    }

    /// The factor a plan uses, and what it rests on.
    public struct Use: Sendable, Hashable, Codable {
        /// The mean of the samples' factors (at least 1).
        public let factor: Double
        /// How many bursts, and their rates.
        public let bursts: Int
        public let fps: [Double]

        /// A factor resting on `bursts` bursts at `fps`.
        public init(factor: Double, bursts: Int, fps: [Double]) {
            self.factor = factor
            self.bursts = bursts
            self.fps = fps
        }
    }

    /// The newest samples, oldest first (at most ``kept``).
    public private(set) var samples: [Sample] = []

    /// Samples kept: enough for a few rates.
    public static let kept = 12
    /// Samples a plan averages at one rate: the last few bursts, so one noisy burst does not decide alone.
    public static let averaged = 3
    /// A burst at a rate within this share of a plan's rate counts for it.
    public static let rateTolerance = 0.25
    /// Factors are taken between 1 (a plan never assumes a burst cheaper than its standalone figures) and this: a burst
    /// measuring more is not contention but a wrong figure (`CalibrationCheck.cpuDoubtRatio`), measured again instead.
    public static let largestFactor = 4.0

    /// An empty record.
    public init() {}

    /// Adds `sample`, forgetting the oldest beyond ``kept``.
    public mutating func record(_ sample: Sample) {
        guard sample.fps > 0, sample.factor.isFinite, sample.factor > 0 else { return }
        samples.append(sample)
        if samples.count > Self.kept { samples.removeFirst(samples.count - Self.kept) }
    }

    /// The factor for a burst at `fps` whose writer's figures were measured at `against`: the mean of the last
    /// ``averaged`` bursts within ``rateTolerance`` of its rate that were measured against the same figures, clamped to
    /// 1...``largestFactor``; nil when there is none (or no rate).
    public func factor(fps: Double?, against: String) -> Use? {
        guard let fps, fps > 0 else { return nil }
        let like = samples.filter { $0.against == against && abs($0.fps - fps) <= fps * Self.rateTolerance }.suffix(Self.averaged)
        guard !like.isEmpty else { return nil }
        let mean = like.map(\.factor).reduce(0, +) / Double(like.count)
        return Use(factor: (min(Self.largestFactor, max(1, mean)) * 100).rounded() / 100, bursts: like.count,
                   fps: like.map(\.fps))
    }

    /// Every factor finite and positive (a cache file edited by hand or damaged is not trusted).
    var isPlausible: Bool {
        samples.allSatisfy { $0.fps.isFinite && $0.fps > 0 && $0.factor.isFinite && $0.factor > 0 && $0.frames >= 0 }
    }
}
