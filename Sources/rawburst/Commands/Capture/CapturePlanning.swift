import Foundation
import RawBurst

extension CaptureCommand {
    /// The burst's CPU and disk plan: what one trigger costs this machine (the sensor and each compression's writes,
    /// from the calibration cache or measured now into the output folder), the disk's bandwidth (simulated,
    /// `rawburst storage`'s, or a quick probe), and the choice of compression and optional work made from them. A cached
    /// figure older than 24 h, or doubted by an earlier burst, is measured again, and the plan says why
    /// (`CaptureCalibration`). Without anything measured the burst keeps what was asked for (`auto`: uncompressed).
    func planTime(_ burst: ResolvedBurst, setup: CaptureSetup) -> ResolvedBurst {
        var configuration = burst.configuration
        let automatic = storageOptions.compression == .auto
        var cache = CalibrationCache.load()
        var changed = false
        var use = CalibrationUse()
        let sources = setup.source.sources
        let bits = sources.map(\.capabilities.bitsPerSample).max() ?? 16
        let cfa = (try? CFALayout(sources[0].capabilities.cfaPattern)) ?? .rggb
        let dng = configuration.dngOptions
        use.costKey = "bits \(bits) cfa \(cfa) thumbnail \(dng.thumbnailLongEdge) preview \(dng.previewLongEdge ?? 0)"
        // The disk is probed (when it must be) on a side thread while the writer and the sensor are timed: the probe
        // mostly waits for fsync, and its own CPU is left out of their figures.
        let disk = diskBandwidth(burst.options, frameBytes: setup.source.samplesPerSlot * 2, cache: cache, use: &use)
        let cpuClock: @Sendable () -> UInt64 = {
            // The probe's clock is read after the process's: never more than it (a subtraction that wrapped would
            // be a cost of centuries).
            let process = MonotonicClock.processCPUNanoseconds(), probe = disk.probe?.cpuNanoseconds ?? 0
            return process > probe ? process - probe : 0
        }
        let cached = cache.frameCosts[use.costKey]
        var costs = cached.flatMap { $0.staleness() == nil ? $0.value : nil }
        use.status.writerCosts = .init(cached: cached, used: costs != nil)
        if costs == nil, let measured = FrameCostCalibration.measure(options: dng, previewEncoder: dng.previewLongEdge == nil ? nil : JPEGPreviews(),
                                                                      bitsPerSample: bits, cfa: cfa,
                                                                      cpuClock: cpuClock) {
            costs = measured
            cache.frameCosts[use.costKey] = .init(measured)
            changed = true
        }
        guard let costs else {
            _ = disk.probe?.wait()
            if automatic {
                configuration.compressionPlan = CompressionPlan(
                    chosen: .none, requested: "auto",
                    reason: "nothing could be measured (no calibration file could be written): uncompressed, the least work")
                configuration.dngOptions.compression = .none
            }
            return ResolvedBurst(configuration: configuration, options: burst.options, calibration: use)
        }
        use.costs = costs
        var inputs = BurstTimePlan.Inputs(samplesPerFrame: setup.source.samplesPerSlot, bitsPerSample: bits, costs: costs)
        inputs.fps = try? frameRate()
        inputs.framesPerTrigger = setup.source.framesPerTrigger
        inputs.samplesPerTriggerFrame = sources.map(\.samplesPerFrame)
        inputs.cores = ProcessInfo.processInfo.activeProcessorCount
        inputs.requested = automatic ? nil : configuration.dngOptions.compression
        inputs.develops = configuration.development != nil
        inputs.simulatedWriteMilliseconds = simulateCPU.map { $0.seconds * 1000 }
        if let development = configuration.development as? BurstDevelopment {
            inputs.developMilliseconds = cache.developMilliseconds[Self.developKey(development, samples: setup.source.samplesPerSlot)]
                .flatMap { $0.staleness() == nil ? $0.value : nil }
        }
        let sensors = sensorMilliseconds(setup, cache: &cache, changed: &changed, use: &use, cpuClock: cpuClock)
        inputs.sensorMilliseconds = sensors.map { $0.reduce(0, +) }
        inputs.sensorSerialMilliseconds = sensors?.max()
        (inputs.diskBytesPerSecond, inputs.diskSource) = disk.known ?? finishProbe(disk.probe, cache: &cache, changed: &changed)
        inputs.inBurstFactor = inBurstFactor(inputs, cache: cache, use: &use)
        if inputs.inBurstFactor == nil, use.inBurstKey != nil, let fps = inputs.fps {
            // No burst at this rate has measured what a frame costs beside the sensor: more of the CPU kept free.
            inputs.headroom = BurstTimePlan.unmeasuredHeadroom
            use.status.unmeasuredRate = fps
        }
        let plan = BurstTimePlan(inputs)
        configuration.dngOptions.compression = plan.compression
        configuration.compressionPlan = CompressionPlan(plan: plan, automatic: automatic)
        configuration.timePlan = plan
        if changed {
            do { try cache.save() } catch { Terminal.error("rawburst capture: calibration not kept for next time: \(error)") }
        }
        return ResolvedBurst(configuration: configuration, options: burst.options, calibration: use)
    }

