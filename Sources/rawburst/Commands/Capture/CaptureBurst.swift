#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Foundation
import RawBurst

/// The burst-engine options of `capture`, checked.
struct BurstOptions {
    let memoryBudget: Int
    let overflow: OverflowPolicy
    let writers: Int
    let nameTemplate: FilenameTemplate
    let storageFaults: StorageFaults?
    let thermal: ThermalSchedule?
    /// Frames kept before the trigger (0: no pre-record) and the timed trigger, in seconds.
    let preRecordFrames: Int
    let triggerAfter: Double?
}

/// A capture's burst options and configuration, worked out once before anything is created.
struct ResolvedBurst {
    let configuration: BurstSession.Configuration
    let options: BurstOptions
    /// The calibration the plan used (`planTime`), for the check after the burst.
    var calibration = CalibrationUse()
}

extension CaptureCommand {
    /// The burst manifest's file name in the output folder.
    static let manifestName = "manifest.json"

    /// The preview sizes `--preview` takes: from 64 px to the most the DNG writer embeds.
    static let previewSizes = 64...DNGWriter.Options.maximumPreviewLongEdge

    /// `--name`, or for a CinemaDNG clip left at the default, `REEL_%7q`.
    var effectiveNameTemplate: String {
        storageOptions.cinemadng && nameTemplate == Self.defaultNameTemplate ? storageOptions.cinemaNameTemplate() : nameTemplate
    }

    /// The burst options, or the option and problem in one line.
    func burstOptions() throws -> BurstOptions {
        try storageOptions.checkReel()
        let writerCount = writers ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
        guard (1...64).contains(writerCount) else { throw BadValue("--writers must be within 1...64, not \(writerCount)") }
        let template: FilenameTemplate
        do { template = try FilenameTemplate(effectiveNameTemplate) } catch { throw BadValue("--name: \(error.reason)") }
        var preRecordFrames = 0
        if let preRecord {
            guard let rate = try frameRate() else { throw BadValue("--pre-record needs --fps (the frames kept are seconds × fps)") }
            preRecordFrames = max(1, Int((preRecord.seconds * rate - 1e-9).rounded(.up)))
        }
        if triggerAfter != nil && preRecord == nil { throw BadValue("--trigger-after needs --pre-record") }
        if let previewSize, !(Self.previewSizes).contains(previewSize) {
            throw BadValue("--preview must be within \(Self.previewSizes.lowerBound)...\(Self.previewSizes.upperBound) pixels, not \(previewSize)")
        }
        return BurstOptions(memoryBudget: memoryBudget.bytes, overflow: overflow, writers: writerCount, nameTemplate: template,
                            storageFaults: simulateDisk, thermal: simulateThermal, preRecordFrames: preRecordFrames,
                            triggerAfter: triggerAfter?.seconds)
    }

    /// The burst's configuration from the options, with `settings` as the base of a bracketing plan.
    func burstConfiguration(options: BurstOptions, settings: CaptureSettings) throws -> BurstSession.Configuration {
        var dng = DNGWriter.Options()
        dng.overwrite = overwrite
        dng.previewLongEdge = previewSize
        var configuration = BurstSession.Configuration(
            frames: try frameCount(), overflow: options.overflow, writers: options.writers,
            memoryBudget: options.memoryBudget, outputDirectory: output, dngOptions: dng, nameTemplate: options.nameTemplate)
        if previewSize != nil { configuration.previewEncoder = JPEGPreviews() }
        configuration.clock = try frameRate().map { .realTime(fps: $0) } ?? .freeRunning
        configuration.late = late
        configuration.duration = duration?.seconds
        configuration.sidecars = sidecar
        if analyze {
            var analysis = FrameAnalysis.Options()
            analysis.bins = 64
            configuration.analysis = BurstAnalysis(options: analysis)
        }
        configuration.presetName = preset
        configuration.preRecordFrames = options.preRecordFrames
        configuration.thermal = options.thermal
        configuration.storageFaults = options.storageFaults
        configuration.simulatedWriteCPU = simulateCPU?.seconds
        configuration.governor = !noGovernor
        configuration.gps = gps
        if let plan = try bracketPlan() {
            configuration.plan = (plan, settings)
        }
        return configuration
    }

