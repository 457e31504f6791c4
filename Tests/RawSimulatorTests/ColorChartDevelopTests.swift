import Foundation
import RawCore
import RawDNG
import RawFiles
import RawImageIO
import RawJobs
import RawSimulator
import RawSources
import TestSupport
import Testing

/// The simulated colour chart, written as a DNG and developed by dcraw (which knows nothing of our model),
/// lands on the published ColorChecker values: the profile's colour matrices describe the simulated response.
@Suite("Colour chart through dcraw and darktable")
struct ColorChartDevelopTests {
    /// Mean of each channel of a 16-bit RGB image over the normalised rectangle.
    static func mean(_ image: DecodedImage, _ rect: (x0: Double, y0: Double, x1: Double, y1: Double)) -> [Double] {
        let c0 = Int((rect.x0 * Double(image.width)).rounded(.up)), c1 = Int((rect.x1 * Double(image.width)).rounded(.down))
        let r0 = Int((rect.y0 * Double(image.height)).rounded(.up)), r1 = Int((rect.y1 * Double(image.height)).rounded(.down))
        var sums = [0.0, 0.0, 0.0]
        for row in r0..<r1 {
            for column in c0..<c1 {
                let i = (row * image.width + column) * 3 // samples are RGB whatever the file held
                for c in 0..<3 { sums[c] += Double(image.samples[i + c]) }
            }
        }
        let n = Double((r1 - r0) * (c1 - c0))
        return sums.map { $0 / n }
    }

