import Foundation
import RawCore
import RawDevelop
import RawSensor

/// Frames and measurements shared by the developer's tests.
enum DevelopFixtures {
    /// A noise-free frame of the colour chart from `profile` (resized to `width`) lit by D65, white balance
    /// recorded at `kelvin`, without lens fall-off so every patch is lit alike.
    static func chart(profile name: String = "phone-wide", width: Int = 1024, kelvin: Double = 6504, noise: Bool = false,
                      seed: UInt64 = 3) throws -> (image: RawImage, profile: SensorProfile, scene: ColorChartScene) {
        var profile = SensorProfile.builtIn(named: name)!.resized(toWidth: width)
        profile.lenses = [profile.lenses[0]]
        profile.lenses[0].vignetting = 0
        let scene = ColorChartScene()
        let sensor = try SimulatedSensor(profile: profile, scene: scene, seed: seed)
        sensor.addsNoise = noise
        try sensor.configure(CaptureSettings(iso: 100, focus: .metres(scene.subjectDistance),
                                             whiteBalance: .kelvin(kelvin, tint: 0)))
        let frame = try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame))
        return (frame.image, profile, scene)
    }

    /// Mean of each channel (16-bit code values) over a normalised rectangle of a developed image.
    static func mean(_ image: DevelopedImage, _ rect: (x0: Double, y0: Double, x1: Double, y1: Double)) -> [Double] {
        let c0 = Int((rect.x0 * Double(image.width)).rounded(.up)), c1 = Int((rect.x1 * Double(image.width)).rounded(.down))
        let r0 = Int((rect.y0 * Double(image.height)).rounded(.up)), r1 = Int((rect.y1 * Double(image.height)).rounded(.down))
        var sums = [0.0, 0.0, 0.0]
        for y in r0..<r1 {
            for x in c0..<c1 {
                let p = image.pixel(x: x, y: y)
                sums[0] += Double(p.red)
                sums[1] += Double(p.green)
                sums[2] += Double(p.blue)
            }
        }
        let n = Double(max(1, (r1 - r0) * (c1 - c0)))
        return sums.map { $0 / n }
    }

    /// Each patch's linear output RGB (decoded with the image's own transfer curve) from a developed chart.
    static func patchLinearRGB(_ image: DevelopedImage, profile: SensorProfile, scene: ColorChartScene) -> [[Double]?] {
        scene.patchRects(profile: profile, lens: profile.lenses[0]).map { entry in
            entry.rect.map { rect in mean(image, rect).map { image.transfer.decode($0 / 65535) } }
        }
    }

    /// ΔE2000 of every patch against the ColorChecker reference, after one exposure scale that puts the luminance
    /// of patch 20 (neutral 8) on its reference (the chart is lit at an arbitrary level).
    static func deltaEs(linear: [[Double]?], space: OutputColorSpace = .sRGB) -> [Double] {
        let toXYZ = space.toXYZD50
        func xyz(_ rgb: [Double]) -> CIEXYZ { CIEXYZ(ColorSpaceMath.apply(toXYZ, (rgb[0], rgb[1], rgb[2]))) }
        let grey = linear[19]!
        let reference = ColorSpaceMath.xyz(fromLab: ColorCheckerClassic.patches[19].labD50, white: OutputColorSpace.pcsWhite)
        let scale = reference.Y / xyz(grey).Y
        return zip(ColorCheckerClassic.patches, linear).map { patch, rgb in
            guard let rgb else { return .infinity }
            let lab = ColorSpaceMath.lab(fromXYZ: xyz(rgb.map { $0 * scale }), white: OutputColorSpace.pcsWhite)
            return ColorSpaceMath.deltaE2000(lab, patch.labD50)
        }
    }
}
