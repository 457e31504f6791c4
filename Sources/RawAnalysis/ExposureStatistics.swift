import Foundation

/// Exposure figures of a raw frame from its histograms, in stops relative to clipping (0 EV is the white level).
public struct ExposureStatistics: Sendable, Hashable, Codable {
    /// log2 of the mean signal above black over the range black...white: −2.5 is a mean 2.5 stops below clipping.
    public let meanEV: Double
    /// Stops between the darkest 0.1 % and the brightest 0.1 % of the signal (each channel above its black; the
    /// dark end no lower than one code value).
    public let usedDynamicRange: Double
    /// Fraction of all samples at or above the white level.
    public let clippedFraction: Double
    /// Fraction of all samples at or below black.
    public let blackFraction: Double

    /// The statistics of `histogram`.
    public init(_ histogram: RawHistogram) {
        var sum = 0.0, count = 0, clipped = 0, atBlack = 0
        var low = Double.infinity, high = 0.0
        var rangeMean = 0.0
        for channel in histogram.channels where channel.total > 0 {
            let h = channel.histogram()
            let black = channel.blackLevel
            sum += ((h.mean ?? black) - black) * Double(channel.total)
            count += channel.total
            clipped += channel.clipped
            atBlack += channel.atBlack
            rangeMean += (Double(histogram.whiteLevel) - black) * Double(channel.total)
            if let q = h.quantile(0.001) { low = min(low, max(1, Double(q) - black)) }
            if let q = h.quantile(0.999) { high = max(high, max(1, Double(q) - black)) }
        }
        let range = count > 0 ? rangeMean / Double(count) : 1
        meanEV = count > 0 ? log2(max(sum / Double(count), 1e-6) / max(range, 1)) : -30
        usedDynamicRange = low.isFinite ? max(0, log2(high / low)) : 0
        clippedFraction = count > 0 ? Double(clipped) / Double(count) : 0
        blackFraction = count > 0 ? Double(atBlack) / Double(count) : 0
    }
}
