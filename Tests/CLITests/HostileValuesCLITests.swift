import Foundation
import Testing
import TestSupport

/// Issue #17 items 10, 12, 13 and 14: outputs that are not regular files, names from input that would escape or
/// hide, limits the writer and the sensor impose, and the form of every refusal (one line, exit status 2).
@Suite("hostile values and outputs (issue #17)")
struct HostileValuesCLITests {
    /// Runs `arguments` and checks a refusal: exit status 2, exactly one line on stderr holding `message`.
    private static func expectRefused(_ arguments: [String], _ message: String,
                                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try CLI.run(arguments)
        #expect(result.exitStatus == 2 && !result.terminatedBySignal, "\(arguments): \(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n", omittingEmptySubsequences: false) == [Substring(result.stderr.dropLast()), ""],
                "\(arguments): not one line: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
    }

    @Test("--overwrite never replaces a FIFO: convert, develop, capture and analyze refuse it, the FIFO stays")
    func overwriteRefusesAFIFO() throws {
        let tmp = try TemporaryDirectory()
        let dng = try TinyCamera.dng(in: tmp.url)
        let profile = try TinyCamera.writeProfile(in: tmp.url)
        let out = tmp.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let fifos = ["x.dng", "x.jpg", "phone-front-0000.dng", "phone-front-0000-histogram.png"].map { out.appendingPathComponent($0).path }
        for fifo in fifos { #expect(mkfifo(fifo, 0o644) == 0) }
        try Self.expectRefused(["convert", dng, "-o", fifos[0], "--overwrite"], "is a FIFO; only regular files are replaced")
        try Self.expectRefused(["develop", dng, "-o", fifos[1], "--overwrite"], "is a FIFO; only regular files are replaced")
        try Self.expectRefused(["capture", "--profile", profile, "-o", out.path, "--overwrite"] + TinyCamera.quickCapture,
                               "phone-front-0000.dng: is a FIFO; only regular files are replaced")
        try Self.expectRefused(["analyze", dng, "--png", out.path, "--overwrite"], "is a FIFO; only regular files are replaced")
        for fifo in fifos {
            var st = stat()
            #expect(lstat(fifo, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO, "\(fifo) was replaced")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == fifos.map { ($0 as NSString).lastPathComponent }.sorted())
    }

    @Test("a profile name that would escape -o, hide the files or break the line is refused; nothing is created",
          arguments: [("../escaped", "may not contain '/'"), (".hidden", "may not start with '.'"),
                      ("two\nlines", "may not contain control characters"), ("", "must not be empty"),
                      (String(repeating: "n", count: 65), "is longer than 64 bytes"),
                      // The journal lists sensors joined by commas: a comma would split one into two for recover.
                      ("wide,front", "may not contain ','")])
    func profileNames(_ name: String, _ message: String) throws {
        let tmp = try TemporaryDirectory()
        let json = try TinyCamera.profileJSON().replacingOccurrences(of: #""name" : "phone-front""#,
                                                                        with: "\"name\" : \(try Self.jsonString(name))")
        let profile = try TinyCamera.writeProfile(in: tmp.url, text: json)
        let out = tmp.url.appendingPathComponent("a/b")
        let before = try FileManager.default.contentsOfDirectory(atPath: tmp.url.path)
        try Self.expectRefused(["capture", "--profile", profile, "-o", out.path, "--scene", "colorchart", "--frames", "1"], message)
        try Self.expectRefused(["stress", "--profile", profile, "--quick", "--scenario", "thermal"], message)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.url.path) == before)
    }

    private static func jsonString(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }

