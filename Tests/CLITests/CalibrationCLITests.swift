import Foundation
import TestSupport
import Testing

/// `capture`'s calibration cache does not outlive its conditions: a planted cache older than 24 h, or holding figures
/// no burst on this machine reaches, is measured again, and the plan, the summary and the manifest say why.
@Suite struct CalibrationCLITests {
    /// The cache file under `cache` (`XDG_CACHE_HOME`).
    static func cacheFile(_ cache: URL) -> URL { cache.appendingPathComponent("rawburst/calibration.json") }

    /// The cache as a mutable JSON object.
    static func readCache(_ cache: URL) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: cacheFile(cache))) as? [String: Any])
    }

    static func writeCache(_ object: [String: Any], _ cache: URL) throws {
        try JSONSerialization.data(withJSONObject: object).write(to: cacheFile(cache))
    }

    /// `transform` applied to every entry of the cache's tables of figures (writer costs, sensors, disks).
    static func plant(_ cache: URL, _ transform: (_ table: String, _ entry: [String: Any]) -> [String: Any]) throws {
        var object = try readCache(cache)
        for table in ["frameCosts", "sensorMilliseconds", "disks"] {
            let entries = try #require(object[table] as? [String: Any])
            #expect(!entries.isEmpty, "\(table) is empty")
            object[table] = entries.mapValues { transform(table, $0 as? [String: Any] ?? [:]) }
        }
        try writeCache(object, cache)
    }

    /// A capture of the small profile into `name` with the cache in `cache`; `--json` or not.
    static func capture(_ tmp: TemporaryDirectory, cache: URL, name: String, frames: Int = 2, json: Bool,
                        _ extra: [String] = []) throws -> ProcessResult {
        let profile = try PredictionRealTimeTests.tinyProfile(in: tmp)
        let result = try CLI.run(["capture", "--profile", profile] + BurstCLITests.fixed
                                 + ["--frames", "\(frames)", "--compression", "none", "-o", tmp.url.appendingPathComponent(name).path]
                                 + (json ? ["--json"] : []) + extra,
                                 environment: ["XDG_CACHE_HOME": cache.path])
        #expect(result.exitStatus == 0, "\(result.stderr)")
        return result
    }

    static func manifest(_ tmp: TemporaryDirectory, _ name: String) throws -> JSONValue {
        try JSONValue(parsing: Data(contentsOf: tmp.url.appendingPathComponent(name).appendingPathComponent("manifest.json")))
    }

    @Test("figures older than 24 h are measured again, and the plan and the manifest say so")
    func oldFiguresAreMeasuredAgain() throws {
        let tmp = try TemporaryDirectory()
        let cache = tmp.url.appendingPathComponent("cache")
        _ = try Self.capture(tmp, cache: cache, name: "first", json: true)
        let old = ISO8601DateFormatter().string(from: Date(timeIntervalSinceNow: -25 * 3600))
        try Self.plant(cache) { _, entry in entry.merging(["measured": old]) { $1 } }
        let second = try Self.capture(tmp, cache: cache, name: "second", json: false)
        for figure in ["disk", "writer costs", "sensor"] {
            #expect(second.stderr.contains("calibration: \(figure) measured again: the cached figure of \(old) is older than 24 h"),
                    "\(second.stderr)")
        }
        let calibration = try #require(try Self.manifest(tmp, "second")["burst"]?["calibration"])
        for figure in ["disk", "writerCosts", "sensor"] {
            #expect(calibration[figure]?["origin"]?.string == "measured-now", "\(figure): \(calibration)")
            #expect(calibration[figure]?["measured"]?.string == old)
            #expect(calibration[figure]?["remeasuredBecause"]?.string == "the cached figure of \(old) is older than 24 h")
        }
        // The cache holds today's figures again, which the next burst takes.
        let refreshed = try Self.readCache(cache)
        for table in ["frameCosts", "sensorMilliseconds", "disks"] {
            for (_, entry) in try #require(refreshed[table] as? [String: Any]) {
                #expect((entry as? [String: Any])?["measured"] as? String != old, "\(table)")
            }
        }
        let third = try Self.capture(tmp, cache: cache, name: "third", json: true)
        let used = try #require(try BurstCLITests.report(third)["burst"]?["calibration"])
        #expect(used["disk"]?["origin"]?.string == "cache" && used["writerCosts"]?["origin"]?.string == "cache"
                && used["sensor"]?["origin"]?.string == "cache", "\(used)")
    }

    @Test("a burst that measures less than 0.75 of the cached disk and CPU figures says so, and the next plan measures them again, saying why")
    func doubtedFiguresAreMeasuredAgain() throws {
        let tmp = try TemporaryDirectory()
        let cache = tmp.url.appendingPathComponent("cache")
        _ = try Self.capture(tmp, cache: cache, name: "first", json: true)
        // Figures no burst here reaches: a 900 000 MB/s disk, writes and frames at a thousandth of their CPU.
        try Self.plant(cache) { table, entry in
            var entry = entry
            switch table {
            case "disks": entry["megabytesPerSecond"] = 900_000.0
            case "sensorMilliseconds": entry["value"] = 0.001
            default:
                var costs = entry["value"] as? [String: Any] ?? [:]
                for key in ["fullNanosecondsPerSample", "shedNanosecondsPerSample", "fullFixedNanoseconds", "shedFixedNanoseconds"] {
                    costs[key] = (costs[key] as? [String: Double])?.mapValues { $0 / 1000 }
                }
                entry["value"] = costs
            }
            return entry
        }
        let doubting = try Self.capture(tmp, cache: cache, name: "doubting", frames: 10, json: true)
        let calibration = try #require(try BurstCLITests.report(doubting)["burst"]?["calibration"])
        #expect(calibration["disk"]?["origin"]?.string == "cache", "\(calibration)")
        let disk = try #require(calibration["afterBurst"]?["disk"]), cpu = try #require(calibration["afterBurst"]?["cpu"])
        #expect(disk["doubted"]?.bool == true && disk["cached"]?.double == 900_000 && (disk["ratio"]?.double ?? 1) < 0.75, "\(disk)")
        #expect(cpu["doubted"]?.bool == true && (cpu["ratio"]?.double ?? 1) < 0.75, "\(cpu)")
        #expect(calibration["doubted"]?.array?.compactMap(\.string) == ["disk", "writer costs", "sensor"])
        // The doubt is kept with each figure.
        let marked = try Self.readCache(cache)
        let markedDisk = try #require((marked["disks"] as? [String: Any])?.values.first as? [String: Any])
        #expect((markedDisk["doubt"] as? [String: Any])?["cached"] as? Double == 900_000)
        // The next plan measures them again and says why.
        let next = try Self.capture(tmp, cache: cache, name: "next", json: false)
        #expect(next.stderr.contains("calibration: disk measured again: a burst on "), "\(next.stderr)")
        #expect(next.stderr.contains("of the cached 900000 MB/s") || next.stderr.contains("of the cached 900,000 MB/s"), "\(next.stderr)")
        #expect(next.stderr.contains("calibration: writer costs measured again: a burst on "))
        let after = try #require(try Self.manifest(tmp, "next")["burst"]?["calibration"])
        #expect(after["disk"]?["origin"]?.string == "measured-now" && after["writerCosts"]?["origin"]?.string == "measured-now")
        let cleared = try #require((try Self.readCache(cache)["disks"] as? [String: Any])?.values.first as? [String: Any])
        #expect(cleared["doubt"] == nil && (cleared["megabytesPerSecond"] as? Double ?? 0) < 900_000)
    }

    @Test("what a burst measured a frame to cost beyond the standalone figures reaches the next plan at its rate, and no other")
    func inBurstCostReachesTheNextPlan() throws {
        let tmp = try TemporaryDirectory()
        let cache = tmp.url.appendingPathComponent("cache")
        let first = try #require(try BurstCLITests.report(
            Self.capture(tmp, cache: cache, name: "first", frames: 10, json: true, ["--fps", "10"]))["burst"])
        #expect(first["plan"]?["inBurstFactor"] == nil && first["calibration"]?["inBurst"] == nil)
        // Nothing measured at 10 fps yet: half the CPU kept free.
        #expect(first["plan"]?["headroom"]?.double == 0.5 && first["calibration"]?["unmeasuredRate"]?.double == 10)
        // The burst's measure, relative to the figures: what the plan counted over what it measured.
        let ratio = try #require(first["calibration"]?["afterBurst"]?["cpu"]?["ratio"]?.double)
        let kept = try #require(first["calibration"]?["inBurstMeasured"]?.double, "\(first["calibration"] ?? .null)")
        #expect(abs(kept - 1 / ratio) <= 0.01 * kept + 0.005, "kept \(kept), ratio \(ratio)")
        let record = try #require((try Self.readCache(cache)["inBurstCosts"] as? [String: Any])?.values.first as? [String: Any])
        let samples = try #require(record["samples"] as? [[String: Any]])
        #expect(samples.count == 1 && samples[0]["fps"] as? Double == 10 && samples[0]["factor"] as? Double == kept
                && samples[0]["frames"] as? Int == 10, "\(samples)")
        // The next burst at 10 fps plans with it: every compression's CPU the figures times the factor, and says so.
        let expected = min(4, max(1, kept))
        let second = try Self.capture(tmp, cache: cache, name: "second", frames: 10, json: false, ["--fps", "10"])
        #expect(second.stderr.contains("x the standalone figures in the last burst at 10 fps: planned with that"), "\(second.stderr)")
        let plan = try #require(try Self.manifest(tmp, "second")["burst"]?["plan"])
        #expect(plan["inBurstFactor"]?.double == expected && plan["headroom"]?.double == 0.25, "\(plan)")
        let used = try #require(try Self.manifest(tmp, "second")["burst"]?["calibration"]?["inBurst"])
        #expect(used["factor"]?.double == expected && used["bursts"]?.int == 1, "\(used)")
        let before = first["plan"]?["options"]?.array?.compactMap { $0["cpuMilliseconds"]?.double } ?? []
        let after = plan["options"]?.array?.compactMap { $0["cpuMilliseconds"]?.double } ?? []
        #expect(before.count == 3 && after.count == 3)
        for (b, a) in zip(before, after) { #expect(abs(a - b * expected) <= 0.06 * expected + 0.06, "\(b) x \(expected) vs \(a)") }
        let unmeasured = try Self.capture(tmp, cache: cache, name: "twenty", frames: 10, json: false, ["--fps", "20"])
        #expect(unmeasured.stderr.contains("calibration: no burst at 20 fps has measured what a frame costs here beside the sensor "
                                           + "and the other writers yet: half of the CPU kept free"), "\(unmeasured.stderr)")
        #expect(unmeasured.stderr.contains("(half kept free)"), "\(unmeasured.stderr)")
        // Another rate, or an injected CPU cost (a test of the model with the figures as they are), plans without it.
        let other = try #require(try BurstCLITests.report(
            Self.capture(tmp, cache: cache, name: "other", frames: 10, json: true, ["--fps", "30"]))["burst"])
        #expect(other["plan"]?["inBurstFactor"] == nil && other["plan"]?["headroom"]?.double == 0.5)
        func sampleCount() throws -> Int {
            let record = (try Self.readCache(cache)["inBurstCosts"] as? [String: Any])?.values.first as? [String: Any]
            return (record?["samples"] as? [[String: Any]])?.count ?? 0
        }
        let samplesBefore = try sampleCount()
        let injected = try #require(try BurstCLITests.report(
            Self.capture(tmp, cache: cache, name: "injected", frames: 10, json: true, ["--fps", "10", "--simulate-cpu", "1ms"]))["burst"])
        #expect(injected["plan"]?["inBurstFactor"] == nil && injected["calibration"]?["inBurstMeasured"] == nil
                && injected["plan"]?["headroom"]?.double == 0.25)
        #expect(try sampleCount() == samplesBefore && samplesBefore >= 2)
    }
}
