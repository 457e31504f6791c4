import Foundation
import Testing
import TestSupport

/// `rawburst capture --source -`: raw frames piped into the command, read back from the DNGs with rawpy and exiftool.
@Suite("capture from a raw stream (issue #19)")
struct StreamCLITests {
    /// Packs samples as the formats' specifications lay them out (V4L2 pixfmt-srggb10p/12p: MIPI CSI-2 RAW10/RAW12;
    /// pixfmt-srggb16: 16-bit little-endian; 8-bit: one byte), independently of the package's unpackers; row padding
    /// is garbage.
    enum Packer {
        static func row(_ p: ArraySlice<UInt16>, format: String) -> [UInt8] {
            let v = Array(p)
            switch format {
            case "SRGGB10_CSI2P":
                return stride(from: 0, to: v.count, by: 4).flatMap { i -> [UInt8] in
                    let q = (0..<4).map { i + $0 < v.count ? v[i + $0] : 0x3FF }
                    return q.map { UInt8($0 >> 2) } + [UInt8((q[3] & 3) << 6 | (q[2] & 3) << 4 | (q[1] & 3) << 2 | q[0] & 3)]
                }
            case "SRGGB12_CSI2P":
                return stride(from: 0, to: v.count, by: 2).flatMap { i -> [UInt8] in
                    let (a, b) = (v[i], i + 1 < v.count ? v[i + 1] : 0xFFF)
                    return [UInt8(a >> 4), UInt8(b >> 4), UInt8((b & 0xF) << 4 | a & 0xF)]
                }
            case "SBGGR16": return v.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            default: return v.map { UInt8($0) }
            }
        }

        static func bits(_ format: String) -> Int {
            switch format {
            case "SRGGB10_CSI2P": 10
            case "SRGGB12_CSI2P": 12
            case "SBGGR16": 16
            default: 8
            }
        }

        /// `count` frames of pseudo-random samples (extremes first) and their bytes.
        static func stream(format: String, width: Int, height: Int, stride: Int?, count: Int) -> (Data, [[UInt16]]) {
            let mask = UInt32((1 << bits(format)) - 1)
            var state: UInt32 = 12345
            var bytes: [UInt8] = []
            var frames: [[UInt16]] = []
            for frame in 0..<count {
                var values: [UInt16] = []
                for i in 0..<(width * height) {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    values.append(UInt16(i == 0 ? 0 : i == 1 ? mask : (state >> 8 ^ UInt32(frame)) & mask))
                }
                frames.append(values)
                for y in 0..<height {
                    var row = Self.row(values[(y * width)..<((y + 1) * width)], format: format)
                    if let stride { row += (0..<(stride - row.count)).map { UInt8(truncatingIfNeeded: 0xA5 &+ $0 * 37) } }
                    bytes += row
                }
            }
            return (Data(bytes), frames)
        }
    }

    /// Runs `cat FILE | rawburst capture --source - ARGS` through a shell pipe (a real pipe on standard input).
    static func capture(_ input: URL, _ arguments: [String]) throws -> ProcessResult {
        try ExternalTool("/bin/sh").run(["-c", "exe=\"$1\"; shift; cat \"$0\" | \"$exe\" capture --source - \"$@\"", input.path, CLI.executable.path]
                                            + arguments, timeout: 300, environment: ["XDG_CACHE_HOME": CLI.cacheHome])
    }

    static func manifest(_ folder: URL) throws -> JSONValue {
        try JSONValue(parsing: Data(contentsOf: folder.appendingPathComponent("manifest.json")))
    }

    /// Each DNG's raw samples (rawpy's raw_image) and its CFA pattern letters.
    static let readScript = """
    import json, sys, rawpy, numpy as np
    out = []
    for path in sys.argv[1:]:
        with rawpy.imread(path) as r:
            colours = r.color_desc.decode()
            out.append({'samples': r.raw_image.astype(int).flatten().tolist(),
                        'pattern': ''.join(colours[i] for i in r.raw_pattern.flatten())})
    print(json.dumps(out))
    """