    /// Runs the burst: frame pool, writer threads, overflow policy, governor, controls and live status.
    /// Exit status: 0 every frame written (or the burst stopped on request), 1 a write failed or the books do not
    /// balance, 3 frames dropped or the burst stopped early by its policy, the thermal state or the disk.
    func runBurst(setup: CaptureSetup, burst: ResolvedBurst, settings: CaptureSettings, chartFiles: [String],
                  live: LiveTake? = nil) throws {
        var configuration = burst.configuration
        live?.viewfinder.configure(&configuration)
        let options = burst.options
        let report = try takeBurst(setup: setup, configuration: configuration, options: options,
                                   calibration: burst.calibration.status, live: live)
        // The burst's own peak, before developing afterwards (which has the pool's memory back) adds its own.
        let peakRSS = ProcessClock.peakResidentBytes()
        let memoryOverrun = report.memory.overrun(peakResidentBytes: peakRSS)
        if let memoryOverrun { Terminal.error("rawburst capture: warning: \(memoryOverrun)") }
        let developmentReport = (configuration.development as? BurstDevelopment).map {
            rememberDevelopCost(report, development: $0, samples: setup.source.samplesPerSlot, writers: options.writers)
            return developAfterBurst(report, development: $0, setup: setup)
        }
        for line in report.errors { Terminal.error("error: \(line)") }
        let problems = report.problems
        for problem in problems { Terminal.error("rawburst capture: frame accounting: \(problem)") }
        let statistics = BurstStatistics(report)
        let frameReports = Self.frameReports(report, sensorNames: setup.source.sensorNames)
        let cinema = configuration.cinemaDNG.map {
            CaptureReport.Burst.CinemaDNG(reelName: $0.reelName, frameRate: $0.frameRate,
                                          firstTimeCode: $0.frame(sequenceNumber: frameReports.first?.sequenceNumber ?? 0).timeCode.description)
        }
        let dropped = Self.dropsToTell(report, preRecordFrames: configuration.preRecordFrames,
                                       waitsForTrigger: configuration.waitForTrigger)
        let slotMiB = Double(report.memory.slotBytes) / 1_048_576
        var firstFrame: Double?
        if let first = report.firstFrameNanoseconds, let start = ProcessClock.startMonotonicNanoseconds(), first > start {
            firstFrame = (Double(first - start) / 1e4).rounded() / 100
        }
        var summary = CaptureReport(
            sensors: setup.cameras.map(\.name), scene: setup.replayedFiles == nil && setup.stream == nil && cameraOptions.camera == nil ? scene : nil,
            replayedFiles: setup.replayedFiles, seed: seed, preset: preset, fps: try frameRate(), settings: settings,
            chartFiles: chartFiles, frames: frameReports,
            burst: .init(bracketPlan: configuration.plan?.plan.description, bracketPlanSteps: configuration.plan?.plan.frameCount,
                         plan: configuration.timePlan, prediction: report.prediction,
                         late: configuration.clock == .freeRunning ? nil : configuration.late.rawValue,
                         duration: configuration.duration,
                         sensorScheduling: configuration.clock == .freeRunning ? nil : report.sensorScheduling.rawValue, overflow: options.overflow.rawValue, writers: options.writers, memory: report.memory,
                         slots: report.pool.slotCount, slotMiB: (slotMiB * 100).rounded() / 100, highWater: report.pool.highWater,
                         preRecordFrames: configuration.preRecordFrames, triggeredAtSequenceNumber: report.triggeredAtSequenceNumber,
                         pauses: report.pauses, thermal: options.thermal?.description, simulatedDisk: options.storageFaults?.description,
                         produced: report.producedCount, written: report.writtenCount,
                         dropped: report.drops.map { .init(sensor: $0.sensor, sequenceNumber: $0.drop.sequenceNumber,
                                                           reason: $0.drop.reason.rawValue) },
                         seconds: (report.seconds * 1000).rounded() / 1000, statistics: statistics,
                         processStartToFirstFrameMilliseconds: firstFrame, peakRSSBytes: peakRSS, memoryOverrun: memoryOverrun,
                         degradations: report.degradations, stoppedEarly: report.stoppedEarly, stopReason: report.stopReason,
                         errors: report.errors, problems: problems,
                         compression: configuration.compressionPlan, cinemaDNG: cinema,
                         analysis: configuration.analysis == nil ? nil
                             : .init(analysed: report.analyses.count, skipped: report.skippedAnalyses,
                                     p50Milliseconds: CaptureReport.Burst.AnalysisSummary.median(report.analyses.map(\.seconds)))),
            development: developmentReport, startup: CaptureStartup(report: report))
        summary.burst.predictionCheck = report.predictionCheck
        let calibration = burst.calibration.afterBurst(report, configuration: configuration)
        summary.burst.calibration = configuration.timePlan == nil ? nil : calibration
        summary.stream = setup.stream
        summary.viewfinder = live?.report
        summary.camera = setup.cameraSource.map(CaptureCameraReport.init)
        summary.colorCalibration = setup.colorCalibration
        summary.framing = CaptureFramingReport(sensors: setup.source.sensorNames, orientations: configuration.orientations,
                                               mirror: framingOptions.mirror ?? .none,
                                               mirrored: framingOptions.mirroredSensors(setup.source.sensorNames))
        // The manifest: the same account, kept with the files.
        let manifest = outputFile(Self.manifestName)
        let (manifestWritten, manifestDurable) = writeManifest(summary, to: manifest)
        recordOtherFiles(chartFiles + (developmentReport.map { $0.developed.map(\.path) + $0.composites.map(\.path) } ?? [])
                         + (manifestWritten ? [manifest] : []))
        if json {
            Terminal.printJSON(summary)
        } else {
            printSummary(setup: setup, burst: burst, askedISO: settings.iso, report: report, statistics: statistics, options: options, slotMiB: slotMiB,
                         frames: frameReports, dropped: dropped, chartFiles: chartFiles, manifest: manifestWritten ? manifest : nil,
                         development: developmentReport, calibration: calibration)
        }
        let stoppedOnRequest = report.stopCause?.isClean ?? false
        let developFailed = !(developmentReport?.failures.isEmpty ?? true)
        if !problems.isEmpty || !report.failures.isEmpty || !manifestDurable || developFailed { throw ExitCode(1) }
        if !dropped.isEmpty || (report.stoppedEarly && !stoppedOnRequest) { throw ExitCode(3) }
    }

