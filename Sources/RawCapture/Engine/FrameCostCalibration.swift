import Foundation
import RawCore
import RawDevelop
import RawDNG

/// What one frame costs this machine to write, by compression, measured before a burst: the CPU time (all
/// threads) of `DNGWriter` writing a synthetic camera-like frame with the burst's own options, with and without the
/// optional work (JPEG preview, raw digest), as a fixed part (tags, thumbnail and preview of a fixed size) and a
/// part per sample, which is how the plan scales it to the burst's frames.
///
/// Measured on frames of 512x384 and 1024x768 (the two sizes separate the fixed part from the part per sample),
/// written to a private temporary folder (in memory where there is one: CPU time does not depend on the disk, and
/// the burst's own folder gets nothing that a crash could leave behind) and removed; the result is kept in
/// `CalibrationCache` so later bursts start at once.
public struct FrameCostCalibration: Sendable, Hashable, Codable {
    /// CPU nanoseconds per sample of writing a DNG, by compression name, with the optional work.
    public var fullNanosecondsPerSample: [String: Double]
    /// The same without the optional work (the governor's `no-previews`).
    public var shedNanosecondsPerSample: [String: Double]
    /// The fixed CPU nanoseconds of a write (whatever the frame's size), by compression name, with and without the
    /// optional work.
    public var fullFixedNanoseconds: [String: Double]
    public var shedFixedNanoseconds: [String: Double]
    /// Lossless JPEG's raw data over the uncompressed samples' bytes, on the measured frame.
    public var losslessRatio: Double?
    /// Bytes of a file beyond its raw data (thumbnail, JPEG preview, tags) on the larger measured frame: the same for
    /// any frame at least as large, of the same aspect (``overheadBytes(samples:)`` scales it for smaller ones).
    public var overheadBytes: Int?
    /// The JPEG preview's share of ``overheadBytes`` and its long edge (nil in calibrations cached before they were
    /// measured; no preview: 0 bytes).
    public var previewBytes: Int?
    public var previewLongEdge: Int?

    /// Costs given (from a cache, or a test's figures).
    public init(fullNanosecondsPerSample: [String: Double], shedNanosecondsPerSample: [String: Double],
                fullFixedNanoseconds: [String: Double] = [:], shedFixedNanoseconds: [String: Double] = [:],
                losslessRatio: Double?, overheadBytes: Int?) {
        self.fullNanosecondsPerSample = fullNanosecondsPerSample
        self.shedNanosecondsPerSample = shedNanosecondsPerSample
        self.fullFixedNanoseconds = fullFixedNanoseconds
        self.shedFixedNanoseconds = shedFixedNanoseconds
        self.losslessRatio = losslessRatio
        self.overheadBytes = overheadBytes
    }

    /// The CPU cost of one frame of `samples` samples written with `compression`, in milliseconds of one core.
    public func milliseconds(samples: Int, compression: DNGCompression, shed: Bool) -> Double? {
        let table = shed ? shedNanosecondsPerSample : fullNanosecondsPerSample
        let fixed = (shed ? shedFixedNanoseconds : fullFixedNanoseconds)[compression.rawValue] ?? 0
        return table[compression.rawValue].map { (fixed + $0 * Double(samples)) / 1e6 }
    }

    /// Every figure finite and in range (a cache file edited by hand or damaged is not trusted).
    var isPlausible: Bool {
        let costs = Array(fullNanosecondsPerSample.values) + Array(shedNanosecondsPerSample.values)
        let fixed = Array(fullFixedNanoseconds.values) + Array(shedFixedNanoseconds.values)
        return costs.allSatisfy { $0.isFinite && (0...1_000_000).contains($0) }
            && fixed.allSatisfy { $0.isFinite && (0...1e11).contains($0) }
            && (losslessRatio.map { $0.isFinite && (0...2).contains($0) } ?? true)
            && (overheadBytes.map { (0...(1 << 30)).contains($0) } ?? true)
    }

    /// Bytes beyond the raw data of a frame of `samples` samples (of the measured aspect): the tags as measured, the
    /// thumbnail as the writer sizes it (256 px long edge; half the frame's size for a frame no larger, which dcraw
    /// would otherwise read as the raw image) and the preview in proportion to its pixels against the measured frame's
    /// (a preview is the frame's size up to its long edge). Nil when the calibration has no overhead figure.
    public func overheadBytes(samples: Int) -> Int? {
        guard let total = overheadBytes else { return nil }
        guard let preview = previewBytes, let edge = previewLongEdge else { return total }
        let measured = Self.sizes[1]
        let tags = max(0, total - preview - Self.thumbnailBytes(samples: measured.width * measured.height))
        guard edge > 0 else { return tags + Self.thumbnailBytes(samples: samples) }
        // The long edges of the two previews (4:3 frames): the frame's own, or the preview's limit.
        let longEdge = (Double(samples) * 4 / 3).squareRoot()
        let ratio = min(longEdge, Double(edge)) / min(Double(measured.width), Double(edge))
        return tags + Self.thumbnailBytes(samples: samples) + Int(Double(preview) * ratio * ratio)
    }

    /// The RGB thumbnail's bytes for a 4:3 frame of `samples` samples: 256x192, or a quarter of the frame's pixels for a
    /// frame no larger than that.
    static func thumbnailBytes(samples: Int) -> Int {
        let full = 256 * 192
        return 3 * (samples > full ? full : samples / 4)
    }

    /// The widths and heights of the frames measured (the same aspect: the thumbnail's size is the same).
    static let sizes = [(width: 512, height: 384), (width: 1024, height: 768)]

