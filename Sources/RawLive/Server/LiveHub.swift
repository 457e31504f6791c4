import NIOCore
import RawCapture
import RawCore
import Synchronization

/// One encoded preview on its way to the pages: the same bytes for every client.
struct LiveOutgoingFrame: Sendable {
    var bytes: ByteBuffer
    /// The server's publish counter (1, 2, ...), to record each frame's first delivery once.
    var index: UInt64
    var sequenceNumber: UInt64
    var captureNanoseconds: UInt64
}

/// What a client's writer sends next.
enum LiveOutgoing: Sendable {
    case text(String)
    case frame(LiveOutgoingFrame)
}

/// The server's shared state: the connected pages with their one-frame mailboxes, the newest frame and status, the
/// counts and latencies. Every method takes a short lock and never suspends, so `publish` never waits for a page.
final class LiveHub: Sendable {
    /// A connected page.
    private struct Client {
        var wake: AsyncStream<Void>.Continuation
        var channel: any Channel
        var frame: LiveOutgoingFrame?
        var status: String?
        var replies: [String] = []
        /// When the pending write started (`CLOCK_MONOTONIC` ns), nil when no write is pending.
        var writeSince: UInt64?
        var overlays: LiveOverlays?
        var overlaysOrder = 0
    }

    private struct State {
        var clients: [Int: Client] = [:]
        var nextID = 1
        var closed = false
        var newestJPEG: ByteBuffer?
        var newestStatus: LiveStatus?
        var publishCount: UInt64 = 0
        var lastDeliveredIndex: UInt64 = 0
        var previewsSent = 0
        var dropped = 0
        var stalled = 0
        var latencies: [Double] = []
        var latencyNext = 0
        var deliveryTimes: [UInt64] = []
        var deliveries: [LiveDelivery] = []
        var httpOverlays: LiveOverlays?
        var httpOverlaysOrder = 0
        var overlaysCounter = 0
        var statusCache: (text: String, at: UInt64)?
    }

    private let state = Mutex(State())
    let maximumClients: Int
    /// Replies queued for a client beyond this are dropped (a page that does not read).
    static let maximumQueuedReplies = 64
    /// Deliveries kept for `takeDeliveries` when nobody takes them.
    static let maximumKeptDeliveries = 1 << 16

    init(maximumClients: Int) { self.maximumClients = maximumClients }

    // MARK: clients

    /// Adds a page; nil when the server is full or closed. The stream wakes the client's writer.
    func add(channel: any Channel) -> (id: Int, wake: AsyncStream<Void>)? {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id: Int? = state.withLock { s in
            guard !s.closed, s.clients.count < maximumClients else { return nil }
            let id = s.nextID
            s.nextID += 1
            s.clients[id] = Client(wake: continuation, channel: channel)
            return id
        }
        guard let id else {
            continuation.finish()
            return nil
        }
        return (id, stream)
    }

    /// Whether a page more may connect now.
    var hasRoom: Bool { state.withLock { !$0.closed && $0.clients.count < maximumClients } }

    func remove(_ id: Int) {
        let client = state.withLock { $0.clients.removeValue(forKey: id) }
        client?.wake.finish()
    }

    /// The next message for client `id`: replies first, then the status, then the newest frame.
    func next(for id: Int) -> LiveOutgoing? {
        state.withLock { s -> LiveOutgoing? in
            guard var c = s.clients[id] else { return nil }
            defer { s.clients[id] = c }
            if !c.replies.isEmpty { return .text(c.replies.removeFirst()) }
            if let status = c.status {
                c.status = nil
                return .text(status)
            }
            if let frame = c.frame {
                c.frame = nil
                return .frame(frame)
            }
            return nil
        }
    }

    func queueReply(_ text: String, for id: Int) {
        state.withLock { s in
            guard var c = s.clients[id], c.replies.count < Self.maximumQueuedReplies else { return }
            c.replies.append(text)
            s.clients[id] = c
            c.wake.yield(())
        }
    }

    func queueStatus(_ text: String, for id: Int) {
        state.withLock { s in
            guard s.clients[id] != nil else { return }
            s.clients[id]!.status = text
            s.clients[id]!.wake.yield(())
        }
    }

    // MARK: frames

    /// Hands `bytes` to every page's mailbox (the newest wins; a frame not yet taken counts as dropped) and keeps the
    /// JPEG for `/frame.jpg`.
    func publish(_ bytes: ByteBuffer, jpeg: ByteBuffer, sequenceNumber: UInt64, captureNanoseconds: UInt64) {
        state.withLock { s in
            s.publishCount += 1
            s.newestJPEG = jpeg
            let frame = LiveOutgoingFrame(bytes: bytes, index: s.publishCount, sequenceNumber: sequenceNumber,
                                          captureNanoseconds: captureNanoseconds)
            for id in s.clients.keys {
                if s.clients[id]!.frame != nil { s.dropped += 1 }
                s.clients[id]!.frame = frame
                s.clients[id]!.wake.yield(())
            }
        }
    }

    var newestJPEG: ByteBuffer? { state.withLock { $0.newestJPEG } }

