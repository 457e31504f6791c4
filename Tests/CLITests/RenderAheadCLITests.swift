import Foundation
import TestSupport
import Testing

/// `capture`'s simulated sensor renders ahead of its clock (`--render-ahead`, default 2): a bracketing plan still gives
/// every frame its own step (the manifest's settings and the DNG's EXIF), and the option is checked.
@Suite struct RenderAheadCLITests {
    @Test("--bracket iso: each frame carries its own step's ISO in the manifest and in its DNG's EXIF, two frames of settings latency or not")
    func bracketStepsReachTheirFrames() throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("bracket")
        let result = try CLI.run(["capture", "--profile", try PredictionRealTimeTests.tinyProfile(in: tmp), "--scene", "grey-ramp",
                                  "--shutter", "1/100", "--focus", "1m", "--bracket", "iso:100,400,1600", "--frames", "6",
                                  "--fps", "10", "--late", "wait", "-o", out.path, "--json"])
        #expect(result.exitStatus == 0, "\(result.stderr)")
        let frames = try #require(try BurstCLITests.report(result)["frames"]?.array)
        #expect(frames.count == 6)
        let steps: [Double] = [100, 400, 1600]
        for frame in frames {
            let n = try #require(frame["sequenceNumber"]?.int)
            #expect(frame["bracketIndex"]?.int == n % 3)
            #expect(frame["settings"]?["iso"]?.double == steps[n % 3], "frame \(n): \(frame)")
            let tags = try ExifTool.tags(of: try #require(frame["path"]?.string))
            #expect(tags["ExifIFD:ISO"]?.double == steps[n % 3], "frame \(n)'s EXIF")
        }
    }

    @Test("--render-ahead: 0...8 frames, for the simulated sensor only; a bad value is one line, exit status 2")
    func renderAheadIsChecked() throws {
        let tmp = try TemporaryDirectory()
        let profile = try PredictionRealTimeTests.tinyProfile(in: tmp)
        for (arguments, message) in [(["--render-ahead", "9"], "--render-ahead must be within 0...8 frames, not 9"),
                                     (["--render-ahead", "-1"], "--render-ahead must be within 0...8 frames, not -1"),
                                     (["--render-ahead", "1", "--replay", profile],
                                      "--render-ahead is for the simulated sensor")] {
            let refused = try CLI.run(["capture", "--profile", profile, "--frames", "1"] + arguments
                                      + ["-o", tmp.url.appendingPathComponent("no").path])
            #expect(refused.exitStatus == 2 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        }
        // 0 renders on the tick, as before: no slot is lent to the sensor.
        let onTick = try CLI.run(["capture", "--profile", profile, "--frames", "2", "--render-ahead", "0"] + BurstCLITests.fixed
                                 + ["-o", tmp.url.appendingPathComponent("tick").path, "--json"])
        #expect(onTick.exitStatus == 0, "\(onTick.stderr)")
        #expect(try BurstCLITests.report(onTick)["burst"]?["memory"]?["lentSlots"]?.int == 0)
        let ahead = try CLI.run(["capture", "--profile", profile, "--frames", "2"] + BurstCLITests.fixed
                                + ["-o", tmp.url.appendingPathComponent("ahead").path, "--json"])
        #expect(try BurstCLITests.report(ahead)["burst"]?["memory"]?["lentSlots"]?.int == 2)
    }
}
