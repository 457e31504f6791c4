import Foundation
import RawBurst

/// Seeds for the targets that read DNGs and TIFFs: small DNGs as rawburst writes them, in every form the
/// writer has (uncompressed strips, lossless-JPEG tiles, a JPEG preview, a CinemaDNG frame, 10 to 16 bits,
/// every Bayer phase), and the repository's small real raws (samples/raw), each under `maximumBytes`.
public enum DNGSeeds {
    /// Seeds larger than this are left out (libFuzzer's -max_len is set from the largest seed).
    public static let maximumBytes = 256 << 10

    /// Every seed, named.
    public static func all() throws -> [(name: String, bytes: [UInt8])] {
        var seeds: [(String, [UInt8])] = []
        let folder = NSTemporaryDirectory() + "rawburst-fuzz-seeds-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let shapes: [(sensor: String, width: Int, compression: DNGCompression, preview: Int?, cinema: Bool)] = [
            // Widths the profiles allow (the pixel pitch grows as a frame shrinks) that keep a seed small.
            ("phone-wide", 320, .none, nil, false), ("phone-wide", 320, .lj92, nil, false),
            ("phone-front", 256, .none, 64, false), ("phone-tele", 320, .lj92, nil, true),
            ("phone-ultrawide", 256, .none, nil, true), ("phone-ultrawide", 288, .lj92, 96, false),
        ]
        for (index, shape) in shapes.enumerated() {
            guard let profile = SensorProfile.builtIn(named: shape.sensor)?.resized(toWidth: shape.width) else { continue }
            let sensor = try SimulatedSensor(profile: profile, scene: ColorChartScene(), seed: UInt64(index + 1))
            let frame = try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame))
            var options = DNGWriter.Options()
            options.compression = shape.compression
            options.previewLongEdge = shape.preview
            options.thumbnailLongEdge = 32
            options.encodingThreads = 1
            if shape.cinema {
                options.cinemaDNG = try CinemaDNGFrame(reelName: "FUZZ", frameRate: 24,
                                                       timeCode: SMPTETimeCode(frameIndex: index, startSeconds: 0, base: 24))
            }
            let path = folder + "/seed-\(index).dng"
            _ = try DNGWriter(options: options).write(frame.image, to: path)
            let name = "dng-\(shape.sensor)-\(shape.width)-\(shape.compression)\(shape.preview == nil ? "" : "-preview")"
                + (shape.cinema ? "-cinema" : "")
            seeds.append((name, [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
        }
        // The repository's real raws, when the fuzzer runs from a checkout (make fuzz does).
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../samples/raw").standardized.path
        for name in (try? FileManager.default.contentsOfDirectory(atPath: samples))?.sorted() ?? [] {
            guard [".dng", ".kdc", ".gpr"].contains(where: name.lowercased().hasSuffix),
                  let data = FileManager.default.contents(atPath: samples + "/" + name), data.count <= maximumBytes
            else { continue }
            seeds.append(("sample-" + name, [UInt8](data)))
        }
        return seeds
    }
}
