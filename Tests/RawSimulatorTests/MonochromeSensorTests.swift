import Foundation
import RawCore
@testable import RawSimulator
import RawSources
import TestSupport
import Testing

/// The simulated monochrome sensor (`mono-vision`, issue #33) and the NoiseProfile every simulated frame carries.
@Suite("Simulated monochrome sensor and noise profiles")
struct MonochromeSensorTests {
    /// A frame of `profile` at `iso` and 1/`iso` s (the same exposure at every ISO, the grey wall at about a third of white).
    static func frame(_ profile: SensorProfile, scene: any Scene = FlatScene(), noisy: Bool = true, iso: Double = 100)
        throws -> CapturedFrame {
        let sensor = try SimulatedSensor(profile: profile, scene: scene, seed: 7)
        sensor.addsNoise = noisy
        try sensor.configure(CaptureSettings(iso: iso, shutter: 1 / iso, focus: .metres(2), whiteBalance: .auto))
        return try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame))
    }

    static var smallMono: SensorProfile {
        var p = SensorProfile.monoVision.resized(toWidth: 320)
        p.lenses[0].vignetting = 0
        return p
    }

    @Test("mono-vision makes monochrome frames: one plane, a 1x1 black level, no colour calibration, white balance 1, 1, 1")
    func monochromeFrames() throws {
        let captured = try Self.frame(Self.smallMono)
        let frame = captured.image.frame
        #expect(frame.cfa.isMonochrome && frame.cfa.planeColors.count == 1)
        #expect(frame.blackLevels.rows == 1 && frame.blackLevels.values == [240] && frame.whiteLevel == 4095)
        #expect(captured.image.calibration == nil)
        #expect(captured.settings.asShotNeutral == [1, 1, 1])
        let tungsten = try SimulatedSensor(profile: Self.smallMono, scene: FlatScene(), seed: 7)
        try tungsten.configure(CaptureSettings(iso: 100, shutter: 0.01, focus: .metres(2), whiteBalance: .kelvin(2850, tint: 0)))
        #expect(try tungsten.nextFrame(into: PixelStorage(count: tungsten.samplesPerFrame)).settings.asShotNeutral == [1, 1, 1])
        #expect(captured.image.metadata.noiseProfile?.planes.count == 1)
    }

    @Test("a monochrome pixel answers to the three filters together, scaled as the strongest colour channel: about the green pixel's signal of a Bayer twin")
    func panchromaticResponse() throws {
        var bayer = Self.smallMono
        bayer.cfa = "RGGB"
        let mono = try Self.frame(Self.smallMono, noisy: false)
        let colour = try Self.frame(bayer, noisy: false)
        let monoMean = Self.centreStatistics(mono.image.frame, where: { _, _ in true }).mean
        let greenMean = Self.centreStatistics(colour.image.frame) { r, c in colour.image.frame.cfa.color(row: r, column: c) == .green }.mean
        // White under D65 gives 1 on the mono pixel and on the strongest (green) channel; a grey wall under daylight
        // gives them nearly the same signal, the mono one a little more (red and blue are summed, then scaled).
        #expect(monoMean > 0.8 * greenMean && monoMean < 1.3 * greenMean, "mono \(monoMean) DN, green \(greenMean) DN")
    }

    @Test("the NoiseProfile is the noise the frame was drawn with: measured variance = S·x + O within 6 %, mono and Bayer",
          arguments: ["mono", "RGGB"], [100.0, 1600])
    func noiseProfileMatchesTheFrames(cfa: String, iso: Double) throws {
        var profile = Self.smallMono
        profile.cfa = cfa
        let noisy = try Self.frame(profile, iso: iso)
        let clean = try Self.frame(profile, noisy: false, iso: iso)
        let noise = try #require(noisy.image.metadata.noiseProfile)
        #expect(clean.image.metadata.noiseProfile == nil, "a frame drawn without noise claims none")
        let range = Double(profile.whiteLevel - profile.blackLevel)
        let a = noisy.image.frame, b = clean.image.frame
        var predicted = 0.0, measured = 0.0, n = 0.0
        for row in (a.height / 4)..<(a.height * 3 / 4) {
            for column in (a.width / 4)..<(a.width * 3 / 4) {
                let x = (Double(b[row, column]) - Double(profile.blackLevel)) / range
                let d = (Double(a[row, column]) - Double(b[row, column])) / range
                predicted += noise.planes[0].scale * x + noise.planes[0].offset
                measured += d * d
                n += 1
            }
        }
        // The clean frame is rounded to whole DN as the noisy one is: their difference has the rounding variance once.
        let ratio = measured / predicted
        #expect(abs(ratio - 1) < 0.06, "\(cfa) ISO \(iso): measured / predicted variance \(ratio)")

        // In the dark (the lens capped), the variance is the offset O alone: read noise at the gain and rounding.
        let dark = try Self.frame(profile, scene: FlatScene(level: 0), iso: iso).image.frame
        var darkVariance = 0.0, darkCount = 0.0
        for row in 0..<dark.height {
            for column in 0..<dark.width {
                let d = (Double(dark[row, column]) - Double(profile.blackLevel)) / range
                darkVariance += d * d
                darkCount += 1
            }
        }
        let darkRatio = darkVariance / darkCount / noise.planes[0].offset
        #expect(abs(darkRatio - 1) < 0.06, "\(cfa) ISO \(iso): dark variance / O = \(darkRatio)")
    }

    static func centreStatistics(_ frame: RawFrame, where keep: (Int, Int) -> Bool) -> (mean: Double, count: Int) {
        var sum = 0.0, n = 0
        for row in (frame.height / 4)..<(frame.height * 3 / 4) {
            for column in (frame.width / 4)..<(frame.width * 3 / 4) where keep(row, column) {
                sum += Double(frame[row, column]) - frame.blackLevels.values[0]
                n += 1
            }
        }
        return (sum / Double(max(n, 1)), n)
    }
}
