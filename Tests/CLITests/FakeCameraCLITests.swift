import Foundation
import TestSupport
import Testing

/// `rawburst capture --camera aravis:Fake_1` against Aravis's in-process fake camera described by
/// `samples/genicam/rawburst-fake-camera.xml` (4032x3024 RGGB, BayerRG8/10/12/16/10p/12p) and filled with rawburst's
/// known-pixel pattern. No network and no other process: the camera lives in rawburst's own process.
///
/// The pattern, value(x, y, f) for sensor coordinates and the frame id (docs/frame-sources.md), is computed here again in
/// numpy: every sample of every DNG (read by rawpy) must equal it, and each frame's id, found from its first samples,
/// must advance exactly with its sequence number (ids run 1...65535 and wrap to 1), so the unpacking, the region and the
/// numbering are all checked.
@Suite(.serialized, .enabled(if: Python.hasModule("rawpy") && Python.hasModule("numpy"), "rawpy and numpy are needed"))
struct FakeCameraCLITests {
    static let xml = TestPaths.samples.appendingPathComponent("genicam/rawburst-fake-camera.xml").path
    static var environment: [String: String] { ["RAWBURST_FAKE_CAMERA_XML": xml] }

    /// What the check found in one DNG.
    struct Checked {
        let sequenceNumber: Int
        let frameIDs: [Int]
        let mismatches: Int
    }

    /// Reads each written DNG `numbers` of `directory` with rawpy and compares it with the pattern over the region;
    /// also LibRaw's white level, CFA pattern (empty for a monochrome DNG), shape and number of colours.
    static func check(_ directory: URL, numbers: [Int], bits: Int, region: (x: Int, y: Int, width: Int, height: Int))
        throws -> (frames: [Checked], white: Int?, pattern: [[Int]], shape: [Int], colors: Int?) {
        let result = try Python.json(script: """
            import json, sys, os, rawpy, numpy as np
            d, numbers = sys.argv[1], [int(n) for n in sys.argv[2].split(',')]
            bits, x0, y0, w, h = (int(a) for a in sys.argv[3:8])
            MASK = 0xFFFFFFFF
            def mix(h):  # h: uint64 array of 32-bit values
                h = h ^ (h >> 15)
                h = (h * 0x2C1B3C6D) & MASK
                h = h ^ (h >> 13)
                return h >> (32 - bits)
            def field(f):
                xs = np.arange(x0, x0 + w, dtype=np.uint64) * 0x9E3779B1
                ys = np.arange(y0, y0 + h, dtype=np.uint64) * 0x85EBCA77
                return mix((xs[None, :] + ys[:, None] + f * 0xC2B2AE3D) & MASK)
            candidates = np.arange(1, 65536, dtype=np.uint64)
            head = (np.arange(x0, x0 + 16, dtype=np.uint64) * 0x9E3779B1 + y0 * 0x85EBCA77)
            heads = mix((head[None, :] + (candidates * 0xC2B2AE3D)[:, None]) & MASK)
            out = {'frames': []}
            for n in numbers:
                with rawpy.imread(os.path.join(d, 'camera-%04d.dng' % n)) as r:
                    raw = r.raw_image.copy()
                    out['white'] = int(r.white_level)
                    out['pattern'] = r.raw_pattern.tolist() if r.raw_pattern is not None else []
                    out['shape'] = list(raw.shape)
                    out['colors'] = int(r.num_colors)
                ids = [int(f) for f in candidates[(heads == raw[0, :16].astype(np.uint64)).all(axis=1)]]
                bad = int(np.count_nonzero(field(ids[0]) != raw)) if len(ids) == 1 and raw.shape == (h, w) else -1
                out['frames'].append({'n': n, 'ids': ids, 'bad': bad})
            print(json.dumps(out))
            """, arguments: [directory.path, numbers.map(String.init).joined(separator: ","), "\(bits)",
                             "\(region.x)", "\(region.y)", "\(region.width)", "\(region.height)"], timeout: 600)
        let frames = (result["frames"]?.array ?? []).map { frame in
            Checked(sequenceNumber: Int(frame["n"]?.int ?? -1), frameIDs: frame["ids"]?.array?.compactMap(\.int) ?? [],
                    mismatches: Int(frame["bad"]?.int ?? -1))
        }
        return (frames, result["white"]?.int,
                result["pattern"]?.array?.map { $0.array?.compactMap(\.int) ?? [] } ?? [],
                result["shape"]?.array?.compactMap(\.int) ?? [], result["colors"]?.int)
    }

