import Foundation
import RawCore

/// A source that makes its frames ahead of the engine's clock on a thread of its own, as a camera exposes and reads
/// out frames into its buffers while the host is busy: the simulated sensor behind it renders at most `depth` frames
/// ahead of the next one delivered, and on the engine's tick a made frame is handed over with little work (a lent
/// pool slot changes hands; without lent slots, one copy into the slot).
///
/// - The clock starts at the first delivered frame: the engine waits for it to be made before its clock starts
///   (`FrameSource.awaitNextFrame`), so the first tick finds it ready.
/// - A frame is late only when its making truly fell behind: not made by its tick + the engine's tolerance. The cause
///   is typed (`LateFrameCause`): the source's rendering (`sensor-late`), or the engine, which kept the buffers the
///   frame needed past its due time (its `late`). A frame made ahead that the engine takes late (the host stalled)
///   is not lost: its exposure started on its tick, which is its timestamp (a frame made after its tick is stamped
///   when it was made, its lateness). A render that has fallen behind lets go
///   the frames it cannot make by their deadline at its pace (the engine's clock learnt from its ticks) and makes the
///   next one that it can, instead of making every frame after it late too.
/// - A setting change takes effect `depth` frames after the next frame delivered (``settingsLatency``, libcamera's
///   delayed controls): the frames already made keep the settings they were made with, and every frame's `settings`
///   and metadata say what it was made with. Before the first frame is made (`configure` during setup, a bracketing
///   plan's first steps) settings apply from the frame they are given for. Automatic exposure, focus and white
///   balance are resolved by the inner source when its settings change, on the render thread.
/// - Memory: the frames made ahead live in the pool's slots lent to the source (`SlotBorrowingSource`, one sensor),
///   or, with `ownsBuffers` (two sensors, whose frames the engine does not lend slots to), in `depth` buffers of its
///   own, counted in ``workingMemoryBytes``.
/// - Nothing disappears silently: a frame the engine lets go (`skipFrame`) uses up its sequence number as before;
///   frames made ahead of the last one delivered were never exposed on the burst's clock and use up no number of it.
///   A source that serves another burst afterwards (the viewfinder's next take) starts it after them: their numbers
///   stay used, as the inner source's sequence goes on.
///
/// Threads: the engine's sensor thread calls every member (except `interrupt`); the render thread uses the inner
/// source alone once it has started. Shared state is in `RenderAheadQueue`, under its lock.
public final class RenderAheadSource: SlotBorrowingSource {
    /// The source that makes the frames (a `SimulatedSensor`, free-running).
    public let inner: any FrameSource
    /// Frames made ahead at most.
    public let depthLimit: Int
    /// The buffers are the source's own (`depthLimit` frames, counted in its working memory), not lent pool slots.
    public let ownsBuffers: Bool
    let queue: RenderAheadQueue
    /// The inner source's capabilities and frame size, read once (the render thread owns the inner source later).
    public let capabilities: SourceCapabilities
    public let samplesPerFrame: Int

    /// Wraps `inner` (an engine-paced source, used by nothing else from now on) to make up to `depth` frames ahead.
    public init(_ inner: any FrameSource, depth: Int, ownsBuffers: Bool) {
        self.inner = inner
        depthLimit = max(0, depth)
        self.ownsBuffers = ownsBuffers
        capabilities = inner.capabilities
        samplesPerFrame = inner.samplesPerFrame
        queue = RenderAheadQueue(depthLimit: depthLimit)
        if ownsBuffers {
            let buffers = (0..<depthLimit).map { _ in PixelStorage(lazilyZeroedCount: inner.samplesPerFrame) }
            queue.owned = buffers
            queue.free = buffers
        }
    }

    deinit {
        stopRendering()
    }

    /// The inner source's (as it was when the render thread started, which owns it from then on), and the buffers it
    /// owns.
    public var workingMemoryBytes: Int {
        (locked { $0.innerWorkingBytes } ?? inner.workingMemoryBytes)
            + (ownsBuffers ? depthLimit * samplesPerFrame * MemoryLayout<UInt16>.stride : 0)
    }

    public var framesAhead: Int { locked { $0.depth } }
    /// The frames made ahead: a change reaches the frame after the ones already made (0 without buffers).
    public var settingsLatency: Int { locked { $0.depth } }

    /// Before the render thread starts, the inner source's; afterwards nil (its settings change on the render thread).
    public var resolvedSettings: AppliedSettings? {
        locked { $0.started } ? nil : inner.resolvedSettings
    }

