import Foundation
import TestSupport
import Testing

extension CameraCLITests {
    /// Monochrome formats on the stock GigE fake (`arv-fake-gv-camera-0.8`), which starts in Mono8 and also offers
    /// Mono16. Nested in CameraCLITests, which runs its tests one at a time: two fakes on 127.0.0.1 interfere.
    @Suite(.enabled(if: Python.hasModule("rawpy") && Python.hasModule("numpy"), "rawpy and numpy are needed"))
    struct Mono {
        @Test("the stock GigE fake in its default format, Mono8, with no option: 2048x2048 one-colour DNGs of its pattern")
        func gigEDefaultFormat() throws {
            let camera = try FakeGigECamera(serial: "RBMONO1")
            defer { camera.stop() }
            let tmp = try TemporaryDirectory()
            let out = tmp.url.appendingPathComponent("burst")
            let result = try CLI.run(["capture", "--camera", "aravis:\(camera.deviceID)", "--frames", "6", "-o", out.path, "--json"],
                                     timeout: 300)
            #expect([0, 3].contains(result.exitStatus), "\(result)")
            #expect(!result.stderr.contains("monochrome"), "no colour option given, nothing to say: \(result.stderr)")
            let books = try CameraCLITests.books(result.stdout)
            #expect(books.produced == books.written.count + books.drops.count && books.written.count >= 5, "\(books.drops)")
            let manifest = try JSONValue(parsing: Data(contentsOf: out.appendingPathComponent("manifest.json")))
            #expect(manifest["camera"]?["pixelFormat"]?.string == "Mono8" && manifest["camera"]?["width"]?.int == 2048)
            // Frames two ids apart agree after a two-pixel shift (the fake's Mono8 ramp is a function of x + y + id).
            #expect(try MonoCameraCLITests.checkShiftedPairs(out, written: books.written, shape: [2048, 2048]) >= 2)
            let first = out.appendingPathComponent("camera-\(String(format: "%04d", books.written[0])).dng").path
            try MonoCameraCLITests.expectMonochromeTags(first, bits: MonoCameraCLITests.storedBits(manifest, number: books.written[0],
                                                                                                   bits: 8), "GigE Mono8")
        }

        @Test("the stock GigE fake in Mono16: one-colour 16-bit DNGs of its pattern")
        func gigEMono16() throws {
            let camera = try FakeGigECamera(serial: "RBMONO16")
            defer { camera.stop() }
            let tmp = try TemporaryDirectory()
            let out = tmp.url.appendingPathComponent("burst")
            let result = try CLI.run(["capture", "--camera", "aravis:\(camera.deviceID)", "--pixel-format", "Mono16", "--crop",
                                      "256x256+0+0", "--frames", "6", "-o", out.path, "--json"], timeout: 300)
            #expect([0, 3].contains(result.exitStatus), "\(result)")
            let books = try CameraCLITests.books(result.stdout)
            #expect(books.written.count >= 5, "\(books.drops)")
            #expect(try MonoCameraCLITests.checkShiftedPairs(out, written: books.written, shape: [256, 256]) >= 2)
            let first = out.appendingPathComponent("camera-\(String(format: "%04d", books.written[0])).dng").path
            try MonoCameraCLITests.expectMonochromeTags(first, bits: 16, "GigE Mono16")
        }

        @Test("rawburst cameras sorts the stock fake's formats: Bayer, monochrome (Mono8, Mono16), not raw (RGB8)")
        func camerasListing() throws {
            let camera = try FakeGigECamera(serial: "RBMONOLIST")
            defer { camera.stop() }
            let json = try CLI.run(["cameras", "--json"], timeout: 60)
            let entry = (try JSONValue(parsing: Data(json.stdout.utf8)).array ?? []).first {
                $0["device"]?["serialNumber"]?.string == "RBMONOLIST"
            }
            let raw = entry?["rawPixelFormats"]?.array ?? []
            #expect(raw.compactMap { $0["name"]?.string } == ["BayerBG8", "BayerGB8", "BayerGR8", "BayerRG8", "Mono8", "Mono16"])
            #expect(raw.compactMap { $0["colors"]?.string } == ["BGGR", "GBRG", "GRBG", "RGGB", "mono", "mono"])
            #expect(raw.compactMap { $0["bitsPerSample"]?.int } == [8, 8, 8, 8, 8, 16])
            #expect(entry?["pixelFormats"]?.array?.compactMap(\.string).contains("RGB8") == true)
            let text = try CLI.run(["cameras"], timeout: 60)
            #expect(text.stdout.contains("pixel formats: Bayer BayerBG8, BayerGB8, BayerGR8, BayerRG8; monochrome Mono8, Mono16; "
                                         + "not raw (not captured) RGB8 (current Mono8)"), "\(text.stdout)")
        }
    }
}
