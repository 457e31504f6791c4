import RawCore
/// Start-to-start frame scheduling for a `FrameClock`, shared by every source (simulated sensor, file
/// replay, dual sources).
///
/// With `.realTime(fps:)` the first call starts the schedule; frame n is due at start + n / fps. A call
/// made before its frame is due sleeps until then (`clock_nanosleep` on an absolute `CLOCK_MONOTONIC`
/// deadline, so sleeping does not drift). A call made after the due time does not sleep and reports how
/// late it is; the schedule is never shifted and no frame slot is skipped to catch up, so a slow consumer
/// shows up as growing lateness rather than as hidden gaps. With `.freeRunning` nothing sleeps and
/// lateness is always 0.
public struct FramePacer: Sendable {
    /// The clock being followed.
    public let clock: FrameClock
    /// Monotonic time of frame 0, set by the first `waitForNextFrame`.
    public private(set) var startNanoseconds: UInt64?
    /// Number of frames scheduled so far.
    public private(set) var frameIndex: UInt64 = 0
    /// Interval between frame starts in nanoseconds (nil when free-running or the rate is not positive).
    public let intervalNanoseconds: Double?

    /// Creates a pacer; the schedule starts at the first `waitForNextFrame`.
    public init(clock: FrameClock) {
        self.clock = clock
        if case .realTime(let fps) = clock, fps.isFinite, fps > 0 {
            intervalNanoseconds = 1e9 / fps
        } else {
            intervalNanoseconds = nil
        }
    }

    /// Waits until the next frame is due and returns the frame's start time and how late it started.
    public mutating func waitForNextFrame() -> (monotonicNanoseconds: UInt64, latenessNanoseconds: UInt64) {
        let index = frameIndex
        frameIndex += 1
        guard let interval = intervalNanoseconds else {
            let now = MonotonicClock.nanoseconds()
            if startNanoseconds == nil { startNanoseconds = now }
            return (now, 0)
        }
        guard let start = startNanoseconds else {
            let now = MonotonicClock.nanoseconds()
            startNanoseconds = now
            return (now, 0)
        }
        let due = start &+ UInt64((Double(index) * interval).rounded())
        var now = MonotonicClock.nanoseconds()
        if now < due {
            MonotonicClock.sleep(until: due)
            now = MonotonicClock.nanoseconds()
            // The kernel's wake-up is usually within tens of microseconds; on a busy machine it can be
            // milliseconds late, and that counts as lateness too.
            return (now, now > due ? now - due : 0)
        }
        return (now, now - due)
    }

    /// When the next frame is due (`CLOCK_MONOTONIC`, ns): nil before the schedule starts or when free-running.
    public var nextDueNanoseconds: UInt64? {
        guard let start = startNanoseconds, let interval = intervalNanoseconds else { return nil }
        return start &+ UInt64((Double(frameIndex) * interval).rounded())
    }

    /// Starts the schedule again from the next call (frame indices restart at 0).
    public mutating func reset() {
        startNanoseconds = nil
        frameIndex = 0
    }
}
