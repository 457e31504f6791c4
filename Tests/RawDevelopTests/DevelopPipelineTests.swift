import Foundation
import RawCore
import RawDevelop
import RawFiles
import RawJobs
import RawSimulator
import RawSources
import Testing

@Suite("Develop: white balance, tone, looks, geometry")
struct DevelopPipelineTests {
    @Test("temperature and tint round-trip through chromaticity; a positive tint is greener light")
    func whitePointRoundTrip() throws {
        // (Not at 4000 K itself, where the base locus changes from Planckian to daylight.)
        for kelvin in [2000.0, 2850, 3500, 3990, 4010, 5000, 5500, 6504, 8000, 12000] {
            for tint in [-40.0, 0, 25] {
                let white = try WhitePoint(kelvin: kelvin, tint: tint)
                let back = white.temperatureAndTint
                #expect(abs(back.kelvin - kelvin) / kelvin < 0.002, "\(kelvin)K \(tint): \(back)")
                #expect(abs(back.tint - tint) < 0.2, "\(kelvin)K \(tint): \(back)")
            }
        }
        let plain = try WhitePoint(kelvin: 5500), green = try WhitePoint(kelvin: 5500, tint: 20)
        #expect(green.y > plain.y)
        // 6504 K with no tint is the CIE daylight D65 chromaticity.
        let d65 = try WhitePoint(kelvin: 6504)
        #expect(abs(d65.x - 0.3127) < 0.0005 && abs(d65.y - 0.3291) < 0.0005, "\(d65.x), \(d65.y)")
        #expect(throws: InvalidValueError.self) { try WhitePoint(kelvin: 500) }
    }

