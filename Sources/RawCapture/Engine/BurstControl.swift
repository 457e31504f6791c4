import Foundation

/// A burst's control state — paused, stop asked for, the pre-record's trigger — and the condition it is
/// waited on with. Any thread sets it (`BurstSession`'s control methods: signal handlers, a key reader, a
/// writer whose disk fails); only the sensor thread waits on it, between triggers, in `checkpoint()`.
// @unchecked: the three fields are read and written only while holding `condition` (Mutex has no condition variable).
final class BurstControl: @unchecked Sendable {
    private let condition = NSCondition()
    private var triggered: Bool
    private var paused = false
    private var stopRequest: BurstSession.StopCause?

    /// Control for a burst that starts triggered, or waits for `trigger()` (a pre-record).
    init(triggered: Bool) { self.triggered = triggered }

    /// The pre-record's trigger.
    func trigger() { condition.withLock { triggered = true; condition.broadcast() } }

    /// Pauses (the sensor thread waits at its next checkpoint).
    func pause() { condition.withLock { paused = true } }

    /// Lets the waiting sensor thread go on.
    func resume() { condition.withLock { paused = false; condition.broadcast() } }

    /// Pauses or resumes, in one step.
    func togglePause() {
        condition.withLock {
            paused.toggle()
            if !paused { condition.broadcast() }
        }
    }

    /// Asks the sensor thread to stop for `cause` (the first cause asked for stays).
    func stop(because cause: BurstSession.StopCause) {
        condition.withLock {
            if stopRequest == nil { stopRequest = cause }
            condition.broadcast()
        }
    }

    /// Whether the burst is paused now.
    var isPaused: Bool { condition.withLock { paused } }

    /// The stop asked for so far, if any.
    var stopCause: BurstSession.StopCause? { condition.withLock { stopRequest } }

    /// Paused now, and still waiting for the pre-record's trigger (for a status line).
    var status: (paused: Bool, waitingForTrigger: Bool) { condition.withLock { (paused, !triggered) } }

    /// The sensor thread's checkpoint between triggers: while paused (and no stop asked for) it waits here.
    /// Returns the stop asked for, whether the burst is triggered, and whether it waited (a pause).
    func checkpoint() -> (stop: BurstSession.StopCause?, triggered: Bool, paused: Bool) {
        condition.withLock {
            var waited = false
            if paused && stopRequest == nil {
                waited = true
                while paused && stopRequest == nil { condition.wait() }
            }
            return (stopRequest, triggered, waited)
        }
    }
}
