import Foundation
import RawCore
@testable import RawSimulator
import RawSources
import Testing

/// The simulator's working memory (issue #18): one frame-sized plane and a window of rows, counted exactly, and
/// frames rendered strip by strip that keep the scene model's values.
@Suite struct SimulatorMemoryTests {
    /// The noise-free optical image of the whole frame the way the simulator made it before strips: the frame's
    /// scene plane, then one whole-frame blur.
    static func wholeFrameImage(sampler: SceneSampler, blur: DefocusBlur) -> FloatPlane {
        let plane = ScenePlane(sampler: sampler, rows: 0..<sampler.height, columns: 0..<sampler.width)
        let out = FloatPlane(width: sampler.width, height: sampler.height)
        blur.apply(source: plane.response, depth: plane.depth, rows: 0..<sampler.height, columns: 0..<sampler.width,
                   into: out)
        return out
    }

    @Test("workingMemoryBytes is the optical plane, the strip window, the autofocus planes and 8 MiB, as allocated",
          arguments: [false, true])
    func workingMemoryIsWhatIsAllocated(autofocus: Bool) throws {
        let profile = TestProfiles.small(width: 640, height: 480)
        let sensor = try SimulatedSensor(profile: profile, scene: ColorChartScene(), seed: 3)
        var settings = CaptureSettings(iso: 100, shutter: 1.0 / 100, focus: .metres(1.5), whiteBalance: .preset(.daylight))
        if autofocus { settings.focus = nil }
        let planned = sensor.workingMemoryBytes
        try sensor.configure(settings)
        _ = try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame))
        let frame = profile.width * profile.height * MemoryLayout<Float>.stride
        let window = OpticalStripRenderer.Window.defaultBytes(width: profile.width, height: profile.height)
        // What the sensor holds: exactly one frame-sized float plane and the window (480 rows: the whole frame here).
        #expect(sensor.allocatedPlaneBytes == frame + window)
        #expect(window == 2 * profile.width * min(profile.height, 512) * 4)
        let focusBytes = autofocus ? AutoFocus.workingBytes(profile: profile, zone: false) : 0
        #expect(sensor.workingMemoryBytes == sensor.allocatedPlaneBytes + focusBytes + SimulatedSensor.smallWorkingBytes)
        if autofocus {
            // The sweep's planes: five of the focus square with its margins, as counted.
            let side = AutoFocus.pointSide(profile: profile) + 2 * AutoFocus.margin
            #expect(focusBytes == 5 * side * side * 4)
            let model = SpectralCameraModel(sensitivity: profile.sensitivity)
            let sampler = SceneSampler(scene: ColorChartScene(), profile: profile, lens: profile.lenses[0], model: model)
            let sweep = AutoFocus(profile: profile, lens: profile.lenses[0], aperture: 1.8)
                .run(sampler: sampler, point: NormalisedPoint(x: 0.5, y: 0.5))
            // The area's two planes and three of at most its size (each step blurs only as far as it reaches).
            let area = 2 * side * side * 4
            #expect(sweep.planeBytes > area && sweep.planeBytes <= focusBytes)
            #expect(sweep.planeBytes <= AutoFocus.workingBytes(profile: profile, zone: true))
        }
        // The figure the memory plan reads before the first frame is the same (the window did not have to grow);
        // before configure the settings are automatic, so it counts the autofocus planes.
        #expect(planned == sensor.allocatedPlaneBytes + AutoFocus.workingBytes(profile: profile, zone: false)
                + SimulatedSensor.smallWorkingBytes)
    }

    @Test("a 96 MP sensor's working memory is under 6 bytes a pixel (it was 20)")
    func largeSensorWorkingMemory() throws {
        var profile = SensorProfile.mirrorless24.resized(toWidth: 12_000)
        profile.name = "test-96mp"
        let sensor = try SimulatedSensor(profile: profile, scene: ColorChartScene())
        let pixels = profile.width * profile.height
        #expect(pixels >= 95_000_000)
        // Before configure (automatic focus): the optical plane (4 bytes a pixel), a window of a sixth of the rows
        // (8 bytes a pixel of those), the autofocus square's five planes, and 8 MiB.
        let side = AutoFocus.pointSide(profile: profile) + 2 * AutoFocus.margin
        let expected = pixels * 4 + 2 * profile.width * (profile.height / 6) * 4 + 5 * side * side * 4 + (8 << 20)
        #expect(sensor.workingMemoryBytes == expected)
        #expect(Double(sensor.workingMemoryBytes) / Double(pixels) < 6)
    }

    @Test("strip rendering equals the whole-frame blur to float rounding, through margins that grow and shrink",
          arguments: [0, 1])
    func stripsEqualTheWholeFrame(lens: Int) throws {
        // A full-frame camera at 1200x800 looking at cards from 0.3 m to 10 m, focused at 0.6 m: blurs from a
        // fraction of a pixel to over a hundred, so strips need windows of very different heights.
        let profile = TestProfiles.fullFrame(lens: lens)
        let model = SpectralCameraModel(sensitivity: profile.sensitivity)
        let sampler = SceneSampler(scene: DepthScene(), profile: profile, lens: profile.lenses[0], model: model)
        let blur = DefocusBlur(focusMetres: 0.6, fNumber: 1.8, focalLength: profile.lenses[0].focalLength,
                               pixelPitch: profile.pixelPitchMicrons)
        let whole = Self.wholeFrameImage(sampler: sampler, blur: blur)
        // A window far too small to start with: it must grow (and is reused for a second render).
        let window = OpticalStripRenderer.Window(width: profile.width, rows: 16)
        let strips = FloatPlane(width: profile.width, height: profile.height, repeating: -1)
        for _ in 0..<2 {
            OpticalStripRenderer(sampler: sampler, blur: blur).render(into: strips, window: window)
            var worst: Float = 0, differing = 0
            for i in 0..<strips.count {
                let a = strips.values[i], b = whole.values[i]
                if a != b { differing += 1 }
                worst = max(worst, abs(a - b) / max(abs(b), 1e-6))
            }
            #expect(worst < 1e-5, "largest relative difference \(worst)")
            #expect(differing < strips.count / 100, "\(differing) of \(strips.count) values differ")
        }
        #expect(window.capacity > 16)
        #expect(window.byteCount == 2 * profile.width * window.capacity * 4)
    }

    @Test("the colour chart's patch means match the scene model within the noise's own spread")
    func chartPatchMeansFollowTheSceneModel() throws {
        let profile = TestProfiles.small(vignetting: 0.35, width: 1008, height: 756)
        let lens = profile.lenses[0]
        let chart = ColorChartScene()
        let sensor = try SimulatedSensor(profile: profile, scene: chart, seed: 11)
        let (iso, shutter) = (100.0, 1.0 / 200)
        try sensor.configure(CaptureSettings(iso: iso, shutter: shutter, focus: .metres(chart.subjectDistance),
                                             whiteBalance: .preset(.daylight)))
        let frame = try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame)).image.frame
        // The model: DN = black + gain · electrons per unit · response; noise variance gain² · (signal + read²).
        let model = SpectralCameraModel(sensitivity: profile.sensitivity)
        let sampler = SceneSampler(scene: chart, profile: profile, lens: lens, model: model)
        let noise = ExposureModel(profile: profile, lens: lens, illuminance: chart.illuminance)
            .noise(iso: iso, shutter: shutter, aperture: lens.widestAperture, noisy: true)
        let (k, g) = (Double(noise.electronsPerUnit), Double(noise.gain))
        var checked = 0
        for (patch, rect) in chart.patchRects(profile: profile, lens: lens) {
            let rect = try #require(rect, "patch \(patch.number) in the frame")
            let rows = Int(rect.y0 * Double(profile.height))..<Int(rect.y1 * Double(profile.height))
            let columns = Int(rect.x0 * Double(profile.width))..<Int(rect.x1 * Double(profile.width))
            for colour in [CFAColor.red, .green, .blue] {
                var measured = 0.0, expected = 0.0, variance = 0.0, n = 0.0
                for row in rows {
                    for column in columns where frame.cfa.color(row: row, column: column) == colour {
                        let electrons = k * Double(sampler.response(row: row, column: column))
                        measured += Double(frame[row, column])
                        expected += Double(profile.blackLevel) + g * electrons
                        variance += g * g * (electrons + profile.readNoiseElectrons * profile.readNoiseElectrons) + 1.0 / 12
                        n += 1
                    }
                }
                #expect(expected / n < Double(profile.whiteLevel) * 0.9, "patch \(patch.number) is not clipped")
                // Five standard deviations of the mean, and 0.05 DN for the blur's reach into the inset patch.
                let tolerance = 5 * (variance / n).squareRoot() / n.squareRoot() + 0.05
                #expect(abs(measured / n - expected / n) <= tolerance,
                        "patch \(patch.number) \(colour): mean \(measured / n) DN, model \(expected / n) ± \(tolerance)")
                checked += 1
            }
        }
        #expect(checked == 72)
    }

    @Test("the scene sampler gives every pixel the value of the per-pixel formula, bit for bit (rectilinear and fisheye)",
          arguments: ["phone-wide", "phone-ultrawide"])
    func samplerIsThePerPixelFormula(name: String) throws {
        let profile = try #require(SensorProfile.builtIn(named: name)).resized(toWidth: 400)
        let lens = profile.lenses[0], scene = ColorChartScene()
        let model = SpectralCameraModel(sensitivity: profile.sensitivity)
        let sampler = SceneSampler(scene: scene, profile: profile, lens: lens, model: model)
        let m = model.reflectanceToCamera(illuminant: StandardIlluminant.forKelvin(scene.illuminantKelvin)).map { Float($0) }
        let (w, h) = (profile.width, profile.height)
        let half = Double(w) / 2, tanReference = tan(LensProjection.referenceHalfFieldOfView)
        let halfField = lens.horizontalFieldOfView / 2 * Double.pi / 180
        let response = UnsafeMutablePointer<Float>.allocate(capacity: w), depth = UnsafeMutablePointer<Float>.allocate(capacity: w)
        defer { response.deallocate(); depth.deallocate() }
        for row in stride(from: 0, to: h, by: 7) {
            sampler.fill(row: row, columns: 0..<w, response: response, depth: depth)
            for column in 0..<w {
                // The formula as the simulator wrote it per pixel before issue #18.
                let xs = (Double(column) + 0.5 - half) / half, ys = (Double(row) + 0.5 - Double(h) / 2) / half
                var x = xs * tan(halfField) / tanReference, y = ys * tan(halfField) / tanReference
                if lens.projection == .equisolid {
                    let r = (xs * xs + ys * ys).squareRoot()
                    let t = tan(min(2 * asin(min(1, r / (1 / sin(halfField / 2)))), 1.55))
                    (x, y) = r > 1e-12 ? (xs / r * t / tanReference, ys / r * t / tanReference) : (0, 0)
                }
                let point = scene.sample(x: x, y: y)
                let c = profile.cfaLayout.color(row: row, column: column)
                let k = (c == .red ? 0 : c == .blue ? 2 : 1) * 3
                let light = Float(1 - lens.vignetting * (xs * xs + ys * ys) / (1 + Double(h * h) / Double(w * w)))
                let expected = max(0, (m[k] * point.red + m[k + 1] * point.green + m[k + 2] * point.blue) * light)
                #expect(response[column].bitPattern == expected.bitPattern, "(\(row), \(column))")
                #expect(depth[column] == point.depth)
                if response[column].bitPattern != expected.bitPattern { return }
            }
        }
    }

    @Test("keeping the scene plane: refocused frames are the same, and the plane's 8 bytes a pixel are counted")
    func keptScenePlaneGivesTheSameFrames() throws {
        let profile = TestProfiles.fullFrame()
        let settings = [0.9, 5].map { CaptureSettings(iso: 400, shutter: 1.0 / 100, focus: .metres($0), whiteBalance: .preset(.daylight)) }
        func frames(keeping: Bool) throws -> (frames: [[UInt16]], sensor: SimulatedSensor) {
            let sensor = try SimulatedSensor(profile: profile, scene: DepthScene(), seed: 5)
            sensor.keepsScenePlane = keeping
            let storage = PixelStorage(count: sensor.samplesPerFrame)
            var frames: [[UInt16]] = []
            for s in settings + settings {
                try sensor.configure(s)
                _ = try sensor.nextFrame(into: storage)
                frames.append(Array(UnsafeBufferPointer(start: storage.baseAddress, count: sensor.samplesPerFrame)))
            }
            return (frames, sensor)
        }
        let sampled = try frames(keeping: false), kept = try frames(keeping: true)
        #expect(sampled.frames == kept.frames)
        let plane = 2 * profile.width * profile.height * 4
        #expect(kept.sensor.allocatedPlaneBytes == sampled.sensor.allocatedPlaneBytes + plane)
        #expect(kept.sensor.workingMemoryBytes == sampled.sensor.workingMemoryBytes + plane)
        #expect(kept.sensor.workingMemoryBytes == kept.sensor.allocatedPlaneBytes + SimulatedSensor.smallWorkingBytes)
    }
}
