import Foundation
import TestSupport
import Testing

/// The plan's prediction is a promise, held against bursts with deterministic injected costs (`--simulate-disk`'s
/// bandwidth, `--simulate-cpu`'s CPU per frame — both waits in a queue the writers share, so a busy machine does not
/// change them): `continuous` means no governor step and no drop; `holds ~N frames` means the first step comes after
/// N·(1 ± 0.25) frames; no frame is dropped before the first step (NFR5). The manifest records it all
/// (`burst.predictionCheck`), and the test checks that record against the steps and drops themselves.
/// Real-time: serialized, and kept apart from parallel suites by its name.
@Suite(.serialized) struct PredictionRealTimeTests {
    /// A 256x192 phone-front profile: a frame is a small, fixed amount of real work beside the injected costs.
    static func tinyProfile(in tmp: TemporaryDirectory) throws -> String {
        let builtIn = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("profiles/phone-front.json"), encoding: .utf8)
        let profile = tmp.url.appendingPathComponent("tiny.json")
        try builtIn.replacingOccurrences(of: #""width" : 3088"#, with: #""width" : 256"#)
            .replacingOccurrences(of: #""height" : 2320"#, with: #""height" : 192"#)
            .write(to: profile, atomically: true, encoding: .utf8)
        return profile.path
    }

    /// Runs a capture of the tiny profile with `arguments` and returns its manifest's `burst`.
    static func burst(_ arguments: [String], in tmp: TemporaryDirectory, name: String) throws -> JSONValue {
        let out = tmp.url.appendingPathComponent(name)
        let result = try CLI.run(["capture", "--profile", try tinyProfile(in: tmp), "--compression", "none"] + BurstCLITests.fixed
                                 + arguments + ["-o", out.path, "--json"])
        #expect([0, 3].contains(result.exitStatus), "\(result.stderr)")
        return try #require(try BurstCLITests.report(result)["burst"])
    }

    /// The first step's frame and the first drop's, from the manifest's steps and drops themselves.
    static func firstEvents(_ burst: JSONValue) -> (step: Int?, drop: Int?) {
        let steps = burst["degradations"]?.array ?? []
        let step = steps.first.map { ($0["afterSequenceNumber"]?.int ?? -1) + 1 }
        let drop = burst["dropped"]?.array?.compactMap { $0["sequenceNumber"]?.int }.min()
        return (step, drop)
    }

    @Test("continuous: the writers have room to spare (200 ms of CPU a frame at 5 fps, a 5 MB/s disk) — no step, no drop")
    func continuousMeansNothingGivesWay() throws {
        let tmp = try TemporaryDirectory()
        let burst = try Self.burst(["--fps", "5", "--duration", "3s", "--simulate-cpu", "200ms", "--simulate-disk", "5MB/s",
                                    "--memory-budget", "62.5MiB"], in: tmp, name: "continuous")
        #expect(burst["prediction"]?["kind"]?.string == "continuous", "\(String(describing: burst["prediction"]))")
        #expect(burst["plan"]?["simulatedWriteMilliseconds"]?.double == 200)
        #expect(burst["degradations"]?.array?.isEmpty == true && burst["dropped"]?.array?.isEmpty == true, "\(burst)")
        #expect(burst["written"]?.int == 15 && burst["produced"]?.int == 15)
        let check = try #require(burst["predictionCheck"])
        #expect(check["verdict"]?.string == "kept" && check["triggers"]?.int == 15, "\(check)")
        #expect(check["firstStepFrame"] == nil && check["firstDropFrame"] == nil && check["degradedBeforeDrop"]?.bool == true)
    }

    /// Checks a burst predicted to hold ~N frames: its first step after N·(1 ± 0.25) frames, no drop before it, and the
    /// manifest's record agreeing.
    static func holds(_ burst: JSONValue) throws {
        let prediction = try #require(burst["prediction"])
        #expect(prediction["kind"]?.string == "holds" && prediction["firstEvent"]?.string == "governor-step", "\(prediction)")
        let n = try #require(prediction["framesBeforeFirstEvent"]?.int)
        let (step, drop) = Self.firstEvents(burst)
        let first = try #require(step, "no governor step: \(burst)")
        #expect(Double(first) >= 0.75 * Double(n) && Double(first) <= 1.25 * Double(n),
                "first step after \(first) frames, predicted \(n): \(String(describing: burst["degradations"]))")
        #expect(drop.map { $0 >= first } ?? true, "frame \(drop ?? -1) dropped before the first step at \(first)")
        let check = try #require(burst["predictionCheck"])
        #expect(check["verdict"]?.string == "kept" && check["firstStepFrame"]?.int == first, "\(check)")
        #expect(check["predictedFrames"]?.int == n && check["degradedBeforeDrop"]?.bool == true)
        let error = try #require(check["error"]?.double)
        #expect(abs(error - (Double(first) / Double(n) - 1)) < 0.001)
        #expect((check["firstStepSeconds"]?.double ?? 0) > 0)
    }

    @Test("holds, the disk the limit (a simulated disk taking 5 frames of 136.7 kB a second at 10 fps): the first step comes when predicted ± 25 %, before any drop")
    func holdsOnASlowDisk() throws {
        let tmp = try TemporaryDirectory()
        let burst = try Self.burst(["--fps", "10", "--duration", "4.5s", "--simulate-disk", "0.684MB/s",
                                    "--memory-budget", "62.5MiB"], in: tmp, name: "disk")
        #expect(burst["plan"]?["bottleneck"]?.string == "disk")
        try Self.holds(burst)
    }

    @Test("holds, the CPU the limit (770 ms of CPU a frame on the cores at 5 fps): the first step comes when predicted ± 25 %, before any drop")
    func holdsOnABusyCPU() throws {
        let tmp = try TemporaryDirectory()
        let burst = try Self.burst(["--fps", "5", "--duration", "6s", "--simulate-cpu", "770ms",
                                    "--memory-budget", "60.5MiB"], in: tmp, name: "cpu")
        #expect(burst["plan"]?["bottleneck"]?.string == "cpu")
        try Self.holds(burst)
    }
}
