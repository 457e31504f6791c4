import Foundation
import Testing
import TestSupport

/// `rawburst capture --source -` with a monochrome sensor's stream (V4L2 GREY, Y10 ... Y16, the CSI-2 packed Y10P,
/// Y12P, Y14P): frames packed here by hand from the kernel's luma-only format page (pixfmt-yuv-luma), piped in, read
/// back from the DNGs with rawpy (LibRaw): one colour, every sample the one sent.
@Suite("capture from a monochrome raw stream (issue #33)",
       .enabled(if: Python.hasModule("rawpy") && Python.hasModule("numpy"), "rawpy and numpy are needed"))
struct MonoStreamCLITests {
    /// Packs samples as pixfmt-yuv-luma lays them out, independently of the package's unpackers; padding is garbage.
    enum Packer {
        static func row(_ v: [UInt16], format: String) -> [UInt8] {
            switch format {
            case "Y10P", "R10_CSI2P":  // MIPI CSI-2 RAW10, as the Bayer SRGGB10_CSI2P
                return StreamCLITests.Packer.row(ArraySlice(v), format: "SRGGB10_CSI2P")
            case "Y14P":  // Y[13:6] of four pixels, then Y1[1:0] Y0[5:0], Y2[3:0] Y1[5:2], Y3[5:0] Y2[5:4]
                return stride(from: 0, to: v.count, by: 4).flatMap { i -> [UInt8] in
                    let q = (0..<4).map { i + $0 < v.count ? v[i + $0] : 0x3FFF }
                    return q.map { UInt8($0 >> 6) } + [UInt8((q[1] & 3) << 6 | q[0] & 0x3F),
                                                       UInt8((q[2] & 0xF) << 4 | q[1] >> 2 & 0xF),
                                                       UInt8((q[3] & 0x3F) << 2 | q[2] >> 4 & 3)]
                }
            case "GREY": return v.map { UInt8($0) }
            default: return v.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }  // Y12, Y16: low byte first
            }
        }

        static func bits(_ format: String) -> Int {
            switch format {
            case "GREY": 8
            case "Y12": 12
            case "Y14P": 14
            case "Y16": 16
            default: 10
            }
        }

