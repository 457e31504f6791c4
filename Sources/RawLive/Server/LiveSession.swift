import HummingbirdWebSocket
import NIOCore
import NIOWebSocket

/// One page's WebSocket: a writer that sends what its mailbox holds (replies, the status, the newest frame), a reader
/// that carries out its commands, and a ticker that queues the status four times a second and closes the connection
/// hard when a write has been pending longer than the stall limit (a page that does not read).
enum LiveSession {
    /// A write pending longer than this closes the connection (ns).
    static let stallLimit: UInt64 = 2_000_000_000
    /// The status is queued this often.
    static let statusInterval = Duration.milliseconds(250)
    /// Messages up to this size are read and answered (a command over 4 KiB is refused with a reply); a larger one
    /// ends the connection.
    static let maximumMessage = 64 * 1024
    /// The close code for a page refused because the server is full (1013: try again later).
    static let tryAgainLater = WebSocketErrorCode.unknown(1013)

    static func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, channel: any Channel,
                    core: LiveServerCore) async throws {
        guard let (id, wake) = core.hub.add(channel: channel) else {
            try await outbound.close(tryAgainLater, reason: "too many viewers (\(core.hub.maximumClients))")
            return
        }
        defer { core.hub.remove(id) }
        core.hub.queueStatus(core.statusText(), for: id)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await write(id: id, wake: wake, outbound: outbound, hub: core.hub) }
            group.addTask {
                for try await message in inbound.messages(maxSize: maximumMessage) {
                    let bytes: [UInt8] = switch message {
                    case .text(let text): Array(text.utf8)
                    case .binary(let buffer): Array(buffer.readableBytesView)
                    }
                    for reply in core.perform(bytes, client: id).replies { core.hub.queueReply(reply, for: id) }
                }
            }
            group.addTask {
                while true {
                    try await Task.sleep(for: statusInterval)
                    if core.hub.isStalled(id, limit: stallLimit) {
                        try? await channel.close()
                        return
                    }
                    core.hub.queueStatus(core.statusText(), for: id)
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    private static func write(id: Int, wake: AsyncStream<Void>, outbound: WebSocketOutboundWriter, hub: LiveHub) async throws {
        for await _ in wake {
            while let item = hub.next(for: id) {
                hub.writeStarted(id)
                switch item {
                case .text(let text):
                    try await outbound.write(.text(text))
                    hub.writeFinished(id, frame: nil)
                case .frame(let frame):
                    try await outbound.write(.binary(frame.bytes))
                    hub.writeFinished(id, frame: frame)
                }
            }
        }
    }
}
