/// Why a frame a source produced was not written: the one list of reasons, shared by the sources (a ``FrameLoss``, what
/// a camera or a stream could not deliver: ``isSourceLoss``) and the burst engine's books (`BurstLedger.Drop`: those
/// and what the engine itself dropped). The raw values are what manifests, journals and `--json` say.
public enum FrameDropReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// No free slot and the policy is `drop-newest`: the new frame was discarded.
    case poolFull = "pool-full"
    /// The policy is `drop-oldest`: the oldest queued frame made room for a newer one.
    case replacedByNewer = "replaced-by-newer"
    /// Its file could not be written.
    case writeFailed = "write-failed"
    /// The burst stopped (policy `stop`, an error, or a signal) before the frame was written.
    case burstStopped = "burst-stopped"
    /// Pre-record: the frame was older than the window kept before the trigger, or the trigger never came.
    case outsidePreRecord = "outside-pre-record"
    /// On a real-time clock, the frame could not start within half a frame interval of its tick (policy
    /// `--late drop`): a camera would have lost it.
    case late
    /// The source made its frames ahead of the clock (the simulated sensor's render thread) and its making fell
    /// behind: the frame was not made by its tick + half an interval. The engine's own `late` is separate: a frame
    /// made ahead that the engine takes late is not lost.
    case sensorLate = "sensor-late"
    /// A camera or stream produced it but it never arrived: the camera or the link lost it (a gap in the camera's
    /// frame ids or timestamps).
    case camera
    /// It arrived with packets missing.
    case missingPackets = "missing-packets"
    /// It did not arrive whole in time.
    case timeout
    /// It arrived with a size other than the frame's.
    case sizeMismatch = "size-mismatch"
    /// The stream ended in the middle of it.
    case incomplete
    /// It arrived whole but its data cannot be decoded (a compressed frame holding a code no encoder writes).
    case corrupt

    /// A frame that was never made because it could not start on its tick (`late`, `sensor-late`).
    public var isLate: Bool { self == .late || self == .sensorLate }

    /// A reason a source gives for a frame it could not deliver (a ``FrameLoss``), not one the engine decides.
    public var isSourceLoss: Bool {
        switch self {
        case .camera, .missingPackets, .timeout, .sizeMismatch, .incomplete, .corrupt: true
        case .poolFull, .replacedByNewer, .writeFailed, .burstStopped, .outsidePreRecord, .late, .sensorLate: false
        }
    }
}
