import Foundation
@testable import RawLive
import Testing
import TestSupport

extension LiveServerSuites {
    /// `/files` serves the burst folder's regular files and nothing outside it, whatever the name says.
    @Suite struct LiveFilesTests {
        @Test func traversalAttemptsNeverReachOutsideFiles() throws {
            let outside = try TemporaryDirectory()
            let secret = Array("outside secret bytes".utf8)
            try Data(secret).write(to: outside.url.appendingPathComponent("secret.txt"))
            let tmp = try TemporaryDirectory()
            let real = (0..<3000).map { UInt8(truncatingIfNeeded: $0 * 31) }
            try Data(real).write(to: tmp.url.appendingPathComponent("frame_000001.dng"))
            try Data("hidden".utf8).write(to: tmp.url.appendingPathComponent(".hidden"))
            try FileManager.default.createSymbolicLink(atPath: tmp.path + "/link.txt", withDestinationPath: outside.path + "/secret.txt")
            try FileManager.default.createDirectory(atPath: tmp.path + "/sub", withIntermediateDirectories: false)
            let harness = try LiveHarness(folder: tmp.path)
            defer { harness.stop() }
            let attempts = ["/files/..%2f..%2fetc%2fpasswd", "/files/%2e%2e", "/files/%2e%2e%2fsecret.txt", "/files/.hidden",
                            "/files/%2Fetc%2Fpasswd", "/files/" + (outside.path + "/secret.txt").replacingOccurrences(of: "/", with: "%2F"),
                            "/files/link.txt", "/files/sub", "/files/missing.dng", "/files/..", "/files/a%00b"]
            for path in attempts {
                let r = try LiveHTTP.request(port: harness.port, path: path)
                #expect(r.status == 400 || r.status == 404, "\(path): \(r.status)")
                #expect(!r.body.elementsEqual(secret) && !r.text.contains("outside secret") && !r.text.contains("root:"), "\(path)")
            }
            let file = try LiveHTTP.request(port: harness.port, path: "/files/frame_000001.dng")
            #expect(file.status == 200)
            #expect(file.body == real)
            let list = try LiveHTTP.request(port: harness.port, path: "/files")
            let entries = try JSONSerialization.jsonObject(with: Data(list.body)) as? [[String: Any]]
            #expect(entries?.count == 1, "only the regular file, no link, folder or hidden name")
            #expect(entries?.first?["name"] as? String == "frame_000001.dng")
            #expect(entries?.first?["bytes"] as? Int == 3000)
        }

        /// A large file is streamed from the thread pool in chunks: byte-exact, with the process's memory bounded and
        /// previews still reaching a page while it downloads (the whole file used to be read on the event loop).
        @Test func largeFileIsStreamedWithBoundedMemoryWhilePreviewsFlow() throws {
            let tmp = try TemporaryDirectory()
            let bytes = 64 << 20
            try LiveLargeFile.write(to: tmp.path + "/big.bin", bytes: bytes)
            let harness = try LiveHarness(folder: tmp.path)
            defer { harness.stop() }
            harness.startProducing()
            let viewer = try LiveWebSocketClient(port: harness.port)
            let previews = LivePreviewClock(viewer)
            previews.start()
            defer { previews.stop() }
            Thread.sleep(forTimeInterval: 0.3)
            let memory = LiveMemorySampler()
            memory.start()
            let socket = try LiveSocket(port: harness.port, receiveTimeout: 10)
            try socket.send(LiveHTTP.head(port: harness.port, path: "/files/big.bin"))
            let head = try LiveHTTP.parse(socket.read(until: Array("\r\n\r\n".utf8)))
            let began = Date()
            var checker = LiveLargeFile.Checker()
            let received = try socket.stream { checker.check($0) }
            let ended = Date()
            let peakGrowth = memory.stop()
            #expect(head.status == 200)
            #expect(head.headers["content-length"] == String(bytes))
            #expect(received == bytes && checker.offset == bytes)
            #expect(checker.mismatches == 0, "first wrong byte at \(checker.firstMismatch.map(String.init) ?? "-")")
            #expect(peakGrowth < 32 << 20, "resident memory grew by \(peakGrowth >> 20) MB during the download")
            let during = previews.arrivals(from: began, to: ended)
            let seconds = ended.timeIntervalSince(began)
            #expect(during.count >= Int(seconds * 5), "\(during.count) previews in the \(seconds) s download")
            let gaps = zip(during.dropFirst(), during).map { $0.timeIntervalSince($1) }
            #expect((gaps.max() ?? 0) < 1.0, "longest pause between previews \(gaps.max() ?? 0) s")
        }

        @Test func namePatternAndNewFolder() throws {
            #expect(LiveFolder.isPlainName("frame_000001.dng"))
            #expect(LiveFolder.isPlainName("manifest.json"))
            for bad in ["", ".hidden", "-x", "a/b", "..", "a..b", "a b", "é.dng", String(repeating: "a", count: 129)] {
                #expect(!LiveFolder.isPlainName(bad), "\(bad)")
            }
            let first = try TemporaryDirectory(), second = try TemporaryDirectory()
            try Data("one".utf8).write(to: first.url.appendingPathComponent("f.txt"))
            try Data("two".utf8).write(to: second.url.appendingPathComponent("f.txt"))
            let harness = try LiveHarness(folder: first.path)
            defer { harness.stop() }
            #expect(try LiveHTTP.request(port: harness.port, path: "/files/f.txt").text == "one")
            try Data().write(to: first.url.appendingPathComponent("empty.txt"))
            let empty = try LiveHTTP.request(port: harness.port, path: "/files/empty.txt")
            #expect(empty.status == 200 && empty.body.isEmpty && empty.headers["content-length"] == "0")
            harness.server.setFolder(second.path)
            #expect(try LiveHTTP.request(port: harness.port, path: "/files/f.txt").text == "two")
        }
    }
}