        /// `count` frames of pseudo-random samples (0 and the maximum first), each row padded to `stride`.
        static func stream(format: String, width: Int, height: Int, stride: Int?, count: Int) -> (Data, [[UInt16]]) {
            let mask = UInt32((1 << bits(format)) - 1)
            var state: UInt32 = 777
            var bytes: [UInt8] = [], frames: [[UInt16]] = []
            for _ in 0..<count {
                let values = (0..<(width * height)).map { i -> UInt16 in
                    state = state &* 1_664_525 &+ 1_013_904_223
                    return UInt16(i == 0 ? 0 : i == 1 ? mask : state >> 7 & mask)
                }
                frames.append(values)
                for y in 0..<height {
                    var row = Self.row(Array(values[(y * width)..<((y + 1) * width)]), format: format)
                    if let stride { row += (0..<(stride - row.count)).map { UInt8(truncatingIfNeeded: 0x5A &+ $0 * 13) } }
                    bytes += row
                }
            }
            return (Data(bytes), frames)
        }
    }

    /// Each DNG's samples, colours, white and black level as LibRaw reads them.
    static let readScript = """
    import json, sys, rawpy, numpy as np
    out = []
    for path in sys.argv[1:]:
        with rawpy.imread(path) as r:
            out.append({'samples': r.raw_image.astype(int).flatten().tolist(), 'colors': int(r.num_colors),
                        'white': int(r.white_level), 'black': [float(b) for b in r.black_level_per_channel],
                        'shape': list(r.raw_image.shape)})
    print(json.dumps(out))
    """

    @Test("each monochrome format's frames reach one-colour DNGs sample for sample; the stream's levels", arguments: [
        ("Y10P", 320, 200, 416, 3),  // an OV9281's Y10P (R10_CSI2P) with padded rows, smaller
        ("R10_CSI2P", 64, 48, nil, 2),
        ("GREY", 37, 23, 40, 2),  // odd sizes: a monochrome frame has no 2x2 period (LibRaw reads 22x22 and up)
        ("Y12", 48, 24, nil, 2),
        ("Y14P", 30, 22, 64, 2),
        ("Y16", 32, 24, nil, 2),
    ] as [(String, Int, Int, Int?, Int)])
    func formats(format: String, width: Int, height: Int, stride: Int?, count: Int) throws {
        let tmp = try TemporaryDirectory()
        let (bytes, frames) = Packer.stream(format: format, width: width, height: height, stride: stride, count: count)
        let input = tmp.url.appendingPathComponent("stream.raw")
        try bytes.write(to: input)
        let out = tmp.url.appendingPathComponent("out")
        let result = try StreamCLITests.capture(input, ["--format", format, "--size", "\(width)x\(height)"]
                                                + (stride.map { ["--stride", "\($0)"] } ?? [])
                                                + ["--compression", "packed", "-o", out.path, "--json", "--late", "wait",
                                                   "--memory-budget", "64MiB"])
        #expect(result.exitStatus == 0, "\(result)")
        let manifest = try StreamCLITests.manifest(out)
        #expect(manifest["burst"]?["produced"]?.int == count && manifest["burst"]?["written"]?.int == count)
        #expect(manifest["stream"]?["cfa"]?.string == "mono" && manifest["colorCalibration"]?["monochrome"]?.bool == true)
        let paths = (0..<count).map { out.appendingPathComponent(String(format: "stream-%04d.dng", $0)).path }
        let read = try Python.json(script: Self.readScript, arguments: paths)
        let bits = Packer.bits(format)
        for (index, frame) in frames.enumerated() {
            #expect(read[index]?["samples"]?.array?.compactMap(\.int).map { UInt16($0) } == frame, "\(format) frame \(index)")
            #expect(read[index]?["colors"]?.int == 1 && read[index]?["shape"]?.array?.compactMap(\.int) == [height, width])
            #expect(read[index]?["white"]?.int == (1 << bits) - 1, "\(format)")
            // No metadata: 4096 of 65536 scaled to the bits (64 at 10 bits).
            #expect(read[index]?["black"]?.array?.first?.double == Double(4096 >> (16 - bits)), "\(format)")
        }
        try MonoCameraCLITests.expectMonochromeTags(paths[0], bits: MonoCameraCLITests.storedBits(manifest, number: 0, bits: bits),
                                                    format)
    }

    @Test("metadata and a profile on a monochrome stream: exposure, ISO and one black level; no colour, said once")
    func metadataAndProfile() throws {
        let tmp = try TemporaryDirectory()
        let (bytes, _) = Packer.stream(format: "Y10P", width: 64, height: 16, stride: nil, count: 1)
        let input = tmp.url.appendingPathComponent("stream.raw")
        try bytes.write(to: input)
        let json = tmp.url.appendingPathComponent("meta.json")
        try Data("""
            [
            {
                "ExposureTime": 8000,
                "AnalogueGain": 4.000000,
                "ColourGains": [ 2.000000, 1.600000 ],
                "SensorBlackLevels": [ 4096, 4096, 4096, 4096 ]
            }
            ]

            """.utf8).write(to: json)
        let out = tmp.url.appendingPathComponent("out")
        let profile = TestPaths.packageRoot.appendingPathComponent("profiles/phone-wide.json").path
        let result = try StreamCLITests.capture(input, ["--format", "Y10P", "--size", "64x16", "--metadata", json.path,
                                                        "--profile", profile, "--compression", "packed", "-o", out.path,
                                                        "--late", "wait",
                                                        "--memory-budget", "64MiB"])
        #expect(result.exitStatus == 0, "\(result)")
        #expect(result.stderr.contains("its colour matrices are not used: Y10P is monochrome"), "\(result.stderr)")
        let dng = out.appendingPathComponent("phone-wide-0000.dng").path
        try MonoCameraCLITests.expectMonochromeTags(dng, bits: 10, "Y10P with a profile")
        let tags = try ExifTool.tags(of: dng, extraArguments: ["-n"])
        #expect(tags["ExifIFD:ExposureTime"]?.double == 0.008 && tags["ExifIFD:ISO"]?.double == 200) // base ISO 50 × 4
        #expect(tags["SubIFD:BlackLevel"]?.double == 64 && tags["SubIFD:WhiteLevel"]?.int == 1023, "\(tags)")
        #expect(tags["IFD0:Make"] != nil && tags["IFD0:ProfileName"] == nil)
    }
}
