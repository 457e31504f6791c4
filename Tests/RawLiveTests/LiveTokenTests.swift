import Foundation
@testable import RawLive
import Testing
import TestSupport

extension LiveServerSuites {
    /// With a token, nothing is served without it: page, files, commands, status and the WebSocket upgrade.
    @Suite struct LiveTokenTests {
        static let token = "s3cret-Token_42"

        @Test func missingOrWrongTokenIsRefusedEverywhere() throws {
            let tmp = try TemporaryDirectory()
            try Data("hello".utf8).write(to: tmp.url.appendingPathComponent("a.txt"))
            try LiveTakeJournal.record(["a.txt"], in: tmp.path)
            let harness = try LiveHarness(folder: tmp.path, token: Self.token)
            defer { harness.stop() }
            #expect(harness.address.url == "http://127.0.0.1:\(harness.port)/?token=s3cret-Token_42")
            for query in ["", "?token=wrong", "?token=s3cret-Token_4", "?token=s3cret-Token_421"] {
                for path in ["/", "/files", "/files/a.txt", "/status", "/frame.jpg"] {
                    let r = try LiveHTTP.request(port: harness.port, path: path + query)
                    #expect(r.status == 401, "\(path)\(query)")
                    #expect(!r.text.contains("hello"))
                }
                let command = try LiveHTTP.request(port: harness.port, method: "POST", path: "/command" + query,
                                                   body: Array("{\"cmd\":\"quit\"}".utf8))
                #expect(command.status == 401)
                let ws = try LiveWebSocketClient(port: harness.port, path: "/ws" + query)
                #expect(ws.handshakeStatus == 400, "a refused upgrade is answered 400 by hummingbird-websocket")
            }
            let bearerWrong = try LiveHTTP.request(port: harness.port, path: "/", headers: ["Authorization": "Bearer nope"])
            #expect(bearerWrong.status == 401)
            #expect(harness.handler.commands.isEmpty, "no command got through")
        }

        @Test func rightTokenByQueryOrBearerIsServed() throws {
            let tmp = try TemporaryDirectory()
            try Data("hello".utf8).write(to: tmp.url.appendingPathComponent("a.txt"))
            try LiveTakeJournal.record(["a.txt"], in: tmp.path)
            let harness = try LiveHarness(folder: tmp.path, token: Self.token)
            defer { harness.stop() }
            #expect(try LiveHTTP.request(port: harness.port, path: "/?token=\(Self.token)").status == 200)
            #expect(try LiveHTTP.request(port: harness.port, path: "/", headers: ["Authorization": "Bearer \(Self.token)"]).status == 200)
            #expect(try LiveHTTP.request(port: harness.port, path: "/files/a.txt?token=\(Self.token)").text == "hello")
            let command = try LiveHTTP.request(port: harness.port, method: "POST", path: "/command",
                                               headers: ["Authorization": "Bearer \(Self.token)"], body: Array("{\"cmd\":\"pause\"}".utf8))
            #expect(command.status == 200)
            let ws = try LiveWebSocketClient(port: harness.port, path: "/ws?token=\(Self.token)")
            #expect(ws.handshakeStatus == 101)
            _ = try ws.receiveJSON(type: "status")
            #expect(harness.handler.commands == [.pause])
        }

        @Test func constantTimeComparisonIsExact() {
            typealias Policy = LiveTokenCheck
            #expect(Policy.constantTimeEqual("abc", "abc"))
            #expect(!Policy.constantTimeEqual("abc", "abd"))
            #expect(!Policy.constantTimeEqual("abc", "ab"))
            #expect(!Policy.constantTimeEqual("", "a"))
            #expect(Policy.constantTimeEqual("", ""))
            #expect(Policy.presented(query: "a=1&token=x%2By%20z", authorization: "Bearer other") == "x+y z", "the query first")
            #expect(Policy.presented(query: "tokens=1", authorization: "Bearer abc") == "abc")
            #expect(Policy.presented(query: nil, authorization: "Basic abc") == nil)
        }
    }
}
