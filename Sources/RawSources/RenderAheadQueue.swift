import Foundation
import RawCore

/// What a `RenderAheadSource`'s render thread and the engine's sensor thread share: the buffers, the frames made
/// ahead, the settings queued for later frames, and where each side is.
///
/// Ownership: every field below is read and written only under `condition` (an `NSCondition`: both sides wait on
/// it). The inner source is used by the render thread alone once it has started (`started`); before that, by the
/// thread that configures the source.
final class RenderAheadQueue: @unchecked Sendable {
    /// A frame made ahead, in one of the buffers.
    struct Made {
        let storage: PixelStorage
        let frame: CapturedFrame
        /// When its making ended (`CLOCK_MONOTONIC`, ns).
        let finished: UInt64
    }

    let condition = NSCondition()
    /// The most frames made ahead of the next one delivered.
    let depthLimit: Int
    /// The render thread has started (the inner source is its own from then on), been asked to stop, stopped.
    var started = false
    var stopping = false
    var exited = false
    /// The next frame to deliver: every frame before it was delivered or let go.
    var next: UInt64 = 0
    /// The next frame the render thread makes (or lets go, when the engine let it go first).
    var nextToMake: UInt64 = 0
    /// Buffers free to make a frame into.
    var free: [PixelStorage] = []
    /// Every buffer the queue holds or lent out to the render thread (lent slots are given back through it).
    var owned: [PixelStorage] = []
    /// Frames made and not yet delivered, by sequence number.
    var made: [UInt64: Made] = [:]
    /// When the render thread was first allowed to make each coming frame (the frame `depth` before it had been
    /// delivered, or the start), by sequence number (ns).
    var allowedAt: [UInt64: UInt64] = [:]
    /// Settings for frames from a sequence number on, oldest first.
    var queued: [(from: UInt64, settings: CaptureSettings)] = []
    /// When the next frame is due on the engine's clock (ns), set by `awaitNextFrame`.
    var dueOfNext: UInt64?
    /// The render thread's failure and the frame it failed on.
    var failure: (sequence: UInt64, error: FrameSourceError)?
    /// How long the last eight frames took to make (ns), oldest first.
    var recentMakes: [UInt64] = []
    /// The engine's clock as its ticks show it: the last frame it gave a due time for, the ticks' spacing (ns) from the
    /// last two, and how long after its tick it waits for a frame (nil: as long as it takes, `--late wait`).
    var lastDue: (frame: UInt64, due: UInt64)?
    var tickInterval: UInt64?
    var slack: UInt64?
    /// Frames the render thread let go because they could not be made by their deadline (its rendering fell behind).
    var abandoned: Set<UInt64> = []
    /// The inner source's working memory when the render thread started (the inner source is its own from then on).
    var innerWorkingBytes: Int?

    init(depthLimit: Int) {
        self.depthLimit = max(0, depthLimit)
    }

    /// After a finished burst whose render thread has stopped (and did not fail), ready for the next burst of the same
    /// source (the viewfinder's takes): frames made and not delivered are let go (their numbers stay used, as the
    /// inner source's sequence goes on; numbers the engine let go that were not made yet are let go by the next
    /// thread, in order), every buffer is free, and the engine's clock is learnt again. Call under the lock.
    func rearmAfterBurst() {
        guard !started || exited, failure == nil else { return }
        started = false
        stopping = false
        exited = false
        next = max(next, nextToMake)
        made = [:]
        free = owned
        allowedAt = [:]
        dueOfNext = nil
        lastDue = nil
        tickInterval = nil
        slack = nil
        abandoned = []
    }

    /// Frames the render thread may make ahead now: the depth asked for, within the buffers it has.
    var depth: Int { min(depthLimit, owned.count) }

    /// Whether the render thread has a frame to make now (call under the lock).
    var hasWork: Bool {
        guard !stopping, failure == nil else { return false }
        if nextToMake < next { return true }
        return nextToMake < next + UInt64(depth) && !free.isEmpty
    }

    /// The delivery of frame `next` is done: the next one is up, and the frame `depth` beyond it may be made from now.
    func advance(now: UInt64) {
        allowedAt.removeValue(forKey: next)
        next += 1
        let opened = next + UInt64(max(0, depth - 1))
        if allowedAt[opened] == nil { allowedAt[opened] = now }
    }

    /// Waits on the condition until `deadline` (monotonic ns) in slices of at most 20 ms (NSCondition waits on the
    /// wall clock: a clock step cannot stretch the wait). Returns false once the deadline has passed.
    func wait(until deadline: UInt64?) -> Bool {
        guard let deadline else {
            condition.wait()
            return true
        }
        let now = MonotonicClock.nanoseconds()
        guard now < deadline else { return false }
        _ = condition.wait(until: Date(timeIntervalSinceNow: min(Double(deadline - now) / 1e9, 0.02)))
        return true
    }

    /// Learns the engine's clock from frame `next`'s tick and deadline (call under the lock).
    func learn(due: UInt64, until deadline: UInt64?) {
        if let last = lastDue, next > last.frame, due > last.due { tickInterval = (due - last.due) / (next - last.frame) }
        lastDue = (next, due)
        slack = deadline.map { $0 > due ? $0 - due : 0 }
    }

    /// Frame `k`'s deadline on the engine's clock as learnt (nil: unknown, or the engine waits for late frames).
    func deadline(of k: UInt64) -> UInt64? {
        guard let last = lastDue, let tickInterval, let slack, k >= last.frame else { return nil }
        return last.due + (k - last.frame) * tickInterval + slack
    }

    /// How long a frame typically takes to make (the median of the last eight, ns), nil before any.
    var typicalMake: UInt64? { recentMakes.isEmpty ? nil : recentMakes.sorted()[recentMakes.count / 2] }

    /// The settings queued for frames up to `sequence`, removed from the queue (call under the lock).
    func takeSettings(upTo sequence: UInt64) -> [CaptureSettings] {
        let due = queued.filter { $0.from <= sequence }
        queued.removeAll { $0.from <= sequence }
        return due.map(\.settings)
    }
}
