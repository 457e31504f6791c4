import Foundation
import RawCore

/// The render thread of a `RenderAheadSource`: it makes frames in sequence, each once a buffer is free and it is at
/// most `depth` frames ahead of the next one delivered; applies the settings queued for a frame just before making
/// it; and lets go (without making) a frame the engine let go first, or one it cannot make by its deadline on the
/// engine's clock (learnt from the ticks the engine gives) at the pace its frames take — a render behind its clock
/// catches up instead of making every next frame late too. Letting a frame go keeps the inner source's sequence
/// numbers and noise seeds those of the burst's frames.
extension RenderAheadSource {
    /// Starts the render thread (once; not without buffers): frames 0 to `depth` − 1 may be made from now.
    func startRendering() {
        let innerBytes = locked { $0.started } ? nil : inner.workingMemoryBytes
        let start: Bool = locked { q in
            guard !q.started, !q.stopping, q.depth > 0 else { return false }
            q.started = true
            q.innerWorkingBytes = innerBytes
            let now = MonotonicClock.nanoseconds()
            for k in 0..<UInt64(q.depth) where q.allowedAt[q.next + k] == nil { q.allowedAt[q.next + k] = now }
            return true
        }
        guard start else { return }
        let work = UncheckedBox((inner, queue))
        let thread = Thread {
            let (inner, queue) = work.value
            Self.render(inner, queue)
        }
        thread.name = "rawburst-render-ahead"
        thread.start()
    }

    /// Asks the render thread to stop and waits until it has (a frame it is making is finished first); nothing when it
    /// has not started.
    func stopRendering() {
        locked { q in
            guard q.started else { return }
            q.stopping = true
            q.condition.broadcast()
            while q.started && !q.exited { q.condition.wait() }
        }
    }

    /// The render thread's loop.
    private static func render(_ inner: any FrameSource, _ q: RenderAheadQueue) {
        q.condition.lock()
        defer {
            q.exited = true
            q.condition.broadcast()
            q.condition.unlock()
        }
        while true {
            while !q.hasWork && !q.stopping && q.failure == nil { q.condition.wait() }
            guard !q.stopping, q.failure == nil else { return }
            let k = q.nextToMake
            q.nextToMake += 1
            let settings = q.takeSettings(upTo: k)
            // A frame the engine let go before it was made: its number (and noise seed) is used up, nothing is made.
            // So is one that cannot be made by its deadline at the pace frames take here: making it would only make
            // the next ones late too.
            let now = MonotonicClock.nanoseconds()
            let hopeless = k >= q.next && q.deadline(of: k).map { deadline in q.typicalMake.map { now + $0 > deadline } ?? false } ?? false
            if hopeless { q.abandoned.insert(k) }
            let skipped = k < q.next || hopeless
            let buffer = skipped ? nil : q.free.popLast()
            q.condition.unlock()
            let began = MonotonicClock.nanoseconds()
            let outcome = makeFrame(inner, settings: settings, into: buffer)
            let ended = MonotonicClock.nanoseconds()
            q.condition.lock()
            switch outcome {
            case .success(let frame?):
                q.recentMakes.append(ended - began)
                if q.recentMakes.count > 8 { q.recentMakes.removeFirst() }
                if let buffer {
                    // Let go while it was being made: its buffer is free again.
                    if k < q.next { q.free.append(buffer) } else { q.made[k] = .init(storage: buffer, frame: frame, finished: ended) }
                }
            case .success(nil):
                break
            case .failure(let error):
                if let buffer { q.free.append(buffer) }
                q.failure = (k, error)
            }
            q.condition.broadcast()
        }
    }

    /// Applies `settings` (oldest first), then makes the frame into `buffer`, or lets it go without one.
    private static func makeFrame(_ inner: any FrameSource, settings: [CaptureSettings],
                                  into buffer: PixelStorage?) -> Result<CapturedFrame?, FrameSourceError> {
        for s in settings {
            do { try inner.configure(s) } catch {
                return .failure(FrameSourceError("\(inner.capabilities.name): settings refused when they came due: \(error)"))
            }
        }
        guard let buffer else {
            _ = inner.skipFrame()
            return .success(nil)
        }
        do { return .success(try inner.nextFrame(into: buffer)) } catch { return .failure(error) }
    }
}