    /// Records in the burst's journal the files it wrote beside its frames (by device and inode: what the viewfinder
    /// serves of a take); a journal that cannot take the lines is said on standard error (the files are whole).
    private func recordOtherFiles(_ paths: [String]) {
        let names = paths.filter { AtomicFile.directory(of: $0) == AtomicFile.directory(of: outputFile(Self.manifestName)) }
            .map { ($0 as NSString).lastPathComponent }
        do { try BurstJournal.recordFiles(names, in: output) } catch { Terminal.error("rawburst capture: \(error)") }
    }

    /// Takes the burst with its controls and live status. The session (and its pool) lives only while the burst
    /// runs, so developing afterwards has its memory back.
    private func takeBurst(setup: CaptureSetup, configuration: BurstSession.Configuration, options: BurstOptions,
                           calibration: CaptureCalibration, live: LiveTake?) throws -> BurstSession.Report {
        let session: BurstSession
        do {
            session = try BurstSession(source: setup.source, configuration: configuration)
        } catch {
            Terminal.error("rawburst capture: \(error)")
            throw ExitCode(2)
        }
        // Keys come from standard input, unless the frames do.
        let keys = isatty(STDIN_FILENO) == 1 && Terminal.stderrIsTerminal && !json && !setup.framesOnStandardInput
        let perTrigger = setup.source.framesPerTrigger
        let status = BurstStatusLine(enabled: Terminal.stderrIsTerminal && !json, total: configuration.frames * perTrigger,
                                     keys: keys)
        let controls = BurstControls(session: session)
        controls.start(keys: keys, triggerAfter: options.triggerAfter)
        if configuration.preRecordFrames > 0 && !json {
            Terminal.error("pre-recording the last \(configuration.preRecordFrames) frames; trigger with "
                           + (keys ? "Enter or " : "") + "kill -USR1 \(getpid())"
                           + (options.triggerAfter.map { " (or wait \(SettingText.number($0)) s)" } ?? ""))
        }
        if let prediction = session.prediction, !json {
            for line in calibration.remeasuredLines { Terminal.error("calibration: \(line)") }
            if let plan = configuration.timePlan { Terminal.error("plan: DNGs \(plan.compression.rawValue) — \(plan.reason)") }
            Terminal.error("prediction: \(prediction.summary)")
        }
        status.prediction = session.prediction?.short
        live?.begin(session, frames: configuration.frames)
        let viewfinder = live?.viewfinder
        let report = session.run(progress: { progress in
            status.update(progress)
            viewfinder?.update(progress)
        })
        // After the handlers are gone, so that a signal that came at the very end is not missed.
        controls.finish()
        live?.end(stopCause: report.stopCause, stoppedBySignalOrKey: controls.stoppedBySignalOrKey)
        status.finish()
        return report
    }

