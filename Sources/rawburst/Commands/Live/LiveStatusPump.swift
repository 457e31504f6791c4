import Foundation
import RawBurst
import Synchronization

/// Turns the burst's progress into the page's status a few times a second, on a thread of its own: rates over the
/// last second, the pool's fill over the last 30 s, and how long until the pool fills at the current rate.
///
/// Who owns what: `latest` is written by the burst's progress callback (sensor and writer threads) and read by the
/// pump's thread; the take's description is set by the command line between takes; both sit in `shared`.
final class LiveStatusPump: Sendable {
    private struct Shared {
        var latest: BurstSession.Progress?
        var take = 0
        var folder = ""
        var frames = 0
        var framesPerTrigger = 1
        var ended = false
        var closed = false
        /// (seconds, made, bytes) samples of the last second, and the pool's fill, one per tick.
        var samples: [(seconds: Double, made: Int, bytes: Int, queued: Int)] = []
        var occupancy: [Double] = []
    }

    private let shared = Mutex(Shared())
    private let publish: @Sendable (LiveStatus.Burst) -> Void
    private let finished = DispatchSemaphore(value: 0)
    /// Seconds between statuses.
    static let period = 0.25

    /// A pump that hands each status to `publish`, from its own thread, until `close()`.
    init(publish: @escaping @Sendable (LiveStatus.Burst) -> Void) {
        self.publish = publish
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: Self.period)
                guard let status = tick() else { break }
                publish(status)
            }
            finished.signal()
        }
        thread.name = "rawburst-live-status"
        thread.start()
    }

    /// Publishes the status now, on the calling thread (the first, before any page can ask).
    func publishNow() {
        if let status = tick() { publish(status) }
    }

    /// A new take (`rawburst live`'s recording number `take`, into `folder`, of `frames` frames per sensor, with
    /// `framesPerTrigger` sensors).
    func begin(take: Int, folder: String, frames: Int, framesPerTrigger: Int) {
        shared.withLock {
            ($0.take, $0.folder, $0.frames, $0.ended, $0.latest, $0.samples) = (take, folder, frames, false, nil, [])
            $0.framesPerTrigger = max(1, framesPerTrigger)
        }
    }

    /// The burst's newest counts (its progress callback).
    func update(_ progress: BurstSession.Progress) { shared.withLock { $0.latest = progress } }

    /// The take has ended (its figures stay on the page until the next).
    func end() { shared.withLock { $0.ended = true } }

    /// Stops the thread and waits for it.
    func close() {
        shared.withLock { $0.closed = true }
        finished.wait()
    }

    /// The status now, nil once closed.
    private func tick() -> LiveStatus.Burst? {
        shared.withLock { s -> LiveStatus.Burst? in
            guard !s.closed else { return nil }
            let p = s.latest
            if let p {
                s.samples.append((p.seconds, p.made, p.bytes, p.queued))
                s.samples.removeAll { p.seconds - $0.seconds > 1.0 + 1e-9 }
                s.occupancy.append(Double(p.queued) / Double(max(1, p.slots)))
                if s.occupancy.count > 120 { s.occupancy.removeFirst(s.occupancy.count - 120) }
            }
            let first = s.samples.first, last = s.samples.last
            let span = (last?.seconds ?? 0) - (first?.seconds ?? 0)
            func rate(_ delta: Int) -> Double { span > 0.1 ? Double(delta) / span : 0 }
            // Per sensor: the burst's rate, as --fps says it.
            let fps = rate((last?.made ?? 0) - (first?.made ?? 0)) / Double(s.framesPerTrigger)
            let bytesPerSecond = rate((last?.bytes ?? 0) - (first?.bytes ?? 0))
            let filling = rate((last?.queued ?? 0) - (first?.queued ?? 0))
            let room = Double((p?.slots ?? 0) - (p?.queued ?? 0))
            let state: String
            if s.ended { state = "ended" }
            else if p?.paused ?? false { state = "paused" }
            else if p?.waitingForTrigger ?? true { state = "waiting" }
            else { state = "recording" }
            // Only the recording's drops: frames let go while they were only shown are no failure of the take.
            var reasons: [String: Int] = [:]
            for (reason, count) in p?.recordingDroppedByReason ?? [:] { reasons[reason.rawValue] = count }
            return LiveStatus.Burst(
                state: state, recording: !s.ended && !(p?.waitingForTrigger ?? true), take: s.take, folder: s.folder,
                frames: s.frames, produced: p?.produced ?? 0, written: p?.written ?? 0, dropped: p?.recordingDropped ?? 0,
                droppedByReason: reasons, fps: (fps * 10).rounded() / 10,
                queued: p?.queued ?? 0, slots: p?.slots ?? 0, occupancy: s.occupancy,
                megabytesPerSecond: (bytesPerSecond / 1e5).rounded() / 10, governor: p?.level.name ?? "normal",
                previewsThinned: p.map { $0.level != .normal } ?? false,
                secondsUntilFull: filling > 0.01 && state == "recording" ? (room / filling * 10).rounded() / 10 : nil)
        }
    }
}
