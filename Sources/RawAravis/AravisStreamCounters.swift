/// What Aravis's stream counted over a burst: buffers it completed, buffers that failed, and underruns (the camera had
/// a frame, or the in-process fake camera was due to make one, and no buffer was queued).
///
/// For the in-process fake camera an underrun is a frame it never made (its frame id does not advance), so it is in
/// no loss count of the burst; for a GigE Vision stream Aravis counts underruns per packet, not per frame, and the
/// frame shows anyway as a gap in frame ids.
public struct AravisStreamCounters: Sendable, Hashable, Codable {
    /// Buffers filled whole.
    public let completedBuffers: UInt64
    /// Buffers that came back damaged (missing packets, timeout, size mismatch, ...).
    public let failedBuffers: UInt64
    /// Times the stream had something to put in a buffer and none was queued.
    public let underruns: UInt64

    /// Counters with these values.
    public init(completedBuffers: UInt64, failedBuffers: UInt64, underruns: UInt64) {
        self.completedBuffers = completedBuffers
        self.failedBuffers = failedBuffers
        self.underruns = underruns
    }
}