    @Test("every frame of each format reaches its DNG sample for sample, numbered in order", arguments: [
        ("SRGGB10_CSI2P", 64, 48, 96, 3, "RGGB"),
        ("SRGGB12_CSI2P", 128, 96, 200, 4, "RGGB"),
        ("SBGGR16", 96, 64, nil, 5, "BGGR"),
        ("SGRBG8", 256, 192, nil, 3, "GRBG"),
    ] as [(String, Int, Int, Int?, Int, String)])
    func formats(format: String, width: Int, height: Int, stride: Int?, count: Int, pattern: String) throws {
        let tmp = try TemporaryDirectory()
        let (bytes, frames) = Packer.stream(format: format, width: width, height: height, stride: stride, count: count)
        let input = tmp.url.appendingPathComponent("stream.raw")
        try bytes.write(to: input)
        let out = tmp.url.appendingPathComponent("out")
        let result = try Self.capture(input, ["--format", format, "--size", "\(width)x\(height)"]
                                      + (stride.map { ["--stride", "\($0)"] } ?? [])
                                      + ["-o", out.path, "--json", "--late", "wait", "--memory-budget", "64MiB"])
        #expect(result.exitStatus == 0, "\(result)")
        let manifest = try Self.manifest(out)
        #expect(manifest["burst"]?["produced"]?.int == count && manifest["burst"]?["written"]?.int == count)
        #expect(manifest["frames"]?.array?.compactMap { $0["sequenceNumber"]?.int } == Array(0..<count))
        #expect(manifest["stream"]?["source"]?.string == "stdin" && manifest["stream"]?["format"]?.string == format)
        #expect(manifest["stream"]?["stride"]?.int == stride ?? width * (format == "SBGGR16" ? 2 : 1))
        let paths = (0..<count).map { out.appendingPathComponent(String(format: "stream-%04d.dng", $0)).path }
        let read = try Python.json(script: Self.readScript, arguments: paths)
        for (index, frame) in frames.enumerated() {
            #expect(read[index]?["samples"]?.array?.compactMap(\.int).map { UInt16($0) } == frame, "\(format) frame \(index)")
            #expect(read[index]?["pattern"]?.string == pattern)
        }
    }

    /// Each DNG's visible raw samples, white level and per-channel black levels, as rawpy reads them.
    static let readVisibleScript = """
    import json, sys, rawpy, numpy as np
    out = []
    for path in sys.argv[1:]:
        with rawpy.imread(path) as r:
            colours = r.color_desc.decode()
            out.append({'samples': r.raw_image_visible.astype(int).flatten().tolist(), 'white': int(r.white_level),
                        'black': [int(b) for b in r.black_level_per_channel],
                        'pattern': ''.join(colours[i] for i in r.raw_pattern.flatten())})
    print(json.dumps(out))
    """

    /// PISP_COMP1 frames from the reference encoder (smooth, noisy and hard-edged regions, so every quantisation mode
    /// occurs), rows padded to `stride` with 0xFF, and the values a decoder must give back.
    static func pispStream(width: Int, height: Int, stride: Int, count: Int) -> (Data, [[UInt16]]) {
        var state: UInt32 = 99
        var bytes: [UInt8] = [], frames: [[UInt16]] = []
        for frame in 0..<count {
            let samples = (0..<(width * height)).map { i -> UInt16 in
                state = state &* 1_664_525 &+ 1_013_904_223
                let x = i % width, noise = Int(state >> 16)
                let value = switch (x / 16 + frame) % 4 {
                case 0: 4096 + noise % 48
                case 1: 20000 + x * 150 + noise % 900
                case 2: 50000 + noise % 15000
                default: noise
                }
                return UInt16(clamping: value)
            }
            let encoded = PISPReferenceEncoder.frame(samples, width: width, height: height, stride: stride)
            bytes += encoded.bytes
            frames.append(encoded.decoded)
        }
        return (Data(bytes), frames)
    }

