import Foundation
import TestSupport
import Testing

/// `rawburst cameras` and `rawburst capture --camera aravis:ID` against `arv-fake-gv-camera-0.8` on 127.0.0.1.
///
/// The fake camera's BayerRG8 test pattern is a function of x + y + frame id (a frame is the one before moved one
/// pixel towards the top-left), so frames two camera frame ids apart satisfy next(x, y) == previous(x + 2, y) exactly,
/// on the same colour of the mosaic. Sequence numbers advance with frame ids (a lost frame keeps its number), so two
/// written frames whose sequence numbers differ by 2 must satisfy it: this checks the unpacking, the CFA and the
/// numbering at once, on every pixel but the last two columns.
@Suite(.serialized, .enabled(if: FakeGigECamera.missingReason == nil, "arv-fake-gv-camera-0.8 is not installed"))
struct CameraCLITests {
    /// The report of a capture: produced, written and each drop's (sequence number, reason).
    struct Books {
        let produced: Int
        let written: [Int]
        let drops: [(Int, String)]
    }

    static func books(_ stdout: String) throws -> Books {
        let report = try JSONValue(parsing: Data(stdout.utf8))
        let burst = report["burst"]
        let written = (report["frames"]?.array ?? []).compactMap { $0["sequenceNumber"]?.int }.map { Int($0) }
        let drops = (burst?["dropped"]?.array ?? []).compactMap { drop -> (Int, String)? in
            guard let n = drop["sequenceNumber"]?.int, let reason = drop["reason"]?.string else { return nil }
            return (Int(n), reason)
        }
        return Books(produced: Int(burst?["produced"]?.int ?? -1), written: written.sorted(), drops: drops)
    }

    /// Checks the pattern on every pair of written frames two sequence numbers apart; returns how many pairs.
    static func checkPattern(_ directory: URL, written: [Int], shape: [Int] = [2048, 2048]) throws -> Int {
        let result = try Python.json(script: """
            import json, sys, os, rawpy, numpy as np
            d, numbers = sys.argv[1], [int(n) for n in sys.argv[2].split(',')]
            frames = {}
            for n in numbers:
                with rawpy.imread(os.path.join(d, 'camera-%04d.dng' % n)) as r:
                    frames[n] = (r.raw_image.copy(), r.raw_pattern.tolist(), r.raw_image.shape)
            pairs = [(n, n + 2) for n in numbers if n + 2 in frames]
            bad = [p for p in pairs if not np.array_equal(frames[p[1]][0][:, :-2], frames[p[0]][0][:, 2:])]
            print(json.dumps({'pairs': len(pairs), 'bad': bad, 'shape': list(frames[numbers[0]][2]),
                              'pattern': frames[numbers[0]][1], 'max': int(max(f[0].max() for f in frames.values()))}))
            """, arguments: [directory.path, written.map(String.init).joined(separator: ",")], timeout: 300)
        #expect(result["bad"]?.array?.isEmpty == true, "pairs whose pattern does not follow: \(String(describing: result["bad"]))")
        #expect(result["shape"]?.array?.compactMap(\.int) == shape)
        #expect(result["pattern"]?.array?.map { $0.array?.compactMap(\.int) ?? [] } == [[0, 1], [3, 2]])  // RGGB
        #expect(result["max"]?.int == 255)
        return Int(result["pairs"]?.int ?? 0)
    }

