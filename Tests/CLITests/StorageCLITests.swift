import Foundation
import RawBurst
import TestSupport
import Testing
@testable import rawburst

/// How DNGs are stored, through the command line: `convert --compression`, `capture --compression` (explicit,
/// automatic, and switched by the governor) and `capture --cinemadng`.
@Suite("DNG compression and CinemaDNG through the command line")
struct StorageCLITests {
    static func report(_ result: ProcessResult) throws -> JSONValue { try JSONValue(parsing: Data(result.stdout.utf8)) }

    @Test("convert writes lossless JPEG by default, uncompressed on request, and refuses an unknown compression",
          .enabled(if: ToolAvailability.has("exiftool")))
    func convertCompression() throws {
        let tmp = try TemporaryDirectory()
        let source = try #require(TestPaths.sharedSample("canon-550d-magiclantern.dng"))
        let lj92 = tmp.url.appendingPathComponent("lj92.dng"), plain = tmp.url.appendingPathComponent("plain.dng")
        let a = try CLI.run(["convert", source.path, "-o", lj92.path, "--json"])
        #expect(a.exitStatus == 0, "\(a)")
        #expect(try Self.report(a)["compression"]?.string == "lj92")
        let b = try CLI.run(["convert", source.path, "-o", plain.path, "--compression", "none"])
        #expect(b.exitStatus == 0, "\(b)")
        #expect(try ExifTool.tags(of: lj92)["SubIFD:Compression"]?.int == 7)
        #expect(try ExifTool.tags(of: plain)["SubIFD:Compression"]?.int == 1)
        #expect(try ExifTool.validate(lj92) == [])
        // convert writes NewRawImageDigest (32 hex digits), so damage to the data is detectable later.
        #expect(try ExifTool.tags(of: lj92)["IFD0:NewRawImageDigest"]?.string?.count == 32)
        let size = { (u: URL) in (try? FileManager.default.attributesOfItem(atPath: u.path)[.size] as? Int) ?? 0 }
        #expect(size(lj92) * 10 < size(plain) * 7, "lossless JPEG \(size(lj92)) B vs \(size(plain)) B")
        // Both read back to the same frame.
        let x = try RawFileReader().read(path: lj92.path).frame, y = try RawFileReader().read(path: plain.path).frame
        #expect(memcmp(x.storage.baseAddress, y.storage.baseAddress, x.storage.count * 2) == 0)
        let bad = try CLI.run(["convert", source.path, "-o", tmp.url.appendingPathComponent("bad.dng").path, "--compression", "zip"])
        #expect(bad.exitStatus == 2, "\(bad)")
        #expect(bad.stderr.contains("--compression must be none, lj92 or packed, not \"zip\""), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.url.appendingPathComponent("bad.dng").path))
    }

