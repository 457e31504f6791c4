import Foundation
import RawAnalysis
import RawCore
import RawFiles
import RawJobs
@testable import RawSimulator
import RawSources
import TestSupport
import Testing

/// A flat grey wall: every pixel sees the same surface, so a frame's statistics are the sensor's own.
struct FlatScene: Scene {
    let name = "flat"
    var level: Float = 0.18
    var illuminantKelvin = 6504.0
    var illuminance = 1000.0
    var subjectDistance = 2.0
    func sample(x: Double, y: Double) -> ScenePoint { ScenePoint(grey: level, depth: 2) }
}

/// Small sensors for fast tests: the phone-wide module cut to 640x480 (same pixels and lens), without
/// vignetting where a flat field matters.
enum TestProfiles {
    static func small(vignetting: Double = 0, width: Int = 640, height: Int = 480) -> SensorProfile {
        var p = SensorProfile.phoneWide
        p.name = "test-small"
        p.width = width
        p.height = height
        p.lenses[0].vignetting = vignetting
        return p
    }

    /// A full-frame camera at 1200x800 (pixels 5x the mirrorless-24's, so the same field of view) with one of
    /// its lenses (0: 35 mm, 1: 85 mm, both f/1.8): shallow depth of field for the focus tests.
    static func fullFrame(lens: Int = 1) -> SensorProfile {
        var p = SensorProfile.mirrorless24.resized(toWidth: 1200)
        p.name = "test-full-frame"
        p.lenses = [p.lenses[lens]]
        return p
    }

    /// Where the scene point (`x`, `y`) of the reference plane appears in a rectilinear lens's image
    /// (normalised 0...1), or nil outside the frame.
    static func imagePoint(x: Double, y: Double, profile: SensorProfile) -> NormalisedPoint? {
        let lens = profile.lenses[0]
        let ratio = tan(LensProjection.referenceHalfFieldOfView) / tan(lens.horizontalFieldOfView / 2 * Double.pi / 180)
        let u = 0.5 + x * ratio / 2
        let v = 0.5 + y * ratio * Double(profile.width) / Double(profile.height) / 2
        return (0.05...0.95).contains(u) && (0.05...0.95).contains(v) ? NormalisedPoint(x: u, y: v) : nil
    }
}

/// Statistics of the green samples (CFA G) in the central half of a frame, in DN above black.
func greenStatistics(_ frame: RawFrame) -> (mean: Double, variance: Double) {
    var sum = 0.0, squares = 0.0, n = 0.0
    let black = frame.blackLevels.values[0]
    for row in (frame.height / 4)..<(frame.height * 3 / 4) {
        for column in (frame.width / 4)..<(frame.width * 3 / 4) where frame.cfa.color(row: row, column: column) == .green {
            let v = Double(frame[row, column]) - black
            sum += v
            squares += v * v
            n += 1
        }
    }
    let mean = sum / n
    return (mean, squares / n - mean * mean)
}