    @Test("the DNG colour model recovers the neutral of each calibration illuminant and weighs by inverse temperature")
    func colourModel() throws {
        let (image, _, _) = try DevelopFixtures.chart()
        let model = try CameraColorModel(calibration: image.calibration!)
        #expect(model.weightOfFirstCalibration(kelvin: 2000) == 1)
        #expect(model.weightOfFirstCalibration(kelvin: 9000) == 0)
        let mid = 1 / ((1.0 / 2850 + 1.0 / 6504) / 2)
        #expect(abs(model.weightOfFirstCalibration(kelvin: mid) - 0.5) < 1e-9)
        // A neutral goes to a white and back.
        let neutral = [0.55, 1, 0.71]
        let white = try model.white(forNeutral: neutral)
        let again = model.neutral(for: white)
        for c in 0..<3 { #expect(abs(again[c] - neutral[c]) < 1e-6, "\(again) vs \(neutral)") }
        // The camera → XYZ matrix maps the neutral onto D50.
        let m = try model.cameraToXYZD50(neutral: neutral)
        let xyz = ColorSpaceMath.apply(m, (neutral[0], neutral[1], neutral[2]))
        #expect(abs(xyz.0 - 0.9642) < 0.002 && abs(xyz.1 - 1) < 1e-9 && abs(xyz.2 - 0.8249) < 0.002, "\(xyz)")
    }

    /// Mean a*, b* (chroma) of the chart's six greys after development.
    static func greyChroma(_ image: DevelopedImage, profile: SensorProfile, scene: ColorChartScene) -> Double {
        let linear = DevelopFixtures.patchLinearRGB(image, profile: profile, scene: scene)
        let toXYZ = image.colorSpace.toXYZD50
        var sum = 0.0
        for patch in 18..<24 {
            let rgb = linear[patch]!
            let lab = ColorSpaceMath.lab(fromXYZ: CIEXYZ(ColorSpaceMath.apply(toXYZ, (rgb[0], rgb[1], rgb[2]))),
                                         white: OutputColorSpace.pcsWhite)
            sum += (lab.a * lab.a + lab.b * lab.b).squareRoot()
        }
        return sum / 6
    }

    @Test("a chart lit at K and developed with --wb K is neutral on every camera (same Kelvin, same meaning)",
          arguments: [("phone-wide", 2850.0), ("mirrorless-24", 2850), ("phone-wide", 4300), ("mirrorless-24", 4300),
                      ("phone-front", 5500), ("phone-wide", 7500), ("mirrorless-24", 9000)])
    func kelvinMeansTheSame(_ name: String, _ kelvin: Double) throws {
        // Recorded as-shot at a deliberately wrong temperature, so only the --wb setting can make it neutral.
        let (image, profile, scene) = try DevelopFixtures.chart(profile: name, width: 800, kelvin: 5000, light: kelvin)
        var settings = DevelopSettings()
        settings.tone = .linear
        settings.whiteBalance = .kelvin(kelvin, tint: 0)
        let balanced = try RawDeveloper(settings: settings).develop(image).image
        settings.whiteBalance = .asShot
        let asShot = try RawDeveloper(settings: settings).develop(image).image
        let good = Self.greyChroma(balanced, profile: profile, scene: scene)
        let wrong = Self.greyChroma(asShot, profile: profile, scene: scene)
        print("\(name) lit at \(Int(kelvin))K: grey chroma with --wb \(Int(kelvin))K \(String(format: "%.2f", good)), as shot (5000K) \(String(format: "%.2f", wrong))")
        #expect(good < 1.5)
        if abs(kelvin - 5000) > 1000 { #expect(wrong > 3 * good) }
    }

    @Test("presets, as-shot and auto white balance: the neutral each one uses")
    func whiteBalanceChoices() throws {
        let (image, _, _) = try DevelopFixtures.chart(kelvin: 6504)
        func neutral(_ wb: WhiteBalanceChoice) throws -> [Double] {
            var s = DevelopSettings()
            s.whiteBalance = wb
            return try ColorPlan(image: image, settings: s).neutral
        }
        let asShot = try neutral(.asShot)
        let shot = image.calibration!.asShotNeutral!
        for c in 0..<3 { #expect(abs(asShot[c] - shot[c] / shot.max()!) < 1e-12) }
        // Tungsten light makes the camera's red weaker relative to daylight's... the other way round: warmer light, more red.
        let tungsten = try neutral(.preset(.tungsten)), shade = try neutral(.preset(.shade))
        #expect(tungsten[0] / tungsten[2] > shade[0] / shade[2] * 2)
        // The auto neutral of a grey-balanced chart is near the as-shot one.
        let auto = try neutral(.auto)
        for c in 0..<3 { #expect(abs(auto[c] - asShot[c]) < 0.15, "auto \(auto) vs as-shot \(asShot)") }
        #expect(throws: InvalidValueError.self) { try WhiteBalanceChoice(parsing: "15000K") }
        #expect(throws: InvalidValueError.self) { try WhiteBalanceChoice(parsing: "5600K+150") }
        #expect(try WhiteBalanceChoice(parsing: "5600K-15") == .kelvin(5600, tint: -15))
        // A white as --wb writes it, and one off the locus beyond --wb's tint range, said as such.
        let settable = try WhitePoint(kelvin: 5600, tint: -15), far = try WhitePoint(kelvin: 2600, tint: -112)
        let (k1, t1) = (Int(settable.temperatureAndTint.kelvin.rounded()), Int(settable.temperatureAndTint.tint.rounded()))
        let (k2, t2) = (Int(far.temperatureAndTint.kelvin.rounded()), Int(far.temperatureAndTint.tint.rounded()))
        #expect(abs(t1 + 15) <= 1 && abs(t2 + 112) <= 1 && abs(k1 - 5600) <= 60 && abs(k2 - 2600) <= 30, "\(k1) \(t1) \(k2) \(t2)")
        #expect(settable.description == "\(k1)K\(t1)")
        #expect(far.description == "\(k2)K, tint \(t2) (off the locus; beyond --wb's ±100)")
        #expect(try WhiteBalanceChoice(parsing: "cloudy") == .preset(.cloudy))
    }

    @Test("every output space renders the chart within mean ΔE2000 ≤ 1.5 of the reference",
          arguments: OutputColorSpace.allCases)
    func outputSpaces(_ space: OutputColorSpace) throws {
        let (image, profile, scene) = try DevelopFixtures.chart(width: 800)
        var settings = DevelopSettings()
        settings.tone = .linear
        settings.colorSpace = space
        let developed = try RawDeveloper(settings: settings).develop(image).image
        let errors = DevelopFixtures.deltaEs(linear: DevelopFixtures.patchLinearRGB(developed, profile: profile, scene: scene),
                                             space: space)
        let mean = errors.reduce(0, +) / Double(errors.count)
        print("\(space.rawValue): mean ΔE2000 \(String(format: "%.3f", mean)), max \(String(format: "%.3f", errors.max()!))")
        #expect(mean <= 1.5)
        // The chart's cyan lies outside sRGB only; the wide spaces hold every patch.
        #expect(errors.max()! <= (space == .sRGB ? 4 : 1.5))
    }

    @Test("exposure compensation scales linear light by 2^EV; BaselineExposure is applied unless turned off")
    func exposure() throws {
        let image = try DevelopFixtures.synthetic { _, _ in (0.1, 0.1, 0.1) }
        func mean(_ ev: Double, baseline: Bool = true, image: RawImage) throws -> Double {
            var s = DevelopFixtures.linearSettings
            s.exposure = ev
            s.applyBaselineExposure = baseline
            let out = try RawDeveloper(settings: s).develop(image).image.uint16Samples
            return Double(out.reduce(0) { $0 + Int($1) }) / Double(out.count)
        }
        let base = try mean(0, image: image)
        #expect(abs(try mean(1, image: image) / base - 2) < 0.01)
        #expect(abs(try mean(-2, image: image) / base - 0.25) < 0.01)
        var brighter = image
        brighter.calibration = try ColorCalibration(colorMatrix1: image.calibration!.colorMatrix1, illuminant1: .d65,
                                                    asShotNeutral: [1, 1, 1], baselineExposure: 1)
        #expect(abs(try mean(0, image: brighter) / base - 2) < 0.01)
        #expect(abs(try mean(0, baseline: false, image: brighter) / base - 1) < 0.01)
    }

    @Test("looks: mono is grey, silvertone is toned, vivid is more saturated, noir has more contrast than mono")
    func looks() throws {
        let (image, profile, scene) = try DevelopFixtures.chart(width: 640)
        func develop(_ look: Look) throws -> DevelopedImage {
            var s = DevelopSettings()
            s.look = look
            return try RawDeveloper(settings: s).develop(image).image
        }
        let mono = try develop(.mono)
        let samples = mono.uint16Samples
        for i in stride(from: 0, to: samples.count, by: 3) {
            guard samples[i] == samples[i + 1] && samples[i + 1] == samples[i + 2] else {
                Issue.record("mono pixel \(i / 3) is \(samples[i]) \(samples[i + 1]) \(samples[i + 2])")
                break
            }
        }
        let rects = scene.patchRects(profile: profile, lens: profile.lenses[0]).map { $0.rect! }
        let silver = try develop(.silvertone)
        let white = DevelopFixtures.mean(silver, rects[18]), dark = DevelopFixtures.mean(silver, rects[22])
        #expect(white[0] > white[2], "silvertone highlights are warm: \(white)")
        #expect(dark[2] > dark[0], "silvertone shadows are cool: \(dark)")
        func chroma(_ image: DevelopedImage) -> Double {
            (0..<18).map { p in
                let m = DevelopFixtures.mean(image, rects[p])
                return (m.max()! - m.min()!) / 65535
            }.reduce(0, +)
        }
        let natural = try develop(.natural), vivid = try develop(.vivid)
        #expect(chroma(vivid) > chroma(natural) * 1.1)
        let noir = try develop(.noir)
        let contrast = { (image: DevelopedImage) in DevelopFixtures.mean(image, rects[18])[1] - DevelopFixtures.mean(image, rects[22])[1] }
        #expect(contrast(noir) > contrast(mono))
        #expect(throws: InvalidValueError.self) { try Look(parsing: "sepia") }
    }

    @Test("orientation turns the pixels upright and the output says normal", arguments: Orientation.allCases)
    func orientation(_ orientation: Orientation) throws {
        // A bright block in the stored top-left corner (rows 0-7, columns 0-15) of a 64x48 frame.
        let image = try DevelopFixtures.synthetic(width: 64, height: 48, orientation: orientation) { x, y in
            x < 16 && y < 8 ? (0.8, 0.8, 0.8) : (0.05, 0.05, 0.05)
        }
        let out = try RawDeveloper(settings: DevelopFixtures.linearSettings).develop(image).image
        let swapped = [.mirrorHorizontalRotate270, .rotate90, .mirrorHorizontalRotate90, .rotate270].contains(orientation)
        #expect(out.width == (swapped ? 48 : 64) && out.height == (swapped ? 64 : 48))
        #expect(out.metadata.orientation == .normal)
        // Where the stored top-left pixel shows, by the EXIF definitions.
        let corner: (x: Int, y: Int)
        switch orientation {
        case .normal: corner = (0, 0)
        case .mirrorHorizontal: corner = (out.width - 1, 0)
        case .rotate180: corner = (out.width - 1, out.height - 1)
        case .mirrorVertical: corner = (0, out.height - 1)
        case .mirrorHorizontalRotate270: corner = (0, 0)
        case .rotate90: corner = (out.width - 1, 0)
        case .mirrorHorizontalRotate90: corner = (out.width - 1, out.height - 1)
        case .rotate270: corner = (0, out.height - 1)
        }
        #expect(out.pixel(x: corner.x, y: corner.y).green > 40000, "\(orientation): corner \(corner)")
        // The block is 16 stored columns wide: along x upright unless the image was transposed.
        let along = swapped ? (x: corner.x, y: corner.y == 0 ? 15 : out.height - 16) : (x: corner.x == 0 ? 15 : out.width - 16, y: corner.y)
        #expect(out.pixel(x: along.x, y: along.y).green > 40000, "\(orientation): \(along)")
    }

    @Test("crop to an aspect (as seen upright) and resize to a long edge")
    func cropAndResize() throws {
        let image = try DevelopFixtures.synthetic(width: 640, height: 480) { _, _ in (0.2, 0.2, 0.2) }
        var s = DevelopSettings()
        s.crop = .aspect(width: 16, height: 9)
        var out = try RawDeveloper(settings: s).develop(image).image
        #expect(out.width == 640 && out.height == 360)
        s.crop = .aspect(width: 1, height: 1)
        s.longEdge = 200
        out = try RawDeveloper(settings: s).develop(image).image
        #expect(out.width == 200 && out.height == 200)
        var portrait = try DevelopFixtures.synthetic(width: 640, height: 480, orientation: .rotate90) { _, _ in (0.2, 0.2, 0.2) }
        s.longEdge = nil
        s.crop = .aspect(width: 16, height: 9)
        out = try RawDeveloper(settings: s).develop(portrait).image
        #expect(out.width == 480 && out.height == 270, "\(out.width)x\(out.height)")
        portrait.metadata.orientation = .normal
        s.longEdge = 100
        s.crop = .defaultCrop
        out = try RawDeveloper(settings: s).develop(portrait).image
        #expect(out.width == 100 && out.height == 75)
        // Never enlarged.
        s.longEdge = 4000
        out = try RawDeveloper(settings: s).develop(portrait).image
        #expect(out.width == 640 && out.height == 480)
    }

    @Test("highlights: clipping makes clipped areas neutral white; reconstruction keeps their gradient")
    func highlights() throws {
        // Green clips from x = 20 on; red and blue stay below their own clip (until x = 34) and keep rising.
        let image = try DevelopFixtures.synthetic(width: 64, height: 32) { x, _ in
            let level = 0.4 + Double(x) * 0.03
            return (level * 0.7, level, level * 0.7)
        }
        var s = DevelopFixtures.linearSettings
        s.whiteBalance = .neutral([0.7, 1, 0.7])
        s.highlights = .clip
        let clipped = try RawDeveloper(settings: s).develop(image).image
        for x in [30, 40, 50] {
            let p = clipped.pixel(x: x, y: 16)
            #expect(p.red == 65535 && p.green == 65535 && p.blue == 65535, "clip at x \(x): \(p)")
        }
        s.highlights = .reconstruct
        s.tone = .standard
        s.linearOutput = false
        let rebuilt = try RawDeveloper(settings: s).develop(image).image
        let a = rebuilt.pixel(x: 23, y: 16), b = rebuilt.pixel(x: 31, y: 16)
        #expect(b.green > a.green, "reconstructed highlights keep rising: \(a) → \(b)")
        #expect(b.green < 65535)
        // And they stay neutral: no magenta cast where green clipped.
        #expect(abs(Int(b.red) - Int(b.green)) < 1500 && abs(Int(b.blue) - Int(b.green)) < 1500, "\(b)")
    }

    @Test("the preview fast path matches the full development scaled down")
    func preview() throws {
        let (image, _, _) = try DevelopFixtures.chart(width: 1024)
        let developer = RawDeveloper()
        let preview = try developer.preview(image, longEdge: 256)
        #expect(max(preview.width, preview.height) == 256)
        var s = DevelopSettings()
        s.longEdge = 256
        let full = try RawDeveloper(settings: s).develop(image).image
        #expect(full.width == preview.width && full.height == preview.height)
        let a = preview.uint16Samples, b = full.uint16Samples
        let meanDifference = zip(a, b).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(a.count) / 65535
        #expect(meanDifference < 0.01, "mean difference \(meanDifference)")
    }

    @Test("an X-Trans mosaic develops through the neighbourhood demosaic, with a warning; flat colour stays flat")
    func xTrans() throws {
        let image = try DevelopFixtures.synthetic(width: 96, height: 72, cfa: .xTrans) { x, _ in
            x < 48 ? (0.3, 0.3, 0.3) : (0.5, 0.2, 0.1)
        }
        var settings = DevelopFixtures.linearSettings
        settings.sampleFormat = .uint16
        let result = try RawDeveloper(settings: settings).develop(image)
        #expect(result.demosaic == "neighbourhood")
        #expect(result.warnings.contains { $0.contains("not Bayer") })
        let grey = result.image.pixel(x: 20, y: 36), colour = result.image.pixel(x: 80, y: 36)
        #expect(abs(Int(grey.red) - Int(grey.green)) < 200 && abs(Int(grey.blue) - Int(grey.green)) < 200, "\(grey)")
        #expect(colour.red > colour.green && colour.green > colour.blue, "\(colour)")
    }

    @Test("tiny frames (down to 2x2) develop with every demosaic and preview without trapping",
          arguments: [(2, 2), (3, 5), (8, 8), (17, 9)])
    func tinyFrames(_ width: Int, _ height: Int) throws {
        let image = try DevelopFixtures.synthetic(width: width, height: height) { _, _ in (0.25, 0.25, 0.25) }
        for method in [DemosaicMethod.gradientWeighted, .malvarHeCutler, .bilinear] {
            var s = DevelopFixtures.linearSettings
            s.demosaic = method
            let out = try RawDeveloper(settings: s).develop(image).image
            #expect(out.width == width && out.height == height, "\(method)")
            let p = out.pixel(x: width / 2, y: height / 2)
            #expect(abs(Int(p.green) - 16384) < 800, "\(method) \(width)x\(height): \(p)")
        }
        let preview = try RawDeveloper().preview(image, longEdge: 1)
        #expect(preview.width >= 1 && preview.height >= 1)
    }

    @Test("cameras the developer cannot handle are refused with a clear message")
    func refusals() throws {
        let image = try DevelopFixtures.synthetic { _, _ in (0.2, 0.2, 0.2) }
        var s = DevelopSettings()
        s.demosaic = .libRawAHD
        #expect(throws: DevelopError.self) { try RawDeveloper(settings: s).develop(image) }
        s = DevelopSettings()
        s.exposure = 9
        #expect(throws: DevelopError.self) { try RawDeveloper(settings: s).develop(image) }
        let fourColour = try ColorCalibration(colorMatrix1: ColorMatrix(rows: 4, columns: 3, values: [1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0]),
                                              illuminant1: .d65)
        #expect(throws: DevelopError.self) { try CameraColorModel(calibration: fourColour) }
    }
}