    /// The human summary of a burst.
    private func printSummary(setup: CaptureSetup, burst: ResolvedBurst, askedISO: Double?, report: BurstSession.Report, statistics: BurstStatistics,
                              options: BurstOptions, slotMiB: Double, frames: [CaptureReport.Frame],
                              dropped: [(sensor: String, drop: BurstLedger.Drop)], chartFiles: [String], manifest: String?,
                              development: CaptureDevelopmentReport?, calibration: CaptureCalibration) {
        let what: String
        if let stream = setup.stream {
            what = "from \(stream.source) (\(stream.format) \(stream.width)x\(stream.height), stride \(stream.stride))"
        } else if let files = setup.replayedFiles {
            what = "replayed from \(files) file\(files == 1 ? "" : "s")"
        } else if let camera = cameraOptions.camera {
            what = "from \(camera)"
        } else {
            what = "with \(setup.cameras.map(\.name).joined(separator: " + ")) of \(scene)"
        }
        print("captured \(report.writtenCount) of \(report.producedCount) frame"
              + "\(report.producedCount == 1 ? "" : "s") \(what) in " + String(format: "%.2f s", report.seconds)
              + (statistics.triggersPerSecond > 0
                 ? String(format: " (%.1f fps", statistics.triggersPerSecond) + (setup.cameras.count > 1 ? " per sensor)" : ")") : ""))
        if setup.replayedFiles == nil && setup.stream == nil {
            for camera in setup.cameras {
                if let s = frames.first(where: { $0.sensor == camera.name })?.settings {
                    print("  \(setup.cameras.count > 1 ? camera.name + ": " : "")" + Self.settingsSummary(s, askedISO: askedISO))
                }
            }
        }
        if let colour = setup.colorCalibration { print("  \(colour.summary)") }
        let lent = report.memory.lentSlots
        print("  pool: \(report.pool.slotCount) slots of " + String(format: "%.1f MiB", slotMiB)
              + (lent > 0 ? " (\(lent) queued for the camera to fill)" : "") + ", high-water \(report.pool.highWater); \(options.writers) writer\(options.writers == 1 ? "" : "s"); "
              + String(format: "encode p50 %.0f ms, p99 %.0f ms; slot latency p99 %.2f ms", statistics.encodeP50Milliseconds,
                       statistics.encodeP99Milliseconds, statistics.slotLatencyP99Milliseconds))
        if let plan = burst.configuration.compressionPlan {
            let names: [DNGCompression: String] = [.lj92: "lossless JPEG (lj92)", .none: "uncompressed",
                                                  .packed: "uncompressed, packed at the sensor's bit depth (packed)"]
            // Frames stored otherwise than chosen: the governor's switch, or (packed) samples that need 16 bits.
            let used = Set(frames.map(\.compression)).subtracting([plan.chosen.rawValue]).sorted()
            let governed = report.degradations.contains { $0.compression != nil }
            let unpacked = !used.isEmpty && !governed && plan.chosen == .packed
            print("  DNGs \(names[plan.chosen] ?? plan.chosen.rawValue)" + (plan.requested == "auto" ? " (auto: \(plan.reason))" : "")
                  + (!used.isEmpty && governed ? "; the governor switched to \(used.joined(separator: ", ")) during the burst" : "")
                  + (unpacked ? "; 8- and 16-bit samples are written unpacked" : ""))
        }
        if let clip = burst.configuration.cinemaDNG {
            print("  CinemaDNG clip: reel \(clip.reelName) at \(SettingText.number(clip.frameRate)) fps, time codes from "
                  + (frames.first?.timeCode ?? "-"))
        }
        let waited = burst.configuration.waitForTrigger
        if let at = report.triggeredAtSequenceNumber {
            let kept = report.frames.filter { $0.sequenceNumber < at }.count / max(1, setup.source.framesPerTrigger)
            print("  " + (waited ? "recorded from frame \(at) (Record on the page)" : "pre-record: triggered at frame \(at)")
                  + "; \(kept) frame\(kept == 1 ? "" : "s") from before the trigger kept")
        } else if report.memory.slots > 0 && (options.preRecordFrames > 0 || waited) {
            print(waited ? "  nothing recorded (Record was not pressed)" : "  pre-record: never triggered; nothing kept")
        }
        if statistics.lateFrames > 0 {
            print("  behind schedule: \(statistics.lateFrames) frame\(statistics.lateFrames == 1 ? "" : "s") started more than 1 ms late, "
                  + "up to \(statistics.maxLatenessMilliseconds) ms")
        }
        for step in report.degradations {
            print("  governor at \(step.seconds) s: \(step.level) (\(step.reason)): \(step.effect)")
        }
        if let check = report.predictionCheck { print("  prediction \(check.summary)") }
        for line in calibration.doubtedLines { print("  calibration: \(line)") }
        if !dropped.isEmpty {
            let numbers = dropped.prefix(12).map { String($0.drop.sequenceNumber) }.joined(separator: ", ")
            print("  dropped \(dropped.count) (\(Set(dropped.map(\.drop.reason.rawValue)).sorted().joined(separator: ", "))): "
                  + numbers + (dropped.count > 12 ? ", ..." : ""))
        }
        if report.stopCause == .sourceEnded {
            print("  ended with its stream")
        } else if let reason = report.stopReason {
            print("  stopped early: \(reason)")
        }
        if frames.count <= 12 {
            for f in frames { print("  \(f.path)") }
        } else {
            print("  \(frames.count) DNGs in \(output)/")
        }
        for chartFile in chartFiles { print("  \(chartFile) (patch rectangles and reference values)") }
        if let development { printDevelopment(development, report: report) }
        if let manifest { print("  \(manifest) (every frame, drop and setting)") }
    }
}

