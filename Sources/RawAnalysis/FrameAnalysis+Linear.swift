import RawCore

extension FrameAnalysis {
    /// Analyses a linear raw (three samples per pixel): RGB histograms with exposure statistics, sharpness and focus
    /// peaking on its luma grid (one cell per pixel), and clipped pixels per channel. Metering is left out (nil).
    public init(linear frame: LinearRawFrame, options: Options = Options()) {
        if options.histogram {
            let h = RawHistogram(linear: frame)
            rawHistogram = h
            channels = h.channels.map { c in
                let binned = c.histogram(bins: options.bins)
                let full = c.histogram()
                return ChannelReport(color: String(c.color.letter), blackLevel: c.blackLevel, clippedFraction: c.clippedFraction,
                                     blackFraction: c.blackFraction, mean: full.mean, median: full.quantile(0.5),
                                     bins: binned.bins, counts: binned.counts)
            }
            exposure = ExposureStatistics(h)
            clippedCells = options.clipping
                ? Dictionary(uniqueKeysWithValues: h.channels.map { (String($0.color.letter), $0.clipped) }) : nil
        } else {
            channels = nil
            exposure = nil
            rawHistogram = nil
            clippedCells = nil
        }
        if options.peaking || options.sharpness {
            let luma = LumaGrid(linear: frame, threads: options.threads)
            let field = GradientField(luma, threads: options.threads,
                                      countingMagnitudes: options.peaking && options.peakingRule.isFraction)
            sharpness = options.sharpness ? Sharpness(field, luma: luma) : nil
            if options.peaking {
                let p = FocusPeaking(field, rule: options.peakingRule, threads: options.threads)
                peakingMask = p
                peaking = PeakingReport(rule: options.peakingRule.description, thresholds: p.thresholds,
                                        markedFraction: p.markedFraction, gridWidth: p.width, gridHeight: p.height)
            } else {
                peakingMask = nil
                peaking = nil
            }
        } else {
            sharpness = nil
            peakingMask = nil
            peaking = nil
        }
        metering = nil
    }
}
