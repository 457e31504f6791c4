import Foundation
@testable import RawLive
import Testing
import TestSupport

extension LiveServerSuites {
    /// Other web sites get nothing: a foreign `Host` (DNS rebinding) or `Origin` (a cross-site page, a hijacked
    /// WebSocket) is refused on every route, and a command must be sent as JSON, which a cross-site form cannot do.
    @Suite struct LiveCrossSiteTests {
        static let paths = ["/", "/status", "/frame.jpg", "/files", "/files/a.txt"]

        @Test func foreignHostOrOriginIsRefusedOnEveryRoute() throws {
            let tmp = try TemporaryDirectory()
            try Data("hello".utf8).write(to: tmp.url.appendingPathComponent("a.txt"))
            try LiveTakeJournal.record(["a.txt"], in: tmp.path)
            let harness = try LiveHarness(folder: tmp.path)
            defer { harness.stop() }
            harness.server.publish(LiveFrames.frame(1))
            let port = harness.port
            let foreign: [[String: String]] = [
                ["Host": "evil.example:\(port)"], ["Host": "rebind.example"], ["Host": "127.0.0.1.nip.io:\(port)"],
                ["Host": ""], ["Origin": "http://evil.example"], ["Origin": "null"], ["Origin": "https://127.0.0.1:\(port)"],
                ["Host": "evil.example:\(port)", "Origin": "http://evil.example:\(port)"],
            ]
            for headers in foreign {
                for path in Self.paths {
                    let r = try LiveHTTP.request(port: port, path: path, headers: headers)
                    #expect(r.status == 403, "\(path) \(headers): \(r.status)")
                    #expect(!r.text.contains("hello") && r.body.prefix(2) != [0xFF, 0xD8], "\(path) \(headers)")
                }
                let command = try LiveHTTP.request(port: port, method: "POST", path: "/command", headers: headers,
                                                   body: Array("{\"cmd\":\"quit\"}".utf8))
                #expect(command.status == 403, "\(headers)")
                let ws = try LiveWebSocketClient(port: port, host: headers["Host"].map { $0.isEmpty ? "evil.example" : $0 },
                                                 headers: headers.filter { $0.key == "Origin" })
                #expect(ws.handshakeStatus == 400, "\(headers): the upgrade is refused")
                #expect(ws.socket.secondsUntilClosed(limit: 1) != nil, "\(headers): and the connection closed")
            }
            #expect(harness.handler.commands.isEmpty, "no command got through")
            for path in Self.paths {
                let own = try LiveHTTP.request(port: port, path: path, headers: ["Origin": "http://127.0.0.1:\(port)"])
                #expect(own.status == 200, "\(path) with the page's own Origin")
            }
            for host in ["localhost:\(port)", "LocalHost", "[::1]:\(port)", "192.168.1.20:\(port)"] {
                #expect(try LiveHTTP.request(port: port, path: "/status", headers: ["Host": host]).status == 200, "\(host)")
            }
            let page = try LiveWebSocketClient(port: port, headers: ["Origin": "HTTP://127.0.0.1:\(port)"])
            #expect(page.handshakeStatus == 101, "the page's own WebSocket (Origin compared ignoring case)")
            try page.send(text: "{\"cmd\":\"pause\"}")
            _ = try page.receiveJSON(type: "reply")
            #expect(harness.handler.commands == [.pause])
        }

        @Test func commandsMustBeSentAsJSON() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path)
            defer { harness.stop() }
            let body = Array("{\"cmd\":\"pause\"}".utf8)
            for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "",
                         "application/jsonp", "text/json"] {
                let r = try LiveHTTP.request(port: harness.port, method: "POST", path: "/command",
                                             headers: ["Content-Type": type], body: body)
                #expect(r.status == 415, "Content-Type '\(type)': \(r.status)")
                #expect(r.headers["connection"] == "close")
            }
            #expect(harness.handler.commands.isEmpty)
            for type in ["application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8"] {
                let r = try LiveHTTP.request(port: harness.port, method: "POST", path: "/command",
                                             headers: ["Content-Type": type], body: body)
                #expect(r.status == 200, "Content-Type '\(type)': \(r.status)")
            }
            #expect(harness.handler.commands == [.pause, .pause, .pause])
        }

        @Test func hostMustBeAnAddressOrLocalhost() {
            for host in ["127.0.0.1", "127.0.0.1:8180", "[::1]", "[::1]:8180", "localhost", "LOCALHOST:80", "10.0.0.7:65535",
                         "[2001:db8::7]:8180"] {
                #expect(LiveCrossSiteCheck.isLiteralHost(host), "\(host)")
            }
            for host in ["", "evil.example", "127.0.0.1.nip.io", "localhost.", "sub.localhost", "0x7f.0.0.1", "2130706433",
                         "127.1", "::1", "[::1", "[::1]x", "[fe80::1%eth0]", "127.0.0.1:", "127.0.0.1:99999", "127.0.0.1:80x",
                         "127.0.0.1:+80", "localhost:80:1", " 127.0.0.1"] {
                #expect(!LiveCrossSiteCheck.isLiteralHost(host), "\(host)")
            }
            #expect(LiveRequestPolicy<LiveContext>.isJSON("application/json ; charset=utf-8"))
            #expect(!LiveRequestPolicy<LiveContext>.isJSON(nil))
        }
    }
}
