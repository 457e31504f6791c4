import Foundation
import RawAravis
import RawCameras
import RawCore
import RawSources
import Testing

extension FakeCameraSettingsTests {
    /// Aravis's in-process fake camera described by `samples/genicam/rawburst-fake-mono-camera.xml`: a 1280x1024
    /// monochrome sensor in Mono8 (its default), Mono10/12/16, Mono10p/12p and GigE Vision's Mono10Packed/12Packed,
    /// filled with rawburst's known pattern (docs/frame-sources.md). Nested in the serialized suite: the fake's GenICam
    /// file is a setting of the whole process.
    @Suite struct Mono {
        static let xml = URL(fileURLWithPath: FakeCameraSettingsTests.xml).deletingLastPathComponent()
            .appendingPathComponent("rawburst-fake-mono-camera.xml").path

        static func source(_ change: (inout AravisCameraSource.Options) -> Void = { _ in }) throws -> AravisCameraSource {
            try AravisCamera.useFakeCameraGenICam(path: xml)
            var options = AravisCameraSource.Options(id: "Fake_1")
            options.region = CameraRegion(x: 3, y: 5, width: 61, height: 16)
            change(&options)
            return try AravisCameraSource(options: options)
        }

        /// The pattern as docs/frame-sources.md defines it (unsigned 32-bit arithmetic), written again here.
        static func pattern(x: UInt32, y: UInt32, frame: UInt32, bits: Int) -> UInt16 {
            var h = x &* 0x9E37_79B1 &+ y &* 0x85EB_CA77 &+ frame &* 0xC2B2_AE3D
            h ^= h >> 15
            h = h &* 0x2C1B_3C6D
            h ^= h >> 13
            return UInt16(truncatingIfNeeded: h >> (32 - UInt32(bits)))
        }

        static let formats: [(name: String, bits: Int)] = [
            ("Mono8", 8), ("Mono10", 10), ("Mono12", 12), ("Mono16", 16), ("Mono10p", 10), ("Mono12p", 12),
            ("Mono10Packed", 10), ("Mono12Packed", 12),
        ]

        @Test("each mono format: monochrome frames, every sample the pattern over a region at odd offsets, white 2^bits - 1",
              arguments: formats)
        func exactSamples(format: (name: String, bits: Int)) throws {
            let source = try Self.source { $0.pixelFormat = try? PixelFormat(name: format.name) }
            #expect(source.isMonochrome && source.pixelFormat.name == format.name)
            #expect(source.capabilities.cfaPattern == "mono" && source.capabilities.bitsPerSample == format.bits)
            let storage = PixelStorage(count: source.samplesPerFrame)
            for _ in 0..<2 {
                let frame = try source.nextFrame(into: storage)
                let id = try #require(frame.camera?.frameID)
                let raw = frame.image.frame
                #expect(raw.cfa == .monochrome && raw.width == 61 && raw.height == 16)
                #expect(raw.whiteLevel == UInt32((1 << format.bits) - 1) && raw.bitsPerSample == max(8, format.bits))
                var wrong = 0
                for y in 0..<16 {
                    for x in 0..<61 where storage.buffer[y * 61 + x]
                        != Self.pattern(x: UInt32(3 + x), y: UInt32(5 + y), frame: UInt32(id), bits: format.bits) {
                        wrong += 1
                    }
                }
                #expect(wrong == 0, "\(format.name) frame id \(id): \(wrong) samples differ")
                #expect(frame.image.calibration == nil && frame.settings.asShotNeutral.isEmpty)
            }
        }

        @Test("the default format (Mono8) needs no option; white balance and a profile's colours do not apply, never refused")
        func defaultsAndColourSettings() throws {
            let matrix = try ColorMatrix([1, 0, 0], [0, 1, 0], [0, 0, 1])
            let profile = try CameraProfile(calibration: try ColorCalibration(colorMatrix1: matrix, illuminant1: .d65))
            let source = try Self.source { $0.profile = profile; $0.whiteBalance = .applied }
            #expect(source.pixelFormat == .mono8 && source.whiteBalance == nil)
            for setting in [WhiteBalanceSetting.preset(.daylight), .kelvin(5000, tint: 0), .auto] {
                try source.configure(CaptureSettings(whiteBalance: setting))
            }
            let frame = try source.nextFrame(into: PixelStorage(count: source.samplesPerFrame))
            #expect(frame.image.frame.cfa == .monochrome && frame.image.calibration == nil)
        }

        @Test("a Bayer format this camera lacks is refused listing the mono formats it offers")
        func refusedFormat() {
            #expect { _ = try Self.source { $0.pixelFormat = .bayer12(.rggb) } } throws: { error in
                "\(error)".contains("does not offer BayerRG12") && "\(error)".contains("Mono8, Mono10, Mono12, Mono16, Mono10p")
            }
        }
    }
}