extension CaptureCommand {
    /// Develops what the burst left (frames the governor or the budget deferred, and the composites of pairs) from
    /// the DNGs, with a progress bar, and puts everything developed into one report.
    func developAfterBurst(_ report: BurstSession.Report, development: BurstDevelopment,
                           setup: CaptureSetup) -> CaptureDevelopmentReport {
        let pairs = development.compositor != nil ? Set(report.frames.map(\.sequenceNumber)).count : 0
        let bar = ProgressBar(total: report.deferredDevelopments.count + pairs,
                              enabled: Terminal.stderrIsTerminal && !json && report.deferredDevelopments.count + pairs > 1)
        let plan = BurstDevelopmentFinisher.Plan(development: development,
                                                 samplesPerFrame: report.memory.slotBytes / MemoryLayout<UInt16>.stride,
                                                 memoryBudget: report.memory.budgetBytes,
                                                 cores: ProcessInfo.processInfo.activeProcessorCount)
        let start = Date()
        let outcome = BurstDevelopmentFinisher.finish(report, development: development, sensors: setup.cameras.map(\.name),
                                                      plan: plan) { done, _ in
            bar.update(done: done, label: "developing \(plan.inFlight) at a time", failed: 0)
        }
        bar.finish()
        let settings = development.settings
        return CaptureDevelopmentReport(
            format: development.format.rawValue,
            settings: "white balance \(settings.whiteBalance), \(settings.demosaic), \(settings.colorSpace.rawValue), "
                + "look \(settings.look.name), tone \(settings.tone), size \(settings.longEdge.map(String.init) ?? "full")"
                + (development.mirroredSensors.isEmpty ? "" : ", mirrored \(development.mirroredSensors.sorted().joined(separator: " and "))"),
            duringBurst: report.memory.developsDuringBurst,
            developed: (report.developed + outcome.developed).sorted { ($0.sequenceNumber, $0.sensor) < ($1.sequenceNumber, $1.sensor) },
            deferred: report.deferredDevelopments, afterBurstInFlight: plan.inFlight, afterBurstThreadsPerFile: plan.threadsPerFile,
            afterBurstSeconds: (Date().timeIntervalSince(start) * 1000).rounded() / 1000,
            composite: development.compositor?.layout.description,
            composites: outcome.composites, pairsWithoutComposite: outcome.pairsWithoutComposite,
            failures: report.failures.filter(\.isDevelopment).map(\.description) + outcome.failures)
    }
}

/// This process's start and peak memory, from the kernel.
enum ProcessClock {
    /// When this process started, on the `CLOCK_MONOTONIC` time line (ns), from /proc/self/stat (clock-tick
    /// resolution, 10 ms); nil when it cannot be read.
    static func startMonotonicNanoseconds() -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name; starttime is field 22 overall, the 20th after it.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = UInt64(fields[19]) else { return nil }
        let hertz = UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))
        var boot = timespec(), mono = timespec()
        clock_gettime(CLOCK_BOOTTIME, &boot)
        clock_gettime(CLOCK_MONOTONIC, &mono)
        let bootNow = UInt64(boot.tv_sec) * 1_000_000_000 + UInt64(boot.tv_nsec)
        let monoNow = UInt64(mono.tv_sec) * 1_000_000_000 + UInt64(mono.tv_nsec)
        let startBoot = ticks * 1_000_000_000 / hertz
        // Monotonic = boot time less the time spent suspended.
        let suspended = bootNow > monoNow ? bootNow - monoNow : 0
        return startBoot > suspended ? startBoot - suspended : nil
    }

    /// Peak resident set size of this process so far, in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
}
