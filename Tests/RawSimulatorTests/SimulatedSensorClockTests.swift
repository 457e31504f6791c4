import Foundation
import RawCore
import RawFiles
import RawJobs
@testable import RawSimulator
import RawSources
import TestSupport
import Testing

/// The simulated sensor on a real clock, alone and as one of two sensors triggered together.
@Suite struct SimulatedSensorClockTests {
    /// A built-in profile at a small size (same name, same field of view).
    static func small(_ name: String, width: Int = 320) throws -> SensorProfile {
        try #require(SensorProfile.builtIn(named: name)).resized(toWidth: width)
    }

    @Test(.disabled(if: Sanitizers.any, "a sanitizer's slowdown is not the clock's lateness"))
    func realClockSpacesFramesByTheFrameIntervalIntoTheCallersBuffer() throws {
        let sensor = try SimulatedSensor(profile: try Self.small("phone-wide"), scene: ColorChartScene(), seed: 1,
                                         clock: .realTime(fps: 25))
        try sensor.configure(CaptureSettings(iso: 100, shutter: 1.0 / 100, focus: .metres(1.5)))
        let storage = PixelStorage(count: sensor.samplesPerFrame)
        var stamps: [UInt64] = [], late: [UInt64] = []
        for n in UInt64(0)..<6 {
            let frame = try sensor.nextFrame(into: storage)
            #expect(frame.sequenceNumber == n && frame.image.metadata.sequenceNumber == n)
            #expect(frame.image.frame.storage === storage, "the frame must live in the caller's buffer")
            #expect(frame.image.metadata.captureTime != nil)
            #expect(frame.sensorName == "phone-wide")
            stamps.append(frame.monotonicNanoseconds)
            late.append(frame.latenessNanoseconds)
        }
        expectStartToStart(stamps: stamps, lateness: late, interval: 40e6)
    }

    @Test(.disabled(if: Sanitizers.any, "a sanitizer's slowdown is not the trigger's skew"))
    func twoSimulatedSensorsAreTriggeredTogether() throws {
        let chart = ColorChartScene()
        let wide = try SimulatedSensor(profile: try Self.small("phone-wide"), scene: chart, seed: 1)
        let front = try SimulatedSensor(profile: try Self.small("phone-front"), scene: chart, seed: 2)
        let dual = DualSource(wide, front, clock: .realTime(fps: 20))
        try dual.configure(a: CaptureSettings(iso: 100, focus: .metres(1.5)), b: CaptureSettings(focus: .metres(1.5)))
        let bufferA = PixelStorage(count: dual.samplesPerFrame.a)
        let bufferB = PixelStorage(count: dual.samplesPerFrame.b)
        var triggers: [UInt64] = [], late: [UInt64] = [], startGaps: [Int64] = []
        for n in UInt64(0)..<5 {
            let (a, b) = try dual.nextPair(into: bufferA, bufferB)
            #expect(a.sensorName == "phone-wide" && b.sensorName == "phone-front")
            #expect(a.sequenceNumber == n && b.sequenceNumber == n)
            #expect(a.monotonicNanoseconds == b.monotonicNanoseconds)
            #expect(a.image.metadata.captureTime == b.image.metadata.captureTime)
            let timing = try #require(dual.lastPairTiming)
            startGaps.append(abs(Int64(bitPattern: timing.startNanosecondsB &- timing.startNanosecondsA)))
            // Each side is its own camera: its geometry, CFA and settings.
            #expect(a.image.frame.width == wide.profile.width && b.image.frame.width == front.profile.width)
            #expect(a.image.frame.cfa != b.image.frame.cfa)
            #expect(a.settings.iso == 100 && b.settings.automatic.contains("iso"))
            triggers.append(a.monotonicNanoseconds)
            late.append(a.latenessNanoseconds)
        }
        expectStartToStart(stamps: triggers, lateness: late, interval: 50e6)
        // The sensors' own starts: together, up to thread wake-up (tests run in parallel on a busy machine,
        // so the bound is loose; the pair's timestamp above is exact).
        #expect(startGaps.sorted()[startGaps.count / 2] < 20_000_000, "start gaps \(startGaps) ns")
    }
}
