import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore

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
            let path: String
            do throws(LiveFolder.Refusal) {
                path = try core.folder.resolve(name)
            } catch .badName {
                throw HTTPError(.badRequest, message: "not a file name of the burst folder")
            } catch .notFound {
                throw HTTPError(.notFound, message: "no such file in the burst folder")
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw HTTPError(.notFound, message: "no such file in the burst folder")
            }
            var r = response(.ok, type: contentType(of: name), ByteBuffer(bytes: data))
            r.headers[.contentDisposition] = "attachment; filename=\"\(name)\""
            return r
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

    /// The router the WebSocket upgrade requests go through (the policy again: they never reach the HTTP router).
    static func webSocket(core: LiveServerCore) -> Router<LiveContext> {
        let router = Router(context: LiveContext.self)
        router.add(middleware: LiveRequestPolicy<LiveContext>(token: core.token, maximumBody: 0))
        router.ws("/ws") { inbound, outbound, context in
            try await LiveSession.run(inbound: inbound, outbound: outbound, channel: context.requestContext.channel, core: core)
        }
        return router
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
