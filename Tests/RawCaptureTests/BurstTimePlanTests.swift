import Foundation
import RawCapture
import RawCore
import RawDevelop
import RawDNG
import RawImageIO
import RawSimulator
import RawSources
import TestSupport
import Testing

/// The CPU and disk plan: its rule, its prediction, and both held against bursts on simulated slow disks.
@Suite struct BurstTimePlanTests {
    /// Costs per sample (ns) that make a 1 MP frame cost 10 ms uncompressed, 12 ms packed, 40 ms as lossless JPEG
    /// (5 ms less each without the optional work), lossless JPEG at 60 % of the samples' bytes, 100 kB of overhead.
    static let costs = FrameCostCalibration(
        fullNanosecondsPerSample: ["none": 10, "packed": 12, "lj92": 40],
        shedNanosecondsPerSample: ["none": 5, "packed": 7, "lj92": 35], losslessRatio: 0.6, overheadBytes: 100_000)

    /// A trigger of 1 MP frames whose sources take 20 ms of CPU in all, `serial` ms on the sensor thread.
    static func inputs(fps: Double?, disk: Double?, sensor: Double = 20, serial: Double = 10, cores: Int = 2) -> BurstTimePlan.Inputs {
        var inputs = BurstTimePlan.Inputs(samplesPerFrame: 1_000_000, bitsPerSample: 12, costs: costs)
        inputs.fps = fps
        inputs.cores = cores
        inputs.sensorMilliseconds = sensor
        inputs.sensorSerialMilliseconds = serial
        inputs.diskBytesPerSecond = disk
        return inputs
    }

    @Test("a pair of sensors of different sizes costs each frame at its own size")
    func pairOfSizes() {
        // With a fixed part per write: 2 ms uncompressed. A 1 MP + 0.25 MP pair: 2 + 10 + 2 + 2.5 = 16.5 ms of writes,
        // not two 1 MP frames' 24 ms; bytes 2 MB + 0.5 MB + two overheads.
        var costs = Self.costs
        costs.fullFixedNanoseconds = ["none": 2e6, "packed": 2e6, "lj92": 2e6]
        var inputs = Self.inputs(fps: 10, disk: 500e6, sensor: 0)
        inputs.costs = costs
        inputs.framesPerTrigger = 2
        inputs.samplesPerTriggerFrame = [1_000_000, 250_000]
        let plan = BurstTimePlan(inputs)
        let none = plan.options.first { $0.compression == .none }
        #expect(none?.cpuMilliseconds == 16.5 && none?.bytes == 2_700_000, "\(String(describing: none))")
        #expect(plan.samplesPerTrigger == 1_250_000)
        // Without sizes of its own, a trigger is `framesPerTrigger` frames of `samplesPerFrame`.
        inputs.samplesPerTriggerFrame = nil
        #expect(BurstTimePlan(inputs).options.first { $0.compression == .none }?.cpuMilliseconds == 24)
    }

