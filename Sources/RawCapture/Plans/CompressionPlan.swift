import Foundation
import LJ92
import RawCore
import RawDNG

/// Which DNG compression a burst uses, and why: asked for explicitly, or chosen (`auto`) as the one the writers
/// can sustain at the burst's rate, judged by timing the lossless-JPEG encoder on this machine before the burst.
///
/// The rule for `auto`: lossless JPEG when encoding one trigger's frames on one core takes at most half the
/// time the writers have per trigger (`min(writers, cores) / fps`); the other half is left for the sensor,
/// thumbnails and the disk. A free-running burst (no rate) is written uncompressed, the fastest. During the burst
/// the governor's `cheaper-compression` step switches lossless JPEG to uncompressed (the manifest says when).
public struct CompressionPlan: Sendable, Hashable, Codable {
    /// What was asked for: `auto`, `none`, `lj92` or `packed`.
    public let requested: String
    /// What the burst starts with.
    public let chosen: DNGCompression
    /// Why, in one sentence.
    public let reason: String
    /// The measured lossless-JPEG encode time of one trigger's frames on one core (ms), when measured.
    public let encodeMillisecondsPerTrigger: Double?
    /// The time the writers have per trigger at the burst's rate (ms), when it has one.
    public let budgetMillisecondsPerTrigger: Double?

    /// An explicit choice.
    public init(explicit compression: DNGCompression) {
        requested = compression.rawValue
        chosen = compression
        reason = "asked for with --compression \(compression.rawValue)"
        encodeMillisecondsPerTrigger = nil
        budgetMillisecondsPerTrigger = nil
    }

    /// The automatic choice for `samplesPerTrigger` samples per trigger at `fps` (nil: free-running) with
    /// `writers` writer threads; `encodeNanosecondsPerSample` overrides the measurement (for tests).
    public init(automaticFor samplesPerTrigger: Int, bitsPerSample: Int, fps: Double?, writers: Int,
                encodeNanosecondsPerSample: Double? = nil) {
        requested = "auto"
        guard let fps, fps > 0 else {
            chosen = .none
            reason = "free-running burst: uncompressed is the fastest to write"
            encodeMillisecondsPerTrigger = nil
            budgetMillisecondsPerTrigger = nil
            return
        }
        let perSample = encodeNanosecondsPerSample ?? Self.measureNanosecondsPerSample(bitsPerSample: bitsPerSample)
        let encode = perSample * Double(samplesPerTrigger) / 1e6
        let lanes = max(1, min(writers, ProcessInfo.processInfo.activeProcessorCount))
        let budget = Double(lanes) * 1000 / fps
        let encodeText = String(format: "%.0f", encode), budgetText = String(format: "%.0f", budget)
        if encode <= budget / 2 {
            chosen = .lj92
            reason = "lossless JPEG keeps up: \(encodeText) ms of encoding per trigger on one core, "
                + "within half of the writers' \(budgetText) ms per trigger at \(SettingText.number(fps)) fps"
        } else {
            chosen = .none
            reason = "lossless JPEG would not keep up: \(encodeText) ms of encoding per trigger on one core, "
                + "more than half of the writers' \(budgetText) ms per trigger at \(SettingText.number(fps)) fps"
        }
        encodeMillisecondsPerTrigger = (encode * 10).rounded() / 10
        budgetMillisecondsPerTrigger = (budget * 10).rounded() / 10
    }

    /// Times the tile encoder on one thread over a 2048x1536 camera-like frame (a smooth ramp with noise), best
    /// of three, in nanoseconds per sample.
    static func measureNanosecondsPerSample(bitsPerSample: Int) -> Double {
        let width = 2048, height = 1536
        let bits = max(8, min(16, bitsPerSample))
        let storage = PixelStorage(count: width * height)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let top = Double((1 << bits) - 1)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Double(Int(state >> 59)) - 16
                let v = top * (0.1 + 0.6 * Double(x + y) / Double(width + height)) + noise
                storage.baseAddress[y * width + x] = UInt16(max(0, min(top, v)))
            }
        }
        guard let frame = try? RawFrame(width: width, height: height, storage: storage, cfa: .rggb,
                                        blackLevels: try BlackLevels(uniform: 0), whiteLevel: UInt32(top),
                                        bitsPerSample: bits),
              let encoder = try? LJ92TileEncoder(threads: 1) else { return .infinity }
        var best = Double.infinity
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            var bytes = 0
            try? encoder.encode(frame, precision: bits) { _, tile in bytes += tile.count }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
            if bytes > 0 { best = min(best, elapsed) }
        }
        return best / Double(width * height)
    }
}
