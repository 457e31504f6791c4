import Foundation
import RawCapture
import RawCore
import RawDNG
import RawSimulator
import RawSources
import TestSupport
import Testing

/// Cached machine figures do not outlive their conditions: older than 24 h, or doubted by a burst that measured less
/// than 0.75 of their rate, they are measured again (`CalibrationCache.Staleness`, `CalibrationCheck`).
@Suite struct CalibrationStalenessTests {
    static let measured = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("a figure is used for 24 h after it was measured, never before (a clock set back) and never undated")
    func figuresExpireAfterADay() throws {
        let costs = CalibrationCache.Dated(12.5, now: Self.measured)
        #expect(costs.staleness(now: Self.measured) == nil)
        #expect(costs.staleness(now: Self.measured + 86_399) == nil)
        #expect(costs.staleness(now: Self.measured + 86_400) == .old(measured: costs.measured))
        #expect(costs.staleness(now: Self.measured - 60) == .old(measured: costs.measured))
        // Every kind of disk figure, `rawburst storage`'s too (it was kept 30 days before).
        for method in [CalibrationCache.Disk.Method.probe, .storage] {
            let disk = CalibrationCache.Disk(megabytesPerSecond: 230, method: method, now: Self.measured)
            #expect(disk.staleness(now: Self.measured + 3600) == nil)
            #expect(disk.staleness(now: Self.measured + 2 * 86_400) != nil, "\(method)")
        }
        // A date the cache cannot read is no date.
        let json = #"{"value": 3.5, "measured": "yesterday"}"#
        let undated = try JSONDecoder().decode(CalibrationCache.Dated<Double>.self, from: Data(json.utf8))
        #expect(undated.staleness(now: Self.measured) == .old(measured: "yesterday"))
        #expect(CalibrationCache.Staleness.old(measured: costs.measured).description
                == "the cached figure of \(costs.measured) is older than 24 h")
    }

    @Test("a doubt cast by a burst sends a fresh figure back to be measured, and says by how much")
    func aDoubtSendsAFigureBack() {
        var disk = CalibrationCache.Disk(megabytesPerSecond: 1050, method: .probe, now: Self.measured)
        disk.doubt = CalibrationCache.Doubt(cached: 1050, measured: 230, unit: "MB/s", now: Self.measured + 60)
        let staleness = disk.staleness(now: Self.measured + 120)
        guard case .doubted(let doubt)? = staleness else {
            Issue.record("not doubted: \(String(describing: staleness))")
            return
        }
        #expect(abs(doubt.ratio - 230.0 / 1050) < 1e-12)
        #expect(staleness?.description == "a burst on \(doubt.date) measured 230 MB/s, 0.22x of the cached 1050 MB/s")
    }

    /// A free-running burst of 12 small frames with a time plan built from `costs` and a disk of `diskMBps`.
    static func burst(costs: FrameCostCalibration, diskMBps: Double, directory: String) throws -> (BurstSession.Report, BurstTimePlan) {
        let sensor = try BurstSessionTests.sensor()
        var inputs = BurstTimePlan.Inputs(samplesPerFrame: sensor.samplesPerFrame, bitsPerSample: 12, costs: costs)
        inputs.cores = ProcessInfo.processInfo.activeProcessorCount
        inputs.requested = DNGCompression.none
        inputs.sensorMilliseconds = 0.01
        inputs.diskBytesPerSecond = diskMBps * 1e6
        let plan = BurstTimePlan(inputs)
        var configuration = BurstSession.Configuration(
            frames: 12, overflow: .block, writers: 2,
            memoryBudget: BurstSessionTests.budget(slots: 4, sensor: sensor, writers: 2), outputDirectory: directory)
        configuration.timePlan = plan
        return (try BurstSession(source: sensor, configuration: configuration).run(), plan)
    }

    @Test("a burst that measures less than 0.75 of the plan's disk or CPU figure doubts it; one that measures more does not")
    func burstsJudgeTheirFigures() throws {
        let measured = try #require(FrameCostCalibration.measure(options: DNGWriter.Options(), bitsPerSample: 12, cfa: .rggb))
        // Figures no machine reaches: a disk of 900 000 MB/s, frames written for a thousandth of their CPU.
        var flattering = measured
        flattering.fullNanosecondsPerSample = measured.fullNanosecondsPerSample.mapValues { $0 / 1000 }
        flattering.shedNanosecondsPerSample = measured.shedNanosecondsPerSample.mapValues { $0 / 1000 }
        flattering.fullFixedNanoseconds = measured.fullFixedNanoseconds.mapValues { $0 / 1000 }
        flattering.shedFixedNanoseconds = measured.shedFixedNanoseconds.mapValues { $0 / 1000 }
        let tmp = try TemporaryDirectory()
        let (report, plan) = try Self.burst(costs: flattering, diskMBps: 900_000, directory: tmp.url.path)
        #expect(report.problems == [] && report.writtenCount == 12)
        #expect(report.disk.bytes == report.frames.reduce(0) { $0 + $1.bytes } && report.disk.busySeconds > 0)
        let check = CalibrationCheck(report: report, plan: plan, costs: flattering, simulatedDisk: false)
        let disk = try #require(check.disk), cpu = try #require(check.cpu)
        #expect(disk.doubted && disk.ratio < 0.75 && disk.cached == 900_000, "\(disk)")
        #expect(cpu.doubted && cpu.ratio < 0.75, "\(cpu)")
        #expect(disk.doubt.unit == "MB/s" && cpu.doubt.unit == CalibrationCheck.cpuUnit)
        // A simulated disk's figure is the simulation's, not the disk's: not judged.
        #expect(CalibrationCheck(report: report, plan: plan, costs: flattering, simulatedDisk: true).disk == nil)
        // Figures far below what the machine does: nothing doubted.
        var modest = measured
        modest.fullNanosecondsPerSample = measured.fullNanosecondsPerSample.mapValues { $0 * 1000 + 1000 }
        modest.shedNanosecondsPerSample = measured.shedNanosecondsPerSample.mapValues { $0 * 1000 + 1000 }
        let second = try TemporaryDirectory()
        let (calm, calmPlan) = try Self.burst(costs: modest, diskMBps: 0.001, directory: second.url.path)
        let fine = CalibrationCheck(report: calm, plan: calmPlan, costs: modest, simulatedDisk: false)
        #expect(fine.disk?.doubted == false && fine.cpu?.doubted == false, "\(fine)")
    }

    @Test("the disk's measure: bytes over the time at least one write was making its file durable")
    func diskActivityIsTheUnionOfSpans() {
        // Two writers overlapping for 10 ms of 30: 20 MB in 30 ms of the disk's time.
        let spans: [ClosedRange<UInt64>] = [0...20_000_000, 10_000_000...30_000_000, 40_000_000...40_000_000]
        var activity = DiskActivity()
        activity.record(bytes: 20_000_000, spans: spans)
        #expect(abs(activity.busySeconds - 0.03) < 1e-12)
        #expect(abs((activity.megabytesPerSecond ?? 0) - 20 / 0.03) < 1e-9)
    }
}
