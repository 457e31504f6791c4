import Foundation
import Synchronization
import RawCore
@testable import RawDevelop
import RawSimulator
import Testing

/// A reduced output (`--size`) is developed at reduced scale — one camera-RGB pixel per CFA period, then resized —
/// instead of demosaicing the whole crop and scaling it down. These tests hold it to the full development scaled
/// down, and check that its working planes follow the output's size.
@Suite("Develop: reduced outputs cost less and match the full development scaled down")
struct ReducedDevelopTests {
    /// `image` (interleaved RGB floats, `width` x `height`) averaged over 2x2 blocks: the full development scaled down
    /// by exactly one half in linear light, as an area-averaging resize does.
    static func halved(_ samples: [Float], width: Int, height: Int) -> [Float] {
        let w = width / 2, h = height / 2
        var out = [Float](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<3 {
                    var sum: Float = 0
                    for dy in 0..<2 { for dx in 0..<2 { sum += samples[((2 * y + dy) * width + 2 * x + dx) * 3 + c] } }
                    out[(y * w + x) * 3 + c] = sum / 4
                }
            }
        }
        return out
    }

    @Test("half size in linear light: per-channel mean absolute difference under 0.4 % of white, chart patches within ΔE 0.05")
    func matchesFullScaledDown() throws {
        let (image, profile, scene) = try DevelopFixtures.chart(width: 1024)
        var settings = DevelopFixtures.linearSettings
        settings.sampleFormat = .float32
        let full = try RawDeveloper(settings: settings).develop(image)
        settings.longEdge = 512
        let reduced = try RawDeveloper(settings: settings).develop(image)
        #expect(full.image.width == 1024 && full.image.height == 768)
        #expect(reduced.image.width == 512 && reduced.image.height == 384)
        #expect(reduced.demosaic == "superpixel" && full.demosaic == "gbtf")
        let reference = Self.halved(full.image.floatSamples, width: 1024, height: 768), ours = reduced.image.floatSamples
        for c in 0..<3 {
            var sum = 0.0
            for i in stride(from: c, to: ours.count, by: 3) { sum += Double(abs(ours[i] - reference[i])) }
            let mean = sum / Double(ours.count / 3)
            print("reduced vs full scaled down, channel \(c): mean absolute difference \(mean) of white")
            #expect(mean < 0.004, "channel \(c): mean absolute difference \(mean) of white")
        }
        // The same chart finished as a user sees it (tone curve, sRGB): every patch's colour within ΔE2000 0.5.
        var standard = DevelopSettings()
        standard.crop = .activeArea
        let fullStandard = try RawDeveloper(settings: standard).develop(image).image
        standard.longEdge = 512
        let reducedStandard = try RawDeveloper(settings: standard).develop(image).image
        let a = DevelopFixtures.patchLinearRGB(fullStandard, profile: profile, scene: scene)
        let b = DevelopFixtures.patchLinearRGB(reducedStandard, profile: profile, scene: scene)
        let white = OutputColorSpace.pcsWhite, toXYZ = OutputColorSpace.sRGB.toXYZD50
        var worst = 0.0
        for (p, q) in zip(a, b) {
            guard let p, let q else { Issue.record("a patch is outside the frame"); continue }
            let labP = ColorSpaceMath.lab(fromXYZ: CIEXYZ(ColorSpaceMath.apply(toXYZ, (p[0], p[1], p[2]))), white: white)
            let labQ = ColorSpaceMath.lab(fromXYZ: CIEXYZ(ColorSpaceMath.apply(toXYZ, (q[0], q[1], q[2]))), white: white)
            worst = max(worst, ColorSpaceMath.deltaE2000(labP, labQ))
        }
        print("reduced vs full scaled down: largest patch ΔE2000 \(worst)")
        #expect(worst < 0.05, "largest patch ΔE2000 between the full and the reduced development: \(worst)")
    }

    @Test("the reduced path's planes are one row per CFA period at the output's width; the full path's are the crop's")
    func workingPlanesFollowTheOutput() throws {
        let (image, _, _) = try DevelopFixtures.chart(width: 1024)
        var settings = DevelopFixtures.linearSettings
        let direct = try RawDeveloper(settings: settings).develop(image)
        #expect(direct.workingPixels == 0, "the full-size development streams into the output")
        settings.longEdge = 512
        let half = try RawDeveloper(settings: settings).develop(image)
        #expect(half.workingPixels == 512 * 384)
        settings.longEdge = 256
        let quarter = try RawDeveloper(settings: settings).develop(image)
        #expect(quarter.demosaic == "superpixel")
        #expect(quarter.workingPixels == 256 * 384, "binned rows (768 / 2), each already resized to the output's width")
        // 2016 periods for 2048 pixels (4032-pixel sensors at --size 2048): still binned, enlarged by under 5 %.
        settings.longEdge = 536
        let nearHalf = try RawDeveloper(settings: settings).develop(image)
        #expect(nearHalf.demosaic == "superpixel" && nearHalf.image.width == 536)
        // Beyond that the crop is demosaiced at full size, in strips resized and finished as they are made.
        settings.longEdge = 700
        let large = try RawDeveloper(settings: settings, threads: 2).develop(image)
        #expect(large.demosaic == "gbtf")
        // Strips of 128 rows (a 64-row band per thread), 1024 wide, resized to 700, and a ring of
        // (128 + 1) · 525 / 768 + 4 = 92 output rows.
        #expect(large.image.width == 700 && large.workingPixels == 1024 * 128 + 700 * 128 + 700 * 92)
        // Other demosaics still resize a whole demosaiced crop.
        settings.demosaic = .malvarHeCutler
        #expect(try RawDeveloper(settings: settings).develop(image).workingPixels == 1024 * 768)
    }

    @Test("X-Trans bins its 6x6 period only for outputs a sixth of the crop or smaller")
    func xTransPeriods() throws {
        let image = try DevelopFixtures.synthetic(width: 96, height: 72, cfa: .xTrans) { x, _ in
            x < 48 ? (0.3, 0.3, 0.3) : (0.5, 0.2, 0.1)
        }
        var settings = DevelopFixtures.linearSettings
        settings.longEdge = 16
        let small = try RawDeveloper(settings: settings).develop(image)
        #expect(small.demosaic == "superpixel" && small.workingPixels == 16 * 12)
        #expect(small.image.width == 16 && small.image.height == 12)
        let grey = small.image.pixel(x: 3, y: 6), colour = small.image.pixel(x: 13, y: 6)
        #expect(abs(Int(grey.red) - Int(grey.green)) < 200 && abs(Int(grey.blue) - Int(grey.green)) < 200, "\(grey)")
        #expect(colour.red > colour.green && colour.green > colour.blue, "\(colour)")
        settings.longEdge = 48
        let larger = try RawDeveloper(settings: settings).develop(image)
        #expect(larger.demosaic == "neighbourhood" && larger.image.width == 48)
    }

    @Test("reduced outputs are cropped and turned upright like full ones", arguments: [Orientation.normal, .rotate90, .rotate270])
    func cropAndOrientation(_ orientation: Orientation) throws {
        // A bright block in the stored top-left corner (rows 0-15, columns 0-31) of a 128x96 frame.
        let image = try DevelopFixtures.synthetic(width: 128, height: 96, orientation: orientation) { x, y in
            x < 32 && y < 16 ? (0.8, 0.8, 0.8) : (0.05, 0.05, 0.05)
        }
        var settings = DevelopFixtures.linearSettings
        let full = try RawDeveloper(settings: settings).develop(image).image
        settings.longEdge = 64
        let reduced = try RawDeveloper(settings: settings).develop(image)
        #expect(reduced.demosaic == "superpixel")
        #expect(reduced.image.width * 2 == full.width && reduced.image.height * 2 == full.height)
        // Each reduced pixel is the mean of the 2x2 full-size pixels it covers, block edges included (within 1.5 % of
        // white: at the block's inner corner the full-size demosaic itself softens the step by about 1.1 %).
        for y in 0..<reduced.image.height {
            for x in 0..<reduced.image.width {
                let p = reduced.image.pixel(x: x, y: y).green
                let q = (0..<4).map { Int(full.pixel(x: 2 * x + $0 % 2, y: 2 * y + $0 / 2).green) }.reduce(0, +) / 4
                #expect(abs(Int(p) - q) < 1000, "(\(x), \(y)): \(p) vs \(q)")
            }
        }
        // The block's superpixels are its level exactly (0.8 of white), wherever the picture turned it.
        let bright = (0..<reduced.image.height).flatMap { y in (0..<reduced.image.width).map { reduced.image.pixel(x: $0, y: y).green } }
            .filter { $0 > 30000 }
        #expect(bright.count == 16 * 8 && bright.allSatisfy { abs(Int($0) - 52428) <= 2 }, "\(Set(bright))")
        // An aspect crop as seen upright: 1:1 of the 128x96 frame, halved.
        settings.crop = .aspect(width: 1, height: 1)
        settings.longEdge = 48
        let square = try RawDeveloper(settings: settings).develop(image)
        #expect(square.image.width == 48 && square.image.height == 48 && square.demosaic == "superpixel")
    }
}