    public var recentFrameNanoseconds: UInt64? {
        locked { q in q.recentMakes.isEmpty ? nil : q.recentMakes.sorted()[q.recentMakes.count / 2] }
    }

    public func check(_ settings: CaptureSettings) throws(CaptureSettingsError) {
        try inner.check(settings)
    }

    /// Before the first frame is made, applied at once; afterwards from frame next + ``settingsLatency``.
    public func configure(_ settings: CaptureSettings) throws(CaptureSettingsError) {
        try inner.check(settings)
        let from: UInt64? = locked { $0.started ? $0.next + UInt64($0.depth) : nil }
        guard let from else {
            try inner.configure(settings)
            return
        }
        try enqueue(settings, from: from)
    }

    /// Settings for frame `sequenceNumber` on: any frame not made yet (before the first is made, frame 0's are applied
    /// at once).
    public func configure(_ settings: CaptureSettings, fromFrame sequenceNumber: UInt64) throws(CaptureSettingsError) {
        try inner.check(settings)
        if sequenceNumber == 0, !locked({ $0.started }) {
            try inner.configure(settings)
            return
        }
        try enqueue(settings, from: sequenceNumber)
    }

    private func enqueue(_ settings: CaptureSettings, from: UInt64) throws(CaptureSettingsError) {
        let accepted: Bool = locked { q in
            guard from >= q.nextToMake else { return false }
            q.queued.append((from, settings))
            q.queued.sort { $0.from < $1.from }
            return true
        }
        guard accepted else {
            throw CaptureSettingsError(setting: "settings", "frame \(from) is already made; settings apply from a frame not yet made")
        }
    }

    public func awaitNextFrame(due: UInt64?, until deadline: UInt64?) -> FrameReadiness {
        guard framesAhead > 0 else { return .ready }
        startRendering()
        queue.condition.lock()
        defer { queue.condition.unlock() }
        if let due {
            queue.dueOfNext = due
            queue.learn(due: due, until: deadline)
        }
        // Whose lateness: the render thread could start the frame only when the frame `depth` before it was taken; if
        // that came after the frame was due, the engine held its buffer.
        func late() -> FrameReadiness {
            let allowed = queue.allowedAt[queue.next] ?? 0
            return .late(due.map { allowed > $0 } ?? false ? .engine : .source)
        }
        while queue.made[queue.next] == nil && queue.failure == nil && !queue.stopping {
            // Let go by the render thread, which could not make it by its deadline.
            if queue.abandoned.contains(queue.next) { return late() }
            guard queue.wait(until: deadline) else { return late() }
        }
        // Made, but after its deadline (this thread woke late to see it): late all the same.
        if let deadline, let made = queue.made[queue.next], made.finished > deadline { return late() }
        return .ready
    }

    public func nextFrame(into storage: PixelStorage) throws(FrameSourceError) -> CapturedFrame {
        guard storage.count >= samplesPerFrame else {
            throw FrameSourceError("frame buffer holds \(storage.count) samples; \(capabilities.name) needs \(samplesPerFrame)")
        }
        guard framesAhead > 0 else { return try inner.nextFrame(into: storage) }
        let (made, due) = try take()
        storage.baseAddress.update(from: made.storage.baseAddress, count: samplesPerFrame)
        give(made.storage)
        return try stamped(made, due: due, over: storage)
    }

    public func nextFrame(replacing replacement: PixelStorage) throws(FrameSourceError) -> CapturedFrame {
        let (made, due) = try take()
        locked { q in
            q.owned.removeAll { $0 === made.storage }
            q.owned.append(replacement)
        }
        give(replacement)
        return try stamped(made, due: due, over: made.storage)
    }

    public func skipFrame() -> UInt64 {
        guard framesAhead > 0 else { return inner.skipFrame() }
        return locked { q in
            let number = q.next
            if let made = q.made.removeValue(forKey: number) { q.free.append(made.storage) }
            q.abandoned.remove(number)
            q.advance(now: MonotonicClock.nanoseconds())
            q.dueOfNext = nil
            q.condition.broadcast()
            return number
        }
    }

    /// Before the render thread starts, the inner source's rehearsal; afterwards false.
    public func rehearseFrame(into storage: PixelStorage) throws(FrameSourceError) -> Bool {
        guard !locked({ $0.started }) else { return false }
        return try inner.rehearseFrame(into: storage)
    }

