import Foundation
import RawCore
@testable import RawDevelop
@testable import RawFiles
import TestSupport
import Testing

/// Developing linear raws (three samples per pixel, no CFA) goes through the mosaic's colour plan and finishing: a
/// flat patch of known camera RGB through a known matrix lands at the computed output, BaselineExposure applies, and
/// orientation and DefaultCrop are honoured.
@Suite("Develop: linear raws")
struct LinearDevelopTests {
    /// XYZ (D65) → linear sRGB: with it as ColorMatrix1, camera RGB is linear sRGB.
    static let xyzToSRGB = try! ColorMatrix([3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415], [0.0557, -0.2040, 1.0570])

    static let background: [Double] = [0.2, 0.4, 0.1]
    static let marker: [Double] = [0.05, 0.05, 0.6]

    /// 40 x 30 pixels, black 100, white 10100; camera RGB `background`, with `marker` at crop rows 2..<6, columns 2..<8;
    /// DefaultCrop 30 x 24 at (4, 2); Orientation 6; BaselineExposure +0.5 EV.
    static func image() throws -> LinearRawImage {
        let width = 40, height = 30
        let storage = PixelStorage(count: width * height * 3)
        let crop = try PixelRect(top: 2, left: 4, height: 24, width: 30)
        for y in 0..<height {
            for x in 0..<width {
                let inMarker = (crop.top + 2..<crop.top + 6).contains(y) && (crop.left + 2..<crop.left + 8).contains(x)
                let rgb = inMarker ? marker : background
                for c in 0..<3 { storage.baseAddress[(y * width + x) * 3 + c] = UInt16(100 + (rgb[c] * 10000).rounded()) }
            }
        }
        let frame = try LinearRawFrame(width: width, height: height, storage: storage, defaultCrop: crop,
                                       blackLevels: [100, 100, 100], whiteLevels: [10100, 10100, 10100])
        var metadata = try FrameMetadata()
        metadata.orientation = .rotate90
        let calibration = try ColorCalibration(colorMatrix1: xyzToSRGB, illuminant1: .d65, asShotNeutral: [1, 1, 1],
                                               baselineExposure: 0.5)
        return LinearRawImage(frame: frame, metadata: metadata, calibration: calibration)
    }

    /// No tone curve, linear output in floats, the default crop.
    static var linearFloat: DevelopSettings {
        var settings = DevelopFixtures.linearSettings
        settings.crop = .defaultCrop
        settings.sampleFormat = .float32
        return settings
    }

    private func pixel(_ samples: [Float], width: Int, row: Int, column: Int) -> [Float] {
        Array(samples[((row * width + column) * 3)..<((row * width + column) * 3 + 3)])
    }

    @Test("a flat patch of camera RGB through the sRGB matrix lands at camera RGB × 2^0.5; crop and orientation 6 honoured")
    func flatPatch() throws {
        let result = try RawDeveloper(settings: Self.linearFloat).develop(try Self.image())
        // The 30 x 24 crop, turned 90° clockwise.
        #expect(result.image.width == 24 && result.image.height == 30)
        #expect(result.demosaic == RawDeveloper.linearDemosaicName)
        let samples = result.image.floatSamples
        let gain = Float(pow(2, 0.5))
        // Sensor crop (row y, column x) lands at output (row x, column 23 - y): the marker's centre (3.5, 4.5) at (4.5, 19.5).
        for (row, column, expected) in [(4, 20, Self.marker), (5, 19, Self.marker), (20, 5, Self.background), (1, 1, Self.background)] {
            let got = pixel(samples, width: 24, row: row, column: column)
            for c in 0..<3 {
                #expect(abs(got[c] - Float(expected[c]) * gain) < 2e-3, "(\(row), \(column)) channel \(c): \(got)")
            }
        }
        // Nothing of the marker leaks outside its place: the marker spans output rows 2..<8, columns 18..<22.
        #expect(abs(pixel(samples, width: 24, row: 4, column: 17)[2] - Float(Self.background[2]) * gain) < 2e-3)
        #expect(abs(pixel(samples, width: 24, row: 8, column: 20)[2] - Float(Self.background[2]) * gain) < 2e-3)
    }

    @Test("8-bit sRGB output: the background is the sRGB encoding of its linear value, within one code")
    func encoded() throws {
        var settings = DevelopSettings()
        settings.tone = .linear
        settings.sampleFormat = .uint8
        let result = try RawDeveloper(settings: settings).develop(try Self.image())
        guard case .uint8(let bytes) = result.image.samples else { Issue.record("not 8-bit"); return }
        func srgb(_ v: Double) -> Double { v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }
        let i = (20 * 24 + 5) * 3
        for c in 0..<3 {
            let expected = srgb(Self.background[c] * pow(2, 0.5)) * 255
            #expect(abs(Double(bytes[i + c]) - expected) <= 1, "channel \(c): \(bytes[i + c]) vs \(expected)")
        }
    }

    @Test("a resized linear development keeps a flat area's value (area averaging in linear light)")
    func resized() throws {
        var settings = Self.linearFloat
        settings.longEdge = 20
        let result = try RawDeveloper(settings: settings).develop(try Self.image())
        #expect(result.image.width == 16 && result.image.height == 20)
        let got = pixel(result.image.floatSamples, width: 16, row: 12, column: 2)
        for c in 0..<3 { #expect(abs(got[c] - Float(Self.background[c] * pow(2, 0.5))) < 3e-3) }
        #expect(result.workingPixels == 30 * 24)
    }

    @Test("a small output of a large linear raw bins it first: the working planes follow the output, a flat area keeps its value")
    func binned() throws {
        let width = 1000, height = 700
        let storage = PixelStorage(count: width * height * 3)
        for i in 0..<(width * height) {
            for c in 0..<3 { storage.baseAddress[i * 3 + c] = UInt16(100 + (Self.background[c] * 10000).rounded()) }
        }
        let frame = try LinearRawFrame(width: width, height: height, storage: storage, blackLevels: [100, 100, 100],
                                       whiteLevels: [10100, 10100, 10100])
        let calibration = try ColorCalibration(colorMatrix1: Self.xyzToSRGB, illuminant1: .d65, asShotNeutral: [1, 1, 1])
        var settings = Self.linearFloat
        settings.longEdge = 100
        let result = try RawDeveloper(settings: settings).develop(LinearRawImage(frame: frame, metadata: try FrameMetadata(),
                                                                                 calibration: calibration))
        #expect(result.image.width == 100 && result.image.height == 70)
        #expect(result.workingPixels == 100 * 70)
        let samples = result.image.floatSamples
        for c in 0..<3 { #expect(abs(samples[(35 * 100 + 50) * 3 + c] - Float(Self.background[c])) < 2e-3) }
    }

    @Test("automatic white balance on a linear raw takes the grey world of its pixels")
    func greyWorld() throws {
        let neutral = RawDeveloper.greyWorldNeutral(try Self.image().frame)
        // Mostly background (0.2, 0.4, 0.1), a little marker: green is the largest mean.
        #expect(neutral[1] == 1)
        #expect(abs(neutral[0] - 0.5) < 0.03 && abs(neutral[2] - 0.25) < 0.08, "\(neutral)")
    }
}
