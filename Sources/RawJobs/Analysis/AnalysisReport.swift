import RawAnalysis

/// What an ``AnalysisBatch`` found: the counts, the sharpest frames, the contact sheet and every file's result.
/// Encoded (with sorted keys) as `rawburst analyze --json` prints it.
public struct AnalysisReport: Sendable, Encodable {
    /// Files analysed without error.
    public let analysed: Int
    /// Files (and pictures) that failed.
    public let failed: Int
    /// The sharpest files' paths, when asked for.
    public let best: [String]?
    /// The contact sheet's path, when written.
    public let contactSheet: String?
    /// Every file's result, in input order (a failed contact sheet last).
    public let files: [AnalysisFileResult]
}

/// One file's analysis in an ``AnalysisReport``.
public struct AnalysisFileResult: Sendable, Encodable {
    /// The zebra of the developed preview.
    public struct ZebraReport: Sendable, Encodable {
        /// The threshold, a fraction of full scale.
        public let threshold: Double
        /// The fraction of the preview's pixels marked.
        public let markedFraction: Double
        /// The preview's size.
        public let previewWidth: Int, previewHeight: Int
    }

    /// The file.
    public let path: String
    /// True when analysed.
    public var ok: Bool
    /// Why not, one line.
    public var error: String?
    /// The kind of failure (nil when analysed).
    public var errorKind: JobFailureKind?
    /// The active area's size.
    public var width: Int?, height: Int?
    /// ISO and shutter time (seconds) from the file's metadata.
    public var iso: Double?, shutter: Double?
    /// The measurements.
    public var analysis: FrameAnalysis?
    /// The zebra, when asked for.
    public var zebra: ZebraReport?
    /// Pictures written, in order.
    public var pictures: [String] = []
    /// True when among the sharpest.
    public var best = false

    init(path: String, ok: Bool, error: String? = nil) {
        self.path = path
        self.ok = ok
        self.error = error
    }
}
