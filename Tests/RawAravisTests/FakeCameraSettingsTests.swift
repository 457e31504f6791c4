import Foundation
import RawAravis
import RawCameras
import RawCore
import RawSources
import Testing

/// Triggers, binning and white balance against Aravis's in-process fake camera described by
/// `samples/genicam/rawburst-fake-camera.xml` (its TriggerSource Line1 pulses at 25 Hz, Software waits for
/// TriggerSoftware, Line2 never pulses; binning 1...4; BalanceRatio R 2.0, G 1.0, B 1.25, not applied to the pixels).
@Suite(.serialized) struct FakeCameraSettingsTests {
    static let xml = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples/genicam/rawburst-fake-camera.xml").path

    /// The fake as a BayerRG12 source of a 64x32 region (or the whole sensor with binning), changed by `change`.
    static func source(_ change: (inout AravisCameraSource.Options) -> Void = { _ in }) throws -> AravisCameraSource {
        try AravisCamera.useFakeCameraGenICam(path: xml)
        var options = AravisCameraSource.Options(id: "Fake_1", pixelFormat: try PixelFormat(name: "BayerRG12"))
        options.region = CameraRegion(x: 0, y: 0, width: 64, height: 32)
        change(&options)
        return try AravisCameraSource(options: options)
    }

    static let exposures: [Double] = [1000, 4000, 250, 16000, 2000]