/// The strip-by-strip resize of the default demosaic against demosaicing the whole crop and resizing it.
@Suite("Develop: strips resized as they are made")
struct StripResizerTests {
    @Test("the same pixels as the whole demosaiced crop resized, for shrinking, non-square and odd sizes",
          arguments: [(700, 525), (1000, 300), (333, 800)])
    func matchesWholeImage(_ width: Int, _ height: Int) throws {
        let (image, _, _) = try DevelopFixtures.chart(width: 1024, noise: true)
        let frame = image.frame
        let rect = frame.activeArea
        let gains = [2.0, 1.0, 1.5], ceilings: [Float] = [2, 1, 1.5]
        let demosaic = GradientDemosaic(ceiling: 2)
        let whole = PlanarImage(width: rect.width, height: rect.height)
        demosaic.run(frame: frame, rect: rect, gains: gains, ceilings: ceilings, threads: 2) { y, x, n, r, g, b in
            (whole.row(0, y) + x).update(from: r, count: n)
            (whole.row(1, y) + x).update(from: g, count: n)
            (whole.row(2, y) + x).update(from: b, count: n)
        }
        let reference = Resampler.resize(whole, width: width, height: height, threads: 2)
        let resizer = StripResizer(inputWidth: rect.width, inputHeight: rect.height, width: width, height: height,
                                   stripRows: GradientDemosaic.stripRows(threads: 2))
        let output = PlanarImage(width: width, height: height)
        let handed = Mutex([Int]())
        demosaic.run(frame: frame, rect: rect, gains: gains, ceilings: ceilings, threads: 2, into: resizer) { y, r, g, b in
            handed.withLock { $0.append(y) }
            output.row(0, y).update(from: r, count: width)
            output.row(1, y).update(from: g, count: width)
            output.row(2, y).update(from: b, count: width)
        }
        #expect(handed.withLock { $0.sorted() } == Array(0..<height), "every output row handed on exactly once")
        #expect(resizer.ringRows < height, "the ring holds part of the output, not all of it")
        var worst: Float = 0
        for c in 0..<3 {
            for y in 0..<height {
                for x in 0..<width { worst = max(worst, abs(output.row(c, y)[x] - reference.row(c, y)[x])) }
            }
        }
        #expect(worst < 1e-5, "largest difference \(worst)")
    }
}
