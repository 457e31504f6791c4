import Foundation
import RawCore
import RawDevelop
import RawFiles
import RawJobs
import RawSimulator
import RawSources

/// Frames and measurements shared by the developer's tests.
enum DevelopFixtures {
    /// A noise-free frame of the colour chart from `profile` (resized to `width`) lit by D65, white balance
    /// recorded at `kelvin`, without lens fall-off so every patch is lit alike.
    static func chart(profile name: String = "phone-wide", width: Int = 1024, kelvin: Double = 6504, noise: Bool = false,
                      seed: UInt64 = 3, light: Double = 6504) throws -> (image: RawImage, profile: SensorProfile, scene: ColorChartScene) {
        var profile = SensorProfile.builtIn(named: name)!.resized(toWidth: width)
        profile.lenses = [profile.lenses[0]]
        profile.lenses[0].vignetting = 0
        let scene = ColorChartScene(illuminantKelvin: light)
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

extension DevelopFixtures {
    /// A small synthetic RGGB frame (14-bit, black 512) from a function of (x, y) giving linear camera RGB 0...1
    /// (values above 1 clip at the white level), with an sRGB-like calibration, neutral as-shot white.
    static func synthetic(width: Int = 64, height: Int = 48, orientation: Orientation = .normal, cfa: CFALayout = .rggb,
                          _ rgb: (Int, Int) -> (Double, Double, Double)) throws -> RawImage {
        let black = 512.0, white = 16383.0
        var samples = [UInt16](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let v = rgb(x, y)
                let c = cfa.color(row: y, column: x)
                let value = c == .red ? v.0 : c == .green ? v.1 : v.2
                samples[y * width + x] = UInt16(min(white, max(0, black + value * (white - black))).rounded())
            }
        }
        let frame = try RawFrame(width: width, height: height, storage: PixelStorage(copying: samples), cfa: cfa,
                                 blackLevels: try BlackLevels(uniform: black), whiteLevel: UInt32(white), bitsPerSample: 14)
        var metadata = try FrameMetadata(make: "Test", model: "Synthetic")
        metadata.orientation = orientation
        let xyzToSRGB = ColorSpaceMath.xyzToSRGB
        let calibration = try ColorCalibration(colorMatrix1: ColorMatrix(rows: 3, columns: 3, values: xyzToSRGB),
                                               illuminant1: .d65, asShotNeutral: [1, 1, 1])
        return RawImage(frame: frame, metadata: metadata, calibration: calibration)
    }

    /// Settings that leave the pixels' relation to the input simple: linear tone, linear output, whole active area.
    static var linearSettings: DevelopSettings {
        var s = DevelopSettings()
        s.tone = .linear
        s.linearOutput = true
        s.crop = .activeArea
        return s
    }
}
