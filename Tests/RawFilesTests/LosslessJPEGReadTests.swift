import Foundation
import RawCore
import RawDNG
@testable import RawFiles
import RawSimulator
import RawSources
import RawTIFF
import TestSupport
import Testing

/// Lossless-JPEG DNGs read through RawDNG's decoder (the default) give exactly what LibRaw's unpack gives: ours
/// in tiles, PiDNG's (its lj92 encoder, another writer entirely) and CinemaDNG frames. Corrupt coded data is an
/// error naming the tile, where LibRaw 0.20 returns wrong pixels.
@Suite("Reading lossless-JPEG DNGs")
struct LosslessJPEGReadTests {
    private func compareWithLibRaw(_ path: String, expectDirect: Bool = true) throws {
        let name = (path as NSString).lastPathComponent
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let facts = try #require(try TIFFRawFacts.inspect(path: path, head: [UInt8](bytes.prefix(16))))
        #expect((LosslessJPEGCFASamples(facts) != nil) == expectDirect, "\(name)")
        if expectDirect, let layout = LosslessJPEGCFASamples(facts) {
            // Our decoder really decodes it (a mismatch would silently hand the file to LibRaw).
            switch layout.read(from: [UInt8](bytes), threads: 2) {
            case .success: break
            case .failure(let failure): Issue.record("\(name): our decoder did not decode it: \(failure)")
            }
        }
        let ours = try RawFileReader().read(path: path)
        let libRaw = try RawFileReader(decodesLosslessJPEGDirectly: false).read(path: path)
        let (a, b) = (ours.frame, libRaw.frame)
        #expect((a.width, a.height) == (b.width, b.height) && a.cfa == b.cfa && a.activeArea == b.activeArea, "\(name)")
        #expect(a.blackLevels == b.blackLevels && a.whiteLevel == b.whiteLevel, "\(name)")
        #expect(a.storage.count == b.storage.count
                && memcmp(a.storage.baseAddress, b.storage.baseAddress, a.storage.count * 2) == 0, "\(name): samples differ from LibRaw's")
        #expect(ours.metadata == libRaw.metadata && ours.calibration == libRaw.calibration, "\(name)")
    }

    private func write(_ image: RawImage, to path: String, cinema: CinemaDNGFrame? = nil) throws {
        var options = DNGWriter.Options()
        options.compression = .lj92
        options.cinemaDNG = cinema
        try DNGWriter(options: options).write(image, to: path)
    }

    @Test("our tiled DNGs (every Bayer phase, X-Trans, edge tiles, a simulator frame, a CinemaDNG frame) match LibRaw")
    func ourFilesMatchLibRaw() throws {
        let tmp = try TemporaryDirectory()
        for (cfa, bits, w, h) in [(CFALayout.rggb, 10, 300, 200), (.grbg, 12, 513, 257), (.gbrg, 14, 256, 256),
                                  (.bggr, 16, 130, 700), (.xTrans, 14, 312, 204)] {
            let image = try SyntheticRaw.image(cfa: cfa, bits: bits, width: w, height: h)
            let path = tmp.url.appendingPathComponent("lj92-\(cfa)-\(bits).dng").path
            try write(image, to: path)
            try compareWithLibRaw(path)
            // And both give exactly what was written.
            let read = try RawFileReader().read(path: path).frame
            #expect(memcmp(read.storage.baseAddress, image.frame.storage.baseAddress, w * h * 2) == 0, "\(cfa) \(bits)")
        }
        let sensor = try SimulatedSensor(profile: SensorProfile.builtIn(named: "phone-front")!,
                                         scene: SceneCatalog.scene(named: "depth"), seed: 3)
        try sensor.configure(CaptureSettings(iso: 400, shutter: 1.0 / 120, focus: .metres(1)))
        let simulated = try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame)).image
        let path = tmp.url.appendingPathComponent("phone-front.dng").path
        try write(simulated, to: path)
        try compareWithLibRaw(path)
        let clip = tmp.url.appendingPathComponent("A001_0000012.dng").path
        try write(simulated, to: clip, cinema: try CinemaDNGFrame(reelName: "A001", frameRate: 25,
                                                                  timeCode: SMPTETimeCode(frameIndex: 12, startSeconds: 3600, base: 25)))
        try compareWithLibRaw(clip)
    }

    @Test("PiDNG's lossless-JPEG DNGs (its lj92 encoder: predictor 6, two Bayer rows per JPEG row) read exactly",
          .enabled(if: ToolAvailability.hasPythonModules("pidng", "numpy")))
    func piDNGLosslessJPEG() throws {
        let tmp = try TemporaryDirectory()
        for (pattern, bits) in [("RGGB", 12), ("GRBG", 10), ("BGGR", 14)] {
            let fixture = try PiDNG.make(in: tmp.url, pattern: pattern, bits: bits, width: 96, height: 64, seed: bits,
                                         losslessJPEG: true)
            let bytes = [UInt8](try Data(contentsOf: fixture.dng))
            let raw = try #require(try TIFFStructure(bytes: bytes).rawDirectory)
            #expect(raw.integer(TIFFTag.compression) == 7, "PiDNG \(pattern) \(bits): not lossless JPEG")
            try compareWithLibRaw(fixture.dng.path)
            let image = try RawFileReader().read(path: fixture.dng.path)
            let read = Array(UnsafeBufferPointer(start: image.frame.storage.baseAddress, count: image.frame.storage.count))
            #expect(read == fixture.samples, "PiDNG \(pattern) \(bits)")
        }
    }

    @Test("a flipped bit that still decodes is caught by NewRawImageDigest, as Adobe's SDK catches it; LibRaw reads on")
    func digestCatchesSilentDamage() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.url.appendingPathComponent("whole.dng").path
        var options = DNGWriter.Options()
        options.compression = .lj92
        options.rawImageDigest = true
        try DNGWriter(options: options).write(try SyntheticRaw.image(cfa: .rggb, bits: 12, width: 768, height: 512), to: path)
        _ = try RawFileReader().read(path: path)   // intact: the digest matches
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let raw = try #require(try TIFFStructure(bytes: bytes).rawDirectory)
        let offsets = try #require(raw.integers(TIFFTag.tileOffsets)), counts = try #require(raw.integers(TIFFTag.tileByteCounts))
        // Flip single bits in the middle of tile 1's coded data until one decodes without a structural error.
        var damaged: String?
        for k in 0..<64 where damaged == nil {
            var copy = bytes
            let at = offsets[1] + counts[1] / 2 + k * 13
            guard copy[at] != 0xFF, copy[at] ^ 0x08 != 0xFF else { continue }
            copy[at] ^= 0x08
            let candidate = tmp.url.appendingPathComponent("flip-\(k).dng").path
            try Data(copy).write(to: URL(fileURLWithPath: candidate))
            if (try? RawFileReader(verifiesRawImageDigest: false).read(path: candidate)) != nil { damaged = candidate }
        }
        let file = try #require(damaged, "no bit flip decoded cleanly")
        do {
            _ = try RawFileReader().read(path: file)
            Issue.record("damaged data read without an error")
        } catch {
            #expect(error.kind == .corrupt && error.description.contains("NewRawImageDigest"), "\(error)")
        }
        // LibRaw decodes the damaged file without complaint; Adobe's SDK reports the digest mismatch.
        _ = try RawFileReader(decodesLosslessJPEGDirectly: false, verifiesRawImageDigest: false).read(path: file)
        if ToolAvailability.hasPythonModules("dngpy") {
            let adobe = try Python.run(script: "import sys, dngpy; dngpy.Dng(sys.argv[1]).raw_pixels", arguments: [file])
            #expect(adobe.stderr.contains("NewRawImageDigest does not match raw image"), "\(adobe.stderr)")
        }
    }

    @Test("corrupt coded data is an error naming the tile (LibRaw would return wrong pixels)")
    func corruptTile() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.url.appendingPathComponent("whole.dng").path
        try write(try SyntheticRaw.image(cfa: .rggb, bits: 12, width: 768, height: 512), to: path)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let raw = try #require(try TIFFStructure(bytes: bytes).rawDirectory)
        let offsets = try #require(raw.integers(TIFFTag.tileOffsets)), counts = try #require(raw.integers(TIFFTag.tileByteCounts))
        // A marker in the middle of tile 2's entropy-coded data: the data ends early.
        let middle = offsets[2] + counts[2] / 2
        bytes[middle] = 0xFF
        bytes[middle + 1] = 0xD9
        let corrupt = tmp.url.appendingPathComponent("corrupt.dng").path
        try Data(bytes).write(to: URL(fileURLWithPath: corrupt))
        do {
            _ = try RawFileReader().read(path: corrupt)
            Issue.record("a corrupt tile was read without an error")
        } catch {
            #expect(error.kind == .corrupt)
            #expect(error.description.contains("tile 2 of 6") && error.description.contains("truncated"), "\(error)")
            #expect(!error.description.contains("\n"))
        }
    }
}