    /// A write to client `id` begins.
    func writeStarted(_ id: Int) {
        let now = MonotonicClock.nanoseconds()
        state.withLock { s in s.clients[id]?.writeSince = now }
    }

    /// A write to client `id` completed; for a frame, its first completed write is its delivery.
    func writeFinished(_ id: Int, frame: LiveOutgoingFrame?) {
        let now = MonotonicClock.nanoseconds()
        state.withLock { s in
            s.clients[id]?.writeSince = nil
            guard let frame else { return }
            s.previewsSent += 1
            guard frame.index > s.lastDeliveredIndex else { return }
            s.lastDeliveredIndex = frame.index
            let ms = now >= frame.captureNanoseconds ? Double(now - frame.captureNanoseconds) / 1e6 : 0
            if s.deliveries.count < Self.maximumKeptDeliveries {
                s.deliveries.append(LiveDelivery(sequenceNumber: frame.sequenceNumber, milliseconds: ms))
            }
            if s.latencies.count < 256 { s.latencies.append(ms) } else { s.latencies[s.latencyNext] = ms }
            s.latencyNext = (s.latencyNext + 1) % 256
            s.deliveryTimes.append(now)
            if s.deliveryTimes.count > 512 { s.deliveryTimes.removeFirst(s.deliveryTimes.count - 512) }
        }
    }

    /// Whether client `id` has had a write pending for longer than `limit` ns; if so it is counted as stalled.
    func isStalled(_ id: Int, limit: UInt64) -> Bool {
        let now = MonotonicClock.nanoseconds()
        return state.withLock { s in
            guard let since = s.clients[id]?.writeSince, now > since, now - since > limit else { return false }
            s.stalled += 1
            s.clients[id]!.writeSince = nil
            return true
        }
    }

    func takeDeliveries() -> [LiveDelivery] {
        state.withLock { s in
            defer { s.deliveries = [] }
            return s.deliveries
        }
    }

    // MARK: ending

    /// Refuses new pages and ends every writer; returns the channels with a write pending (to be closed hard).
    func close() -> [any Channel] {
        let clients = state.withLock { s in
            s.closed = true
            return Array(s.clients.values)
        }
        for c in clients { c.wake.finish() }
        return clients.filter { $0.writeSince != nil }.map(\.channel)
    }

    // MARK: status and overlays

    func setStatus(_ status: LiveStatus) { state.withLock { $0.newestStatus = status; $0.statusCache = nil } }

    var statistics: LiveServerStatistics {
        let now = MonotonicClock.nanoseconds()
        return state.withLock { s in
            let latencies = s.latencies
            func percentile(_ p: Double) -> Double? {
                latencies.isEmpty ? nil : BurstStatistics.percentile(latencies, p)
            }
            let window: UInt64 = 2_000_000_000
            let recent = s.deliveryTimes.filter { now < window || $0 >= now - window }.count
            return LiveServerStatistics(clients: s.clients.count, previewsSent: s.previewsSent,
                                        previewsDroppedForSlowViewers: s.dropped, stalledClientsClosed: s.stalled,
                                        deliveredFPS: Double(recent) / 2, latencyP50Milliseconds: percentile(0.5),
                                        latencyP95Milliseconds: percentile(0.95))
        }
    }

    /// The status message (the newest `LiveStatus` merged with the server's figures), re-encoded at most every 200 ms.
    func statusText(folder: String) -> String {
        let now = MonotonicClock.nanoseconds()
        if let cached = state.withLock({ $0.statusCache }), now - cached.at < 200_000_000 { return cached.text }
        let message = LiveStatusMessage(status: state.withLock { $0.newestStatus }, viewer: statistics, overlays: overlays,
                                        folder: folder)
        let text = LiveJSON.string(message)
        state.withLock { $0.statusCache = (text, now) }
        return text
    }

    /// Applies a page's overlays change (`id` nil: a `POST /command`).
    func changeOverlays(_ change: LiveIncoming.OverlaysChange, for id: Int?) {
        state.withLock { s in
            s.overlaysCounter += 1
            if let id, var c = s.clients[id] {
                c.overlays = change.applied(to: c.overlays ?? LiveOverlays())
                c.overlaysOrder = s.overlaysCounter
                s.clients[id] = c
            } else {
                s.httpOverlays = change.applied(to: s.httpOverlays ?? LiveOverlays())
                s.httpOverlaysOrder = s.overlaysCounter
            }
            s.statusCache = nil
        }
    }

    /// The union of what the connected pages asked for: an overlay is on when any page wants it, at the level of the
    /// page that asked most recently.
    var overlays: LiveOverlays {
        state.withLock { s in
            var requests = s.clients.values.compactMap { c in c.overlays.map { ($0, c.overlaysOrder) } }
            if let http = s.httpOverlays { requests.append((http, s.httpOverlaysOrder)) }
            var out = LiveOverlays()
            for (wanted, _) in requests.sorted(by: { $0.1 < $1.1 }) {
                if wanted.peaking { out.peaking = true; out.peakingLevel = wanted.peakingLevel }
                if wanted.zebra { out.zebra = true; out.zebraLevel = wanted.zebraLevel }
            }
            return out
        }
    }
}
