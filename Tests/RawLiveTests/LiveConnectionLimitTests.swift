import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import RawLive
import Testing
import TestSupport

extension LiveServerSuites {
    /// Connections are bounded: at most 64 at once whatever they are, and a refused request does not keep its own.
    @Suite struct LiveConnectionLimitTests {
        @Test func connectionsBeyondTheLimitAreClosedAtOnce() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path)
            defer { harness.stop() }
            var idle = try (0..<70).map { _ in try LiveSocket(port: harness.port) }
            Thread.sleep(forTimeInterval: 0.3)
            let start = Date()
            for (index, socket) in idle.enumerated().dropFirst(64) {
                #expect(socket.secondsUntilClosed(limit: 1) != nil, "connection \(index + 1) is closed at once")
            }
            #expect(Date().timeIntervalSince(start) < 1.5)
            let stillOpen = idle.prefix(64).filter { Self.isOpen($0) }.count
            #expect(stillOpen == 64, "the first 64 stay (until their first-request deadline)")
            #expect(harness.server.openConnections == 64)
            #expect(throws: (any Error).self, "a 71st connection gets no answer while 64 are open") {
                _ = try LiveHTTP.request(port: harness.port, path: "/status")
            }
            idle = []
            let deadline = Date().addingTimeInterval(2)
            while harness.server.openConnections > 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            #expect(harness.server.openConnections == 0)
            #expect(try LiveHTTP.request(port: harness.port, path: "/status").status == 200, "served again once they left")
        }

        @Test func refusalsCloseTheConnectionAndAnswersKeepIt() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path, token: "t0ken")
            defer { harness.stop() }
            let port = harness.port
            let refused: [(status: Int, head: String, body: String)] = [
                (401, LiveHTTP.head(port: port, path: "/status", close: false), ""),
                (403, LiveHTTP.head(port: port, path: "/status?token=t0ken", headers: ["Host": "evil.example"], close: false), ""),
                (413, LiveHTTP.head(port: port, method: "POST", path: "/command?token=t0ken", bodyBytes: 5000, close: false), ""),
                (415, LiveHTTP.head(port: port, method: "POST", path: "/command?token=t0ken", headers: ["Content-Type": "text/plain"],
                                    bodyBytes: 14, close: false), "{\"cmd\":\"auto\"}"),
            ]
            for attempt in refused {
                let socket = try LiveSocket(port: port)
                try socket.send(attempt.head + attempt.body)
                let head = try LiveHTTP.parse(socket.read(until: Array("\r\n\r\n".utf8)))
                #expect(head.status == attempt.status)
                #expect(head.headers["connection"] == "close", "\(attempt.status)")
                let closed = socket.secondsUntilClosed(limit: 2)
                #expect(closed != nil && closed! < 0.5, "\(attempt.status): closed after \(closed.map { "\($0) s" } ?? "never")")
            }
            let kept = try LiveSocket(port: port)
            for _ in 0..<2 {
                try kept.send(LiveHTTP.head(port: port, path: "/status?token=t0ken", close: false))
                let head = try LiveHTTP.parse(kept.read(until: Array("\r\n\r\n".utf8)))
                #expect(head.status == 200, "an answered request keeps its connection for the next")
                _ = try kept.read(Int(head.headers["content-length"] ?? "0") ?? 0)
            }
            #expect(harness.handler.commands.isEmpty)
            #expect(LiveServer.idleTimeout == .seconds(15))
        }

        /// Whether the server has neither closed `socket` nor sent anything on it.
        static func isOpen(_ socket: LiveSocket) -> Bool {
            var byte: UInt8 = 0
            let n = recv(socket.fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
        }
    }
}