    /// Measures each compression with and without the optional work of `options` for frames of `bitsPerSample`
    /// bits and `cfa`, writing into a temporary folder of its own in memory when there is one (the CPU a write
    /// takes does not depend on the disk, and a disk's `fsync` would only add waiting), removed afterwards. Nil
    /// when no file could be written. `cpuClock` reads the CPU time to count (default: the process's, all threads).
    public static func measure(options: DNGWriter.Options, previewEncoder: (any PreviewEncoding)? = nil, bitsPerSample: Int,
                               cfa: CFALayout, cpuClock: () -> UInt64 = MonotonicClock.processCPUNanoseconds) -> FrameCostCalibration? {
        let writer = { (options: DNGWriter.Options) in DNGWriter(options: options, previewEncoder: previewEncoder) }
        let images = Self.sizes.compactMap { syntheticImage(width: $0.width, height: $0.height, bitsPerSample: bitsPerSample, cfa: cfa) }
        guard images.count == 2 else { return nil }
        guard let directory = ScratchFolder.make(prefix: "rawburst-calibration", inMemory: true) else { return nil }
        let path = (directory as NSString).appendingPathComponent("frame.dng")
        defer {
            unlink(path)
            rmdir(directory)
        }
        var c = FrameCostCalibration(fullNanosecondsPerSample: [:], shedNanosecondsPerSample: [:], losslessRatio: nil,
                                     overheadBytes: nil)
        let n = images.map { Double($0.frame.width * $0.frame.height) }
        var fileBytes: [DNGCompression: Int] = [:]
        var shedBytes: Int?
        for compression in DNGCompression.allCases {
            var full = options
            full.compression = compression
            full.overwrite = true
            full.cinemaDNG = nil
            var shed = full
            shed.previewLongEdge = nil
            shed.rawImageDigest = false
            // One write first, not counted: it pays the compression's once-only costs (tables, first-touch pages).
            guard cpuNanoseconds(writing: images[0], with: writer(full), to: path, cpuClock) != nil else { return nil }
            for (shedding, o) in [(false, full), (true, shed)] {
                guard let (small, _) = cpuNanoseconds(writing: images[0], with: writer(o), to: path, cpuClock),
                      let (large, bytes) = cpuNanoseconds(writing: images[1], with: writer(o), to: path, cpuClock) else { return nil }
                // The cost of a write is fixed + per sample × samples: two sizes give both.
                let perSample = max(0, (large - small) / (n[1] - n[0]))
                let fixed = max(0, large - perSample * n[1])
                if shedding {
                    c.shedNanosecondsPerSample[compression.rawValue] = perSample
                    c.shedFixedNanoseconds[compression.rawValue] = fixed
                    if compression == .none { shedBytes = bytes }
                } else {
                    c.fullNanosecondsPerSample[compression.rawValue] = perSample
                    c.fullFixedNanoseconds[compression.rawValue] = fixed
                    fileBytes[compression] = bytes
                }
            }
        }
        // Shedding work never costs more: a measurement that says so is noise.
        for key in c.fullNanosecondsPerSample.keys {
            c.shedNanosecondsPerSample[key] = min(c.shedNanosecondsPerSample[key] ?? 0, c.fullNanosecondsPerSample[key] ?? 0)
            c.shedFixedNanoseconds[key] = min(c.shedFixedNanoseconds[key] ?? 0, c.fullFixedNanoseconds[key] ?? 0)
        }
        let raw = Int(n[1]) * 2
        let overhead = fileBytes[.none].map { max(0, $0 - raw) }
        c.overheadBytes = overhead
        c.previewBytes = fileBytes[.none].flatMap { full in shedBytes.map { max(0, full - $0) } }
        c.previewLongEdge = options.previewLongEdge ?? 0
        c.losslessRatio = fileBytes[.lj92].flatMap { lj in overhead.map { (Double(max(0, lj - $0)) / Double(raw) * 1000).rounded() / 1000 } }
        return c
    }

    /// CPU time (by `cpuClock`) of one write of `image` with `options` to `path`, and the file's size.
    private static func cpuNanoseconds(writing image: RawImage, with writer: DNGWriter, to path: String,
                                       _ cpuClock: () -> UInt64) -> (Double, Int)? {
        let cpu = cpuClock()
        guard let report = try? writer.write(image, to: path) else { return nil }
        let after = cpuClock()
        return (Double(after > cpu ? after - cpu : 0), report.bytes)
    }

    /// A camera-like frame of `width` x `height`: a smooth ramp with noise, at `bitsPerSample` bits.
    static func syntheticImage(width: Int, height: Int, bitsPerSample: Int, cfa: CFALayout) -> RawImage? {
        let bits = max(8, min(16, bitsPerSample))
        let storage = PixelStorage(count: width * height)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let top = Double((1 << bits) - 1)
        let noiseScale = max(1, top / 256)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = (Double(Int(state >> 59)) - 16) * noiseScale / 4
                let v = top * (0.1 + 0.6 * Double(x + y) / Double(width + height)) + noise
                storage.baseAddress[y * width + x] = UInt16(max(0, min(top, v)))
            }
        }
        guard let levels = try? BlackLevels(uniform: 0),
              let frame = try? RawFrame(width: width, height: height, storage: storage, cfa: cfa, blackLevels: levels,
                                        whiteLevel: UInt32(top), bitsPerSample: bits) else { return nil }
        return try? RawImage(frame: frame, metadata: FrameMetadata(), calibration: nil)
    }
}