    @Test("capture --cinemadng: a numbered clip whose frames carry the reel, rate, consecutive time codes and the same sequence tags",
          .enabled(if: ToolAvailability.has("exiftool")))
    func cinemaDNGClip() throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("clip")
        let result = try CLI.run(["capture", "--profile", try BurstCLITests.smallProfile(in: tmp).path] + BurstCLITests.fixed
                                 + ["--wb", "daylight", "--fps", "24", "--late", "wait", "--frames", "6", "--cinemadng", "--reel", "B007_C012",
                                    "--compression", "lj92", "-o", out.path, "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let files = BurstCLITests.dngs(in: out)
        #expect(files == (0..<6).map { String(format: "B007_C012_%07d.dng", $0) })
        let manifest = try Self.report(result)
        #expect(manifest["burst"]?["cinemaDNG"]?["reelName"]?.string == "B007_C012")
        #expect(manifest["burst"]?["cinemaDNG"]?["frameRate"]?.double == 24)
        let codes = manifest["frames"]?.array?.compactMap { $0["timeCode"]?.string } ?? []
        #expect(codes.count == 6)
        // hh:mm:ss:ff, one frame apart at 24 fps.
        func frames(_ code: String) -> Int {
            let p = code.split(separator: ":").compactMap { Int($0) }
            return p.count == 4 ? ((p[0] * 60 + p[1]) * 60 + p[2]) * 24 + p[3] : -1
        }
        let counts = codes.map(frames)
        #expect(zip(counts, counts.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(codes)")
        // Per-sequence constants are identical in every frame; the time code is each frame's own.
        let constant = ["IFD0:ReelName", "IFD0:FrameRate", "IFD0:UniqueCameraModel", "IFD0:CFAPattern2", "IFD0:BlackLevel",
                        "IFD0:WhiteLevel", "IFD0:ColorMatrix1", "IFD0:AsShotNeutral", "IFD0:ImageWidth", "IFD0:ImageHeight",
                        "IFD0:BitsPerSample", "IFD0:Compression", "IFD0:DNGVersion"]
        var first: [String: JSONValue]?
        for (i, file) in files.enumerated() {
            let path = out.appendingPathComponent(file).path
            let tags = try ExifTool.tags(of: path)
            #expect(try ExifTool.validate(path) == [], "\(file)")
            #expect(tags["IFD0:ReelName"]?.string == "B007_C012" && tags["IFD0:FrameRate"]?.double == 24, "\(file)")
            #expect(tags["IFD0:Compression"]?.int == 7 && tags["IFD0:SubIFDs"] == nil, "\(file)")
            // exiftool -n: the BCD bytes frames.seconds.minutes.hours of this frame's time code.
            let p = codes[i].split(separator: ":").map(String.init)
            #expect(tags["IFD0:TimeCodes"]?.string == "\(p[3]).\(p[2]).\(p[1]).\(p[0]).00.00.00.00", "\(file)")
            if let first {
                for key in constant { #expect(tags[key] == first[key], "\(file): \(key)") }
            } else {
                for key in constant { #expect(tags[key] != nil, "\(key) missing") }
                first = tags
            }
        }
        // inspect names the storage and the clip.
        let inspected = try CLI.run(["inspect", out.appendingPathComponent(files[2]).path, "--json"])
        let facts = try Self.report(inspected)
        #expect(facts["rawData"]?["compression"]?.int == 7 && facts["rawData"]?["tileWidth"]?.int == 256, "\(inspected.stdout)")
        #expect(facts["cinemaDNG"]?["reelName"]?.string == "B007_C012" && facts["cinemaDNG"]?["timeCode"]?.string == codes[2])
        // Refused before anything is captured: no rate, two sensors, a bad reel name, a name without a frame number.
        for (arguments, message) in [(["--frames", "2"], "--cinemadng needs --fps"),
                                     (["--fps", "10", "--reel", "a/b"], "--reel: "),
                                     (["--fps", "48"], "--cinemadng: --fps 48 is outside 1...30"),
                                     (["--fps", "10", "--sensor", "phone-wide", "--sensor", "phone-front"], "--cinemadng records one sensor"),
                                     (["--fps", "10", "--name", "clip-%q"], "--cinemadng needs a --name ending in a sequence number")] {
            let refused = try CLI.run(["capture", "--cinemadng"] + arguments + ["-o", tmp.url.appendingPathComponent("no").path])
            #expect(refused.exitStatus == 2 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: tmp.url.appendingPathComponent("no").path)
                || BurstCLITests.dngs(in: tmp.url.appendingPathComponent("no")).isEmpty)
    }

    @Test("capture --compression auto: the CPU and disk plan's choice follows its own rule, recorded in burst.plan and cached")
    func automaticCompression() throws {
        let tmp = try TemporaryDirectory()
        let cache = tmp.url.appendingPathComponent("cache")
        let profile = try BurstCLITests.smallProfile(in: tmp).path
        let free = try CLI.run(["capture", "--profile", profile] + BurstCLITests.fixed
                               + ["--frames", "2", "-o", tmp.url.appendingPathComponent("free").path, "--json"],
                               environment: ["XDG_CACHE_HOME": cache.path])
        #expect(free.exitStatus == 0, "\(free)")
        let f = try Self.report(free)
        #expect(f["burst"]?["compression"]?["requested"]?.string == "auto")
        #expect(f["burst"]?["compression"]?["reason"]?.string?.hasPrefix("free-running") == true)
        let chosenFree = try #require(f["burst"]?["compression"]?["chosen"]?.string)
        #expect(f["frames"]?.array?.allSatisfy { $0["compression"]?.string == chosenFree } == true)
        // The calibration was measured once and kept: the writer's costs, the sensor's, the disk's.
        let cached = try JSONValue(parsing: Data(contentsOf: cache.appendingPathComponent("rawburst/calibration.json")))
        #expect(cached["frameCosts"]?.object?.count == 1 && cached["sensorMilliseconds"]?.object?.count == 1)
        #expect(cached["disks"]?.object?.values.first?["method"]?.string == "probe")

        let timed = try CLI.run(["capture", "--profile", profile] + BurstCLITests.fixed
                                + ["--frames", "3", "--fps", "10", "--late", "wait", "-o", tmp.url.appendingPathComponent("timed").path,
                                   "--json"], environment: ["XDG_CACHE_HOME": cache.path])
        #expect(timed.exitStatus == 0, "\(timed)")
        let burst = try #require(try Self.report(timed)["burst"])
        let plan = try #require(burst["plan"])
        let cores = try #require(plan["cores"]?.int)
        #expect(plan["budgetMilliseconds"]?.double == Double(cores) * 100)
        #expect(plan["sensorMilliseconds"]?.double ?? 0 > 0)
        // Every compression measured, its bandwidth need the bytes of a trigger at 10 fps.
        let options = try #require(plan["options"]?.array)
        #expect(Set(options.compactMap { $0["compression"]?.string }) == ["none", "packed", "lj92"])
        for o in options {
            let bytes = try #require(o["bytes"]?.int)
            #expect(o["neededMBps"]?.double == (Double(bytes) * 10 / 1e6 * 10).rounded() / 10)
            #expect((o["cpuMilliseconds"]?.double ?? 0) >= (o["cpuMillisecondsShed"]?.double ?? 1))
        }
        // The rule: the fewest bytes that fit 75 % of the cores' time and 90 % of the disk, with the optional work if it fits.
        let disk = try #require(plan["diskMBps"]?.double)
        let usable = Double(cores) * 100 * 0.75
        let sorted = options.sorted { ($0["bytes"]?.int ?? 0) < ($1["bytes"]?.int ?? 0) }
        func fits(_ o: JSONValue, _ work: Bool) -> Bool {
            (o[work ? "cpuMilliseconds" : "cpuMillisecondsShed"]?.double ?? .infinity) <= usable
                && (o["neededMBps"]?.double ?? .infinity) <= disk * 0.9
        }
        let expected = sorted.first { fits($0, true) } ?? sorted.first { fits($0, false) }
        if let expected {
            #expect(plan["compression"]?.string == expected["compression"]?.string, "\(plan)")
            #expect(plan["optionalWork"]?.bool == fits(expected, true))
        }
        #expect(burst["compression"]?["chosen"] == plan["compression"])
        // The prediction agrees with the plan: continuous when the choice fits.
        #expect(burst["prediction"]?["sustainable"]?.bool == true || expected == nil, "\(String(describing: burst["prediction"]))")
        #expect(burst["late"]?.string == "wait")
    }

    @Test("a slow disk: an uncompressed burst is packed first, then its rate lowered, before any frame is dropped")
    func governorPacksOnASlowDisk() throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("pressed")
        // 640x480 10-bit frames at 30 fps need ~19 MB/s uncompressed; a 6 MB/s disk is a third of it. Packed at 10 bits
        // they need 5/8 of that: still too much, so the rate comes down too.
        let result = try CLI.run(["capture", "--profile", try BurstCLITests.smallProfile(in: tmp).path] + BurstCLITests.fixed
                                 + ["--fps", "30", "--late", "wait", "--duration", "3s", "--writers", "1", "--compression", "none",
                                    "--overflow", "drop-newest", "--simulate-disk", "6MB/s", "--memory-budget", "80MiB",
                                    "-o", out.path, "--json"])
        let manifest = try Self.report(result)
        let burst = try #require(manifest["burst"])
        #expect(burst["plan"]?["bottleneck"]?.string == "disk")
        #expect(burst["prediction"]?["sustainable"]?.bool == false)
        let steps = burst["degradations"]?.array ?? []
        let levels = steps.compactMap { $0["level"]?.string }
        #expect(Array(levels.prefix(2)) == ["packed", "lower-rate"], "\(steps)")
        let packedAfter = try #require(steps.first?["afterSequenceNumber"]?.int)
        let kinds = (manifest["frames"]?.array ?? []).compactMap { f in f["compression"]?.string.map { (f["sequenceNumber"]?.int ?? -1, $0) } }
        #expect(kinds.allSatisfy { $0.1 == ($0.0 <= packedAfter ? "none" : "packed") }, "\(kinds)")
        // No frame dropped before the last rung: every pool-full drop comes after the rate was lowered.
        let lowered = try #require(steps.first { $0["level"]?.string == "lower-rate" }?["afterSequenceNumber"]?.int)
        for drop in burst["dropped"]?.array ?? [] {
            #expect((drop["sequenceNumber"]?.int ?? -1) > lowered, "\(drop) before the rate was lowered at \(lowered)")
        }
        // --duration is wall time: the lowered rate made fewer frames, not a longer burst.
        #expect((burst["produced"]?.int ?? 0) < 90 && (burst["statistics"]?["producedFPS"]?.double ?? 0) < 30)
    }
}
