import ArgumentParser
import Foundation
import RawBurst

/// The burst-engine options of `capture`, checked.
struct BurstOptions {
    let memoryBudget: Int
    /// Simulated disk rate in bytes per second, if any.
    let diskBytesPerSecond: Int?
    let overflow: OverflowPolicy
    let writers: Int
    let nameTemplate: FilenameTemplate

    /// Bytes in `512MiB`, `2GiB`, `800MB`, `1.5G`, `1048576` (binary units for KiB/MiB/GiB and K/M/G, decimal for KB/MB/GB).
    static func bytes(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let digits = t.prefix { $0.isNumber || $0 == "." }
        guard let value = Double(digits), value > 0 else { return nil }
        let units: [String: Double] = ["": 1, "b": 1, "k": 1024, "kib": 1024, "kb": 1000, "m": 1_048_576, "mib": 1_048_576,
                                       "mb": 1e6, "g": 1_073_741_824, "gib": 1_073_741_824, "gb": 1e9]
        guard let unit = units[t.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()] else { return nil }
        let bytes = value * unit
        return bytes < 1e15 ? Int(bytes) : nil
    }
}

/// A one-sensor capture's burst options and configuration, worked out once before anything is created.
struct ResolvedBurst {
    let configuration: BurstSession.Configuration
    let options: BurstOptions
}

extension CaptureCommand {
    /// The burst manifest's file name in the output folder.
    static let manifestName = "manifest.json"

    /// The burst options, or the option and problem in one line.
    func burstOptions() throws -> BurstOptions {
        guard let budget = BurstOptions.bytes(memoryBudget) else {
            throw ValidationError("--memory-budget: '\(memoryBudget)' is not a size (e.g. 512MiB, 2GiB, 800MB)")
        }
        guard let policy = OverflowPolicy(parsing: overflow) else {
            throw ValidationError("--overflow: '\(overflow)' is not block, drop-newest, drop-oldest or stop")
        }
        let writerCount = writers ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
        guard (1...64).contains(writerCount) else { throw ValidationError("--writers must be within 1...64, not \(writerCount)") }
        let template: FilenameTemplate
        do { template = try FilenameTemplate(nameTemplate) } catch { throw ValidationError("--name: \(error.reason)") }
        var disk: Int?
        if let simulateDisk {
            let text = simulateDisk.lowercased().hasSuffix("/s") ? String(simulateDisk.dropLast(2)) : simulateDisk
            guard let rate = BurstOptions.bytes(text), rate >= 1000 else {
                throw ValidationError("--simulate-disk: '\(simulateDisk)' is not a rate of at least 1kB/s (e.g. 80MB/s)")
            }
            disk = rate
        }
        return BurstOptions(memoryBudget: budget, diskBytesPerSecond: disk, overflow: policy, writers: writerCount,
                            nameTemplate: template)
    }

    /// The burst's configuration from the options, with `settings` as the base of a bracketing plan.
    func burstConfiguration(options: BurstOptions, settings: CaptureSettings) throws -> BurstSession.Configuration {
        var dng = DNGWriter.Options()
        dng.overwrite = overwrite
        var configuration = BurstSession.Configuration(
            frames: try frameCount(), overflow: options.overflow, writers: options.writers,
            memoryBudget: options.memoryBudget, outputDirectory: output, dngOptions: dng, nameTemplate: options.nameTemplate)
        configuration.sidecars = sidecar
        configuration.presetName = preset
        if let plan = try bracketPlan() {
            configuration.plan = (plan, settings)
        }
        return configuration
    }