    /// Expects every checked frame to match the pattern exactly, with one frame id each advancing with its sequence
    /// number (ids 1...65535, wrapping to 1).
    static func expectExact(_ frames: [Checked], _ label: String) {
        #expect(!frames.isEmpty, "\(label): nothing checked")
        for frame in frames {
            #expect(frame.frameIDs.count == 1 && frame.mismatches == 0,
                    "\(label): frame \(frame.sequenceNumber): ids \(frame.frameIDs), \(frame.mismatches) samples differ")
        }
        guard let first = frames.first, let id0 = first.frameIDs.first else { return }
        for frame in frames.dropFirst() {
            let expected = (id0 - 1 + frame.sequenceNumber - first.sequenceNumber) % 65535 + 1
            #expect(frame.frameIDs == [expected], "\(label): frame \(frame.sequenceNumber) has id \(frame.frameIDs), not \(expected)")
        }
    }

    static let formats: [(name: String, bits: Int)] = [("BayerRG8", 8), ("BayerRG10", 10), ("BayerRG12", 12), ("BayerRG16", 16),
                                                       ("BayerRG10p", 10), ("BayerRG12p", 12)]

    @Test("every pixel format: each DNG sample equals the pattern, RGGB, white 2^bits-1, produced = written", arguments: formats)
    func exactPixels(format: (name: String, bits: Int)) throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let region = (x: 64, y: 32, width: 768, height: 256)
        let result = try CLI.run(["capture", "--camera", "aravis:Fake_1", "--pixel-format", format.name, "--frames", "5", "--fps", "25",
                                  "--crop", "768x256+64+32", "--late", "wait", "-o", out.path, "--json"],
                                 timeout: 300, environment: Self.environment)
        #expect(result.exitStatus == 0, "\(result)")
        let books = try CameraCLITests.books(result.stdout)
        #expect(books.produced == 5 && books.written == [0, 1, 2, 3, 4] && books.drops.isEmpty, "\(books.drops)")
        // The camera wrote into pool slots (unpacked where they lay: 16-bit words at a slot's start, narrower formats
        // at its end), not into buffers of its own.
        let report = try JSONValue(parsing: Data(result.stdout.utf8))
        let memory = report["burst"]?["memory"]
        #expect((memory?["lentSlots"]?.int ?? 0) >= 4 && memory?["sourceBytes"]?.int == 0, "\(String(describing: memory))")
        // The camera's frame id and clock, as the manifest has them, are in the DNG too.
        let first = report["frames"]?.array?.first { $0["sequenceNumber"]?.int == 0 }
        let id = try #require(first?["cameraFrameID"]?.int), clock = try #require(first?["cameraTimestampNanoseconds"]?.int)
        let tags = try ExifTool.tags(of: out.appendingPathComponent("camera-0000.dng"))
        #expect(tags["IFD0:ImageDescription"]?.string == "camera frame id \(id); camera clock \(clock) ns", "\(tags)")
        let checked = try Self.check(out, numbers: books.written, bits: format.bits, region: region)
        Self.expectExact(checked.frames, format.name)
        #expect(checked.white == (1 << format.bits) - 1)
        #expect(checked.pattern == [[0, 1], [3, 2]])  // RGGB
        #expect(checked.shape == [256, 768])
    }

    @Test("a lossless-JPEG DNG exactly two 256-sample tiles wide reads back exactly in LibRaw (rawpy)")
    func twoTilesWide() throws {
        // LibRaw took a tile of two-component JPEG rows whose components × tile width equal the image width for rows
        // spanning the whole image: at 512 wide every other row came back zero. The writer now makes such a frame one
        // tile across.
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--camera", "aravis:Fake_1", "--pixel-format", "BayerRG12", "--frames", "2",
                                  "--crop", "512x384+0+0", "--compression", "lj92", "--late", "wait", "-o", out.path, "--json"],
                                 timeout: 300, environment: Self.environment)
        #expect(result.exitStatus == 0, "\(result)")
        let books = try CameraCLITests.books(result.stdout)
        let checked = try Self.check(out, numbers: books.written, bits: 12, region: (0, 0, 512, 384))
        Self.expectExact(checked.frames, "BayerRG12 512x384 lj92")
        #expect(checked.shape == [384, 512])
    }

    @Test("the whole 4032x3024 sensor in BayerRG12p: every sample of every DNG equals the pattern")
    func wholeSensor() throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--camera", "aravis:Fake_1", "--pixel-format", "BayerRG12p", "--frames", "3", "--fps", "10",
                                  "--late", "wait", "-o", out.path, "--json"], timeout: 300, environment: Self.environment)
        #expect(result.exitStatus == 0, "\(result)")
        let books = try CameraCLITests.books(result.stdout)
        #expect(books.produced == 3 && books.written == [0, 1, 2], "\(books.drops)")
        let checked = try Self.check(out, numbers: books.written, bits: 12, region: (0, 0, 4032, 3024))
        Self.expectExact(checked.frames, "BayerRG12p 4032x3024")
        #expect(checked.shape == [3024, 4032] && checked.white == 4095)
    }

    @Test("12 MP BayerRG12 at 10 and 30 fps for 2 s: produced = written + dropped, contiguous numbers, ids follow them",
          arguments: [10, 30])
    func rates(fps: Int) throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--camera", "aravis:Fake_1", "--pixel-format", "BayerRG12", "--fps", "\(fps)",
                                  "--duration", "2s", "-o", out.path, "--json"], timeout: 300, environment: Self.environment)
        #expect([0, 3].contains(result.exitStatus), "\(result)")
        let books = try CameraCLITests.books(result.stdout)
        // 2 s of the camera's clock, plus the frames it had already completed into queued buffers when the burst
        // stopped (the source keeps 8; a loaded machine takes them a frame or two late): every one is counted.
        #expect(books.produced >= 2 && books.produced <= 2 * fps + 1 + 8, "produced \(books.produced)")
        #expect(books.produced == books.written.count + books.drops.count)
        #expect((books.written + books.drops.map(\.0)).sorted() == Array(0..<books.produced))
        let known: Set = ["camera", "missing-packets", "timeout", "size-mismatch", "incomplete", "pool-full", "late"]
        #expect(books.drops.allSatisfy { known.contains($0.1) }, "\(books.drops)")
        let manifest = try JSONValue(parsing: Data(contentsOf: out.appendingPathComponent("manifest.json")))
        #expect(manifest["burst"]?["produced"]?.int == books.produced)
        #expect((manifest["burst"]?["dropped"]?.array ?? []).count == books.drops.count)
        // Aravis's own counts: every frame produced came out of a buffer it completed; frames the fake never made for
        // want of a queued buffer are its underruns.
        let camera = manifest["camera"]
        #expect(camera?["inProcessFake"]?.bool == true && camera?["width"]?.int == 4032 && camera?["pixelFormat"]?.string == "BayerRG12")
        #expect((camera?["aravis"]?["completedBuffers"]?.int ?? -1) >= books.produced && camera?["aravis"]?["failedBuffers"]?.int == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".dng") }
        #expect(names.count == books.written.count)
        // The first and the last frame written: exact pixels, and the frame ids apart by their sequence numbers' difference.
        guard let first = books.written.first, let last = books.written.last else { return }
        let checked = try Self.check(out, numbers: first == last ? [first] : [first, last], bits: 12, region: (0, 0, 4032, 3024))
        Self.expectExact(checked.frames, "BayerRG12 at \(fps) fps")
    }
}
