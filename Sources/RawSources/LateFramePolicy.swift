/// What a burst on a real-time clock does with a frame that cannot start on its tick.
///
/// A camera does not wait: a frame it makes while nobody can take it is lost. With `drop` (the default for a
/// burst with a frame rate, and always right for a real camera), a frame that cannot start within half a frame
/// interval of its tick is not taken late: it is counted as dropped (reason `late`) with its sequence number, and
/// the next frame starts on its own tick. With `wait` (offline simulation) frames are taken late, one after the
/// other, and the schedule catches up when it can; their lateness is measured and reported.
public enum LateFramePolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Late frames are dropped and counted (reason `late`).
    case drop
    /// Late frames are taken late.
    case wait

    /// The most a frame may start after its tick before it counts as late under `drop`: half the frame interval.
    public static func tolerance(intervalNanoseconds: Double) -> UInt64 { UInt64(intervalNanoseconds / 2) }
}
