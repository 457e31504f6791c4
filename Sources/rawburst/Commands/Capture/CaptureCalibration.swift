import Foundation
import RawBurst

/// Which machine figures a burst's plan took from the calibration cache, which it measured again and why, and what the
/// burst then measured of them (`burst.calibration` in the manifest and `--json`).
struct CaptureCalibration: Encodable {
    /// Where a figure came from.
    enum Origin: String, Encodable {
        /// The calibration cache, fresh.
        case cache
        /// Measured for this burst (none cached, or the cached one stale).
        case measuredNow = "measured-now"
        /// `--simulate-disk`'s rate.
        case simulated
    }

    /// One figure: its origin, when the cached figure (used or replaced) was measured, and why it was replaced.
    struct Figure: Encodable {
        let origin: Origin
        let measured: String?
        let remeasuredBecause: String?

        init(origin: Origin, measured: String? = nil, remeasuredBecause: String? = nil) {
            self.origin = origin
            self.measured = measured
            self.remeasuredBecause = remeasuredBecause
        }

        /// A figure the cache held as `cached` (nil: none), taken from it when `used`.
        init<V>(cached: CalibrationCache.Dated<V>?, used: Bool) {
            self.init(origin: used ? .cache : .measuredNow, measured: cached?.measured,
                      remeasuredBecause: used ? nil : cached?.staleness()?.description)
        }
    }

    var disk: Figure?
    var writerCosts: Figure?
    var sensor: Figure?
    /// What earlier bursts at a like rate measured a frame to cost over the standalone figures, when the plan used it.
    var inBurst: InBurstCost.Use?
    /// The factor this burst measured and kept for the next plan at its rate (nil: none kept).
    var inBurstMeasured: Double?
    /// The burst's rate when no burst at it had measured that factor yet, so that the plan kept half the CPU free.
    var unmeasuredRate: Double?
    /// What the burst measured of the plan's disk and CPU figures (nil when there was no plan).
    var afterBurst: CalibrationCheck?
    /// The figures the burst doubted (the disk measured below 0.75 of its figure, the CPU below 0.25): the next burst
    /// measures them again.
    var doubted: [String] = []

    /// Lines for the printed plan: each cached figure measured again, and why; the in-burst factor used.
    var remeasuredLines: [String] {
        let remeasured = [("disk", disk), ("writer costs", writerCosts), ("sensor", sensor)].compactMap { name, figure in
            figure?.remeasuredBecause.map { "\(name) measured again: \($0)" }
        }
        if let rate = unmeasuredRate {
            return remeasured + ["no burst at \(SettingText.number(rate)) fps has measured what a frame costs here beside the sensor "
                                 + "and the other writers yet: \(BurstTimePlan.words(headroom: BurstTimePlan.unmeasuredHeadroom)) "
                                 + "of the CPU kept free"]
        }
        guard let inBurst else { return remeasured }
        let rates = Set(inBurst.fps.map { SettingText.number($0) }).sorted().joined(separator: ", ")
        let bursts = inBurst.bursts == 1 ? "burst" : "\(inBurst.bursts) bursts"
        return remeasured + ["a frame cost \(SettingText.number(inBurst.factor))x the standalone figures in the last \(bursts) at \(rates) fps: "
                             + "planned with that"]
    }

    /// Lines for the summary: each figure the burst doubted.
    var doubtedLines: [String] {
        var lines: [String] = []
        if let d = afterBurst?.disk, d.doubted {
            lines.append("the disk took \(SettingText.number(d.measured)) MB/s during this burst, \(SettingText.number(d.ratio))x "
                         + "the plan's \(SettingText.number(d.cached)) MB/s: the next burst measures it again")
        }
        if let c = afterBurst?.cpu {
            let cost = "frames cost \(SettingText.number(c.measured)) against the plan's \(SettingText.number(c.cached)) \(c.unit)"
            if c.doubted {
                lines.append(cost + ", \(SettingText.number(c.ratio))x: the next burst measures the writer's and the sensor's costs again")
            } else if let kept = inBurstMeasured, c.ratio < CalibrationCache.doubtRatio {
                lines.append(cost + ": the next plan at this rate counts \(SettingText.number(kept))x the standalone figures")
            }
        }
        return lines
    }
}

/// What the plan took from the calibration cache, under which keys, so that after the burst a figure the burst
/// doubted can be marked for measuring again.
struct CalibrationUse {
    var status = CaptureCalibration()
    var costKey = ""
    var sensorKeys: [String] = []
    var diskKey: String?
    /// The writer's costs the plan used.
    var costs: FrameCostCalibration?
    /// Where this configuration's in-burst factors are kept, and the stamps of the figures they are relative to (nil:
    /// none kept — an injected CPU cost, or no figures).
    var inBurstKey: String?
    var inBurstAgainst = ""

    /// Judges `report` against the plan's figures and marks each doubted one in the cache (the next plan measures it
    /// again and says why); returns the status with what the burst measured.
    func afterBurst(_ report: BurstSession.Report, configuration: BurstSession.Configuration) -> CaptureCalibration {
        var status = self.status
        guard let plan = configuration.timePlan, let costs else { return status }
        let check = CalibrationCheck(report: report, plan: plan, costs: costs,
                                     simulatedDisk: configuration.storageFaults != nil)
        status.afterBurst = check
        var cache = CalibrationCache.load()
        if let disk = check.disk, disk.doubted, let key = diskKey, cache.disks[key] != nil {
            cache.disks[key]?.doubt = disk.doubt
            status.doubted.append("disk")
        }
        if let cpu = check.cpu, cpu.doubted {
            cache.frameCosts[costKey]?.doubt = cpu.doubt
            for key in sensorKeys { cache.sensorMilliseconds[key]?.doubt = cpu.doubt }
            status.doubted += ["writer costs", "sensor"]
        } else if let cpu = check.cpu, cpu.ratio > 0, let key = inBurstKey, let fps = plan.fps {
            // What the plan counted over what the burst measured, relative to the standalone figures.
            let factor = ((plan.inBurstFactor ?? 1) / cpu.ratio * 100).rounded() / 100
            cache.inBurstCosts[key, default: InBurstCost()].record(
                .init(fps: fps, factor: factor, frames: report.writtenCount, against: inBurstAgainst))
            status.inBurstMeasured = factor
        }
        if !status.doubted.isEmpty || status.inBurstMeasured != nil {
            do { try cache.save() } catch {
                Terminal.error("rawburst capture: what the burst measured of the calibration could not be kept: \(error)")
            }
        }
        return status
    }
}
