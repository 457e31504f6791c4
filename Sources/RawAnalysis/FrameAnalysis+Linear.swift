import RawCore

extension FrameAnalysis {
    /// Analyses a linear raw (three samples per pixel): RGB histograms with exposure statistics, sharpness and focus
    /// peaking on its luma grid (one cell per 2x2 pixels, as on a Bayer mosaic), and clipped pixels per channel. Metering is left out (nil).
    public init(linear frame: LinearRawFrame, options: Options = Options()) {
        if options.histogram {
            let h = RawHistogram(linear: frame)
            rawHistogram = h
            channels = Self.channelReports(h, bins: options.bins)
            exposure = ExposureStatistics(h)
            clippedCells = options.clipping
                ? Dictionary(uniqueKeysWithValues: h.channels.map { (String($0.color.letter), $0.clipped) }) : nil
        } else {
            channels = nil
            exposure = nil
            rawHistogram = nil
            clippedCells = nil
        }
        let edges = options.peaking || options.sharpness
            ? Self.edges(LumaGrid(linear: frame, threads: options.threads), options: options) : Edges()
        (sharpness, peakingMask, peaking) = (edges.sharpness, edges.mask, edges.report)
        metering = nil
    }

    /// The report's channels of `histogram`, each re-binned to `bins`.
    static func channelReports(_ histogram: RawHistogram, bins: Int?) -> [ChannelReport] {
        histogram.channels.map { c in
            let binned = c.histogram(bins: bins)
            let full = c.histogram()
            return ChannelReport(color: String(c.color.letter), blackLevel: c.blackLevel, clippedFraction: c.clippedFraction,
                                 blackFraction: c.blackFraction, mean: full.mean, median: full.quantile(0.5),
                                 bins: binned.bins, counts: binned.counts)
        }
    }

    /// Sharpness and peaking of one analysis grid, as `options` ask.
    struct Edges {
        var sharpness: Sharpness?
        var mask: FocusPeaking?
        var report: PeakingReport?
    }

    /// The edges of `luma`: sharpness and the peaking mask and its summary, those `options` ask for.
    static func edges(_ luma: LumaGrid, options: Options) -> Edges {
        let field = GradientField(luma, threads: options.threads,
                                  countingMagnitudes: options.peaking && options.peakingRule.isFraction)
        var edges = Edges(sharpness: options.sharpness ? Sharpness(field, luma: luma) : nil)
        if options.peaking {
            let p = FocusPeaking(field, rule: options.peakingRule, threads: options.threads)
            edges.mask = p
            edges.report = PeakingReport(rule: options.peakingRule.description, thresholds: p.thresholds, noise: p.noise,
                                         markedFraction: p.markedFraction, gridWidth: p.width, gridHeight: p.height)
        }
        return edges
    }
}