    /// Runs a one-sensor capture through the burst engine: frame pool, writer threads, overflow policy.
    /// Exit status: 0 every frame written, 1 a write failed, 3 frames were dropped or the burst stopped early.
    func runBurst(setup: CaptureSetup, source: any FrameSource, burst: ResolvedBurst, chartFiles: [String]) throws {
        let (configuration, options) = (burst.configuration, burst.options)
        let session: BurstSession
        do {
            session = try BurstSession(source: source, configuration: configuration)
        } catch {
            Terminal.error("rawburst capture: \(error)")
            throw ExitCode(2)
        }
        if let rate = options.diskBytesPerSecond {
            // Each write first waits as long as the frame's bytes take at that rate, per writer.
            let microseconds = UInt32(min(60e6, Double(source.samplesPerFrame * 2) / Double(rate) * 1e6))
            session.beforeWrite = { _ in usleep(microseconds) }
        }
        let frames = configuration.frames
        let bar = ProgressBar(total: frames, enabled: Terminal.stderrIsTerminal && !json && frames > 1)
        session.onProgress = { p in
            bar.update(done: p.written + p.dropped, label: "queue \(p.queued)", failed: p.dropped)
        }
        let report = session.run()
        bar.finish()
        for line in report.errors { Terminal.error("error: \(line)") }
        let problems = report.problems
        for problem in problems { Terminal.error("rawburst capture: frame accounting: \(problem)") }
        let frameReports = report.frames.sorted { $0.sequenceNumber < $1.sequenceNumber }.map(CaptureReport.Frame.init)
        let dropped = report.ledger.drops.filter { $0.reason != .writeFailed }
        let slotMiB = Double(source.samplesPerFrame * 2) / 1_048_576
        // Behind schedule: frames that started later than the clock asked (on a real clock only).
        let lateness = report.frames.map(\.latenessNanoseconds)
        let lateFrames = lateness.filter { $0 > 1_000_000 }.count
        let maxLateMilliseconds = (Double(lateness.max() ?? 0) / 1e4).rounded() / 100
        let burst = CaptureReport.Burst(
            plan: configuration.plan?.plan.text, overflow: options.overflow.rawValue, writers: options.writers, memoryBudgetBytes: options.memoryBudget,
            slots: report.pool.slotCount, slotMiB: (slotMiB * 100).rounded() / 100, highWater: report.pool.highWater,
            produced: report.ledger.produced.count, written: report.ledger.written.count,
            dropped: report.ledger.drops.map { .init(sequenceNumber: $0.sequenceNumber, reason: $0.reason.rawValue) },
            seconds: (report.seconds * 1000).rounded() / 1000, lateFrames: lateFrames,
            maxLatenessMilliseconds: maxLateMilliseconds, stoppedEarly: report.stoppedEarly, problems: problems)
        let summary = CaptureReport(sensors: setup.cameras.map(\.name), scene: setup.replayedFiles == nil ? scene : nil,
                                    replayedFiles: setup.replayedFiles, seed: seed, preset: preset, fps: try frameRate(),
                                    chartFiles: chartFiles, frames: frameReports, burst: burst)
        // The manifest: the same account, kept with the files.
        let manifest = (output as NSString).appendingPathComponent(Self.manifestName)
        var manifestWritten = false
        do {
            try AtomicFile.write(Array((Terminal.jsonText(summary) ?? "{}").utf8) + [10], to: manifest, overwrite: overwrite)
            manifestWritten = true
        } catch {
            Terminal.error("rawburst capture: \(error)")
        }
        if json {
            Terminal.printJSON(summary)
        } else {
            let name = setup.cameras[0].name
            let what = setup.replayedFiles.map { "replayed from \($0) file\($0 == 1 ? "" : "s")" } ?? "with \(name) of \(scene)"
            print("captured \(report.ledger.written.count) of \(report.ledger.produced.count) frame"
                  + "\(report.ledger.produced.count == 1 ? "" : "s") \(what) in " + String(format: "%.2f s", report.seconds))
            if let s = frameReports.first?.settings, setup.replayedFiles == nil {
                print("  " + Self.settingsSummary(s))
            }
            print("  pool: \(report.pool.slotCount) slots of " + String(format: "%.1f MiB", slotMiB)
                  + ", high-water \(report.pool.highWater); \(options.writers) writer\(options.writers == 1 ? "" : "s")")
            if lateFrames > 0 {
                print("  behind schedule: \(lateFrames) frame\(lateFrames == 1 ? "" : "s") started more than 1 ms late, "
                      + "up to \(maxLateMilliseconds) ms")
            }
            if !dropped.isEmpty {
                let numbers = dropped.prefix(12).map { String($0.sequenceNumber) }.joined(separator: ", ")
                print("  dropped \(dropped.count) (\(options.overflow.rawValue)): \(numbers)\(dropped.count > 12 ? ", ..." : "")")
            }
            if frameReports.count <= 12 {
                for f in frameReports { print("  \(f.path)") }
            } else {
                print("  \(frameReports.count) DNGs in \(output)/")
            }
            for chartFile in chartFiles { print("  \(chartFile) (patch rectangles and reference values)") }
            if manifestWritten { print("  \(manifest) (every frame, drop and setting)") }
        }
        if !problems.isEmpty || !report.errors.isEmpty || !manifestWritten { throw ExitCode(1) }
        if !dropped.isEmpty || report.stoppedEarly { throw ExitCode(3) }
    }
}
