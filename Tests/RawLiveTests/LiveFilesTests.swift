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
            harness.server.setFolder(second.path)
            #expect(try LiveHTTP.request(port: harness.port, path: "/files/f.txt").text == "two")
        }
    }
}
