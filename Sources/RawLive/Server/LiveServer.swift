import Dispatch
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix
import RawCore
import ServiceLifecycle
import Synchronization

/// The live viewfinder's server: serves the self-contained page, pushes every published preview to each connected
/// page (WebSocket, newest frame wins per page), sends the status, takes the pages' commands and serves the burst
/// folder's files read-only. See docs/live.md's "Protocol" for the routes and messages.
///
/// It runs on its own one-thread event loop group beside the caller's blocking work: `start()` returns once the port
/// is bound, `publish` never blocks or suspends, and `stop()` returns within about two seconds even with pages that
/// do not read.
public final class LiveServer: Sendable {
    /// Where and how the server listens.
    public struct Configuration: Sendable {
        /// The address to bind (loopback by default; any other address should come with a token).
        public var host: String
        /// The port (0: an ephemeral port, reported by `start()`).
        public var port: Int
        /// The token every request must present (`?token=` or `Authorization: Bearer`), nil for none.
        public var token: String?
        /// The burst folder, served read-only at `/files`.
        public var folder: String
        /// WebSocket pages at once; one more is closed at once with code 1013.
        public var maximumClients: Int
        /// TCP connections at once (pages, requests, half-open attempts); one more is closed as soon as it is accepted.
        public var maximumConnections: Int

        /// A configuration.
        public init(host: String = "127.0.0.1", port: Int = 8180, token: String? = nil, folder: String,
                    maximumClients: Int = 32, maximumConnections: Int = 64) {
            self.host = host
            self.port = port
            self.token = token
            self.folder = folder
            self.maximumClients = maximumClients
            self.maximumConnections = maximumConnections
        }
    }

    /// A first request not answered within this is closed (garbage, half or silent requests).
    static let firstResponseDeadline = TimeAmount.seconds(3)
    /// An HTTP connection with no request in progress for this long is closed.
    static let idleTimeout = TimeAmount.seconds(15)

    private struct Running: @unchecked Sendable {
        // ServiceGroup is an actor and the event loop group is thread-safe; the semaphore signals the server's end.
        let group: ServiceGroup
        let eventLoops: MultiThreadedEventLoopGroup
        let executor: LiveLoopExecutor
        let finished: DispatchSemaphore
    }

    private enum Phase: Sendable {
        case idle
        case running(Running)
        case ended
    }

    /// The configuration it was made with.
    public let configuration: Configuration
    private let core: LiveServerCore
    private let phase = Mutex(Phase.idle)

    /// A server for `configuration` whose pages' commands go to `handler`; nothing is bound before `start()`.
    public init(configuration: Configuration, handler: any LiveCommandHandler) {
        self.configuration = configuration
        core = LiveServerCore(hub: LiveHub(maximumClients: configuration.maximumClients), handler: handler,
                              token: configuration.token, folder: configuration.folder)
    }

