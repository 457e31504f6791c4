import CRawBurst
import Foundation
import RawCapture
import RawCore
import RawDNG
import RawImageIO
import RawSources

/// `rawburst_capture_burst`: a source's frames through the burst engine into DNGs, every frame written or counted.
enum ABIBurst {
    static func run(_ capture: rawburst_capture_params, folder: String,
                    params: rawburst_burst_params) throws(ABIFailure) -> BurstSession.Report {
        try checkStructSize(capture.struct_size, of: rawburst_capture_params.self, "rawburst_capture_params")
        try checkStructSize(params.struct_size, of: rawburst_burst_params.self, "rawburst_burst_params")
        guard capture.frames > 0, capture.frames <= 1_000_000 else {
            throw .argument("frames", "\(capture.frames) is outside 1...1000000 (a burst's length must be given)")
        }
        guard capture.fps.isFinite, capture.fps >= 0, capture.fps <= 1000 else {
            throw .argument("fps", "\(capture.fps) is outside 0...1000 (0: as fast as frames are written)")
        }
        let configuration = try configuration(capture, folder: folder, params: params)
        // The source first: a name it refuses leaves no folder behind.
        let source = try ABICaptureSource.make(capture, renderAhead: capture.fps > 0)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            source.finish()
            throw ABIFailure(.write, "\(folder): cannot create the folder (\(error.localizedDescription))")
        }
        do {
            return try BurstSession(source: .single(source), configuration: configuration).run()
        } catch {
            throw .argument("memory_budget_mib", "\(error)")
        }
    }

    private static func configuration(_ capture: rawburst_capture_params, folder: String,
                                      params: rawburst_burst_params) throws(ABIFailure) -> BurstSession.Configuration {
        var dng = try DNGParameters.writerOptions(compression: params.compression, overwrite: params.overwrite,
                                                  preview: params.preview)
        guard params.writers <= 64 else { throw .argument("writers", "\(params.writers) is outside 0...64 (0: one per core)") }
        let budget = params.memory_budget_mib == 0 ? 512 : Int(params.memory_budget_mib)
        guard (16...1 << 20).contains(budget) else { throw .argument("memory_budget_mib", "\(budget) MiB is outside 16...1048576") }
        // One writer a core, at most 8 by default (each holds a frame's working memory); each encodes its lossless-JPEG
        // tiles on its share of the cores, as `rawburst capture` does.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let writers = params.writers == 0 ? max(1, min(8, cores)) : Int(params.writers)
        dng.encodingThreads = max(1, min(64, cores / writers))
        var configuration = BurstSession.Configuration(frames: Int(capture.frames), writers: writers,
                                                       memoryBudget: budget << 20, outputDirectory: folder, dngOptions: dng)
        if dng.previewLongEdge != nil { configuration.previewEncoder = JPEGPreviews() }
        // What the caller asked for is what is written: no governor trading compression, previews or the rate for
        // speed. A frame the writers cannot keep up with is dropped late on a clock, and counted.
        configuration.governor = false
        configuration.clock = capture.fps > 0 ? .realTime(fps: capture.fps) : .freeRunning
        return configuration
    }

    /// The report's counts in the C result.
    static func fill(_ result: inout rawburst_burst_result, from report: BurstSession.Report, seconds: Double) {
        let drops = report.drops.map(\.drop.reason)
        result.produced = UInt64(report.producedCount)
        result.written = UInt64(report.writtenCount)
        result.dropped = UInt64(drops.count)
        result.dropped_late = UInt64(drops.filter(\.isLate).count)
        result.dropped_pool_full = UInt64(drops.filter { $0 == .poolFull }.count)
        result.dropped_by_source = UInt64(drops.filter(\.isSourceLoss).count)
        result.dropped_other = result.dropped - result.dropped_late - result.dropped_pool_full - result.dropped_by_source
        result.bytes = UInt64(report.frames.reduce(0) { $0 + $1.bytes })
        result.seconds = seconds
    }
}

@_cdecl("rawburst_capture_burst")
public func rawburst_capture_burst(_ capture: UnsafePointer<rawburst_capture_params>?, _ folder: UnsafePointer<CChar>?,
                                   _ params: UnsafePointer<rawburst_burst_params>?,
                                   _ result: UnsafeMutablePointer<rawburst_burst_result>?) -> Int32 {
    ABIResult.run {
        guard let capture else { throw ABIFailure.argument("capture", "is NULL") }
        let target = try requiredString(folder, "folder")
        guard let params else { throw ABIFailure.argument("params", "is NULL") }
        if let result { try checkStructSize(result.pointee.struct_size, of: rawburst_burst_result.self, "rawburst_burst_result") }
        let start = MonotonicClock.nanoseconds()
        let report = try ABIBurst.run(capture.pointee, folder: target, params: params.pointee)
        if let result {
            ABIBurst.fill(&result.pointee, from: report, seconds: Double(MonotonicClock.nanoseconds() - start) / 1e9)
        }
        if let problem = report.errors.first ?? report.problems.first {
            throw ABIFailure(.write, problem)
        }
        return ABIResult.ok
    }
}
