import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of the live server: the WebSocket handler reference, and the channel (to close a stalled
/// page hard).
struct LiveContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<LiveContext>
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }

    /// Bodies are commands: 4 KiB.
    var maxUploadSize: Int { LiveCommandDecoder.maximumBytes }
}
