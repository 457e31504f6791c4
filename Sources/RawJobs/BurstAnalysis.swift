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

    /// The analysis of `frame`, on this thread.
    public func analyse(_ frame: RawFrame) -> any Sendable {
        var options = options
        options.threads = 1
        return FrameAnalysis(frame: frame, options: options)
    }
}
