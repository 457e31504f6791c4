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
            try LiveTakeJournal.record(["frame_000001.dng", ".hidden", "link.txt", "sub"], in: tmp.path)
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
            #expect(entries?.map { $0["name"] as? String } == ["frame_000001.dng", "journal.jsonl"],
                    "the regular file and the journal; no link, folder or hidden name")
            #expect(entries?.first?["bytes"] as? Int == 3000)
        }

        /// Issue #33: only the files the recording made are listed and served, each matched by device and inode
        /// against the take's journal — not a hard link or a symbolic link placed in the folder (to a file outside it),
        /// not a file dropped in afterwards, not a recorded file replaced since, and nothing from a folder without a journal.
        @Test func onlyTheRecordingsOwnFilesAreServed() throws {
            let outside = try TemporaryDirectory()
            let secret = Array("outside secret bytes".utf8)
            try Data(secret).write(to: outside.url.appendingPathComponent("secret.txt"))
            let tmp = try TemporaryDirectory()
            let frames = (1...3).map { n in (0..<(500 * n)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ n) } }
            for (n, bytes) in frames.enumerated() {
                try Data(bytes).write(to: tmp.url.appendingPathComponent("frame_00000\(n + 1).dng"))
            }
            let harness = try LiveHarness(folder: tmp.path)
            defer { harness.stop() }
            func names() throws -> [String] {
                let list = try LiveHTTP.request(port: harness.port, path: "/files")
                let entries = try JSONSerialization.jsonObject(with: Data(list.body)) as? [[String: Any]] ?? []
                return entries.compactMap { $0["name"] as? String }
            }
            #expect(try names() == [], "no journal: nothing is the recording's")
            #expect(try LiveHTTP.request(port: harness.port, path: "/files/frame_000001.dng").status == 404)

            try LiveTakeJournal.record(["frame_000001.dng", "frame_000002.dng", "frame_000003.dng"], in: tmp.path)
            #expect(try names() == ["frame_000001.dng", "frame_000002.dng", "frame_000003.dng", "journal.jsonl"])
            #expect(try LiveHTTP.request(port: harness.port, path: "/files/frame_000002.dng").body == frames[1])

            // Placed afterwards: a hard link and a symbolic link to the outside file, and a file of its own.
            try FileManager.default.linkItem(atPath: outside.path + "/secret.txt", toPath: tmp.path + "/hard_link.dng")
            try FileManager.default.createSymbolicLink(atPath: tmp.path + "/soft_link.dng", withDestinationPath: outside.path + "/secret.txt")
            try Data("dropped in".utf8).write(to: tmp.url.appendingPathComponent("frame_000004.dng"))
            // Recorded names whose files were replaced: by a hard link to the outside file, by a symbolic link to it,
            // and by new bytes under the same name.
            try FileManager.default.removeItem(atPath: tmp.path + "/frame_000001.dng")
            try FileManager.default.linkItem(atPath: outside.path + "/secret.txt", toPath: tmp.path + "/frame_000001.dng")
            try FileManager.default.removeItem(atPath: tmp.path + "/frame_000002.dng")
            try FileManager.default.createSymbolicLink(atPath: tmp.path + "/frame_000002.dng", withDestinationPath: outside.path + "/secret.txt")
            try Data("replaced".utf8).write(to: tmp.url.appendingPathComponent("frame_000003.dng"), options: .atomic)
            #expect(try names() == ["journal.jsonl"])
            for name in ["hard_link.dng", "soft_link.dng", "frame_000004.dng", "frame_000001.dng", "frame_000002.dng", "frame_000003.dng"] {
                let r = try LiveHTTP.request(port: harness.port, path: "/files/" + name)
                #expect(r.status == 404, "\(name): \(r.status)")
                #expect(!r.body.elementsEqual(secret) && !r.text.contains("outside secret") && !r.text.contains("replaced"), "\(name)")
            }
        }

        /// A large file is streamed from the thread pool in chunks: byte-exact, with the process's memory bounded and
        /// previews still reaching a page while it downloads (the whole file used to be read on the event loop).
        @Test func largeFileIsStreamedWithBoundedMemoryWhilePreviewsFlow() throws {
            let tmp = try TemporaryDirectory()
            let bytes = 64 << 20
            try LiveLargeFile.write(to: tmp.path + "/big.bin", bytes: bytes)
            try LiveTakeJournal.record(["big.bin"], in: tmp.path)
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
            try Data().write(to: first.url.appendingPathComponent("empty.txt"))
            try LiveTakeJournal.record(["f.txt", "empty.txt"], in: first.path)
            try LiveTakeJournal.record(["f.txt"], in: second.path)
            let harness = try LiveHarness(folder: first.path)
            defer { harness.stop() }
            #expect(try LiveHTTP.request(port: harness.port, path: "/files/f.txt").text == "one")
            let empty = try LiveHTTP.request(port: harness.port, path: "/files/empty.txt")
            #expect(empty.status == 200 && empty.body.isEmpty && empty.headers["content-length"] == "0")
            harness.server.setFolder(second.path)
            #expect(try LiveHTTP.request(port: harness.port, path: "/files/f.txt").text == "two")
        }
    }
}