    // MARK: - Lent slots

    /// Lent slots, when the buffers are not the source's own.
    public func slotsToBorrow(poolSlots: Int) -> Int { ownsBuffers ? 0 : depthLimit }
    /// None: with fewer slots lent it makes fewer frames ahead (none: each on its tick).
    public var slotsRequired: Int { 0 }

    public func lend(_ storage: PixelStorage) throws(FrameSourceError) {
        guard !ownsBuffers, storage.count >= samplesPerFrame else {
            throw FrameSourceError("a slot of \(storage.count) samples cannot take a \(samplesPerFrame)-sample frame")
        }
        locked { q in
            q.owned.append(storage)
            q.free.append(storage)
        }
    }

    public func returnBorrowed() -> [PixelStorage] {
        stopRendering()
        // Its own buffers were never lent.
        guard !ownsBuffers else { return [] }
        return locked { q in
            let lent = q.owned
            q.owned = []
            q.free = []
            q.made = [:]
            return lent
        }
    }

    /// The burst has taken its last frame: the render thread stops (a frame it is making is finished first); the
    /// next burst of this source starts it anew.
    public func finish() {
        stopRendering()
        locked { $0.rearmAfterBurst() }
        inner.finish()
    }
}

extension RenderAheadSource {
    /// `body` under the queue's lock.
    func locked<T>(_ body: (RenderAheadQueue) -> T) -> T {
        queue.condition.lock()
        defer { queue.condition.unlock() }
        return body(queue)
    }

    /// Frame `next`, once made (waiting for it as long as it takes), with the time it was due; the next frame is up.
    private func take() throws(FrameSourceError) -> (RenderAheadQueue.Made, UInt64?) {
        startRendering()
        let q = queue
        q.condition.lock()
        defer { q.condition.unlock() }
        while q.made[q.next] == nil {
            if let failure = q.failure, failure.sequence == q.next { throw failure.error }
            if q.abandoned.contains(q.next) {
                throw FrameSourceError("\(capabilities.name): frame \(q.next) was let go: it could not be made by its deadline")
            }
            guard !q.stopping else { throw FrameSourceError("\(capabilities.name): stopped") }
            q.condition.wait()
        }
        let made = q.made.removeValue(forKey: q.next)!
        let due = q.dueOfNext
        q.dueOfNext = nil
        q.advance(now: MonotonicClock.nanoseconds())
        return (made, due)
    }

    /// `storage` back among the buffers the render thread makes frames into.
    private func give(_ storage: PixelStorage) {
        locked { q in
            q.free.append(storage)
            q.condition.broadcast()
        }
    }

    /// `made` over `storage`, taken at its tick `due` on the engine's clock — or when it was made, if that was later
    /// (its lateness) —, which are its timestamp and capture time.
    private func stamped(_ made: RenderAheadQueue.Made, due: UInt64?, over storage: PixelStorage) throws(FrameSourceError)
        -> CapturedFrame {
        let now = MonotonicClock.nanoseconds()
        let tick = due ?? now
        let lateness = made.finished > tick ? made.finished - tick : 0
        let start = tick + lateness
        var image = made.frame.image
        if storage !== made.storage {
            let f = image.frame
            do {
                image.frame = try RawFrame(width: f.width, height: f.height, rowStride: f.rowStride, storage: storage, cfa: f.cfa,
                                           activeArea: f.activeArea, defaultCrop: f.defaultCrop, defaultScale: f.defaultScale,
                                           blackLevels: f.blackLevels, whiteLevel: f.whiteLevel, bitsPerSample: f.bitsPerSample)
            } catch {
                throw FrameSourceError("\(capabilities.name): \(error)")
            }
        }
        // The wall-clock moment of its exposure: now, less how long ago it was due.
        let ago = now > start ? Double(now - start) / 1e9 : 0
        let wall = CaptureTime.now()
        image.metadata.captureTime = (try? CaptureTime(date: wall.date.addingTimeInterval(-ago),
                                                       utcOffsetSeconds: wall.utcOffsetSeconds)) ?? wall
        var frame = CapturedFrame(image: image, settings: made.frame.settings, sequenceNumber: made.frame.sequenceNumber,
                                  monotonicNanoseconds: start, latenessNanoseconds: lateness,
                                  sensorName: made.frame.sensorName)
        frame.camera = made.frame.camera
        return frame
    }
}