    @Test("cameras --json lists the fake camera with its vendor, model, serial and Bayer formats")
    func camerasJSON() throws {
        let camera = try FakeGigECamera(serial: "RBLIST1")
        defer { camera.stop() }
        let result = try CLI.run(["cameras", "--json"], timeout: 60)
        #expect(result.exitStatus == 0, "\(result)")
        let list = try JSONValue(parsing: Data(result.stdout.utf8)).array ?? []
        let entry = list.first { $0["device"]?["serialNumber"]?.string == "RBLIST1" }
        #expect(entry?["device"]?["id"]?.string == "Aravis-Fake-RBLIST1")
        #expect(entry?["device"]?["vendor"]?.string == "Aravis" && entry?["device"]?["model"]?.string == "Fake")
        #expect(entry?["device"]?["transport"]?.string == "GigEVision" && entry?["device"]?["address"]?.string == "127.0.0.1")
        #expect(entry?["pixelFormats"]?.array?.compactMap(\.string)
                    == ["BayerBG8", "BayerGB8", "BayerGR8", "BayerRG8", "Mono8", "RGB8", "Mono16"])
        #expect(entry?["sensorWidth"]?.int == 2048 && entry?["sensorHeight"]?.int == 2048)
        #expect(entry?["frameRate"]?["max"]?.double == 1000 && entry?["gain"]?["max"]?.double == 10)
        // Aravis's stock fake: FrameStart triggers from Line0 or Software, binning 1...16 each way, no BalanceRatio.
        #expect(entry?["triggerSources"]?.array?.compactMap(\.string) == ["Line0", "Software"])
        #expect(entry?["binningHorizontal"]?["min"]?.double == 1 && entry?["binningHorizontal"]?["max"]?.double == 16)
        #expect(entry?["binningVertical"]?["max"]?.double == 16 && entry?["balanceRatio"]?.bool == false)
    }

    @Test("--trigger software on the GigE fake: it sends one frame per TriggerSoftware, every one written, ids consecutive")
    func softwareTrigger() throws {
        let camera = try FakeGigECamera(serial: "RBTRIG1")
        defer { camera.stop() }
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--camera", "aravis:\(camera.deviceID)", "--pixel-format", "BayerRG8", "--crop",
                                  "256x256+0+0", "--trigger", "software", "--frames", "5", "-o", out.path, "--json"], timeout: 120)
        #expect(result.exitStatus == 0, "\(result)")
        let books = try Self.books(result.stdout)
        #expect(books.produced == 5 && books.written == Array(0..<5), "\(books.drops)")
        let manifest = try JSONValue(parsing: Data(contentsOf: out.appendingPathComponent("manifest.json")))
        #expect(manifest["camera"]?["trigger"]?.string == "software")
        // Untriggered, the fake sends nothing: the stream completed exactly the five frames triggered.
        #expect(manifest["camera"]?["aravis"]?["completedBuffers"]?.int == 5)
        let ids = (manifest["frames"]?.array ?? []).compactMap { $0["cameraFrameID"]?.int }
        #expect(ids.count == 5 && zip(ids, ids.dropFirst()).allSatisfy { $1 == $0 % 65535 + 1 }, "\(ids)")
    }

    @Test("capture --camera lands the fake camera's frames as DNGs with its exact samples; every frame is counted")
    func captureFrames() throws {
        let camera = try FakeGigECamera(serial: "RBCAP1")
        defer { camera.stop() }
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--camera", "aravis:\(camera.deviceID)", "--pixel-format", "BayerRG8",
                                  "--frames", "20", "--fps", "25", "--iso", "200", "--shutter", "1/100", "-o", out.path, "--json"],
                                 timeout: 300)
        #expect([0, 3].contains(result.exitStatus), "\(result)")
        let books = try Self.books(result.stdout)
        #expect(books.produced == books.written.count + books.drops.count)
        #expect((books.written + books.drops.map(\.0)).sorted() == Array(0..<books.produced))
        #expect(books.written.count >= 18, "loopback lost more than expected: \(books.drops)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".dng") }
        #expect(names.count == books.written.count)
        #expect(try Self.checkPattern(out, written: books.written) >= 14)
        // Camera identity and exposure in the DNG: make, model, serial, ISO 200 (gain 6.02 dB), 1/100 s.
        let tags = try Python.json(script: """
            import json, sys, tifffile
            with tifffile.TiffFile(sys.argv[1]) as t:
                p = t.pages[0].tags
                exif = p['ExifTag'].value if 'ExifTag' in p else {}
                print(json.dumps({'make': p['Make'].value, 'model': p['Model'].value,
                                  'iso': exif.get('ISOSpeedRatings'), 'exposure': list(exif.get('ExposureTime', [0, 1]))}))
            """, arguments: [out.appendingPathComponent("camera-\(String(format: "%04d", books.written[0])).dng").path])
        #expect(tags["make"]?.string == "Aravis" && tags["model"]?.string == "Fake")
        #expect(tags["iso"]?.int == 200)
        // Each frame's camera frame id and timestamp in the manifest: ids step with sequence numbers (a lost frame
        // keeps its number), and the camera's clock runs forward.
        let report = try JSONValue(parsing: Data(result.stdout.utf8))
        // The stream's buffers are pool slots (a quarter of the pool, 4 to 16, none of Aravis's own memory): the
        // memory plan counts only the 4 MiB socket buffer beside them.
        let memory = report["burst"]?["memory"]
        #expect(memory?["sourceBytes"]?.int == 4 << 20, "\(String(describing: memory))")
        let slots = memory?["slots"]?.int ?? 0
        #expect(memory?["lentSlots"]?.int == min(16, max(4, slots / 4)), "\(String(describing: memory))")
        let stamps = (report["frames"]?.array ?? []).compactMap { frame -> (UInt64, UInt64, UInt64)? in
            guard let n = frame["sequenceNumber"]?.int, let id = frame["cameraFrameID"]?.int,
                  let t = frame["cameraTimestampNanoseconds"]?.int else { return nil }
            return (UInt64(n), UInt64(id), UInt64(t))
        }.sorted { $0.0 < $1.0 }
        #expect(stamps.count == books.written.count)
        for (a, b) in zip(stamps, stamps.dropFirst()) {
            #expect(b.1 - a.1 == b.0 - a.0 || b.1 < a.1, "ids \(a.1) → \(b.1) for numbers \(a.0) → \(b.0)")
            #expect(b.2 > a.2, "camera time \(a.2) → \(b.2)")
        }
    }

    @Test("issue #33: --iso 190 on GainRaw sets the nearest step (4, ISO 200), not Aravis's cut (3, ISO 175), says so; no f/0.0")
    func isoOnGainSteps() throws {
        let camera = try FakeGigECamera(serial: "RBISO1")
        defer { camera.stop() }
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        // The profile's raw gain table: GainRaw 0 → ISO 100, 4 → 200, 10 → 800; ISO 190 asks GainRaw 3.6.
        let profile = TestPaths.packageRoot.appendingPathComponent("samples/genicam/rawburst-fake-camera-profile.json").path
        let arguments = ["capture", "--camera", "aravis:\(camera.deviceID)", "--pixel-format", "BayerRG8", "--crop", "512x384+0+0",
                         "--frames", "3", "--fps", "10", "--iso", "190", "--shutter", "1/100", "--profile", profile, "-o"]
        let result = try CLI.run(arguments + [out.path], timeout: 300)
        #expect([0, 3].contains(result.exitStatus), "\(result)")
        let settingsLine = result.stdout.split(separator: "\n").first { $0.contains("ISO ") } ?? ""
        #expect(settingsLine.contains("ISO 200 (asked for 190"), "\(result.stdout)")
        #expect(!result.stdout.contains("f/"), "no aperture for a camera without one: \(result.stdout)")
        let manifest = try JSONValue(parsing: try Data(contentsOf: out.appendingPathComponent("manifest.json")))
        let frames = try #require(manifest["frames"]?.array)
        #expect(!frames.isEmpty && frames.allSatisfy { $0["settings"]?["iso"]?.double == 200 }, "\(frames.map { $0["settings"]?["iso"] })")
        let dng = out.appendingPathComponent("camera-\(String(format: "%04d", frames[0]["sequenceNumber"]?.int ?? 0)).dng").path
        #expect(try ExifTool.tags(of: dng, extraArguments: ["-n"])["ExifIFD:ISO"]?.int == 200)
        let inspect = try CLI.run(["inspect", dng])
        #expect(inspect.exitStatus == 0 && inspect.stdout.contains("ISO") && !inspect.stdout.contains("Aperture")
                && !inspect.stdout.contains("f/0"), "\(inspect.stdout)")
        // An ISO on a step is set as asked, and says nothing more.
        let exact = try CLI.run(arguments.map { $0 == "190" ? "200" : $0 } + [tmp.url.appendingPathComponent("exact").path], timeout: 300)
        #expect(exact.stdout.contains("ISO 200, ") && !exact.stdout.contains("asked for"), "\(exact.stdout)")
    }

    @Test("a starved burst (tiny pool, slow disk, drop-newest) counts every lost frame; numbers stay contiguous")
    func starved() throws {
        let camera = try FakeGigECamera(serial: "RBSTARVE1")
        defer { camera.stop() }
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--camera", "aravis:\(camera.deviceID)", "--pixel-format", "BayerRG8", "--frames", "40", "--fps", "50",
                                  "--memory-budget", "120MB", "--simulate-disk", "20MB/s", "--overflow", "drop-newest",
                                  "--no-governor", "-o", out.path, "--json"], timeout: 300)
        #expect(result.exitStatus == 3, "\(result)")
        let books = try Self.books(result.stdout)
        #expect(books.produced == books.written.count + books.drops.count)
        #expect((books.written + books.drops.map(\.0)).sorted() == Array(0..<books.produced))
        #expect(books.drops.contains { $0.1 == "pool-full" }, "\(books.drops)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".dng") }
        #expect(names.count == books.written.count)
    }

    @Test("packets the fake camera loses make damaged frames: counted as missing-packets, never written")
    func packetLoss() throws {
        // 2 % of the packets lost, none resent: a 256x256 region is 47 packets, so about 4 frames in 10 arrive whole
        // (a whole 2048x2048 frame, 3000 packets, never would).
        let camera = try FakeGigECamera(serial: "RBLOSS1", lostPacketsPerThousand: 20)
        defer { camera.stop() }
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--camera", "aravis:\(camera.deviceID)", "--pixel-format", "BayerRG8", "--frames", "30", "--fps", "25",
                                  "--crop", "256x256+0+0", "-o", out.path, "--json"], timeout: 300)
        #expect(result.exitStatus == 3, "\(result)")
        let books = try Self.books(result.stdout)
        #expect(books.produced == books.written.count + books.drops.count)
        #expect((books.written + books.drops.map(\.0)).sorted() == Array(0..<books.produced))
        #expect(books.drops.contains { $0.1 == "missing-packets" }, "\(books.drops)")
        // Frames and losses are in one ledger, under the sensor name the files carry.
        let burst = try JSONValue(parsing: Data(result.stdout.utf8))["burst"]
        #expect((burst?["dropped"]?.array ?? []).allSatisfy { $0["sensor"]?.string == "camera" }, "\(String(describing: burst?["dropped"]))")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".dng") }.sorted()
        #expect(names == books.written.map { "camera-\(String(format: "%04d", $0)).dng" })
        #expect(books.written.count == 30)
        if books.written.count >= 2 { _ = try Self.checkPattern(out, written: books.written, shape: [256, 256]) }
    }

    @Test("a camera that cannot take a setting is refused before the burst, in one line naming the feature (exit 2)")
    func refusedSettings() throws {
        let camera = try FakeGigECamera(serial: "RBREFUSE1")
        defer { camera.stop() }
        let tmp = try TemporaryDirectory()
        let result = try CLI.run(["capture", "--camera", "aravis:\(camera.deviceID)", "--pixel-format", "BayerRG8", "--iso", "6400",
                                  "-o", tmp.url.appendingPathComponent("b").path], timeout: 60)
        #expect(result.exitStatus == 2)
        #expect(result.stderr.contains("Gain") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tmp.url.appendingPathComponent("b").path))
        let missing = try CLI.run(["capture", "--camera", "aravis:NoSuchCamera", "-o", tmp.url.appendingPathComponent("c").path],
                                  timeout: 60)
        #expect(missing.exitStatus == 2 && missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
        // A format that is not raw (RGB8) is refused, naming the raw formats the camera offers.
        let rgb = try CLI.run(["capture", "--camera", "aravis:\(camera.deviceID)", "--pixel-format", "RGB8",
                               "-o", tmp.url.appendingPathComponent("e").path], timeout: 60)
        #expect(rgb.exitStatus == 2 && rgb.stderr.split(separator: "\n").count == 1, "\(rgb.stderr)")
        #expect(rgb.stderr.contains("--pixel-format: unknown pixel format \"RGB8\""), "\(rgb.stderr)")
        // A region the sensor does not have, at an odd offset, or with sizes that overflow: refused before the burst,
        // naming the features.
        for crop in ["4096x256+0+0", "256x256+1+0", "9223372036854775806x2+2+0"] {
            let bad = try CLI.run(["capture", "--camera", "aravis:\(camera.deviceID)", "--pixel-format", "BayerRG8", "--crop", crop,
                                   "-o", tmp.url.appendingPathComponent("d").path], timeout: 60)
            #expect(bad.exitStatus == 2 && bad.stderr.contains("OffsetX") && bad.stderr.split(separator: "\n").count == 1,
                    "\(crop): \(bad.stderr)")
        }
    }

    @Test("a link that damages every frame fails the burst after 100 in a row, each counted, none written (exit 1)")
    func everyFrameDamaged() throws {
        // 20 % of the packets lost: a whole 2048x2048 frame (3000 packets) never arrives whole.
        let camera = try FakeGigECamera(serial: "RBDAMAGE1", lostPacketsPerThousand: 200)
        defer { camera.stop() }
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--camera", "aravis:\(camera.deviceID)", "--pixel-format", "BayerRG8", "--frames", "5",
                                  "--fps", "25", "-o", out.path, "--json"], timeout: 300)
        #expect(result.exitStatus == 1, "\(result)")
        #expect(result.stderr.contains("100 frames in a row arrived damaged"), "\(result.stderr)")
        let books = try Self.books(result.stdout)
        #expect(books.written.isEmpty && books.produced == books.drops.count && books.produced >= 100)
        // The 100 are damaged buffers (mostly missing packets; one may have timed out); frame ids the camera skipped
        // besides are counted as `camera`.
        let damaged = books.drops.filter { $0.1 != "camera" }
        #expect(damaged.count == 100 && damaged.allSatisfy { ["missing-packets", "timeout", "size-mismatch"].contains($0.1) },
                "\(books.drops.map(\.1))")
        #expect(damaged.filter { $0.1 == "missing-packets" }.count >= 90)
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".dng") }
        #expect(names.isEmpty)
    }
}
