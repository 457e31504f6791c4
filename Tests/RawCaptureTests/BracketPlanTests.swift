import Foundation
import RawCapture
import RawCore
import RawFiles
import RawSimulator
import RawSources
import TestSupport
import Testing

/// Bracketing plans: the language, the order of combinations, focus ranges in dioptres, validation against a
/// sensor, and a bracketed burst.
@Suite struct BracketPlanTests {
    @Test func combinationsRunFirstAxisSlowest() throws {
        let plan = try BracketPlan(parsing: "ev:-1,0,+1 x wb:3200K,5600K repeat:2")
        #expect(plan.stepsPerRun == 6 && plan.frameCount == 12)
        let steps = (0..<12).map { plan.step($0, base: CaptureSettings(iso: 200)) }
        #expect(steps.map(\.settings.exposureCompensation) == [-1, -1, 0, 0, 1, 1, -1, -1, 0, 0, 1, 1])
        let balances: [String] = steps.map { $0.settings.whiteBalance.description }
        let expectedBalances: [String] = Array(Array(repeating: ["3200K", "5600K"], count: 6).joined())
        #expect(balances == expectedBalances)
        #expect(steps.map(\.bracketIndex) == [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5])
        #expect(steps.allSatisfy { $0.settings.iso == 200 }, "the base settings stay")
        let shutter = try BracketPlan(parsing: "shutter:1/500,1/125 x iso:100,400")
        #expect(shutter.step(3, base: CaptureSettings()).settings.shutter == 1.0 / 125)
        #expect(shutter.step(3, base: CaptureSettings()).settings.iso == 400)
    }

    @Test func focusRangesAreEvenInDioptres() throws {
        let plan = try BracketPlan(parsing: "focus:0.25m..inf/5")
        let distances = (0..<5).map { plan.step($0, base: CaptureSettings()).settings.focus }
        // 4, 3, 2, 1, 0 dioptres.
        #expect(distances == [.metres(0.25), .metres(1.0 / 3), .metres(0.5), .metres(1), .infinity])
        let list = try BracketPlan(parsing: "focus:0.5m,2,inf")
        #expect((0..<3).map { list.step($0, base: CaptureSettings()).settings.focus } == [.metres(0.5), .metres(2), .infinity])
    }

    @Test("bad plans are refused naming the part that is wrong", arguments: [
        ("", "no axis"),
        ("ev:-1,,1", "empty value"),
        ("ev:-1,zero", "'zero' is not a ev value"),
        ("exposure:1,2", "'exposure' is not an axis"),
        ("ev:-1,0 wb:3200K", "axes are joined by ' x '"),
        ("ev:-1,0 x", "ends with 'x'"),
        ("x ev:0", "'x' must stand between two axes"),
        ("ev:0 repeat:0", "repeat must be a whole number"),
        ("focus:0.3m..inf", "a focus range is A..B/N"),
        ("wb:purple", "'purple' is not a white balance"),
        ("shutter:fast", "'fast' is not a shutter value"),
    ])
    func refused(_ text: String, _ message: String) {
        let error = #expect(throws: BracketPlanError.self) { try BracketPlan(parsing: text) }
        #expect(error?.message.contains(message) == true, "\(text): \(String(describing: error))")
    }

    @Test func aPlanTheSensorCannotDoIsRefusedBeforeTheBurst() throws {
        let sensor = try SimulatedSensor(profile: SensorProfile.builtIn(named: "phone-front")!, scene: GreyRampScene())
        let plan = try BracketPlan(parsing: "iso:100,6400")
        let error = #expect(throws: BracketPlanError.self) {
            try plan.validate(base: CaptureSettings()) { try sensor.check($0) }
        }
        #expect(error?.message == "step 2 of 2: ISO: 6400 is outside 50...3200 for phone-front")
        try plan.validate(base: CaptureSettings()) { _ in }
    }

    @Test func aBracketedBurstTakesEachStepAndNamesTheFiles() throws {
        let tmp = try TemporaryDirectory()
        let profile = try #require(SensorProfile.builtIn(named: "phone-wide")).resized(toWidth: 320)
        let sensor = try SimulatedSensor(profile: profile, scene: GreyRampScene(), seed: 2)
        let plan = try BracketPlan(parsing: "shutter:1/400,1/100,1/25")
        let base = CaptureSettings(iso: 100, focus: .metres(2), whiteBalance: .preset(.daylight))
        var configuration = BurstSession.Configuration(
            frames: plan.frameCount * 2, overflow: .block, writers: 2, memoryBudget: BurstSessionTests.budget(slots: 8, sensor: sensor, writers: 2),
            outputDirectory: tmp.url.path, nameTemplate: try FilenameTemplate("%s-%2q-b%b"))
        configuration.plan = (plan, base)
        let session = try BurstSession(source: sensor, configuration: configuration)
        let report = session.run()
        #expect(report.problems == [] && report.errors.isEmpty)
        let records = report.frames.sorted { $0.sequenceNumber < $1.sequenceNumber }
        let shutters: [Double] = records.map(\.settings.shutter)
        let expectedShutters: [Double] = [0.0025, 0.01, 0.04, 0.0025, 0.01, 0.04]
        #expect(shutters == expectedShutters)
        #expect(records.map(\.bracketIndex) == [0, 1, 2, 0, 1, 2])
        let names: [String] = records.map { ($0.path as NSString).lastPathComponent }
        let expectedNames = ["phone-wide-00-b0.dng", "phone-wide-01-b1.dng", "phone-wide-02-b2.dng",
                             "phone-wide-03-b0.dng", "phone-wide-04-b1.dng", "phone-wide-05-b2.dng"]
        #expect(names == expectedNames)
        // Two stops more light, four times the signal: the mean of frame 1 is about 4x frame 0's.
        func mean(_ path: String) throws -> Double {
            let frame = try RawFileReader().read(path: path).frame
            let samples = frame.activeSamples()
            return samples.reduce(0.0) { $0 + Double($1) } / Double(samples.count) - frame.blackLevels.values[0]
        }
        let ratio = try mean(records[1].path) / mean(records[0].path)
        #expect(abs(ratio - 4) < 0.2, "signal ratio \(ratio)")
    }

    @Test func anExposureBracketStepsExactlyFromTheMeteredExposure() throws {
        let tmp = try TemporaryDirectory()
        let profile = try #require(SensorProfile.builtIn(named: "phone-wide")).resized(toWidth: 320)
        let sensor = try SimulatedSensor(profile: profile, scene: GreyRampScene(), seed: 2)
        var configuration = BurstSession.Configuration(
            frames: 3, overflow: .block, writers: 1, memoryBudget: BurstSessionTests.budget(slots: 6, sensor: sensor, writers: 1), outputDirectory: tmp.url.path)
        configuration.plan = (try BracketPlan(parsing: "ev:-1,0,+1"), CaptureSettings(iso: 50))
        let report = try BurstSession(source: sensor, configuration: configuration).run()
        let records = report.frames.sorted { $0.sequenceNumber < $1.sequenceNumber }
        #expect(report.problems == [] && records.count == 3)
        let exposures = records.map { $0.settings.iso * $0.settings.shutter }
        #expect(abs(exposures[1] / exposures[0] - 2) < 1e-9 && abs(exposures[2] / exposures[1] - 2) < 1e-9, "\(exposures)")
        #expect(records.allSatisfy { $0.settings.iso == 50 }, "ISO fixed by the base settings")
        #expect(records.map(\.settings.exposureCompensation) == [-1, 0, 1])
        #expect(Set(records.map(\.settings.focus)).count == 1, "focus locked for the bracket")
    }
}