    @Test("a PISP_COMP1 stream (the Raspberry Pi 5's compressed raw) reaches its DNGs as the decoded 16-bit values")
    func pispComp1() throws {
        let tmp = try TemporaryDirectory()
        let (width, height, stride, count) = (100, 24, 128, 4)
        let (bytes, frames) = Self.pispStream(width: width, height: height, stride: stride, count: count)
        let input = tmp.url.appendingPathComponent("stream.raw")
        try bytes.write(to: input)
        let out = tmp.url.appendingPathComponent("out")
        let result = try Self.capture(input, ["--format", "PISP_COMP1_GRBG", "--size", "\(width)x\(height)", "--stride",
                                              "\(stride)", "-o", out.path, "--json", "--late", "wait", "--memory-budget",
                                              "64MiB"])
        #expect(result.exitStatus == 0, "\(result)")
        let manifest = try Self.manifest(out)
        #expect(manifest["burst"]?["written"]?.int == count)
        #expect(manifest["stream"]?["format"]?.string == "GRBG_PISP_COMP1" && manifest["stream"]?["stride"]?.int == stride)
        let paths = (0..<count).map { out.appendingPathComponent(String(format: "stream-%04d.dng", $0)).path }
        let read = try Python.json(script: Self.readVisibleScript, arguments: paths)
        for (index, frame) in frames.enumerated() {
            #expect(read[index]?["samples"]?.array?.compactMap(\.int).map { UInt16($0) } == frame, "frame \(index)")
            #expect(read[index]?["pattern"]?.string == "GRBG" && read[index]?["white"]?.int == 65535)
            #expect(read[index]?["black"]?.array?.compactMap(\.int) == [4096, 4096, 4096, 4096])
        }
        let tags = try ExifTool.tags(of: paths[0])
        #expect(tags["SubIFD:BitsPerSample"]?.double == 16)
    }

