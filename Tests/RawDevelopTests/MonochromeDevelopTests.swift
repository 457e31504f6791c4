import Foundation
import RawCore
@testable import RawDevelop
import TestSupport
import Testing

/// Developing monochrome frames (``CFALayout/monochrome``, no calibration): a grey picture of one sample per pixel,
/// each pixel's light its own value, through the same exposure, tone curve and look as a colour camera's neutral,
/// on every path (streamed, resized, previews, orientation, crop).
@Suite("Develop: monochrome frames")
struct MonochromeDevelopTests {
    /// Black 256, white 4095 (12 bits): a ramp of light across (0.02 ... 0.92), a block at 0.5 and one clipped (1.3).
    static func light(_ x: Int, _ y: Int) -> Double {
        if (4..<12).contains(x) && (6..<14).contains(y) { return 0.5 }
        if (20..<26).contains(x) && (2..<8).contains(y) { return 1.3 }
        return 0.02 + 0.9 * Double(x) / 95
    }

    static func image(orientation: Orientation = .normal, crop: PixelRect? = nil) throws -> RawImage {
        try MonochromeRaw.image(width: 96, height: 64, bits: 12, black: 256, crop: crop, orientation: orientation,
                                light: Self.light)
    }

    /// The light a development sees at (x, y): the stored sample less black over the range.
    static func stored(_ x: Int, _ y: Int) -> Double {
        (Double(MonochromeRaw.sample(light(x, y), black: 256, white: 4095)) - 256) / (4095 - 256)
    }

    static func floats(_ image: DevelopedImage) -> [Float] {
        guard case .float32(let f) = image.samples else { Issue.record("not float samples"); return [] }
        return f
    }

    @Test("linear float output: one sample per pixel, each (sample − black)/(white − black) · 2^EV, clipped at 1")
    func linearValues() throws {
        var settings = DevelopFixtures.linearSettings
        settings.sampleFormat = .float32
        settings.exposure = 0.5
        let result = try RawDeveloper(settings: settings).develop(try Self.image())
        let picture = result.image
        #expect(picture.channels == .grey && picture.isGrey && picture.width == 96 && picture.height == 64)
        #expect(result.demosaic == RawDeveloper.monochromeDemosaicName && result.workingPixels == 0)
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        #expect(result.plan.white == nil && result.plan.gains == [1, 1, 1])
        let f = Self.floats(picture)
        #expect(f.count == 96 * 64)
        var worst = 0.0
        for y in 0..<64 {
            for x in 0..<96 {
                let expected = min(1, Self.stored(x, y) * pow(2, 0.5))
                worst = max(worst, abs(Double(f[y * 96 + x]) - expected))
            }
        }
        #expect(worst < 2e-4, "largest error \(worst)")
        #expect(f[10 * 96 + 8] > 0.7 && f[4 * 96 + 22] == 1)
    }

    @Test("a grey frame develops as a colour camera's neutral: same code values (standard curve, sRGB, 8 and 16 bits)",
          arguments: [SampleFormat.uint8, .uint16])
    func sameAsNeutral(format: SampleFormat) throws {
        var settings = DevelopSettings()
        settings.sampleFormat = format
        settings.crop = .activeArea
        settings.demosaic = .bilinear
        let levels = [0.01, 0.05, 0.18, 0.4, 0.75]
        // Five flat bands of light, in a monochrome frame and in an RGGB frame whose camera RGB is linear sRGB.
        func band(_ x: Int) -> Double { levels[min(4, x * 5 / 64)] }
        let mono = try MonochromeRaw.image(width: 64, height: 48, bits: 14, black: 512, white: 16383) { x, _ in band(x) }
        let colour = try DevelopFixtures.synthetic(width: 64, height: 48) { x, _ in (band(x), band(x), band(x)) }
        let grey = try RawDeveloper(settings: settings).develop(mono).image
        let rgb = try RawDeveloper(settings: settings).develop(colour).image
        #expect(grey.isGrey && !rgb.isGrey)
        for (k, _) in levels.enumerated() {
            let x = k * 64 / 5 + 6, y = 24
            let g = grey.pixel(x: x, y: y), c = rgb.pixel(x: x, y: y)
            #expect(g.red == g.green && g.green == g.blue)
            // The colour path's camera → XYZ D50 → sRGB round trip keeps a neutral within a part in 10^4.
            let tolerance = format == .uint8 ? 0 : 2
            for channel in [c.red, c.green, c.blue] {
                #expect(abs(Int(g.red) - Int(channel)) <= tolerance, "level \(levels[k]): grey \(g.red), colour \(c)")
            }
        }
    }

    @Test("orientation 90° and DefaultCrop: the grey picture is the upright crop, sample for sample")
    func orientationAndCrop() throws {
        let crop = try PixelRect(top: 2, left: 3, height: 40, width: 80)
        var settings = DevelopFixtures.linearSettings
        settings.sampleFormat = .float32
        settings.crop = .defaultCrop
        let upright = try RawDeveloper(settings: settings).develop(try Self.image(orientation: .rotate90, crop: crop)).image
        #expect(upright.isGrey && upright.width == 40 && upright.height == 80)
        let f = Self.floats(upright)
        // Rotated 90° clockwise: crop pixel (column c, row r) shows at upright (x = 39 − r, y = c).
        for (c, r) in [(0, 0), (5, 6), (20, 3), (79, 39), (40, 20)] {
            let expected = min(1, Self.stored(c + 3, r + 2))
            #expect(abs(Double(f[c * 40 + (39 - r)]) - expected) < 2e-4, "crop (\(c), \(r))")
        }
    }

