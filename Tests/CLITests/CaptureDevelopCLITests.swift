import Foundation
import RawBurst
import RawImageIO
import TestSupport
import Testing

/// `capture --develop` and composites of two-sensor bursts.
@Suite("capture --develop")
struct CaptureDevelopCLITests {
    /// A built-in profile at 640x480 under another name.
    static func small(_ builtIn: String, as name: String, in tmp: TemporaryDirectory) throws -> URL {
        var profile = SensorProfile.builtIn(named: builtIn)!.resized(toWidth: 640)
        profile.name = name
        let url = tmp.url.appendingPathComponent("\(name).json")
        try JSONEncoder().encode(profile).write(to: url)
        return url
    }

    static let fixed = ["--scene", "colorchart", "--iso", "100", "--shutter", "1/100", "--focus", "1.5m"]

    @Test("a reduced development reserves memory for its output's size, never more than a full-size one")
    func developerReserveFollowsTheOutput() {
        let samples = 4032 * 3024
        let full = BurstDevelopment(format: .jpeg).workingBytes(samplesPerFrame: samples)
        var settings = DevelopSettings()
        settings.longEdge = 2048
        let reduced = BurstDevelopment(settings: settings, format: .jpeg).workingBytes(samplesPerFrame: samples)
        #expect(full == samples * 12 + (64 << 20))
        #expect(reduced == 2048 * 2048 * 24 + (64 << 20) && reduced < full)
        // A long edge the frame does not exceed is a full-size development.
        settings.longEdge = 8000
        #expect(BurstDevelopment(settings: settings, format: .jpeg).workingBytes(samplesPerFrame: samples) == full)
    }

