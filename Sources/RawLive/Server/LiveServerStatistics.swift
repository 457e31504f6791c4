/// The server's own figures (also sent to the pages as the status's `viewer` part).
public struct LiveServerStatistics: Sendable, Hashable, Codable {
    /// WebSocket clients connected now.
    public var clients: Int
    /// Preview messages written to clients (all clients).
    public var previewsSent: Int
    /// Previews replaced in a client's one-frame mailbox before it took them (a slow viewer).
    public var previewsDroppedForSlowViewers: Int
    /// Clients closed because a write stayed pending longer than the stall limit.
    public var stalledClientsClosed: Int
    /// Distinct previews delivered per second over the last two seconds.
    public var deliveredFPS: Double
    /// Capture → first delivery latency over the last 256 previews, median and 95th percentile (ms); nil before any.
    public var latencyP50Milliseconds: Double?
    public var latencyP95Milliseconds: Double?

    /// Figures.
    public init(clients: Int = 0, previewsSent: Int = 0, previewsDroppedForSlowViewers: Int = 0, stalledClientsClosed: Int = 0,
                deliveredFPS: Double = 0, latencyP50Milliseconds: Double? = nil, latencyP95Milliseconds: Double? = nil) {
        self.clients = clients
        self.previewsSent = previewsSent
        self.previewsDroppedForSlowViewers = previewsDroppedForSlowViewers
        self.stalledClientsClosed = stalledClientsClosed
        self.deliveredFPS = deliveredFPS
        self.latencyP50Milliseconds = latencyP50Milliseconds
        self.latencyP95Milliseconds = latencyP95Milliseconds
    }
}
