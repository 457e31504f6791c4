import RawAnalysis
import RawCapture
import RawCore

/// `capture --analyze`: each written frame's `FrameAnalysis`, made by a writer from the frame's slot on one core
/// (the others write and capture). The burst report's analysis records hold `FrameAnalysis` values.
public struct BurstAnalysis: BurstFrameAnalyzer {
    /// What to measure (`threads` is set to 1 for each frame).
    public var options: FrameAnalysis.Options

    /// Analyses frames with `options`.
    public init(options: FrameAnalysis.Options) { self.options = options }

    /// Working memory of one analysis of a frame of `samples` samples: the luma grid and the gradient field's
    /// smoothed and magnitude planes (a float per 2x2 cell each, so 3 bytes a sample), rounded up to 4 bytes a sample,
    /// and 1 MiB for histograms and tables.
    public func workingBytes(samplesPerFrame samples: Int) -> Int {
        samples * 4 + (1 << 20)
    }

    /// The analysis of `frame`, on this thread.
    public func analyse(_ frame: RawFrame) -> any Sendable {
        var options = options
        options.threads = 1
        return FrameAnalysis(frame: frame, options: options)
    }
}