    @Test("a two-sensor burst: a developed picture per frame and a composite for every pair, all in the manifest",
          .enabled(if: ToolAvailability.has("exiftool")))
    func pairBurst() throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--profile", try Self.small("phone-wide", as: "back", in: tmp).path,
                                  "--profile", try Self.small("phone-front", as: "front", in: tmp).path] + Self.fixed
                                 + ["--frames", "3", "-o", out.path, "--develop", "jpg", "--composite", "pip",
                                    "--pip-corner", "top-left", "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
        for n in 0..<3 {
            for sensor in ["back", "front"] {
                #expect(names.contains("\(sensor)-000\(n).dng") && names.contains("\(sensor)-000\(n).jpg"), "\(sensor) \(n)")
            }
            #expect(names.contains("back-000\(n)-composite.jpg"), "composite \(n)")
        }
        let manifest = try JSONValue(parsing: Data(contentsOf: out.appendingPathComponent("manifest.json")))
        let development = try #require(manifest["development"])
        #expect(development["developed"]?.array?.count == 6)
        #expect(development["composites"]?.array?.count == 3)
        #expect(development["pairsWithoutComposite"]?.array?.isEmpty == true)
        let composite = try ImageFileReader.read(path: out.appendingPathComponent("back-0001-composite.jpg").path)
        #expect(composite.width == 640 && composite.height == 480)
        let tags = try ExifTool.tags(of: out.appendingPathComponent("front-0002.jpg").path)
        #expect(tags["ExifIFD:ISO"]?.int == 100 && tags["ICC_Profile:ProfileDescription"]?.string != nil)
    }

    @Test("a budget without room for developers, or the governor at no-previews, defers developing until after the burst")
    func deferred() throws {
        let tmp = try TemporaryDirectory()
        let profile = try Self.small("phone-wide", as: "back", in: tmp).path
        // 100 MiB: the pool's slots fit after 62.4 MiB for the sensor, writers and process; two developers
        // (2 × (640·480·12 B + 64 MiB)) do not.
        var out = tmp.url.appendingPathComponent("tight")
        var result = try CLI.run(["capture", "--profile", profile] + Self.fixed
                                 + ["--frames", "2", "--writers", "2", "--memory-budget", "100MiB", "-o", out.path,
                                    "--develop", "png", "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        var report = try JSONValue(parsing: Data(result.stdout.utf8))
        #expect(report["development"]?["duringBurst"]?.bool == false)
        #expect(report["development"]?["deferred"]?.array?.count == 2)
        #expect(report["development"]?["deferred"]?[0]?["reason"]?.string?.contains("memory budget") == true)
        #expect(report["development"]?["developed"]?.array?.allSatisfy { $0["duringBurst"]?.bool == false } == true)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("back-0001.png").path))
        // A thermal state that sets the governor at no-previews from the start: developing waits too. (At 2 fps the CPU
        // plan has time for developing even in a debug build, so it is the governor that defers it. The calibration
        // cache is this run's own: a develop cost remembered from another test's burst on a loaded machine could make
        // the plan defer first.)
        out = tmp.url.appendingPathComponent("hot")
        result = try CLI.run(["capture", "--profile", profile] + Self.fixed
                             + ["--frames", "2", "--fps", "2", "--late", "wait", "--simulate-thermal", "fair@0s", "-o", out.path,
                                "--develop", "jpg", "--json"],
                             environment: ["XDG_CACHE_HOME": tmp.url.appendingPathComponent("cache").path])
        #expect(result.exitStatus == 0, "\(result)")
        report = try JSONValue(parsing: Data(result.stdout.utf8))
        let reasons = report["development"]?["deferred"]?.array?.map { $0["reason"]?.string } ?? []
        #expect(reasons == ["governor at no-previews", "governor at no-previews"], "\(reasons)")
        #expect(report["development"]?["developed"]?.array?.count == 2)
    }

    @Test("frames deferred to after the burst are developed as many at a time as the memory budget holds, each recorded in order",
          arguments: [("1GiB", 14), ("150MiB", 1)])
    func deferredInParallel(_ budget: String, _ filesInBudget: Int) throws {
        let tmp = try TemporaryDirectory()
        let profile = try Self.small("phone-wide", as: "back", in: tmp).path
        let out = tmp.url.appendingPathComponent("burst")
        // The governor at no-previews from the start defers every frame.
        let result = try CLI.run(["capture", "--profile", profile] + Self.fixed
                                 + ["--frames", "6", "--fps", "10", "--simulate-thermal", "fair@0s", "--memory-budget", budget,
                                    "-o", out.path, "--develop", "jpg", "--develop-size", "320", "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let report = try JSONValue(parsing: Data(result.stdout.utf8))
        let development = try #require(report["development"])
        // Each file in flight: 640x480 samples x (12 + 4) bytes + 64 MiB; the budget less the process's 32 MiB holds
        // `filesInBudget` of them, and no more run at once than there are cores.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(development["afterBurstInFlight"]?.int == min(cores, filesInBudget))
        #expect(development["afterBurstThreadsPerFile"]?.int == max(1, cores / min(cores, filesInBudget)))
        let developed = try #require(development["developed"]?.array)
        #expect(developed.compactMap { $0["sequenceNumber"]?.int } == Array(0..<6))
        #expect(developed.allSatisfy { $0["duringBurst"]?.bool == false })
        for n in 0..<6 {
            let picture = try ImageFileReader.read(path: out.appendingPathComponent("back-000\(n).jpg").path)
            #expect(picture.width == 320 && picture.height == 240, "frame \(n)")
        }
        let plan = BurstDevelopmentFinisher.Plan(development: BurstDevelopment(format: .jpeg), samplesPerFrame: 640 * 480,
                                                 memoryBudget: 150 << 20, cores: 8)
        #expect(plan.bytesPerFile == 640 * 480 * 16 + (64 << 20) && plan.inFlight == 1 && plan.compositesInFlight == 1)
        #expect(plan.threadsPerFile == 8)
    }

    @Test("--composite needs --develop and two sensors", arguments: [["--composite", "stacked"],
                                                                      ["--develop", "jpg", "--composite", "stacked"],
                                                                      ["--develop", "webp"]])
    func refusals(_ arguments: [String]) throws {
        let tmp = try TemporaryDirectory()
        let result = try CLI.run(["capture", "--profile", try Self.small("phone-wide", as: "back", in: tmp).path] + Self.fixed
                                 + ["--frames", "1", "-o", tmp.url.appendingPathComponent("x").path] + arguments)
        #expect(result.exitStatus == 2, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: tmp.url.appendingPathComponent("x/back-0000.dng").path))
    }
}
