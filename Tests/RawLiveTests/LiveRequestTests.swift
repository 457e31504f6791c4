import Foundation
@testable import RawLive
import Testing
import TestSupport

extension LiveServerSuites {
    /// Requests the server must refuse or cut off without holding itself open: malformed first requests, bad and
    /// oversized command bodies, routes that do not exist; and the headers every answer carries.
    @Suite struct LiveRequestTests {
        @Test func malformedFirstRequestsAreClosedWithinTheDeadlineAndStopStaysFast() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path)
            let garbage = try LiveSocket(port: harness.port)
            try garbage.send("\u{1}\u{2}GARBAGE \u{7f}\u{0} nonsense\r\n\r\n")
            let half = try LiveSocket(port: harness.port)
            try half.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ")
            let silent = try LiveSocket(port: harness.port)
            let huge = try LiveSocket(port: harness.port)
            try huge.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + String(repeating: "a", count: 100_000) + "\r\n\r\n")
            let announced = try LiveSocket(port: harness.port)
            try announced.send("POST /command HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"cmd\":")
            var times: [Double?] = []
            for socket in [garbage, half, silent, huge] { times.append(socket.secondsUntilClosed(limit: 6)) }
            for (name, time) in zip(["garbage", "half head", "silence", "100 kB header"], times) {
                #expect(time != nil && time! <= 4.0, "\(name): closed after \(time.map { String($0) } ?? "never")")
            }
            #expect(announced.secondsUntilClosed(limit: 6) != nil, "a body announced but never sent is cut off")
            let stopTime = harness.stop()
            #expect(stopTime < 2.5, "stop took \(stopTime) s")
        }

        @Test func stopIsFastWithHalfOpenConnectionsStillOpen() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path)
            let silent = try LiveSocket(port: harness.port)
            let half = try LiveSocket(port: harness.port)
            try half.send("GET /status HTTP/1.1\r\nHost: 127.0.0.1")
            Thread.sleep(forTimeInterval: 0.2)
            let stopTime = harness.stop()
            #expect(stopTime < 0.5, "stop took \(stopTime) s: connections never answered are closed at once")
            #expect(silent.secondsUntilClosed(limit: 1) != nil)
            #expect(half.secondsUntilClosed(limit: 1) != nil)
        }

        @Test func badCommandBodiesAreRefusedWithTheReason() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path)
            defer { harness.stop() }
            let bad = try LiveHTTP.request(port: harness.port, method: "POST", path: "/command", body: Array("{\"cmd\": ".utf8))
            #expect(bad.status == 400)
            let reply = try JSONSerialization.jsonObject(with: Data(bad.body)) as? [String: Any]
            #expect(reply?["ok"] as? Bool == false)
            #expect((reply?["reason"] as? String)?.hasPrefix("not a JSON object") == true)
            let unknown = try LiveHTTP.request(port: harness.port, method: "POST", path: "/command", body: Array("{\"cmd\":\"fly\"}".utf8))
            #expect(unknown.status == 400)
            #expect(unknown.text.contains("unknown command 'fly'"))
            let big = try LiveHTTP.request(port: harness.port, method: "POST", path: "/command",
                                           body: Array(("{\"cmd\":\"auto\",\"pad\":\"" + String(repeating: "x", count: 5000) + "\"}").utf8))
            #expect(big.status == 413)
            let good = try LiveHTTP.request(port: harness.port, method: "POST", path: "/command", body: Array("{\"cmd\":\"auto\"}".utf8))
            #expect(good.status == 200)
            #expect(good.text.contains("\"ok\":true"))
            #expect(harness.handler.commands == [.auto], "only the good command reached the handler")
        }

        @Test func announcedOversizedBodyIsRefusedBeforeItIsSent() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path)
            defer { harness.stop() }
            let socket = try LiveSocket(port: harness.port)
            try socket.send("POST /command HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 100000000\r\n\r\n")
            let response = try LiveHTTP.parse(socket.read(until: Array("\r\n\r\n".utf8)))
            #expect(response.status == 413)
        }

        @Test func routesAnswerWithSecurityHeadersAndNothingElseIsServed() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path)
            defer { harness.stop() }
            let page = try LiveHTTP.request(port: harness.port, path: "/")
            #expect(page.status == 200)
            #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
            #expect(page.headers["cache-control"] == "no-store")
            #expect(page.headers["x-content-type-options"] == "nosniff")
            let csp = page.headers["content-security-policy"] ?? ""
            #expect(csp.contains("default-src 'self'") && csp.contains("connect-src 'self'") && csp.contains("img-src 'self' blob: data:"))
            #expect(page.text.contains("id=\"picture\"") && page.text.contains("rawburstLive"))
            #expect(!page.text.contains("http://") && !page.text.contains("https://"), "no external URL in the page")
            let status = try LiveHTTP.request(port: harness.port, path: "/status")
            #expect(status.status == 200)
            let json = try JSONSerialization.jsonObject(with: Data(status.body)) as? [String: Any]
            #expect(json?["type"] as? String == "status")
            #expect((json?["viewer"] as? [String: Any])?["clients"] as? Int == 0)
            for path in ["/nothing", "/../../etc/passwd", "/files/a/b"] {
                let missing = try LiveHTTP.request(port: harness.port, path: path)
                #expect(missing.status == 404, "\(path)")
                #expect(missing.headers["x-content-type-options"] == "nosniff", "errors carry the headers too")
            }
        }

        @Test func secondServerOnTheSamePortIsATypedError() throws {
            let tmp = try TemporaryDirectory()
            let harness = try LiveHarness(folder: tmp.path)
            defer { harness.stop() }
            let other = LiveServer(configuration: .init(port: harness.port, folder: tmp.path), handler: RecordingHandler())
            #expect(throws: LiveServerError.addressInUse(host: "127.0.0.1", port: harness.port)) { _ = try other.start() }
            let bad = LiveServer(configuration: .init(host: "no.such.host.invalid", port: 0, folder: tmp.path), handler: RecordingHandler())
            do {
                _ = try bad.start()
                Issue.record("an unknown host started")
            } catch {
                guard case .cannotBind(let host, _, _) = error else { Issue.record("\(error)"); return }
                #expect(host == "no.such.host.invalid")
                #expect(!error.description.contains("\n"))
            }
        }
    }
}