    @Test("the fewest bytes that fit 75 % of the cores and 90 % of the disk; optional work dropped before a denser compression")
    func theRule() {
        // 10 fps on 2 cores: 200 ms per trigger, 150 usable. Lossless JPEG: 20 + 40 = 60 ms, 1.3 MB a frame, 13 MB/s.
        let roomy = BurstTimePlan(Self.inputs(fps: 10, disk: 500e6))
        #expect(roomy.compression == .lj92 && roomy.optionalWork && roomy.bottleneck == .cpu)
        #expect(roomy.options.first { $0.compression == .lj92 }?.bytes == 1_300_000)
        #expect(roomy.options.first { $0.compression == .packed }?.bytes == 1_600_000)
        #expect(roomy.options.first { $0.compression == .none }?.neededMBps == 21)
        // 40 fps: 50 ms per trigger, 37.5 usable: lossless JPEG (60) does not fit, packed (32) does.
        let fast = BurstTimePlan(Self.inputs(fps: 40, disk: 500e6))
        #expect(fast.compression == .packed && fast.optionalWork)
        // 60 fps: 33 ms, 25 usable: packed without optional work (27) is too much, uncompressed without it (25) fits.
        let faster = BurstTimePlan(Self.inputs(fps: 60, disk: 500e6))
        #expect(faster.compression == .none && !faster.optionalWork, "\(faster.reason)")
        // A 15 MB/s disk at 10 fps: lossless JPEG (13 MB/s) fits 90 % of it, packed (16) does not.
        let slow = BurstTimePlan(Self.inputs(fps: 10, disk: 15e6))
        #expect(slow.compression == .lj92)
        // 8 MB/s: nothing fits; lossless JPEG overloads the disk least, and the disk is what limits the burst.
        let slower = BurstTimePlan(Self.inputs(fps: 10, disk: 8e6))
        #expect(slower.compression == .lj92 && slower.bottleneck == .disk)
        #expect(slower.reason.hasPrefix("nothing keeps up at this rate; lj92 comes closest"))
        // Asked for: kept, with the figures; the optional work goes when it does not fit.
        var asked = Self.inputs(fps: 60, disk: 500e6)
        asked.requested = .lj92
        let kept = BurstTimePlan(asked)
        #expect(kept.compression == .lj92 && !kept.optionalWork && kept.reason.hasPrefix("asked for with --compression lj92"))
        // A source needing 20 ms on the sensor thread cannot hold 60 fps (85 % of 16.7 ms), whatever the writers do.
        let slowSensor = BurstTimePlan(Self.inputs(fps: 60, disk: 500e6, serial: 20))
        #expect(slowSensor.bottleneck == .sensor && slowSensor.reason.contains("the sensor needs 20 ms a frame"))
        let p = BurstPrediction(plan: slowSensor, slots: 20)
        #expect(!p.sustainable && p.framesBeforeFull == nil && p.capacityFPS == 50)
        #expect(p.summary.hasPrefix("the sensor makes at most ~50 fps here: at 60 fps frames are dropped late"))
        #expect(BurstGovernor.ladder(bottleneck: .sensor, compression: .lj92, shedsWork: true, packable: true, realTime: true)
                == [.noPreviews, .lowerRate])
    }

    @Test("the prediction: continuous when the writers keep up, otherwise slots ÷ (rate − capacity)")
    func prediction() {
        let continuous = BurstPrediction(plan: BurstTimePlan(Self.inputs(fps: 10, disk: 500e6)), slots: 20)
        #expect(continuous.sustainable && continuous.summary == "continuous at 10 fps (needs 13 MB/s, disk 500 MB/s)")
        // Uncompressed by request onto a 10.5 MB/s disk at 10 fps: 2.1 MB a frame, so the disk takes 5 fps. The first
        // write takes 10 ms of CPU and 0.2 s on the disk before a slot comes back: 22 slots fill in
        // (22 − 5 × 0.21) / (10 − 5) = 4.19 s, 42 frames.
        var asked = Self.inputs(fps: 10, disk: 10.5e6)
        asked.requested = DNGCompression.none
        let plan = BurstTimePlan(asked)
        let p = BurstPrediction(plan: plan, slots: 22)
        #expect(!p.sustainable && p.capacityFPS == 5 && p.secondsBeforeFull == 4.2 && p.framesBeforeFull == 42, "\(p)")
        #expect(p.short == "holds ~42 frames")
        // Without a governor, the first event is the first drop: the pool full.
        #expect(p.kind == .holds && p.firstEvent == .drop && p.framesBeforeFirstEvent == 42)
        #expect(p.summary.hasPrefix("holds ~42 frames (4.2 s) at 10 fps, then frames are dropped"))
        let free = BurstPrediction(plan: BurstTimePlan(Self.inputs(fps: nil, disk: nil)), slots: 8)
        #expect(free.sustainable && free.summary.hasPrefix("free-running"))
    }

    @Test("the bytes a frame's file takes beyond its raw data, estimated from the calibration, within 15 % of a written file at 256x192, 640x480, 1024x768 and 2048x1536, without a preview and with one of 1024 or 256 px",
          arguments: [nil, 1024, 256] as [Int?])
    func overheadScalesWithTheFrame(preview: Int?) throws {
        var measured = DNGWriter.Options()
        measured.previewLongEdge = preview
        let encoder: (any PreviewEncoding)? = preview == nil ? nil : JPEGPreviews()
        let costs = try #require(FrameCostCalibration.measure(options: measured, previewEncoder: encoder, bitsPerSample: 12, cfa: .rggb))
        if preview != nil { #expect((costs.previewBytes ?? 0) > 2000 && (costs.previewBytes ?? 0) < (costs.overheadBytes ?? 0)) }
        let tmp = try TemporaryDirectory()
        for (width, height) in [(256, 192), (640, 480), (1024, 768), (2048, 1536)] {
            let frame = try SyntheticRaw.frame(width: width, height: height, cfa: .rggb, bits: 12, seed: 3)
            let image = RawImage(frame: frame, metadata: try SyntheticRaw.fullMetadata(), calibration: nil)
            var options = measured
            options.compression = .none
            let written = try DNGWriter(options: options, previewEncoder: encoder).write(image, to: tmp.file("\(width).dng").path).bytes
            let actual = written - width * height * 2
            let estimate = try #require(costs.overheadBytes(samples: width * height))
            #expect(abs(Double(estimate) / Double(actual) - 1) < 0.15, "\(width)x\(height): \(estimate) estimated, \(actual) written")
        }
    }

    /// A burst of the small sensor's frames at `fps`, uncompressed, onto a simulated disk taking `fraction` of what the
    /// plan says the burst needs, with the plan's (real, measured) costs. Returns the report and the session.
    static func diskBurst(fraction: Double, fps: Double = 30, slots: Int, seconds: Double, governor: Bool,
                          directory: String) throws -> (BurstSession.Report, BurstSession) {
        let sensor = try BurstSessionTests.sensor()
        let costs = try #require(FrameCostCalibration.measure(options: DNGWriter.Options(), bitsPerSample: 12, cfa: .rggb))
        var inputs = BurstTimePlan.Inputs(samplesPerFrame: sensor.samplesPerFrame, bitsPerSample: 12, costs: costs)
        inputs.fps = fps
        inputs.cores = ProcessInfo.processInfo.activeProcessorCount
        inputs.requested = DNGCompression.none
        let needed = try #require(BurstTimePlan(inputs).options.first { $0.compression == .none }?.neededMBps)
        let disk = Int(needed * 1e6 * fraction)
        inputs.diskBytesPerSecond = Double(disk)
        var configuration = BurstSession.Configuration(
            frames: 100_000, overflow: .dropNewest, writers: 2,
            memoryBudget: BurstSessionTests.budget(slots: slots, sensor: sensor, writers: 2), outputDirectory: directory)
        configuration.clock = .realTime(fps: fps)
        configuration.late = .wait
        configuration.duration = seconds
        configuration.governor = governor
        configuration.timePlan = BurstTimePlan(inputs)
        configuration.storageFaults = try StorageFaults(parsing: "\(disk)/s")
        let session = try BurstSession(source: sensor, configuration: configuration)
        return (session.run(), session)
    }
}