    /// Captures the chart with `profile` under D65, white balance 6504 K, writes a DNG, develops it with
    /// `dcraw -w -4 -T -o 1` (as-shot white balance, linear 16-bit, sRGB primaries; `-o 0` leaves camera
    /// RGB) and returns each
    /// patch's ΔE2000 against the reference, after one exposure scale that puts patch 20 (neutral 8) on its value.
    static func deltaEs(profile: SensorProfile, seed: UInt64, outputSpace: String = "1") throws -> [Double] {
        let tmp = try TemporaryDirectory()
        let chart = ColorChartScene()
        let sensor = try SimulatedSensor(profile: profile, scene: chart, seed: seed)
        try sensor.configure(CaptureSettings(iso: 100, focus: .metres(chart.subjectDistance),
                                             whiteBalance: .kelvin(6504, tint: 0)))
        let frame = try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame))
        let dng = tmp.url.appendingPathComponent("chart.dng").path
        _ = try DNGWriter().write(frame.image, to: dng)
        let tiff = tmp.url.appendingPathComponent("chart.tiff")
        let result = try DCRaw.decode(dng, to: tiff, extraArguments: ["-w", "-4", "-o", outputSpace])
        #expect(result.succeeded, "dcraw: \(result.messages)")
        let image = try ImageFileReader.read(path: tiff.path)
        #expect(image.width == profile.width && image.height == profile.height && image.bitDepth == 16)

        let rects = chart.patchRects(profile: profile, lens: profile.lenses[0])
        let measured = rects.map { entry in entry.rect.map { mean(image, $0) } }
        let reference = ColorCheckerClassic.patches.map(\.linearSRGB)
        // One exposure scale for all patches: the luminance of patch 20 onto its reference luminance.
        let grey = try #require(measured[19])
        let luminance = { (rgb: [Double]) in ColorSpaceMath.xyzD65(fromLinearSRGB: rgb[0], rgb[1], rgb[2]).Y }
        let refGrey = reference[19]
        let scale = ColorSpaceMath.xyzD65(fromLinearSRGB: refGrey.red, refGrey.green, refGrey.blue).Y / luminance(grey)
        return try zip(ColorCheckerClassic.patches, measured).map { patch, rgb in
            let m = try #require(rgb, "patch \(patch.number) is outside the frame").map { $0 * scale }
            let lab = ColorSpaceMath.labD50(fromLinearSRGB: m[0], m[1], m[2])
            return ColorSpaceMath.deltaE2000(lab, patch.labD50)
        }
    }

    @Test("the colour chart developed by dcraw is within mean ΔE2000 ≤ 3 of the ColorChecker reference",
          .enabled(if: ToolAvailability.has("dcraw")),
          arguments: ["phone-wide", "mirrorless-24", "phone-front", "phone-ultrawide"])
    func dcrawRendersTheChart(_ name: String) throws {
        // Each sensor at a small size with its field of view (the chart covers the same part of the frame),
        // without fall-off so every patch is lit alike.
        var profile = try #require(SensorProfile.builtIn(named: name)).resized(toWidth: 800)
        profile.lenses = [profile.lenses[0]]
        profile.lenses[0].vignetting = 0
        let errors = try Self.deltaEs(profile: profile, seed: 11)
        let mean = errors.reduce(0, +) / Double(errors.count)
        let worst = errors.enumerated().max { $0.element < $1.element }!
        #expect(mean <= 3, "\(name): mean ΔE2000 \(mean); per patch \(errors.map { String(format: "%.2f", $0) })")
        // The chart's greys are neutral: white balance and matrices agree.
        #expect(errors[18..<24].allSatisfy { $0 < 3 }, "\(name) greys: \(errors[18..<24].map { String(format: "%.2f", $0) })")
        print("\(name): mean ΔE2000 \(String(format: "%.2f", mean)), worst patch \(worst.offset + 1) \(String(format: "%.2f", worst.element))")
    }

    @Test("the matrices matter: the same DNG developed without them (dcraw -o 0, camera RGB) misses the chart",
          .enabled(if: ToolAvailability.has("dcraw")))
    func cameraRGBIsNotSRGB() throws {
        var profile = try #require(SensorProfile.builtIn(named: "phone-wide")).resized(toWidth: 800)
        profile.lenses[0].vignetting = 0
        let raw = try Self.deltaEs(profile: profile, seed: 11, outputSpace: "0")
        let mean = raw.reduce(0, +) / Double(raw.count)
        #expect(mean > 4, "camera RGB taken as sRGB: mean ΔE2000 \(mean)")
        print("phone-wide camera RGB as sRGB: mean ΔE2000 \(String(format: "%.2f", mean))")
        // White balance alone keeps the greys neutral.
        #expect(raw[18..<24].allSatisfy { $0 < 3 }, "greys: \(raw[18..<24].map { String(format: "%.2f", $0) })")
    }

    @Test("darktable renders the chart with neutral greys and each colour patch at its hue",
          .enabled(if: ToolAvailability.has("darktable-cli")))
    func darktableRendersTheChart() throws {
        var profile = try #require(SensorProfile.builtIn(named: "phone-wide")).resized(toWidth: 800)
        profile.lenses[0].vignetting = 0
        let tmp = try TemporaryDirectory()
        let chart = ColorChartScene()
        let sensor = try SimulatedSensor(profile: profile, scene: chart, seed: 5)
        try sensor.configure(CaptureSettings(iso: 100, focus: .metres(1.5), whiteBalance: .kelvin(6504, tint: 0)))
        let frame = try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame))
        let dng = tmp.url.appendingPathComponent("chart.dng").path
        _ = try DNGWriter().write(frame.image, to: dng)
        let png = tmp.url.appendingPathComponent("chart.png")
        let result = try Darktable.export(dng, to: png)
        #expect(result.succeeded, "darktable: \(result.log)")
        let image = try ImageFileReader.read(path: png.path)
        let rects = chart.patchRects(profile: profile, lens: profile.lenses[0])
        // darktable's default look changes tone and saturation, not hue: compare hue angles and neutrality.
        var report: [String] = []
        for (patch, entry) in zip(ColorCheckerClassic.patches, rects) {
            let values = Self.mean(image, try #require(entry.rect)).map { $0 / 65535 }
            let linear = image.encoding == .sRGB ? values.map { ColorSpaceMath.srgbDecode($0) } : values
            let lab = ColorSpaceMath.labD50(fromLinearSRGB: linear[0], linear[1], linear[2])
            let chroma = (lab.a * lab.a + lab.b * lab.b).squareRoot()
            let reference = patch.labD50
            let referenceChroma = (reference.a * reference.a + reference.b * reference.b).squareRoot()
            if patch.number >= 19 {
                #expect(chroma < 6, "\(patch.name): a* \(lab.a), b* \(lab.b)")
            } else if referenceChroma > 25 {
                var difference = (atan2(lab.b, lab.a) - atan2(reference.b, reference.a)) * 180 / .pi
                difference = (difference + 540).truncatingRemainder(dividingBy: 360) - 180
                #expect(abs(difference) < 10, "\(patch.name): hue off by \(difference)°")
                report.append("\(patch.number):\(Int(difference.rounded()))°")
            }
        }
        print("darktable hue differences: \(report.joined(separator: " "))")
    }
}