    /// Binds and starts serving; returns the address once the port is bound.
    public func start() throws(LiveServerError) -> LiveAddress {
        let host = configuration.host, port = configuration.port
        let fresh = phase.withLock { p -> Bool in
            guard case .idle = p else { return false }
            p = .ended
            return true
        }
        guard fresh else { throw .alreadyStarted }
        let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let executor = LiveLoopExecutor(loop: eventLoops.next())
        let logger = Self.logger()
        let bound = LiveStartSignal()
        let core = core
        let app = Application(
            router: LiveRoutes.http(core: core),
            server: .liveGuarded(configuration: .init(http1: .init(additionalChannelHandlers: [LiveCloseAfterResponse()],
                                                                   idleTimeout: Self.idleTimeout),
                                                      ws: .init(maxFrameSize: 1 << 20, closeTimeout: .seconds(1))),
                                 firstResponse: Self.firstResponseDeadline, connections: core.connections,
                                 maximumConnections: configuration.maximumConnections,
                                 shouldUpgrade: { LiveRoutes.webSocketUpgrade($0, channel: $1, core: core) }),
            configuration: .init(address: .hostname(host, port: port), serverName: "rawburst"),
            onServerRunning: { channel in bound.report(.success(channel.localAddress?.port ?? port)) },
            eventLoopGroupProvider: .shared(eventLoops),
            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let finished = DispatchSemaphore(value: 0)
        Task.detached(executorPreference: executor) {
            do {
                try await group.run()
                bound.report(.failure(.cannotBind(host: host, port: port, reason: "the server ended at once")))
            } catch {
                bound.report(.failure(Self.bindError(error, host: host, port: port)))
            }
            finished.signal()
        }
        switch bound.wait(seconds: 10) ?? .failure(.startTimedOut(host: host, port: port)) {
        case .success(let boundPort):
            phase.withLock { $0 = .running(Running(group: group, eventLoops: eventLoops, executor: executor, finished: finished)) }
            return LiveAddress(host: host, port: boundPort, token: configuration.token)
        case .failure(let error):
            Task(executorPreference: executor) { await group.triggerGracefulShutdown() }
            Self.retire(eventLoops, serverEnded: finished.wait(timeout: .now() + 2) == .success)
            throw error
        }
    }

    /// Silent, unless `RAWBURST_LIVE_LOG` names a level (`debug`, `info` ...): then the server's log goes to stderr.
    private static func logger() -> Logger {
        guard let name = ProcessInfo.processInfo.environment["RAWBURST_LIVE_LOG"], let level = Logger.Level(rawValue: name) else {
            return Logger(label: "rawburst.live", factory: { _ in SwiftLogNoOpLogHandler() })
        }
        var logger = Logger(label: "rawburst.live", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = level
        return logger
    }

    private static func bindError(_ error: any Error, host: String, port: Int) -> LiveServerError {
        if let io = error as? IOError, io.errnoCode == EADDRINUSE { return .addressInUse(host: host, port: port) }
        if let io = error as? IOError { return .cannotBind(host: host, port: port, reason: String(cString: strerror(io.errnoCode))) }
        return .cannotBind(host: host, port: port, reason: "\(error)")
    }

    /// Hands a preview to every page: encoded once (``LiveWire``), put in each page's one-frame mailbox (a frame the
    /// page had not taken yet is dropped and counted), and kept as the newest for `/frame.jpg`. Never blocks.
    public func publish(_ frame: LiveFrame) {
        let bytes = LiveWire.encode(frame)
        let buffer = ByteBuffer(bytes: bytes)
        // The JPEG follows the header and the JSON (whose length is the u32 at offset 40): a slice, not a copy.
        let jsonLength = bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 40, as: UInt32.self).littleEndian) }
        let jpeg = buffer.getSlice(at: LiveWire.headerLength + jsonLength, length: frame.jpeg.count) ?? ByteBuffer(bytes: frame.jpeg)
        core.hub.publish(buffer, jpeg: jpeg, sequenceNumber: frame.sequenceNumber,
                         captureNanoseconds: frame.captureMonotonicNanoseconds)
    }

    /// Keeps the newest status; the pages get it (merged with the server's `viewer` figures) on connecting and then
    /// four times a second.
    public func publish(_ status: LiveStatus) { core.hub.setStatus(status) }

    /// A new take's folder for `/files`.
    public func setFolder(_ path: String) { core.setFolder(path) }

    /// What the connected pages asked to have computed.
    public var overlays: LiveOverlays { core.hub.overlays }

    /// The deliveries recorded since the last call (one per previewed frame some page received), oldest first.
    public func takeDeliveries() -> [LiveDelivery] { core.hub.takeDeliveries() }

    /// The server's figures now.
    public var statistics: LiveServerStatistics { core.hub.statistics }

    /// Ends the server: pages get a close frame, a page that does not read is closed hard, and it returns once the
    /// server has ended (about two seconds at most).
    public func stop() {
        let running: Running? = phase.withLock { p in
            guard case .running(let r) = p else { return nil }
            p = .ended
            return r
        }
        guard let running else { return }
        for channel in core.hub.close() { channel.close(promise: nil) }
        core.connections.closeUnanswered()
        Task(executorPreference: running.executor) { await running.group.triggerGracefulShutdown() }
        var ended = running.finished.wait(timeout: .now() + .milliseconds(1500)) == .success
        if !ended {
            core.connections.closeAll()
            ended = running.finished.wait(timeout: .now() + .milliseconds(700)) == .success
        }
        Self.retire(running.eventLoops, serverEnded: ended)
    }

    /// Shuts the event loop thread down a second after the server ended (the last tasks of its connections may still
    /// be scheduled on it; NIO stops the process when a loop goes away under pending work). A server that did not end
    /// keeps its thread.
    private static func retire(_ eventLoops: MultiThreadedEventLoopGroup, serverEnded: Bool) {
        guard serverEnded else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { eventLoops.shutdownGracefully { _ in } }
    }

    /// Connections open now (pages, HTTP requests, half-open attempts), for tests.
    var openConnections: Int { core.connections.count }
}

/// The start-up's outcome, reported once by whichever comes first (bound, or the server failing).
final class LiveStartSignal: Sendable {
    private let outcome = Mutex<Result<Int, LiveServerError>?>(nil)
    private let semaphore = DispatchSemaphore(value: 0)

    func report(_ result: Result<Int, LiveServerError>) {
        let first = outcome.withLock { o -> Bool in
            guard o == nil else { return false }
            o = result
            return true
        }
        if first { semaphore.signal() }
    }

    /// The outcome, nil when nothing was reported within `seconds`.
    func wait(seconds: Int) -> Result<Int, LiveServerError>? {
        _ = semaphore.wait(timeout: .now() + .seconds(seconds))
        return outcome.withLock { $0 }
    }
}