    @Test("a PISP_COMP1 frame with an invalid code is dropped as corrupt, naming it; the frames around it are written")
    func pispInvalidCode() throws {
        let tmp = try TemporaryDirectory()
        let (data, _) = Self.pispStream(width: 64, height: 8, stride: 64, count: 4)
        var bytes = [UInt8](data)
        let at = 2 * 64 * 8 + 3 * 64 + 8  // frame 2, row 3, block 1: mode 3 with level 176
        bytes.replaceSubrange(at..<at + 4, with: [0x03, 0xE4, 0x01, 0x00])
        let input = tmp.url.appendingPathComponent("stream.raw")
        try Data(bytes).write(to: input)
        let out = tmp.url.appendingPathComponent("out")
        let result = try Self.capture(input, ["--format", "RGGB_PISP_COMP1", "--size", "64x8", "-o", out.path,
                                              "--late", "wait", "--memory-budget", "64MiB"])
        #expect(result.exitStatus == 3, "\(result)")
        let burst = try Self.manifest(out)["burst"]
        #expect(burst?["produced"]?.int == 4 && burst?["written"]?.int == 3)
        let drops = burst?["dropped"]?.array ?? []
        #expect(drops.count == 1 && drops.first?["sequenceNumber"]?.int == 2 && drops.first?["reason"]?.string == "corrupt")
        let dngs = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".dng") }.sorted()
        #expect(dngs == ["stream-0000.dng", "stream-0001.dng", "stream-0003.dng"])
    }

    @Test("a stream cut short: the partial frame is one incomplete drop, the rest written, exit 3, no partial DNG")
    func truncated() throws {
        let tmp = try TemporaryDirectory()
        let (bytes, _) = Packer.stream(format: "SRGGB12_CSI2P", width: 64, height: 48, stride: 100, count: 4)
        let input = tmp.url.appendingPathComponent("stream.raw")
        try bytes.prefix(3 * 4800 + 999).write(to: input)
        let out = tmp.url.appendingPathComponent("out")
        let result = try Self.capture(input, ["--format", "SRGGB12_CSI2P", "--size", "64x48", "--stride", "100", "-o", out.path,
                                              "--json", "--late", "wait", "--memory-budget", "64MiB"])
        #expect(result.exitStatus == 3, "\(result)")
        let burst = try Self.manifest(out)["burst"]
        #expect(burst?["produced"]?.int == 4 && burst?["written"]?.int == 3)
        let drops = burst?["dropped"]?.array ?? []
        #expect(drops.count == 1 && drops.first?["sequenceNumber"]?.int == 3 && drops.first?["reason"]?.string == "incomplete")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(files == ["journal.jsonl", "manifest.json", "stream-0000.dng", "stream-0001.dng", "stream-0002.dng"])
    }

    @Test("gaps in the --pts file are camera drops numbered in the gap; produced = written + dropped")
    func ptsGaps() throws {
        let tmp = try TemporaryDirectory()
        let (bytes, _) = Packer.stream(format: "SGRBG8", width: 32, height: 16, stride: nil, count: 5)
        let input = tmp.url.appendingPathComponent("stream.raw")
        try bytes.write(to: input)
        let pts = tmp.url.appendingPathComponent("pts.txt")
        // At 10 fps: one frame missing after the first, two after the third.
        try Data("# timecode format v2\n0.000\n200.000\n300.000\n600.000\n700.000\n".utf8).write(to: pts)
        let out = tmp.url.appendingPathComponent("out")
        let result = try Self.capture(input, ["--format", "SGRBG8", "--size", "32x16", "--pts", pts.path, "--fps", "10",
                                              "-o", out.path, "--json", "--late", "wait", "--memory-budget", "64MiB"])
        #expect(result.exitStatus == 3, "\(result)")
        let manifest = try Self.manifest(out)
        let burst = manifest["burst"]
        #expect(burst?["produced"]?.int == 8 && burst?["written"]?.int == 5)
        let drops = (burst?["dropped"]?.array ?? []).map { ($0["sequenceNumber"]?.int ?? -1, $0["reason"]?.string ?? "") }
        #expect(drops.map(\.0) == [1, 4, 5] && drops.allSatisfy { $0.1 == "camera" })
        #expect(manifest["frames"]?.array?.compactMap { $0["sequenceNumber"]?.int } == [0, 2, 3, 6, 7])
    }

    @Test("rpicam's metadata lands in the DNGs: ExposureTime, ISO, AsShotNeutral, BlackLevel")
    func metadata() throws {
        let tmp = try TemporaryDirectory()
        let (bytes, _) = Packer.stream(format: "SRGGB12_CSI2P", width: 64, height: 48, stride: nil, count: 2)
        let input = tmp.url.appendingPathComponent("stream.raw")
        try bytes.write(to: input)
        let json = tmp.url.appendingPathComponent("meta.json")
        try Data("""
            [
            {
                "ExposureTime": 20000,
                "AnalogueGain": 2.000000,
                "ColourGains": [ 2.000000, 1.600000 ],
                "SensorBlackLevels": [ 4096, 4096, 4096, 4096 ],
                "ScalerCrop": "(0, 0)/64x48"
            }
            ,
            {
                "ExposureTime": 5000,
                "AnalogueGain": 8.000000,
                "ColourGains": [ 1.250000, 2.500000 ],
                "SensorBlackLevels": [ 3840, 3904, 3968, 4032 ]
            }
            ]

            """.utf8).write(to: json)
        let out = tmp.url.appendingPathComponent("out")
        let profile = TestPaths.packageRoot.appendingPathComponent("profiles/phone-wide.json").path
        let result = try Self.capture(input, ["--format", "SRGGB12_CSI2P", "--size", "64x48", "--metadata", json.path,
                                              "--profile", profile, "-o", out.path, "--json", "--late", "wait",
                                              "--memory-budget", "64MiB"])
        #expect(result.exitStatus == 0, "\(result)")
        let first = try ExifTool.tags(of: out.appendingPathComponent("phone-wide-0000.dng").path)
        #expect(first["ExifIFD:ExposureTime"]?.double == 0.02)
        #expect(first["ExifIFD:ISO"]?.double == 100) // phone-wide's base ISO is 50 (ISO = base × AnalogueGain)
        #expect(first["IFD0:AsShotNeutral"]?.numbers == [0.5, 1, 0.625])
        #expect(first["SubIFD:BlackLevel"]?.numbers ?? first["SubIFD:BlackLevel"]?.double.map { [$0] } == [256, 256, 256, 256])
        let second = try ExifTool.tags(of: out.appendingPathComponent("phone-wide-0001.dng").path)
        #expect(second["ExifIFD:ExposureTime"]?.double == 0.005 && second["ExifIFD:ISO"]?.double == 400)
        #expect(second["IFD0:AsShotNeutral"]?.numbers == [0.8, 1, 0.4])
        // R, Gr, Gb, B out of 65536 at 12 bits, on RGGB.
        #expect(second["SubIFD:BlackLevel"]?.numbers == [240, 244, 248, 252])
    }

    @Test("bad stream options: one line, exit status 2, nothing created", arguments: [
        (["--source", "-", "--format", "SRGGB13", "--size", "64x48"], "--format: unknown pixel format 'SRGGB13'; known:"),
        (["--source", "-", "--format", "SRGGB12_CSI2P", "--size", "64by48"], "--size must be WIDTHxHEIGHT"),
        (["--source", "-", "--format", "SRGGB12_CSI2P", "--size", "63x48"], "--size: a 63x48 Bayer frame needs an even"),
        (["--source", "-", "--format", "SRGGB12_CSI2P", "--size", "4056x3040", "--stride", "6000"],
         "--stride: 6000 bytes is less than the 6084 bytes a row of 4056 SRGGB12_CSI2P pixels needs"),
        (["--source", "-", "--size", "64x48"], "--source needs --format NAME"),
        (["--source", "-", "--format", "SRGGB12_CSI2P"], "--source needs --size WxH"),
        (["--format", "SRGGB12_CSI2P", "--size", "64x48"], "--format describes a raw stream and needs --source"),
        (["--source", "-", "--format", "SRGGB8", "--size", "64x48", "--sensor", "phone-wide"], "--source takes the place of --sensor"),
        (["--source", "-", "--format", "SRGGB8", "--size", "64x48", "--replay", "x.dng"], "--source takes the place of --replay"),
        (["--source", "-", "--format", "SRGGB8", "--size", "64x48", "--iso", "400"],
         "--iso: a raw stream records what its camera did and cannot set it"),
        (["--source", "-", "--format", "SRGGB8", "--size", "64x48", "--shutter", "1/100"], "--shutter: a raw stream records"),
        (["--source", "-", "--format", "SRGGB8", "--size", "64x48", "--wb", "daylight"], "--wb: a raw stream records"),
        (["--source", "-", "--format", "SRGGB8", "--size", "64x48", "--focus", "2m"], "--focus: a raw stream records"),
        (["--source", "-", "--format", "Y10P", "--size", "1x48"], "--size: a 1x48 frame is outside 2x2...65535x65535"),
        (["--source", "-", "--format", "Y10P", "--size", "1280x800", "--stride", "1599"],
         "--stride: 1599 bytes is less than the 1600 bytes a row of 1280 Y10P pixels needs"),
        (["--source", "-", "--format", "PISP_COMP1_RGGB", "--size", "4056x3040", "--stride", "4050"],
         "--stride: 4050 bytes is less than the 4056 bytes a row of 4056 RGGB_PISP_COMP1 pixels needs"),
        (["--source", "/nonexistent/stream", "--format", "SRGGB8", "--size", "64x48"], "--source: /nonexistent/stream: does not exist"),
    ])
    func badOptions(_ arguments: [String], _ message: String) throws {
        try CaptureCLITests.expectRefusedBeforeCapture(arguments, message)
    }
}
