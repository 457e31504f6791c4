import Foundation
import RawCore
import RawDNG
@testable import RawDevelop
import RawFiles
import TestSupport
import Testing

/// Issue #20, item 2: a large positive exposure (a Blackmagic-style BaselineExposure of +2.65 EV) compresses
/// highlights into white through the standard curve's shoulder instead of clipping them.
@Suite("Develop: highlight roll-off")
struct HighlightRollOffTests {
    /// Centres of the bottom row of the ColorChecker in canon-powershot-g2.crw's developed picture (white 9.5 ...
    /// black 2), as fractions of the width and height, read off the picture.
    static let greyCentres: [(x: Double, y: Double)] = [0.141, 0.284, 0.426, 0.569, 0.711, 0.856].map { ($0, 0.756) }

    /// canon-powershot-g2.crw (a real ColorChecker shot, normally exposed, nothing clipped) written as a DNG that
    /// asks for +`baseline` EV, as a Blackmagic Pocket 4K DNG does (+2.65), and read back.
    static func brightenedDNG(baseline: Double, in directory: TemporaryDirectory) throws -> RawImage? {
        guard let crw = TestPaths.sharedSample("canon-powershot-g2.crw") else { return nil }
        var image = try RawFileReader().read(path: crw.path)
        let c = try #require(image.calibration)
        image.calibration = try ColorCalibration(colorMatrix1: c.colorMatrix1, illuminant1: c.illuminant1,
                                                 colorMatrix2: c.colorMatrix2, illuminant2: c.illuminant2,
                                                 forwardMatrix1: c.forwardMatrix1, forwardMatrix2: c.forwardMatrix2,
                                                 asShotNeutral: c.asShotNeutral, baselineExposure: baseline,
                                                 profileName: c.profileName)
        let path = directory.url.appendingPathComponent("g2-bright.dng").path
        try DNGWriter().write(image, to: path)
        let read = try RawFileReader().read(path: path)
        #expect(read.calibration?.baselineExposure == baseline)
        return read
    }

    /// Mean green byte of a 31x31 window around each grey patch centre.
    static func greyGreens(_ image: DevelopedImage) -> [Double] {
        let bytes = image.uint8Samples
        return greyCentres.map { centre in
            let cx = Int(centre.x * Double(image.width)), cy = Int(centre.y * Double(image.height))
            var sum = 0.0
            for y in (cy - 15)...(cy + 15) {
                for x in (cx - 15)...(cx + 15) { sum += Double(bytes[(y * image.width + x) * 3 + 1]) }
            }
            return sum / (31 * 31)
        }
    }

    @Test("+2.65 EV BaselineExposure on a real chart: almost nothing pure white, the greys stay apart",
          .enabled(if: TestPaths.sharedSample("canon-powershot-g2.crw") != nil))
    func brightDNGRollsOff() throws {
        let tmp = try TemporaryDirectory()
        let image = try #require(try Self.brightenedDNG(baseline: 2.65, in: tmp))
        var settings = DevelopSettings()
        settings.sampleFormat = .uint8   // what a JPEG gets
        let developed = try RawDeveloper(settings: settings).develop(image).image
        let bytes = developed.uint8Samples
        let pixels = developed.width * developed.height
        var white = 0, nearWhite = 0
        for i in 0..<pixels {
            let r = bytes[3 * i], g = bytes[3 * i + 1], b = bytes[3 * i + 2]
            if r == 255 && g == 255 && b == 255 { white += 1 }
            if r >= 250 && g >= 250 && b >= 250 { nearWhite += 1 }
        }
        let whiteShare = Double(white) / Double(pixels), nearShare = Double(nearWhite) / Double(pixels)
        let greens = Self.greyGreens(developed)
        print("g2 at +2.65 EV: pure white \(String(format: "%.4f", whiteShare * 100)) %, all ≥ 250 "
              + "\(String(format: "%.2f", nearShare * 100)) %, grey patches' green \(greens.map { String(format: "%.1f", $0) })")
        // Nothing on this chart is clipped by the sensor, so (almost) nothing may become pure white.
        #expect(whiteShare <= 0.0005)
        // A hard clip (or a shoulder that squeezes its top EV into a few codes) makes the chart's white, neutral 8
        // and neutral 6.5 patches and the bright card around them all ≥ 250.
        #expect(nearShare <= 0.02)
        // Every grey stays brighter than the next darker one by at least 4 codes.
        for k in 0..<5 {
            #expect(greens[k] - greens[k + 1] >= 4, "grey \(k + 19) at \(greens[k]), grey \(k + 20) at \(greens[k + 1])")
        }
    }

    @Test("the shoulder: identity up to its knee, C1 there, monotonic, reaching white only at the headroom",
          arguments: [1.05, 1.5, 4.0, 8.9, 64.0])
    func shoulderShape(_ white: Double) throws {
        let shoulder = try #require(ToneShoulder(white: white))
        let knee = shoulder.knee
        #expect(knee > 0 && knee < 1)
        for i in 0...100 {
            let x = knee * Double(i) / 100
            #expect(shoulder.apply(x) == x, "below the knee \(x) is left alone")
        }
        // Slope 1 on both sides of the knee (C1).
        let h = 1e-7
        let right = (shoulder.apply(knee + h) - shoulder.apply(knee)) / h
        #expect(abs(right - 1) < 1e-4, "slope right of the knee \(right)")
        // Strictly increasing up to the headroom, concave (the slope never rises), white exactly there.
        var previous = knee, previousSlope = 1.0
        let steps = 10_000
        for i in 1...steps {
            let x = knee + (white - knee) * Double(i) / Double(steps)
            let y = shoulder.apply(x)
            #expect(y > previous, "not increasing at \(x)")
            let slope = (y - previous) / ((white - knee) / Double(steps))
            #expect(slope <= previousSlope + 1e-9, "slope rises at \(x)")
            previous = y
            previousSlope = slope
        }
        #expect(abs(shoulder.apply(white) - 1) < 1e-12)
        #expect(shoulder.apply(white * 2) == 1)
        // The top tenth of an EV below the headroom still spans at least half a per cent of linear light.
        #expect(1 - shoulder.apply(white * pow(2, -0.1)) > 0.005)
    }
}