    @Test("resized development, previews (binned and sampled) and a one-pixel period: grey, flat areas keep their value")
    func reducedPaths() throws {
        let image = try MonochromeRaw.image(width: 256, height: 192, bits: 12, black: 256) { _, _ in 0.3 }
        var settings = DevelopFixtures.linearSettings
        settings.sampleFormat = .float32
        settings.longEdge = 100
        let resized = try RawDeveloper(settings: settings).develop(image)
        #expect(resized.image.isGrey && resized.image.width == 100 && resized.image.height == 75)
        #expect(resized.workingPixels == 100 * 192)
        let stored = (Double(MonochromeRaw.sample(0.3, black: 256, white: 4095)) - 256) / (4095 - 256)
        #expect(Self.floats(resized.image).allSatisfy { abs(Double($0) - stored) < 2e-4 })
        // Previews: 64 px (binned rows then resized) and 16 px (at least 4x smaller: sampled at each pixel's centre).
        for edge in [64, 16] {
            let preview = try RawDeveloper(settings: DevelopFixtures.linearSettings).preview(image, longEdge: edge)
            #expect(preview.isGrey && preview.width == edge && preview.height == edge * 3 / 4, "\(edge)")
            let expected = UInt16((stored * 65535).rounded())
            let values = preview.uint16Samples
            #expect(values.count == preview.width * preview.height)
            #expect(values.allSatisfy { abs(Int($0) - Int(expected)) <= 8 }, "\(edge): \(values.prefix(4)) vs \(expected)")
        }
    }

    @Test("white balance, demosaic and a toned look do not apply to a grey picture: warnings, the same pixels")
    func colourOptionsIgnored() throws {
        var plain = DevelopSettings()
        plain.sampleFormat = .uint16
        let reference = try RawDeveloper(settings: plain).develop(try Self.image())
        #expect(reference.warnings.isEmpty)
        var coloured = plain
        coloured.whiteBalance = .kelvin(3200, tint: 10)
        coloured.demosaic = .malvarHeCutler
        let ignored = try RawDeveloper(settings: coloured).develop(try Self.image())
        #expect(ignored.image.samples == reference.image.samples)
        #expect(ignored.warnings.contains { $0.contains("monochrome") && $0.contains("3200K+10") })
        #expect(ignored.warnings.contains { $0.contains("demosaic") && $0.contains("mhc") })
        // silvertone: lift and contrast apply (the picture changes), its toning does not (still one grey channel).
        var toned = plain
        toned.look = .silvertone
        let silver = try RawDeveloper(settings: toned).develop(try Self.image())
        #expect(silver.image.isGrey && silver.image.samples != reference.image.samples)
        #expect(silver.warnings.contains { $0.contains("silvertone") && $0.contains("toning") })
        // Black lifted to 0.035 of full scale by the look: the darkest pixel is no longer near 0.
        #expect((silver.image.uint16Samples.min() ?? 0) >= UInt16(0.03 * 65535))
    }

    @Test("a black level pattern across the columns is subtracted per column: flat light stays flat")
    func blackPattern() throws {
        let image = try MonochromeRaw.image(width: 40, height: 30, bits: 12, blackPattern: [200, 260]) { _, _ in 0.25 }
        var settings = DevelopFixtures.linearSettings
        settings.sampleFormat = .float32
        let f = Self.floats(try RawDeveloper(settings: settings).develop(image).image)
        #expect(f.count == 40 * 30)
        let even = Double(f[0]), odd = Double(f[1])
        #expect(abs(even - 0.25) < 3e-4 && abs(odd - 0.25) < 3e-4, "\(even) \(odd)")
    }

    @Test("a composite of a grey and a colour frame is RGB: the grey frame's pane has R = G = B")
    func composite() throws {
        var settings = DevelopSettings()
        settings.sampleFormat = .uint16
        let grey = try RawDeveloper(settings: settings).develop(try Self.image()).image
        let colour = try RawDeveloper(settings: settings).develop(
            try DevelopFixtures.synthetic(width: 96, height: 64) { _, _ in (0.6, 0.2, 0.1) }).image
        let out = try DualSensorCompositor(layout: .stacked(direction: .horizontal, split: 0.5)).compose(grey, colour)
        #expect(out.channels == .rgb && out.width == 96 && out.height == 64)
        let left = out.pixel(x: 10, y: 32), right = out.pixel(x: 80, y: 32)
        #expect(left.red == left.green && left.green == left.blue && left.red > 0)
        #expect(right.red > right.green && right.green > right.blue)
        #expect(grey.expandedToRGB().pixel(x: 40, y: 20) == grey.pixel(x: 40, y: 20))
    }

    @Test("a grey image holds width · height samples; an RGB count for a grey image is refused")
    func sampleCounts() throws {
        let metadata = try FrameMetadata()
        let grey = try DevelopedImage(width: 3, height: 2, channels: .grey, samples: .uint8([0, 50, 100, 150, 200, 250]),
                                      colorSpace: .sRGB, transfer: .sRGB, metadata: metadata)
        let white: UInt16 = 250 * 257
        #expect(grey.pixel(x: 2, y: 1) == (white, white, white))
        let tripled: [UInt8] = [0, 50, 100, 150, 200, 250].flatMap { [$0, $0, $0] }
        #expect(grey.expandedToRGB().uint8Samples == tripled)
        #expect(throws: InvalidValueError.self) {
            try DevelopedImage(width: 3, height: 2, channels: .grey, samples: .uint8([UInt8](repeating: 0, count: 18)),
                               colorSpace: .sRGB, transfer: .sRGB, metadata: metadata)
        }
        let turned = grey.applying(.rotate90)
        let expected: [UInt8] = [150, 0, 200, 50, 250, 100]
        #expect(turned.isGrey && turned.width == 2 && turned.height == 3 && turned.uint8Samples == expected)
    }
}