@Suite("Simulated sensor physics")
struct SimulatedSensorPhysicsTests {
    func capture(_ sensor: SimulatedSensor, _ settings: CaptureSettings) throws -> CapturedFrame {
        try sensor.configure(settings)
        return try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame))
    }

    @Test("doubling the shutter doubles the mean signal, until the white level clips it exactly")
    func shutterLinearityAndClipping() throws {
        let sensor = try SimulatedSensor(profile: TestProfiles.small(), scene: FlatScene(), seed: 1)
        let base = CaptureSettings(iso: 100, shutter: 1.0 / 400, focus: .metres(2), whiteBalance: .preset(.daylight))
        var previous: Double?
        var shutter = 1.0 / 400
        var clipped = false
        for _ in 0..<8 {
            var s = base
            s.shutter = shutter
            let frame = try capture(sensor, s).image.frame
            let mean = greenStatistics(frame).mean
            let white = Double(frame.whiteLevel) - frame.blackLevels.values[0]
            if let previous, previous * 2 < white * 0.8 {
                #expect(abs(mean / previous - 2) < 0.01, "shutter \(shutter): \(mean) vs \(previous)")
            }
            // Nothing ever exceeds the white level.
            #expect(frame.activeSamples().max().map { $0 <= UInt16(frame.whiteLevel) } == true)
            if mean >= white - 1e-9 {
                clipped = true
                // Every green sample of the centre sits exactly at the white level, noise or not.
                var greens: [UInt16] = []
                for row in (frame.height / 4)..<(frame.height * 3 / 4) {
                    for column in (frame.width / 4)..<(frame.width * 3 / 4) where frame.cfa.color(row: row, column: column) == .green {
                        greens.append(frame[row, column])
                    }
                }
                #expect(greens.allSatisfy { $0 == UInt16(frame.whiteLevel) })
            }
            previous = mean
            shutter *= 2
        }
        #expect(clipped, "the sweep must reach the white level")
    }

    @Test("a flat patch's variance follows the photon-transfer line (variance = signal·gain + read noise²)")
    func photonTransfer() throws {
        let profile = TestProfiles.small()
        let sensor = try SimulatedSensor(profile: profile, scene: FlatScene(), seed: 2)
        for (iso, shutter) in [(100.0, 1.0 / 800), (100, 1.0 / 200), (400, 1.0 / 400), (1600, 1.0 / 1600)] {
            let frame = try capture(sensor, CaptureSettings(iso: iso, shutter: shutter, focus: .metres(2))).image.frame
            let (mean, variance) = greenStatistics(frame)
            let gain = Double(profile.whiteLevel - profile.blackLevel) / profile.fullWellElectrons * iso / profile.baseISO
            let read = profile.readNoiseElectrons * gain
            let predicted = mean * gain + read * read
            #expect(mean > 20 && mean < Double(profile.whiteLevel - profile.blackLevel) * 0.8)
            #expect(abs(variance / predicted - 1) < 0.05, "ISO \(iso) 1/\(Int(1 / shutter)): variance \(variance), predicted \(predicted)")
        }
    }

    @Test("the same seed gives byte-identical frames; another seed or frame number does not")
    func determinism() throws {
        let settings = CaptureSettings(iso: 400, shutter: 1.0 / 100, focus: .metres(1.5), whiteBalance: .preset(.daylight))
        func frames(seed: UInt64) throws -> [[UInt16]] {
            let sensor = try SimulatedSensor(profile: TestProfiles.small(vignetting: 0.35), scene: ColorChartScene(), seed: seed)
            try sensor.configure(settings)
            return try (0..<2).map { _ in try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame)).image.frame.activeSamples() }
        }
        let a = try frames(seed: 7), b = try frames(seed: 7), c = try frames(seed: 8)
        #expect(a == b)
        #expect(a[0] != a[1])
        #expect(a[0] != c[0])
    }

    @Test("sharpness falls monotonically with the focus error")
    func sharpnessFallsWithDefocus() throws {
        let profile = TestProfiles.fullFrame()
        let sensor = try SimulatedSensor(profile: profile, scene: SiemensStarScene(), seed: 3)
        sensor.addsNoise = false
        let subject = SiemensStarScene().subjectDistance
        var scores: [(error: Double, score: Double)] = []
        for focus in [subject, subject * 1.05, subject * 1.15, subject * 1.3, subject * 1.6, subject * 2.5,
                      subject / 1.05, subject / 1.15, subject / 1.3] {
            let frame = try capture(sensor, CaptureSettings(iso: 100, shutter: 1.0 / 100, focus: .metres(focus))).image.frame
            let plane = FloatPlane(width: frame.width, height: frame.height)
            for i in 0..<plane.count { plane.values[i] = Float(frame.storage.baseAddress[i]) }
            let side = 300
            let score = AutoFocus.contrast(plane, x0: (frame.width - side) / 2 & ~1, y0: (frame.height - side) / 2 & ~1,
                                           width: side, height: side)
            scores.append((abs(1 / focus - 1 / subject), score))
        }
        let sorted = scores.sorted { $0.error < $1.error }
        for (a, b) in zip(sorted, sorted.dropFirst()) where b.error > a.error + 1e-9 {
            #expect(b.score < a.score, "error \(b.error) D scored \(b.score), error \(a.error) D scored \(a.score)")
        }
    }

    @Test("autofocus finds each card of the depth scene within its depth of field")
    func autofocusFindsTheSubject() throws {
        let profile = TestProfiles.fullFrame(lens: 0)
        let scene = DepthScene()
        let sensor = try SimulatedSensor(profile: profile, scene: scene, seed: 4)
        let lens = profile.lenses[0]
        var tested = 0
        for card in scene.cards where card.distance >= lens.minimumFocusDistance {
            // A point of the card that no nearer card hides and that the lens sees.
            let candidates = stride(from: 0.9, through: 0.1, by: -0.1).map { card.x0 + (card.x1 - card.x0) * $0 }
            guard let x = candidates.first(where: { scene.card(atX: $0, y: (card.y0 + card.y1) / 2)?.distance == card.distance
                                                     && TestProfiles.imagePoint(x: $0, y: 0, profile: profile) != nil }),
                  let point = TestProfiles.imagePoint(x: x, y: (card.y0 + card.y1) / 2, profile: profile) else { continue }
            tested += 1
            try sensor.configure(CaptureSettings(iso: 100, shutter: 1.0 / 200, focusPoint: point))
            let applied = try #require(sensor.appliedSettings)
            let found = applied.focus.metresValue
            // Depth of field for a circle of confusion of two pixels.
            let f = lens.focalLength / 1000, n = applied.aperture, c = 2 * profile.pixelPitchMicrons * 1e-6
            let hyperfocal = f * f / (n * c) + f
            let s = card.distance
            let near = s * (hyperfocal - f) / (hyperfocal + s - 2 * f)
            let far = s < hyperfocal - f ? s * (hyperfocal - f) / (hyperfocal - s) : .infinity
            #expect(found >= near && found <= far, "card at \(s) m: focused at \(found) m, depth of field \(near)...\(far) m")
            #expect(applied.automatic.contains("focus"))
        }
        #expect(tested >= 3, "at least three cards in view")
    }

    @Test("zone autofocus focuses on what fills the zone: the Siemens star in the centre and in a corner zone",
          arguments: [4, 0])
    func zoneAutofocus(zone: Int) throws {
        let profile = TestProfiles.fullFrame(lens: 1)
        let scene = SiemensStarScene()
        let sensor = try SimulatedSensor(profile: profile, scene: scene, seed: 4)
        try sensor.configure(CaptureSettings(iso: 100, shutter: 1.0 / 200, focusZone: zone))
        let applied = try #require(sensor.appliedSettings)
        let lens = profile.lenses[0]
        let f = lens.focalLength / 1000, n = applied.aperture, c = 2 * profile.pixelPitchMicrons * 1e-6
        let hyperfocal = f * f / (n * c) + f
        let s = scene.subjectDistance
        let near = s * (hyperfocal - f) / (hyperfocal + s - 2 * f)
        let far = s < hyperfocal - f ? s * (hyperfocal - f) / (hyperfocal - s) : .infinity
        let found = applied.focus.metresValue
        #expect(found >= near && found <= far, "zone \(zone): focused at \(found) m, depth of field \(near)...\(far) m")
        #expect(applied.automatic.contains("focus"))
        #expect(throws: CaptureSettingsError.self) { try sensor.configure(CaptureSettings(focusZone: 9)) }
    }

    @Test("AE lock and AF lock keep what the previous settings found; without them the new settings change it")
    func locks() throws {
        let profile = TestProfiles.fullFrame(lens: 0)
        let scene = DepthScene()
        let sensor = try SimulatedSensor(profile: profile, scene: scene, seed: 6)
        let near = try #require(TestProfiles.imagePoint(x: -0.55, y: 0, profile: profile))
        let far = try #require(TestProfiles.imagePoint(x: 0.55, y: 0, profile: profile))
        try sensor.configure(CaptureSettings(metering: .matrix, focusPoint: near))
        let first = try #require(sensor.appliedSettings)
        // New metering and focus point, locked: exposure and focus stay.
        try sensor.configure(CaptureSettings(metering: .spot(far), focusPoint: far, autoExposureLock: true, autoFocusLock: true))
        let locked = try #require(sensor.appliedSettings)
        #expect(locked.iso == first.iso && locked.shutter == first.shutter)
        #expect(locked.focus == first.focus)
        // The same settings unlocked: both change.
        try sensor.configure(CaptureSettings(metering: .spot(far), focusPoint: far))
        let unlocked = try #require(sensor.appliedSettings)
        #expect(unlocked.focus != first.focus, "focus \(unlocked.focus) vs \(first.focus)")
        #expect(abs(log2(unlocked.iso * unlocked.shutter / (first.iso * first.shutter))) > 0.05,
                "exposure \(unlocked.iso) \(unlocked.shutter) vs \(first.iso) \(first.shutter)")
    }

    @Test("auto exposure places the metered area within 0.2 EV of its target", arguments: [-1.0, 0, 1.3])
    func autoExposureHitsTarget(compensation: Double) throws {
        let profile = TestProfiles.small(vignetting: 0.35)
        for (scene, metering) in [(ColorChartScene() as any Scene, MeteringMode.matrix), (ColorChartScene(), .centreWeighted),
                                  (HDRScene(), .zone(7)), (ColorChartScene(), .spot(NormalisedPoint(x: 0.5, y: 0.5)))] {
            let sensor = try SimulatedSensor(profile: profile, scene: scene, seed: 5)
            sensor.addsNoise = false
            let frame = try capture(sensor, CaptureSettings(exposureCompensation: compensation, metering: metering)).image.frame
            let plane = FloatPlane(width: frame.width, height: frame.height)
            let black = Float(frame.blackLevels.values[0])
            for i in 0..<plane.count { plane.values[i] = Float(frame.storage.baseAddress[i]) - black }
            let measured = ExposureMeter.meter(plane, mode: metering)
            let target = AutoExposure.targetFraction * Double(profile.whiteLevel - profile.blackLevel) * pow(2, compensation)
            #expect(abs(log2(measured / target)) <= 0.2, "\(scene.name) \(metering) EV \(compensation): \(measured) vs \(target)")
        }
    }

    @Test("automatic white balance across an exposure bracket: one grey-world measurement per lens, the same neutral on every frame")
    func autoWhiteBalanceIsMeasuredOncePerLens() throws {
        var profile = TestProfiles.small()
        var tele = profile.lenses[0]
        tele.name = "tele"
        tele.focalLength *= 3
        tele.horizontalFieldOfView /= 3
        profile.lenses.append(tele)
        let sensor = try SimulatedSensor(profile: profile, scene: ColorChartScene(), seed: 7)
        var neutrals: [[Double]] = []
        // An ev:-1,0,+1 bracket twice over, as the engine configures it: every frame a settings change.
        let shutters: [Double] = [0.00125, 0.0025, 0.005, 0.00125, 0.0025, 0.005]
        for shutter in shutters {
            let frame = try capture(sensor, CaptureSettings(iso: 100, shutter: shutter, focus: .metres(2), whiteBalance: .auto))
            #expect(frame.settings.automatic.contains("white balance"))
            neutrals.append(frame.settings.asShotNeutral)
        }
        #expect(sensor.greyWorldMeasurements == 1)
        #expect(Set(neutrals).count == 1)
        // What a measurement of its own gives, exactly.
        #expect(neutrals[0] == SimulatedSensor.greyWorldNeutral(sensor.sampler(for: profile.lenses[0])))
        // Another lens sees the scene anew: a measurement of its own, a neutral of its own.
        let other = try capture(sensor, CaptureSettings(iso: 100, shutter: 1.0 / 400, focus: .metres(2), whiteBalance: .auto, lens: "tele"))
        #expect(sensor.greyWorldMeasurements == 2)
        #expect(other.settings.asShotNeutral == SimulatedSensor.greyWorldNeutral(sensor.sampler(for: tele)))
    }

    @Test("settings outside the sensor's ranges are refused with the setting named")
    func settingsValidation() throws {
        let sensor = try SimulatedSensor(profile: TestProfiles.small(), scene: FlatScene())
        func refusal(_ s: CaptureSettings) -> String {
            do { try sensor.configure(s); return "accepted" } catch { return error.description }
        }
        #expect(refusal(CaptureSettings(iso: 25)) == "ISO: 25 is outside 50...6400 for test-small")
        #expect(refusal(CaptureSettings(shutter: 60)) == "shutter: 60 s is outside 1/8000 s...30 s")
        #expect(refusal(CaptureSettings(aperture: 4)) == "aperture: f/4 is outside f/1.8...f/1.8 for the wide lens")
        #expect(refusal(CaptureSettings(focus: .metres(0.05))) == "focus: 0.05 m is closer than the wide lens's minimum focus distance of 0.1 m")
        #expect(refusal(CaptureSettings(exposureCompensation: 3.5)) == "exposure compensation: 3.5 EV is not within −3...+3 EV in 0.1 EV steps")
        #expect(refusal(CaptureSettings(exposureCompensation: 0.25)).hasPrefix("exposure compensation:"))
        #expect(refusal(CaptureSettings(whiteBalance: .kelvin(1500, tint: 0))) == "white balance: 1500 K is outside 2000...12000 K")
        #expect(refusal(CaptureSettings(lens: "fisheye")) == "lens: 'fisheye' is not a lens of test-small (it has: wide)")
        #expect(refusal(CaptureSettings(metering: .zone(9))) == "metering zone: 9 is not a zone of the 3x3 grid (0...8)")
    }
}
