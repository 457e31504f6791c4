import Foundation
import RawCapture
import RawCore
import RawDNG
import TestSupport
import Testing

/// What bursts measured beyond the standalone figures reaches the next plan at a like rate (`InBurstCost`), and the
/// plan and its check count it (`BurstTimePlan.inBurstFactor`, `CalibrationCheck`).
@Suite struct InBurstCostTests {
    static func sample(_ fps: Double, _ factor: Double, against: String = "A") -> InBurstCost.Sample {
        .init(fps: fps, factor: factor, frames: 90, against: against)
    }

    @Test("a plan takes the mean of the last three bursts within a quarter of its rate, against the same figures, between 1 and 4")
    func factorAtALikeRate() throws {
        var record = InBurstCost()
        #expect(record.factor(fps: 30, against: "A") == nil)
        for (fps, factor) in [(30.0, 9.0), (30, 1.5), (29, 2.0), (31, 1.9), (10, 1.1), (2, 0.8)] {
            record.record(Self.sample(fps, factor))
        }
        record.record(Self.sample(30, 3.5, against: "B"))
        // At 30 fps: 1.5, 2.0 and 1.9 (the 9.0 is older than the last three; 10 and 2 fps and figures "B" do not count).
        let thirty = try #require(record.factor(fps: 30, against: "A"))
        #expect(thirty.factor == 1.8 && thirty.bursts == 3 && thirty.fps == [30, 29, 31], "\(thirty)")
        // At 24 fps the bursts at 30, 30 and 29 count (within 6 fps), the one at 31 does not: 9.0 is among them.
        #expect(record.factor(fps: 24, against: "A") == .init(factor: 4, bursts: 3, fps: [30, 30, 29]))
        #expect(record.factor(fps: 10, against: "A")?.factor == 1.1)
        // A burst cheaper than the figures does not make a plan assume less than the figures.
        #expect(record.factor(fps: 2, against: "A")?.factor == 1)
        #expect(record.factor(fps: 30, against: "B")?.factor == 3.5)
        // Figures measured again (another stamp) start without a factor; no rate, no factor.
        #expect(record.factor(fps: 30, against: "C") == nil && record.factor(fps: nil, against: "A") == nil)
        var wild = InBurstCost()
        wild.record(Self.sample(30, 7))
        #expect(wild.factor(fps: 30, against: "A")?.factor == InBurstCost.largestFactor)
    }

    @Test("the record keeps the newest twelve samples and refuses ones that are not rates")
    func recordIsBounded() throws {
        var record = InBurstCost()
        for i in 0..<20 { record.record(Self.sample(Double(10 + i), 1 + Double(i) / 100)) }
        #expect(record.samples.count == InBurstCost.kept)
        #expect(record.samples.first?.fps == 18 && record.samples.last?.fps == 29)
        record.record(Self.sample(0, 2))
        record.record(Self.sample(30, .nan))
        record.record(Self.sample(30, -1))
        #expect(record.samples.count == InBurstCost.kept && record.samples.last?.fps == 29)
        // It survives the cache's JSON.
        let decoded = try JSONDecoder().decode(InBurstCost.self, from: JSONEncoder().encode(record))
        #expect(decoded == record)
    }

    /// Costs of 100 ns a sample and a fixed 1 ms for every compression, with and without the optional work.
    static let costs = FrameCostCalibration(
        fullNanosecondsPerSample: ["none": 100, "lj92": 100, "packed": 100],
        shedNanosecondsPerSample: ["none": 100, "lj92": 100, "packed": 100],
        fullFixedNanoseconds: ["none": 1e6, "lj92": 1e6, "packed": 1e6],
        shedFixedNanoseconds: ["none": 1e6, "lj92": 1e6, "packed": 1e6], losslessRatio: 0.5, overheadBytes: 0)

    /// A 30 fps plan's inputs on two cores for frames of 100,000 samples (11 ms a write) and a sensor of `sensor` ms.
    static func inputs(sensor: Double) -> BurstTimePlan.Inputs {
        var inputs = BurstTimePlan.Inputs(samplesPerFrame: 100_000, bitsPerSample: 12, costs: costs)
        inputs.fps = 30
        inputs.cores = 2
        inputs.sensorMilliseconds = sensor
        return inputs
    }

