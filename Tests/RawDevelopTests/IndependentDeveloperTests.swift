import Foundation
import RawCore
import RawDNG
import RawDevelop
import RawFiles
import RawImageIO
import RawJobs
import RawSimulator
import RawSources
import TestSupport
import Testing

/// rawburst's development of a DNG against LibRaw's (`dcraw_emu`) on the same file, with the same white balance
/// (as shot) and matrix (the file's, to sRGB), both linear 16-bit: a check that we agree with an independent developer.
@Suite("Develop: against dcraw_emu")
struct IndependentDeveloperTests {
    static func psnr(_ a: [UInt16], _ b: [UInt16], width: Int, height: Int, border: Int = 8) -> Double {
        var sum = 0.0, count = 0.0
        for y in border..<(height - border) {
            for x in border..<(width - border) {
                for c in 0..<3 {
                    let i = (y * width + x) * 3 + c
                    // Compare sRGB-encoded values, as a viewer would see them.
                    let d = ColorSpaceMath.srgbEncode(Double(a[i]) / 65535) - ColorSpaceMath.srgbEncode(Double(b[i]) / 65535)
                    sum += d * d
                    count += 1
                }
            }
        }
        return 10 * log10(1 / max(sum / count, 1e-12))
    }

    @Test("a simulated DNG developed by rawburst and by dcraw_emu -w -o 1 -4 agrees within PSNR ≥ 30 dB",
          .enabled(if: ToolAvailability.has("dcraw_emu")),
          arguments: [("phone-wide", "colorchart", 6504.0), ("mirrorless-24", "depth", 5500), ("phone-front", "hdr", 3200)])
    func agreesWithLibRaw(_ profileName: String, _ sceneName: String, _ kelvin: Double) throws {
        let tmp = try TemporaryDirectory()
        var profile = SensorProfile.builtIn(named: profileName)!.resized(toWidth: 1024)
        profile.lenses = [profile.lenses[0]]
        let sensor = try SimulatedSensor(profile: profile, scene: try SceneCatalog.scene(named: sceneName), seed: 5)
        try sensor.configure(CaptureSettings(whiteBalance: .kelvin(kelvin, tint: 0)))
        let frame = try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame))
        let dng = tmp.url.appendingPathComponent("frame.dng").path
        try DNGWriter().write(frame.image, to: dng)

        let run = try ExternalTool.run("dcraw_emu", ["-w", "-o", "1", "-q", "3", "-4", "-c", "0", "-T", "-Z", tmp.url.appendingPathComponent("libraw.tiff").path, dng])
        #expect(run.succeeded, "\(run)")
        let theirs = try ImageFileReader.read(path: tmp.url.appendingPathComponent("libraw.tiff").path)

        let image = try RawFileReader().read(path: dng)
        var settings = DevelopSettings()
        settings.tone = .linear
        settings.linearOutput = true
        settings.applyBaselineExposure = false   // LibRaw does not apply BaselineExposure
        let ours = try RawDeveloper(settings: settings).develop(image).image
        try #require(ours.width == theirs.width && ours.height == theirs.height,
                     "sizes: ours \(ours.width)x\(ours.height), dcraw_emu \(theirs.width)x\(theirs.height)")
        let value = Self.psnr(ours.uint16Samples, theirs.samples, width: ours.width, height: ours.height)
        print("\(profileName) \(sceneName) \(Int(kelvin))K: PSNR against dcraw_emu \(String(format: "%.2f", value)) dB")
        #expect(value >= 30)
    }
}
