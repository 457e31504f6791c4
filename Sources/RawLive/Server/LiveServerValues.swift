/// Where a started `LiveServer` listens.
public struct LiveAddress: Sendable, Hashable {
    /// The host it bound (as configured: `127.0.0.1`, `0.0.0.0`, `::1` ...).
    public var host: String
    /// The port actually bound (the ephemeral one when the configuration asked for port 0).
    public var port: Int
    /// The token the pages must present, if any.
    public var token: String?

    /// A server's address.
    public init(host: String, port: Int, token: String?) {
        self.host = host
        self.port = port
        self.token = token
    }

    /// `http://host:port/`, with `?token=...` when there is a token (an IPv6 host in brackets).
    public var url: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let base = "http://\(shownHost):\(port)/"
        guard let token else { return base }
        return base + "?token=" + (token.addingPercentEncodingForQuery())
    }
}

extension String {
    /// The string with everything but unreserved URL characters percent-encoded.
    func addingPercentEncodingForQuery() -> String {
        var out = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                 UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 15)])
            }
        }
        return out
    }
}

/// One previewed frame's delivery: its sequence number and the time from its capture (`CLOCK_MONOTONIC`) to the
/// moment the first page's socket write of it completed.
public struct LiveDelivery: Sendable, Hashable, Codable {
    public var sequenceNumber: UInt64
    public var milliseconds: Double

    /// A delivery.
    public init(sequenceNumber: UInt64, milliseconds: Double) {
        self.sequenceNumber = sequenceNumber
        self.milliseconds = milliseconds
    }
}

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
