import Foundation
import RawCore
@testable import RawDevelop
import RawSimulator
import RawSources
import Testing

/// The default rendering (docs/develop.md, "Default rendering"): where it puts mid grey, how its highlight
/// shoulder is shaped, and that `--tone linear` is left as plain linear arithmetic.
@Suite("Develop: default rendering")
struct DefaultRenderingTests {
    /// CIE L* of relative luminance `y` (white 1).
    static func lightness(_ y: Double) -> Double {
        let e = 216.0 / 24389, k = 24389.0 / 27
        return y > e ? 116 * cbrt(y) - 16 : k * y
    }

    /// L* of each of the chart's six grey patches (19 white 9.5 ... 24 black 2) in a developed sRGB chart.
    static func greyLightness(_ image: DevelopedImage, profile: SensorProfile, scene: ColorChartScene) -> [Double] {
        let linear = DevelopFixtures.patchLinearRGB(image, profile: profile, scene: scene)
        return linear[18..<24].map { rgb in
            guard let rgb else { return .nan }
            return lightness(ColorSpaceMath.xyzD65(fromLinearSRGB: rgb[0], rgb[1], rgb[2]).Y)
        }
    }

    /// A noise-free D65 chart from `name` at ISO 100, the shutter from the simulator's meter (which puts the metered
    /// value at 12.5 % of clipping, as ISO 12232's saturation-based speed does): a spot reading of neutral 5, as a
    /// photographer exposes for a grey card, or (`spotOnGrey` false) matrix metering of the whole frame.
    static func chart(_ name: String, spotOnGrey: Bool) throws -> (RawImage, SensorProfile, ColorChartScene) {
        var profile = SensorProfile.builtIn(named: name)!.resized(toWidth: 1024)
        profile.lenses = [profile.lenses[0]]
        profile.lenses[0].vignetting = 0
        let scene = ColorChartScene()
        var metering = MeteringMode.matrix
        if spotOnGrey, let r = scene.patchRects(profile: profile, lens: profile.lenses[0])[21].rect {
            metering = .spot(NormalisedPoint(x: (r.x0 + r.x1) / 2, y: (r.y0 + r.y1) / 2))
        }
        let sensor = try SimulatedSensor(profile: profile, scene: scene, seed: 3)
        sensor.addsNoise = false
        try sensor.configure(CaptureSettings(iso: 100, focus: .metres(scene.subjectDistance), metering: metering,
                                             whiteBalance: .kelvin(6504, tint: 0)))
        let frame = try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame))
        return (frame.image, profile, scene)
    }

    @Test("defaults: the chart exposed for its grey card lands its six greys on their reference L* within ±3",
          arguments: ["phone-wide", "mirrorless-24"])
    func chartGreysThroughDefaults(_ name: String) throws {
        let (image, profile, scene) = try Self.chart(name, spotOnGrey: true)
        let reference = ColorCheckerClassic.patches[18..<24].map(\.labD50.L)
        for format in [SampleFormat.uint16, .uint8] {
            var settings = DevelopSettings()
            settings.sampleFormat = format
            let developed = try RawDeveloper(settings: settings).develop(image).image
            let measured = Self.greyLightness(developed, profile: profile, scene: scene)
            let report = zip(measured, reference).map { String(format: "%.1f/%.1f", $0, $1) }.joined(separator: " ")
            print("\(name) \(format): grey L* measured/reference \(report)")
            for (m, r) in zip(measured, reference) {
                #expect(abs(m - r) <= 3, "\(name) \(format): L* \(m) against \(r); all: \(report)")
            }
        }
        // For the record: the same chart under the simulator's matrix metering, and with --tone linear.
        let (matrix, _, _) = try Self.chart(name, spotOnGrey: false)
        for (label, frame, tone) in [("matrix-metered", matrix, ToneCurve.standard), ("linear tone", image, .linear)] {
            var settings = DevelopSettings()
            settings.tone = tone
            let measured = Self.greyLightness(try RawDeveloper(settings: settings).develop(frame).image, profile: profile, scene: scene)
            print("\(name) \(label): grey L* \(measured.map { String(format: "%.1f", $0) }.joined(separator: " "))")
        }
    }

    @Test("--tone linear encodes exposure × linear light with the transfer curve alone, clipped at white")
    func linearToneIsExact() throws {
        // Flat columns of known linear camera RGB; the synthetic calibration is XYZ → sRGB, so camera RGB is sRGB.
        let levels: [Double] = [0.02, 0.1, 0.18, 0.4, 0.7, 0.9]
        let image = try DevelopFixtures.synthetic(width: 96, height: 16) { x, _ in
            let v = levels[x / 16]
            return (v, v, v)
        }
        for exposure in [0.0, 1.0] {
            var settings = DevelopSettings()
            settings.tone = .linear
            settings.crop = .activeArea
            settings.exposure = exposure
            let result = try RawDeveloper(settings: settings).develop(image)
            for (i, v) in levels.enumerated() {
                let p = result.image.pixel(x: i * 16 + 8, y: 8)
                // The mosaic holds v quantised to the 14-bit range; matrix rows of a neutral sum to 1.
                let quantised = ((512 + v * (16383 - 512)).rounded() - 512) / (16383 - 512)
                let expected = TransferFunction.sRGB.encode(quantised * pow(2, exposure)) * 65535
                for c in [p.red, p.green, p.blue] {
                    #expect(abs(Double(c) - expected) <= 2, "level \(v) at \(exposure) EV: \(p), expected \(expected)")
                }
            }
        }
    }
}