    /// What the last bursts at a like rate measured a frame to cost over the standalone figures in `inputs`
    /// (`InBurstCost`); nil before the first, with an injected CPU cost (a test of the model with the figures as they
    /// are: nothing is kept or used), or without figures. Notes in `use` where the burst keeps its own measure.
    private func inBurstFactor(_ inputs: BurstTimePlan.Inputs, cache: CalibrationCache, use: inout CalibrationUse) -> Double? {
        guard simulateCPU == nil, let stamp = cache.frameCosts[use.costKey]?.measured else { return nil }
        let key = ([use.costKey] + use.sensorKeys).joined(separator: " | ")
        use.inBurstKey = key
        use.inBurstAgainst = ([stamp] + use.sensorKeys.compactMap { cache.sensorMilliseconds[$0]?.measured }).joined(separator: " ")
        use.status.inBurst = cache.inBurstCosts[key]?.factor(fps: inputs.fps, against: use.inBurstAgainst)
        return use.status.inBurst?.factor
    }

    /// The calibration cache's key for developing frames of `samples` samples with `development`.
    static func developKey(_ development: BurstDevelopment, samples: Int) -> String {
        "\(development.format.rawValue) \(development.settings.longEdge.map(String.init) ?? "full") \(samples)"
    }

    /// Keeps what developing a frame during this burst cost (the median of the frames developed during it, in CPU
    /// milliseconds: wall time × the threads each had), so the next burst's plan can say whether it fits.
    func rememberDevelopCost(_ report: BurstSession.Report, development: BurstDevelopment, samples: Int, writers: Int) {
        let during = report.developed.filter(\.duringBurst).map(\.seconds).sorted()
        guard !during.isEmpty else { return }
        let threads = max(1, ProcessInfo.processInfo.activeProcessorCount / max(1, writers))
        var cache = CalibrationCache.load()
        cache.developMilliseconds[Self.developKey(development, samples: samples)] =
            .init((during[during.count / 2] * 1000 * Double(threads) * 10).rounded() / 10)
        try? cache.save()
    }

    /// Each source's CPU per frame (ms): cached and fresh, or timed now by making frames (CPU time by `cpuClock`, so a
    /// loaded machine's waits are not counted); nil when a source cannot make a frame without delivering it.
    private func sensorMilliseconds(_ setup: CaptureSetup, cache: inout CalibrationCache, changed: inout Bool,
                                    use: inout CalibrationUse, cpuClock: () -> UInt64) -> [Double]? {
        var each: [Double] = []
        for source in setup.source.sources {
            let c = source.capabilities
            let key = (setup.replayedFiles == nil ? "simulated \(scene)" : "replay") + " \(c.name) \(c.width)x\(c.height)"
            use.sensorKeys.append(key)
            let cached = cache.sensorMilliseconds[key]
            if use.status.sensor == nil || cached?.staleness() != nil {
                use.status.sensor = .init(cached: cached, used: cached?.staleness() == nil)
            }
            if let cached, cached.staleness() == nil {
                each.append(cached.value)
                continue
            }
            // Twice, keeping the second: the first may pay once-only costs (the scene's planes, a defocus kernel).
            let storage = PixelStorage(lazilyZeroedCount: source.samplesPerFrame)
            guard (try? source.rehearseFrame(into: storage)) == true else { return nil }
            let cpu = cpuClock()
            guard (try? source.rehearseFrame(into: storage)) == true else { return nil }
            let after = cpuClock()
            let ms = (Double(after > cpu ? after - cpu : 0) / 1e5).rounded() / 10
            cache.sensorMilliseconds[key] = .init(ms)
            changed = true
            each.append(ms)
        }
        return each
    }

    /// The output folder's write bandwidth: known (bytes/s, and where the figure comes from: a simulated disk's, or
    /// the figure `rawburst storage` or an earlier probe left for this file system, while fresh), or a quick probe (at
    /// most ~0.1 s) started now on a side thread; neither when the folder's file system cannot be named.
    private func diskBandwidth(_ options: BurstOptions, frameBytes: Int, cache: CalibrationCache, use: inout CalibrationUse)
        -> (known: (Double?, String?)?, probe: SideThread<DiskProbe?>?) {
        if let simulated = options.storageFaults?.bytesPerSecond {
            use.status.disk = .init(origin: .simulated)
            return ((Double(simulated), "simulated (--simulate-disk)"), nil)
        }
        guard let key = CalibrationCache.diskKey(output) else { return ((nil, nil), nil) }
        use.diskKey = key
        let known = cache.disks[key]
        let staleness = known?.staleness()
        use.status.disk = .init(origin: known != nil && staleness == nil ? .cache : .measuredNow, measured: known?.measured,
                                remeasuredBecause: staleness?.description)
        if let known, staleness == nil {
            let method = known.method == .storage ? "rawburst storage" : "a quick probe"
            return ((known.megabytesPerSecond * 1e6, "\(method) on \(known.measured)"), nil)
        }
        let directory = output
        return (nil, SideThread(name: "rawburst disk probe") {
            (try? StorageProbe.measure(directory: directory, fileBytes: min(frameBytes, 8 << 20), seconds: 0.06,
                                       minimumFiles: 2, maximumFiles: 6)).map { DiskProbe(key: key, result: $0) }
        })
    }

    /// A quick probe's result, with the cache key of the file system it measured.
    struct DiskProbe: Sendable {
        let key: String
        let result: StorageProbe
    }

    /// The probe's figure (bytes/s) and its source, kept in the cache for next time.
    private func finishProbe(_ side: SideThread<DiskProbe?>?, cache: inout CalibrationCache, changed: inout Bool)
        -> (Double?, String?) {
        guard let done = side?.wait() else { return (nil, nil) }
        let probe = done.result
        cache.disks[done.key] = CalibrationCache.Disk(megabytesPerSecond: probe.megabytesPerSecond, method: .probe)
        changed = true
        let size = String(format: "%.1f MiB", Double(probe.fileBytes) / 1_048_576)
        return (probe.megabytesPerSecond * 1e6, "a quick probe now (\(probe.files) files of \(size))")
    }
}
