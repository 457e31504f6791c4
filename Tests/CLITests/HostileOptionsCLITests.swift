import Foundation
import Testing
import TestSupport

/// Issue #17's option defects, each refused before anything is captured: one line, exit status 2, nothing created.
@Suite("hostile options (issue #17)")
struct HostileOptionsCLITests {
    @Test("refused up front: a two-sensor name without %s (frames would overwrite each other), a duration too long to count, a focus beyond any lens",
          arguments: [
            (["--sensor", "phone-wide", "--sensor", "phone-front", "--frames", "6", "--fps", "10", "--name", "x-%4q"],
             "has no %s: two sensors' frames would get the same names"),
            (["--sensor", "phone-wide", "--sensor", "phone-front", "--frames", "6", "--fps", "10", "--name", "x-%4q",
              "--overwrite"],
             "has no %s: two sensors' frames would get the same names"),
            (["--fps", "10", "--duration", "1e18s"], "--duration 1e18s is more than a year"),
            (["--fps", "10", "--duration", "2e5s"], "--duration 2e5s at 10 fps is more than 1000000 frames"),
            (["--focus", "1e305"], "m is farther than 1000000 m"),
            (["--frames", "2", "--bracket", "focus:1m,1e308m"], "m is farther than 1000000 m"),
          ])
    func refusedUpFront(_ arguments: [String], _ message: String) throws {
        try CaptureCLITests.expectRefusedBeforeCapture(arguments, message)
    }

    @Test("two sensors with %s in the name still capture both frames of every pair")
    func twoSensorsWithSensorName() throws {
        let tmp = try TemporaryDirectory()
        let result = try CLI.run(["capture", "--sensor", "phone-wide", "--sensor", "phone-front", "--scene", "grey-ramp",
                                  "--frames", "1", "--name", "x-%s-%4q", "-o", tmp.url.path])
        #expect(result.exitStatus == 0, "\(result)")
        let files = try FileManager.default.contentsOfDirectory(atPath: tmp.url.path).filter { $0.hasSuffix(".dng") }.sorted()
        #expect(files == ["x-phone-front-0000.dng", "x-phone-wide-0000.dng"])
    }
}