    @Test("the plan multiplies the sensor's and the writes' figures by the factor, never the injected CPU, and chooses by them")
    func planCountsTheFactor() throws {
        var inputs = Self.inputs(sensor: 20)
        inputs.simulatedWriteMilliseconds = 5
        let plain = BurstTimePlan(inputs)
        inputs.inBurstFactor = 2
        let doubled = BurstTimePlan(inputs)
        #expect(plain.inBurstFactor == nil && doubled.inBurstFactor == 2)
        // Alone: 20 + (1 + 10) + 5 = 36 ms a trigger; at twice the cost: 2·20 + 2·11 + 5 = 67 ms.
        for (a, b) in zip(plain.options, doubled.options) {
            #expect(a.cpuMilliseconds == 36 && b.cpuMilliseconds == 67, "\(a) \(b)")
        }
        // 36 ms fits the 50 ms of a 30 fps trigger's two cores with a quarter kept free; twice the cost does not.
        #expect(plain.keepsUp && !doubled.keepsUp)
        // A factor below 1 counts as 1.
        inputs.inBurstFactor = 0.5
        #expect(BurstTimePlan(inputs).options.first?.cpuMilliseconds == 36 && BurstTimePlan(inputs).inBurstFactor == 1)
    }

    @Test("before any burst at the rate has measured, the plan keeps half the CPU free, and says so")
    func unmeasuredRateKeepsHalfFree() throws {
        var inputs = Self.inputs(sensor: 25)
        inputs.requested = DNGCompression.none
        // 36 ms a trigger: within three quarters of the 66.7 ms two cores have at 30 fps, not within half.
        let measured = BurstTimePlan(inputs)
        #expect(measured.headroom == 0.25 && measured.keepsUp && measured.reason.contains("(a quarter kept free)"), "\(measured.reason)")
        inputs.headroom = BurstTimePlan.unmeasuredHeadroom
        let unmeasured = BurstTimePlan(inputs)
        #expect(unmeasured.headroom == 0.5 && !unmeasured.keepsUp && unmeasured.reason.contains("(half kept free)"), "\(unmeasured.reason)")
        #expect(BurstPrediction(plan: unmeasured, slots: 100).kind != .continuous)
        #expect(BurstTimePlan.words(headroom: 0.3) == "30 %")
    }

    @Test("a burst judged against a plan with a factor is judged against the figures times the factor")
    func checkCountsTheFactor() throws {
        let measured = try #require(FrameCostCalibration.measure(options: DNGWriter.Options(), bitsPerSample: 12, cfa: .rggb))
        let tmp = try TemporaryDirectory()
        let (report, plan) = try CalibrationStalenessTests.burst(costs: measured, diskMBps: 1000, directory: tmp.url.path)
        let alone = try #require(CalibrationCheck(report: report, plan: plan, costs: measured, simulatedDisk: false).cpu)
        var inputs = BurstTimePlan.Inputs(samplesPerFrame: plan.samplesPerTrigger, bitsPerSample: 12, costs: measured)
        inputs.cores = plan.cores
        inputs.requested = DNGCompression.none
        inputs.sensorMilliseconds = 0.01
        inputs.inBurstFactor = 3
        let tripled = try #require(CalibrationCheck(report: report, plan: BurstTimePlan(inputs), costs: measured,
                                                    simulatedDisk: false).cpu)
        // The same burst: a third of the frames per CPU second planned, three times the ratio.
        #expect(tripled.measured == alone.measured)
        #expect(abs(tripled.cached * 3 - alone.cached) <= 0.3, "\(tripled) \(alone)")
        // Doubted only below a quarter of the plan's figure (a frame costing 4x is a wrong figure, not contention).
        #expect(CalibrationCheck.cpuDoubtRatio == 0.25)
        #expect(alone.doubted == (alone.ratio < 0.25) && tripled.doubted == (tripled.ratio < 0.25))
    }
}
