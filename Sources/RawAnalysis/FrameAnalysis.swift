import Foundation
import RawCore

/// Everything `rawburst analyze` and `capture --analyze` report for one raw frame, as data.
public struct FrameAnalysis: Sendable, Codable {
    /// What to compute.
    public struct Options: Sendable, Hashable {
        /// Raw histograms and exposure statistics.
        public var histogram = true
        /// Bins of the raw histograms in the report (nil: one per code value).
        public var bins: Int? = 256
        /// Focus peaking, and the rule for its threshold.
        public var peaking = false
        /// The peaking threshold rule.
        public var peakingRule: PeakingThreshold = .standard
        /// Sharpness scores.
        public var sharpness = true
        /// Raw clipping counts per channel.
        public var clipping = true
        /// Metering (zones, matrix, centre-weighted, spot).
        public var metering = true
        /// Where the spot meter reads.
        public var spot: NormalisedPoint = .centre
        /// Threads for the grid work.
        public var threads = ProcessInfo.processInfo.activeProcessorCount
        /// The default: histograms, sharpness, clipping and metering; no peaking mask.
        public init() {}
    }

    /// One raw channel.
    public struct ChannelReport: Sendable, Codable {
        /// The CFA colour's letter (R, G, B, ...).
        public let color: String
        /// Its black level.
        public let blackLevel: Double
        /// Fractions of its samples at or above white and at or below black.
        public let clippedFraction: Double
        public let blackFraction: Double
        /// Mean and median code value (full depth).
        public let mean: Double?
        public let median: Int?
        /// The histogram: `bins` counts over `0..<2^bitsPerSample`.
        public let bins: Int
        public let counts: [Int]
    }

    /// The peaking summary (the mask itself is in ``peakingMask``).
    public struct PeakingReport: Sendable, Codable {
        /// The threshold rule (`medium`, `contrast:0.3`, `4%`, `sd:1,2,3`).
        public let rule: String
        /// What each level starts at: an edge contrast for a contrast rule, an edge magnitude otherwise.
        public let thresholds: [Float]
        /// The noise model a contrast rule measured on the frame.
        public let noise: EdgeNoise?
        /// Fraction of the grid marked.
        public let markedFraction: Double
        /// The analysis grid's size.
        public let gridWidth: Int
        public let gridHeight: Int
    }

    /// Raw channels (red, green, blue, ...), when histograms were asked for.
    public let channels: [ChannelReport]?
    /// Exposure statistics from the histograms.
    public let exposure: ExposureStatistics?
    /// Sharpness, whole frame and 3x3 zones.
    public let sharpness: Sharpness?
    /// The peaking summary.
    public let peaking: PeakingReport?
    /// Grid cells with a clipped sample, per colour letter.
    public let clippedCells: [String: Int]?
    /// Metering in EV below clipping.
    public let metering: Metering?

    /// The mask (not encoded; for pictures).
    public let peakingMask: FocusPeaking?
    /// The full-depth histograms the report's channels were made from (not encoded; for pictures).
    public let rawHistogram: RawHistogram?

    enum CodingKeys: String, CodingKey {
        case channels, exposure, sharpness, peaking, clippedCells, metering
    }

    /// Analyses `frame`.
    public init(frame: RawFrame, options: Options = Options()) {
        if options.histogram {
            let h = RawHistogram(frame: frame)
            rawHistogram = h
            channels = Self.channelReports(h, bins: options.bins)
            exposure = ExposureStatistics(h)
        } else {
            channels = nil
            exposure = nil
            rawHistogram = nil
        }
        let edges = options.peaking || options.sharpness
            ? Self.edges(LumaGrid(frame: frame, threads: options.threads), options: options) : Edges()
        (sharpness, peakingMask, peaking) = (edges.sharpness, edges.mask, edges.report)
        if options.clipping {
            let mask = ClippingMask(frame: frame)
            var counts: [String: Int] = [:]
            for colour in Set(frame.cfa.pattern) { counts[String(colour.letter)] = mask.count(colour) }
            clippedCells = counts
        } else {
            clippedCells = nil
        }
        metering = options.metering ? Metering(frame: frame, spot: options.spot) : nil
    }

    /// Decodes a report (the mask is not part of it).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        channels = try c.decodeIfPresent([ChannelReport].self, forKey: .channels)
        exposure = try c.decodeIfPresent(ExposureStatistics.self, forKey: .exposure)
        sharpness = try c.decodeIfPresent(Sharpness.self, forKey: .sharpness)
        peaking = try c.decodeIfPresent(PeakingReport.self, forKey: .peaking)
        clippedCells = try c.decodeIfPresent([String: Int].self, forKey: .clippedCells)
        metering = try c.decodeIfPresent(Metering.self, forKey: .metering)
        peakingMask = nil
        rawHistogram = nil
    }

    /// Encodes the report (without the mask).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(channels, forKey: .channels)
        try c.encodeIfPresent(exposure, forKey: .exposure)
        try c.encodeIfPresent(sharpness, forKey: .sharpness)
        try c.encodeIfPresent(peaking, forKey: .peaking)
        try c.encodeIfPresent(clippedCells, forKey: .clippedCells)
        try c.encodeIfPresent(metering, forKey: .metering)
    }
}
