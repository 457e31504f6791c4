import Foundation
import RawBurst
import TestSupport
import Testing

/// `capture`'s account of its start-up (issue #18): the manifest's `startup`, measured from the process's start.
@Suite("rawburst capture start-up")
struct StartupCLITests {
    @Test("the manifest's startup: process start → first frame, positive, within the process's wall time, phases adding up",
          arguments: [["--iso", "100", "--shutter", "1/100", "--focus", "1.5m", "--wb", "daylight"], []])
    func startToFirstFrameIsMeasured(settings: [String]) throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let before = MonotonicClock.nanoseconds()
        let result = try CLI.run(["capture", "--sensor", "phone-front", "--frames", "2", "--compression", "none",
                                  "-o", out.path] + settings)
        let wall = Double(MonotonicClock.nanoseconds() - before) / 1e9
        #expect(result.exitStatus == 0, "\(result)")
        let manifest = try JSONValue(parsing: try Data(contentsOf: out.appendingPathComponent("manifest.json")))
        let startup = try #require(manifest["startup"], "\(manifest)")
        let total = try #require(startup["startToFirstFrameSeconds"]?.double)
        #expect(total > 0 && total < wall, "start → first frame \(total) s, the process took \(wall) s")
        // The process's start has clock-tick resolution; every other moment is measured.
        let resolution = try #require(startup["processStartResolutionSeconds"]?.double)
        #expect(resolution > 0 && resolution <= 0.01)
        let phases = ["loadingSeconds", "sourcesSeconds", "outputSeconds", "planSeconds", "sessionSeconds",
                      "firstFrameSeconds"].map { startup[$0]?.double }
        #expect(phases.allSatisfy { ($0 ?? -1) >= 0 }, "\(startup)")
        let sum = phases.compactMap { $0 }.reduce(0, +)
        // Each phase is rounded to the microsecond.
        #expect(abs(sum - total) < 1e-5, "phases add up to \(sum) s of \(total) s")
        // The older figure in milliseconds agrees (it is rounded to 0.01 ms).
        let milliseconds = try #require(manifest["burst"]?["processStartToFirstFrameMilliseconds"]?.double)
        #expect(abs(milliseconds / 1000 - total) < 1e-4)
    }
}
