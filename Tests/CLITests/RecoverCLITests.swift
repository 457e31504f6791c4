import Foundation
import RawBurst
import TestSupport
import Testing

/// `rawburst recover` after a burst is killed with SIGKILL at different moments.
@Suite("rawburst recover")
struct RecoverCLITests {
    @Test("kill -9 during a burst, then recover: every frame found is a valid DNG LibRaw reads, no partial file has a final name",
          arguments: [0.0, 0.013, 0.05, 0.21])
    func killedBurst(afterSeconds delay: Double) throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        // A small camera (phone-front's profile at 800x600), so frames come quickly.
        let builtIn = try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("profiles/phone-front.json"))
        let profile = tmp.url.appendingPathComponent("small.json")
        try Data(String(decoding: builtIn, as: UTF8.self)
            .replacingOccurrences(of: #""width" : 3088"#, with: #""width" : 800"#)
            .replacingOccurrences(of: #""height" : 2320"#, with: #""height" : 600"#)
            .replacingOccurrences(of: #""maximumFrameRate" : 30"#, with: #""maximumFrameRate" : 60"#).utf8).write(to: profile)
        let process = Process()
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": CLI.cacheHome]) { $1 }
        process.executableURL = CLI.executable
        process.arguments = ["capture", "--profile", profile.path, "--scene", "grey-ramp", "--iso", "100", "--shutter", "1/100",
                             "--focus", "1m", "--frames", "500", "--fps", "50", "--late", "wait", "--writers", "2", "-o", out.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Kill it mid-burst: once the first DNG is there, after `delay` more.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning,
              !((try? FileManager.default.contentsOfDirectory(atPath: out.path))?.contains { $0.hasSuffix(".dng") } ?? false) {
            usleep(2_000)
        }
        usleep(UInt32(delay * 1e6))
        #expect(process.isRunning, "the burst ended before it could be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let result = try CLI.run(["recover", out.path, "--json"])
        let report = try JSONValue(parsing: result.stdout)
        // Frames in the pool or being written when it was killed are lost in flight: exit status 1 says so.
        let lost = report["recovered"]?["lostInFlight"]?.array ?? []
        #expect(result.exitStatus == (lost.isEmpty ? 0 : 1), "\(result)")
        let frames = try #require(report["recovered"]?["frames"]?.array)
        #expect(report["recovered"]?["finished"]?.bool == false)
        #expect(report["recovered"]?["problems"]?.array?.isEmpty == true)
        #expect(report["recovered"]?["invalidFiles"]?.array?.isEmpty == true)
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(!names.contains { $0.hasPrefix(".") }, "temporary files left: \(names)")
        let dngs = Set(names.filter { $0.hasSuffix(".dng") })
        #expect(Set(frames.compactMap { $0["file"]?.string }) == dngs, "every DNG under a final name is a recovered frame")
        for name in dngs {
            let frame = try RawFileReader().read(path: out.appendingPathComponent(name).path).frame
            #expect(frame.width == 800 && frame.height == 600, "\(name)")
        }
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("manifest.json").path))
        print("killed after \(delay) s: \(frames.count) frames recovered, "
              + "\(frames.filter { $0["journaled"]?.bool == false }.count) not journaled, "
              + "\(report["recovered"]?["removedTemporaryFiles"]?.array?.count ?? 0) temporary files removed")
    }

    @Test func aFolderThatIsNotThereIsAnError() throws {
        let result = try CLI.run(["recover", "/nonexistent/burst"])
        #expect(result.exitStatus == 2 && result.stderr.contains("/nonexistent/burst: does not exist"), "\(result)")
    }
}