    @Test("software trigger: each frame is taken with the ExposureTime configured before it was asked for, ids consecutive")
    func softwareTrigger() throws {
        let source = try Self.source { $0.trigger = .software }
        let storage = PixelStorage(count: source.samplesPerFrame)
        var ids: [UInt64] = []
        for microseconds in Self.exposures {
            try source.configure(CaptureSettings(shutter: microseconds / 1e6))
            let frame = try source.nextFrame(into: storage)
            let id = try #require(frame.camera?.frameID)
            #expect(source.camera.fakeExposureMicroseconds(frameID: id) == microseconds, "frame id \(id)")
            #expect(abs(frame.settings.shutter - microseconds / 1e6) < 1e-9)
            ids.append(id)
        }
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $1 == $0 % 65535 + 1 }, "\(ids)")
        #expect(source.trigger == .software)
        // Each trigger was fired once the fake said it waited for one (AcquisitionStatus FrameTriggerWait).
        #expect(source.camera.reportsFrameTriggerWait() && source.camera.waitForFrameTriggerWait(timeout: 1))
    }

    @Test("free-running: frames start at AcquisitionStart; one made before a new ExposureTime has the old one")
    func freeRunningFramesInFlight() throws {
        let source = try Self.source { $0.frameRate = 100 }
        let storage = PixelStorage(count: source.samplesPerFrame)
        try source.configure(CaptureSettings(shutter: 0.002))
        // Nothing is made before AcquisitionStart (the first frame asked for): the first frame has the new setting.
        let first = try source.nextFrame(into: storage)
        #expect(source.camera.fakeExposureMicroseconds(frameID: first.camera?.frameID ?? 0) == 2000)
        Thread.sleep(forTimeInterval: 0.1)  // the fake keeps filling its queued buffers meanwhile
        try source.configure(CaptureSettings(shutter: 0.008))
        let frame = try source.nextFrame(into: storage)
        let id = try #require(frame.camera?.frameID)
        #expect(source.camera.fakeExposureMicroseconds(frameID: id) == 2000)
        #expect(abs(frame.settings.shutter - 0.008) < 1e-9)  // what the camera says now, not what the frame had
    }

    @Test("line:Line1 takes the line's pulses; line:Line2 (never pulsed) fails after the timeout naming the line")
    func lines() throws {
        let pulsed = try Self.source { $0.trigger = .line("Line1") }
        let storage = PixelStorage(count: pulsed.samplesPerFrame)
        let first = try pulsed.nextFrame(into: storage), second = try pulsed.nextFrame(into: storage)
        #expect(second.monotonicNanoseconds > first.monotonicNanoseconds)
        let silent = try Self.source { $0.trigger = .line("Line2"); $0.stallSeconds = 0.5 }
        let started = Date()
        #expect { _ = try silent.nextFrame(into: storage) } throws: { error in
            "\(error)".contains("no trigger came on Line2") && Date().timeIntervalSince(started) >= 0.5
        }
    }

    @Test("FrameTriggerWait: false while a TriggerSoftware is pending (none is taken on Line1), true before")
    func frameTriggerWait() throws {
        let source = try Self.source { $0.trigger = .line("Line1") }
        #expect(source.camera.waitForFrameTriggerWait(timeout: 0.05))
        try source.camera.fireSoftwareTrigger()
        let started = Date()
        #expect(!source.camera.waitForFrameTriggerWait(timeout: 0.2))
        #expect(Date().timeIntervalSince(started) >= 0.2)
    }

    @Test("a TriggerSource the camera lacks is refused naming TriggerSource and listing what it offers")
    func missingLine() {
        #expect { _ = try Self.source { $0.trigger = .line("Line9") } } throws: { error in
            guard let error = error as? AravisError else { return false }
            return error.kind == .missingFeature && error.feature == "TriggerSource"
                && error.message.contains("Line1, Software, Line2")
        }
    }

    @Test("binning 2x2: the whole sensor is 2016x1512 binned pixels, frames that size; 4 and 1x3 too; 5 is refused")
    func binning() throws {
        for (binning, width, height) in [(CameraBinning(horizontal: 2, vertical: 2), 2016, 1512),
                                         (CameraBinning(horizontal: 4, vertical: 4), 1008, 756),
                                         (CameraBinning(horizontal: 1, vertical: 3), 4032, 1008)] {
            let source = try Self.source { $0.binning = binning; $0.region = nil }
            #expect(source.binning == binning)
            #expect(source.capabilities.width == width && source.capabilities.height == height)
            let frame = try source.nextFrame(into: PixelStorage(count: source.samplesPerFrame))
            #expect(frame.image.frame.width == width && frame.image.frame.height == height)
        }
        #expect { _ = try Self.source { $0.binning = CameraBinning(horizontal: 5, vertical: 5) } } throws: { error in
            (error as? AravisError)?.feature == "BinningHorizontal" && (error as? AravisError)?.kind == .outOfRange
        }
    }

    @Test("BalanceRatio R 2, G 1, B 1.25 not applied: AsShotNeutral 0.5, 1, 0.8; applied: 1, 1, 1")
    func whiteBalance() throws {
        let unbalanced = try Self.source()
        #expect(unbalanced.whiteBalance?.ratios == [2, 1, 1.25])
        #expect(unbalanced.whiteBalance?.auto == "Off")
        let frame = try unbalanced.nextFrame(into: PixelStorage(count: unbalanced.samplesPerFrame))
        #expect(frame.image.calibration?.asShotNeutral == [0.5, 1, 0.8])
        #expect(frame.settings.asShotNeutral == [0.5, 1, 0.8])
        let balanced = try Self.source { $0.whiteBalance = .applied }
        let second = try balanced.nextFrame(into: PixelStorage(count: balanced.samplesPerFrame))
        #expect(second.image.calibration?.asShotNeutral == [1, 1, 1])
    }

    @Test("a white balance preset or temperature is refused naming BalanceRatio; automatic is taken")
    func whiteBalanceSettings() throws {
        let source = try Self.source()
        for setting in [WhiteBalanceSetting.preset(.daylight), .kelvin(5000, tint: 0)] {
            #expect { try source.check(CaptureSettings(whiteBalance: setting)) } throws: { error in
                "\(error)".contains("BalanceRatio")
            }
        }
        try source.check(CaptureSettings(whiteBalance: .auto))
    }
}
