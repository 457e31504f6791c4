import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOPosix

/// The server's routes: the page, the newest picture, the status, the folder's files, commands, and the WebSocket.
enum LiveRoutes {
    /// The HTTP router (everything but the WebSocket upgrade).
    static func http(core: LiveServerCore) -> Router<LiveContext> {
        let router = Router(context: LiveContext.self)
        router.add(middleware: LiveRequestPolicy<LiveContext>(token: core.token, maximumBody: LiveCommandDecoder.maximumBytes))
        router.get("/") { _, _ in
            response(.ok, type: "text/html; charset=utf-8", ByteBuffer(string: LivePage.html))
        }
        router.get("/frame.jpg") { _, _ -> Response in
            guard let jpeg = core.hub.newestJPEG else { throw HTTPError(.serviceUnavailable, message: "no preview yet") }
            return response(.ok, type: "image/jpeg", jpeg)
        }
        router.get("/status") { _, _ in
            response(.ok, type: "application/json", ByteBuffer(string: core.statusText()))
        }
        router.get("/files") { _, _ in
            response(.ok, type: "application/json", ByteBuffer(bytes: LiveJSON.encode(core.folder.list())))
        }
        router.get("/files/{name}") { _, context -> Response in
            let name = try context.parameters.require("name")
            let file: LiveServedFile
            do throws(LiveFolder.Refusal) {
                file = try core.folder.openFile(name)
            } catch .badName {
                throw HTTPError(.badRequest, message: "not a file name of the burst folder")
            } catch .notFound {
                throw HTTPError(.notFound, message: "no such file of the recording")
            }
            return Response(status: .ok, headers: [.contentType: contentType(of: name),
                                                   .contentDisposition: "attachment; filename=\"\(name)\""], body: body(of: file))
        }
        router.post("/command") { request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: LiveCommandDecoder.maximumBytes)
            let (understood, replies) = core.perform(Array(body.readableBytesView), client: nil)
            let json = replies.count == 1 ? replies[0] : "[" + replies.joined(separator: ",") + "]"
            return response(understood ? .ok : .badRequest, type: "application/json", ByteBuffer(string: json))
        }
        router.get("/ws") { _, _ -> Response in
            throw HTTPError(.upgradeRequired, message: "/ws is a WebSocket")
        }
        return router
    }

    /// The chunks `/files/{name}` is read and sent in.
    static let fileChunkBytes = 256 * 1024

    /// `file` read in chunks on NIO's thread pool, each written before the next is read: the event loop only forwards
    /// them, and memory stays at a few chunks whatever the file's size. A file that shrinks while it is sent ends the
    /// response short (the connection is closed).
    private static func body(of file: LiveServedFile) -> ResponseBody {
        guard file.bytes > 0 else { return ResponseBody() }
        return ResponseBody(contentLength: file.bytes) { writer in
            var offset = 0
            while offset < file.bytes {
                let (at, count) = (offset, min(fileChunkBytes, file.bytes - offset))
                let chunk = try await NIOThreadPool.singleton.runIfActive { try file.read(at: at, count: count) }
                guard chunk.readableBytes > 0 else { throw LiveServedFile.ReadFailure(description: "the file shrank while it was sent") }
                try await writer.write(chunk)
                offset += chunk.readableBytes
            }
            try await writer.finish(nil)
        }
    }

    /// Whether an upgrade request opens a page's WebSocket: `/ws`, passing ``LiveCrossSiteCheck``, with the token (when
    /// there is one); anything else is refused (hummingbird-websocket answers a refused upgrade with 400 and closes).
    static func webSocketUpgrade(_ request: HTTPRequest, channel: any Channel,
                                 core: LiveServerCore) -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        let target = request.path ?? ""
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard path == "/ws", LiveCrossSiteCheck.refusal(for: request) == nil else { return .dontUpgrade }
        if let token = core.token {
            let query = target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) }
            let given = LiveTokenCheck.presented(query: query, authorization: request.headerFields[.authorization])
            guard let given, LiveTokenCheck.constantTimeEqual(given, token) else { return .dontUpgrade }
        }
        return .upgrade([:]) { inbound, outbound, _ in
            try await LiveSession.run(inbound: inbound, outbound: outbound, channel: channel, core: core)
        }
    }

    private static func response(_ status: HTTPResponse.Status, type: String, _ body: ByteBuffer) -> Response {
        Response(status: status, headers: [.contentType: type], body: .init(byteBuffer: body))
    }

    private static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last?.lowercased() ?? "" {
        case "dng": "image/x-adobe-dng"
        case "jpg", "jpeg": "image/jpeg"
        case "heic", "heif": "image/heif"
        case "tif", "tiff": "image/tiff"
        case "png": "image/png"
        case "json": "application/json"
        case "jsonl", "txt", "log", "csv": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
