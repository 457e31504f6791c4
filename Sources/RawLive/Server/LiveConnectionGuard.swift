import Hummingbird
import HummingbirdCore
import HTTPTypes
import HummingbirdWebSocket
import Logging
import NIOCore
import Synchronization

/// Closes a connection unless the server has started answering within `deadline` of its opening, and removes itself
/// at the first byte written. The WebSocket-upgrade server neither answers nor closes a connection whose first request
/// is garbage, incomplete, silent or too large (measured, see the research note); without this they would hold
/// the server's graceful shutdown for as long as the client stays.
final class LiveFirstResponseDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let deadline: TimeAmount
    private let connections: LiveConnections
    private var timer: Scheduled<Void>?

    init(deadline: TimeAmount, connections: LiveConnections) {
        self.deadline = deadline
        self.connections = connections
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: deadline) { channel.close(promise: nil) }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Forward first: a handler that has left the pipeline can no longer write.
        context.write(data, promise: promise)
        if let timer {
            timer.cancel()
            self.timer = nil
            connections.answered(context.channel)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }
}

/// Every open connection of a server and whether it was ever answered, so that `stop()` can close at once the ones
/// that never were (a graceful shutdown would wait for them) and, at the end, any that still hold it.
final class LiveConnections: Sendable {
    private let open = Mutex<[ObjectIdentifier: (channel: any Channel, answered: Bool)]>([:])

    /// Counts `channel` in unless `limit` connections are open already; false: it is not counted (and is to be closed).
    func admit(_ channel: any Channel, limit: Int) -> Bool {
        let key = ObjectIdentifier(channel)
        let admitted = open.withLock { o -> Bool in
            guard o.count < limit else { return false }
            o[key] = (channel, false)
            return true
        }
        guard admitted else { return false }
        channel.closeFuture.whenComplete { [self] _ in open.withLock { _ = $0.removeValue(forKey: key) } }
        return true
    }

    /// The server began its first answer on `channel`.
    func answered(_ channel: any Channel) {
        open.withLock { $0[ObjectIdentifier(channel)]?.answered = true }
    }

    var count: Int { open.withLock { $0.count } }

    /// Closes the connections that never got an answer (no request, or one never completed).
    func closeUnanswered() {
        for channel in open.withLock({ $0.values.filter { !$0.answered }.map(\.channel) }) { channel.close(promise: nil) }
    }

    /// Closes every open connection at once (no close frame, no response).
    func closeAll() {
        for channel in open.withLock({ $0.values.map(\.channel) }) { channel.close(promise: nil) }
    }
}

/// A connection over the limit, closed as soon as it was accepted.
struct LiveConnectionRefused: Error {}

/// The WebSocket-upgrade HTTP/1 channel with the first-response deadline in front, registered with `connections`; a
/// connection beyond `limit` open at once is closed at once (its failed setup is dropped by NIO's accept loop).
struct LiveGuardedChannel<Inner: ServerChildChannel>: ServerChildChannel {
    let inner: Inner
    let deadline: TimeAmount
    let connections: LiveConnections
    let limit: Int

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Inner.Value> {
        guard connections.admit(channel, limit: limit) else {
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(LiveConnectionRefused())
        }
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(LiveFirstResponseDeadline(deadline: deadline, connections: connections),
                                                           position: .first)
        }.flatMap { inner.setup(channel: channel, logger: logger) }
    }

    func handle(value: Inner.Value, logger: Logger) async { await inner.handle(value: value, logger: logger) }
}

extension HTTPServerBuilder {
    /// HTTP/1 with the WebSocket upgrade, each connection guarded by ``LiveFirstResponseDeadline``, at most
    /// `maximumConnections` at once (pages, requests and half-open attempts alike). The upgrade is
    /// decided synchronously on the connection's event loop (the router-based form decides in a task of the global
    /// cooperative pool, which threads blocked elsewhere in the process could starve).
    static func liveGuarded(configuration: HTTP1WebSocketUpgradeChannel.Configuration, firstResponse: TimeAmount,
                            connections: LiveConnections, maximumConnections: Int,
                            shouldUpgrade: @escaping @Sendable (HTTPRequest, any Channel) -> ShouldUpgradeResult<
                                WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>>) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            let inner = HTTP1WebSocketUpgradeChannel(responder: responder, configuration: configuration) { request, channel, _ in
                shouldUpgrade(request, channel)
            }
            return LiveGuardedChannel(inner: inner, deadline: firstResponse, connections: connections, limit: maximumConnections)
        }
    }
}