    @Test("limits of the writer and the sensor, checked before anything is captured",
          arguments: [
            (["--preview", "2048"], "--preview must be within 64...1024 pixels, not 2048"),
            (["--name", String(repeating: "a", count: 240) + "-%q"], "at most 243 fit (255 less the temporary name's 12)"),
            // The DNG's name fits (243 bytes), its sidecar's (244) does not.
            (["--name", "%q-" + String(repeating: "b", count: 237), "--sidecar"], "file names of up to 244 bytes"),
            // A pre-record's sequence numbers run on until the trigger: counted at 19 digits (225 + 1 + 19 + 4 bytes).
            (["--name", String(repeating: "c", count: 225) + "-%q", "--fps", "10", "--pre-record", "1s"],
             "file names of up to 249 bytes"),
            (["--sensor", "mirrorless-24", "--fps", "100"], "--fps 100 is above mirrorless-24's maximum frame rate, 15 fps"),
            (["--sensor", "mirrorless-24", "--interval", "10ms"], "--interval 10ms is above mirrorless-24's maximum frame rate"),
            (["--fps", "1e-9"], "--fps must be within 1/86400 (a frame a day)...1000"),
            (["--composite-border-color", "#GGGGGG"], "\"#GGGGGG\" is not white, black, grey or #RRGGBB"),
            (["--iso", "-5"], "ISO: -5 is outside 50...6400"),
            (["--frobnicate"], "Unknown option '--frobnicate'"),
            (["--overflow"], "Missing value for '--overflow <overflow>'"),
          ])
    func captureLimits(_ arguments: [String], _ message: String) throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("never")
        try Self.expectRefused(["capture"] + arguments + ["-o", out.path], message)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("develop checks the composite options without --composite; signed values are values, not flags")
    func developValues() throws {
        let tmp = try TemporaryDirectory()
        let dng = try TinyCamera.dng(in: tmp.url)
        let out = tmp.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Self.expectRefused(["develop", dng, "-o", out.path, "--pip-size", "nan"], "picture-in-picture size: nan is outside 0.1...0.5")
        try Self.expectRefused(["develop", dng, "-o", out.path, "--border-color", "#GGGGGG"], "is not white, black, grey or #RRGGBB")
        try Self.expectRefused(["develop", dng, "-o", out.path, "--exposure", "-9"], "exposure")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
        let developed = try CLI.run(["develop", dng, "-o", out.path, "--exposure", "-1"])
        #expect(developed.exitStatus == 0, "\(developed)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["phone-front-0000.jpg"])
        let burst = try CLI.run(["capture", "--profile", try TinyCamera.writeProfile(in: tmp.url), "--ev", "-0.7",
                                 "-o", tmp.url.appendingPathComponent("ev").path] + TinyCamera.quickCapture)
        #expect(burst.exitStatus == 0, "\(burst)")
    }

    @Test("stress with a profile it cannot use exits 2 before any burst, in one line")
    func stressBadProfile() throws {
        let tmp = try TemporaryDirectory()
        let broken = tmp.url.appendingPathComponent("broken.json")
        try Data("{\"name\": 3}".utf8).write(to: broken)
        try Self.expectRefused(["stress", "--profile", broken.path, "--quick"], "not a sensor profile")
        try Self.expectRefused(["stress", "--sensor", "no-such-sensor", "--quick"], "unknown sensor 'no-such-sensor'")
    }

    @Test("libjpeg's warnings about a damaged lossy-JPEG raw stay off stderr")
    func libjpegWarningsSilent() throws {
        let sample = try #require(TestPaths.sharedSample("kodak-dc120-jpeg.kdc"))
        let tmp = try TemporaryDirectory()
        // Damage in the middle of the JPEG data: libjpeg still decodes it, with a "Corrupt JPEG data" warning
        // (which the build before this fix printed on stderr).
        var bytes = [UInt8](try Data(contentsOf: sample))
        for offset in stride(from: bytes.count / 2, to: bytes.count / 2 + 600, by: 37) { bytes[offset] ^= 0x5A }
        let damaged = tmp.url.appendingPathComponent("damaged.kdc")
        try Data(bytes).write(to: damaged)
        for arguments in [["inspect", damaged.path], ["analyze", damaged.path]] {
            let result = try CLI.run(arguments)
            #expect(!result.terminatedBySignal)
            #expect(!result.stderr.contains("JPEG"), "\(arguments): \(result.stderr)")
        }
    }
}
