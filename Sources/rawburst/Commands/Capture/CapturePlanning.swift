import Foundation
import RawBurst

extension CaptureCommand {
    /// The burst's CPU and disk plan: what one trigger costs this machine (the sensor and each compression's writes,
    /// from the calibration cache or measured now into the output folder), the disk's bandwidth (simulated,
    /// `rawburst storage`'s, or a quick probe), and the choice of compression and optional work made from them.
    /// Nil when nothing could be measured (the burst then keeps what was asked for, and `auto` is uncompressed).
    func planTime(_ burst: ResolvedBurst, setup: CaptureSetup) -> ResolvedBurst {
        var configuration = burst.configuration
        let automatic = storageOptions.compression == .auto
        var cache = CalibrationCache.load()
        var changed = false
        let sources = setup.source.sources
        let bits = sources.map(\.capabilities.bitsPerSample).max() ?? 16
        let cfa = (try? CFALayout(sources[0].capabilities.cfaPattern)) ?? .rggb
        let dng = configuration.dngOptions
        let costKey = "bits \(bits) cfa \(cfa) thumbnail \(dng.thumbnailLongEdge) preview \(dng.previewLongEdge ?? 0)"
        var costs = cache.frameCosts[costKey]
        if costs == nil, let measured = FrameCostCalibration.measure(options: dng, bitsPerSample: bits, cfa: cfa) {
            costs = measured
            cache.frameCosts[costKey] = measured
            changed = true
        }
        guard let costs else {
            if automatic {
                configuration.compressionPlan = CompressionPlan(explicit: .none)
                configuration.dngOptions.compression = .none
            }
            return ResolvedBurst(configuration: configuration, options: burst.options)
        }
        var inputs = BurstTimePlan.Inputs(samplesPerFrame: setup.source.samplesPerSlot, bitsPerSample: bits, costs: costs)
        inputs.fps = try? frameRate()
        inputs.framesPerTrigger = setup.source.framesPerTrigger
        inputs.cores = ProcessInfo.processInfo.activeProcessorCount
        inputs.requested = automatic ? nil : configuration.dngOptions.compression
        inputs.develops = configuration.development != nil
        inputs.sensorMilliseconds = sensorMilliseconds(setup, cache: &cache, changed: &changed)
        (inputs.diskBytesPerSecond, inputs.diskSource) = diskBandwidth(burst.options, frameBytes: setup.source.samplesPerSlot * 2,
                                                                        cache: &cache, changed: &changed)
        let plan = BurstTimePlan(inputs)
        configuration.dngOptions.compression = plan.compression
        configuration.compressionPlan = CompressionPlan(plan: plan, automatic: automatic)
        configuration.timePlan = plan
        if changed { cache.save() }
        return ResolvedBurst(configuration: configuration, options: burst.options)
    }

    /// The sources' CPU per trigger (ms): cached, or timed now by making one frame of each (CPU time, so a loaded
    /// machine's waits are not counted); nil when a source cannot make a frame without delivering it.
    private func sensorMilliseconds(_ setup: CaptureSetup, cache: inout CalibrationCache, changed: inout Bool) -> Double? {
        var total = 0.0
        for source in setup.source.sources {
            let c = source.capabilities
            let key = (setup.replayedFiles == nil ? "simulated \(scene)" : "replay") + " \(c.name) \(c.width)x\(c.height)"
            if let known = cache.sensorMilliseconds[key] {
                total += known
                continue
            }
            let storage = PixelStorage(lazilyZeroedCount: source.samplesPerFrame)
            let cpu = MonotonicClock.processCPUNanoseconds()
            guard (try? source.rehearseFrame(into: storage)) == true else { return nil }
            let ms = (Double(MonotonicClock.processCPUNanoseconds() - cpu) / 1e5).rounded() / 10
            cache.sensorMilliseconds[key] = ms
            changed = true
            total += ms
        }
        return total
    }

    /// The output folder's write bandwidth (bytes/s) and where the figure comes from: a simulated disk's, the
    /// figure `rawburst storage` (or an earlier probe) left for this file system, or a quick probe now (at most ~0.1 s).
    private func diskBandwidth(_ options: BurstOptions, frameBytes: Int, cache: inout CalibrationCache,
                               changed: inout Bool) -> (Double?, String?) {
        if let simulated = options.storageFaults?.bytesPerSecond { return (Double(simulated), "simulated (--simulate-disk)") }
        guard let key = CalibrationCache.diskKey(output) else { return (nil, nil) }
        if let known = cache.disks[key] {
            return (known.megabytesPerSecond * 1e6, "\(known.method == "storage" ? "rawburst storage" : "a quick probe") on \(known.measured)")
        }
        guard let probe = try? StorageProbe.measure(directory: output, fileBytes: min(frameBytes, 8 << 20), seconds: 0.06,
                                                    minimumFiles: 2, maximumFiles: 6) else { return (nil, nil) }
        cache.disks[key] = CalibrationCache.Disk(megabytesPerSecond: probe.megabytesPerSecond, method: "probe")
        changed = true
        return (probe.megabytesPerSecond * 1e6, "a quick probe now (\(probe.files) files of \(probe.fileBytes >> 20) MiB)")
    }
}
