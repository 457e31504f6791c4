import Foundation
import RawCameras
import RawCore
import RawSources
import Testing

/// Monochrome raw streams (V4L2 GREY, Y10, Y10P ...; an OV9281 on a Raspberry Pi writes Y10P with padded rows): their
/// frames are monochrome (`CFALayout.monochrome`), exact to the sample, with the stream's levels, and carry no colour.
@Suite("raw stream source: monochrome")
struct MonoStreamSourceTests {
    typealias Base = RawStreamSourceTests

    @Test("each monochrome format's frames arrive as sent: monochrome, white 2^bits - 1, any width", arguments: [
        (PixelFormat.v4l2Grey10CSI2P, 64, 48, 96, 3),  // OV9281-style: Y10P rows padded
        (PixelFormat.v4l2Grey8, 37, 11, nil, 2),  // odd sizes: a monochrome frame has no 2x2 period
        (PixelFormat.v4l2Grey10, 30, 8, 64, 2),
        (PixelFormat.v4l2Grey12CSI2P, 33, 9, 56, 2),
        (PixelFormat.v4l2Grey14CSI2P, 13, 6, nil, 2),
        (PixelFormat.v4l2Grey16, 16, 8, nil, 2),
        (PixelFormat.mono12p, 16, 8, nil, 2),
    ] as [(PixelFormat, Int, Int, Int?, Int)])
    func formats(format: PixelFormat, width: Int, height: Int, stride: Int?, count: Int) throws {
        let scratch = try Base.Scratch()
        let (bytes, expected) = Base.stream(format, width: width, height: height, stride: stride, count: count, seed: 40)
        let path = try scratch.write("s.raw", Data(bytes))
        let source = try Base.source(path, format, width: width, height: height, stride: stride)
        let (frames, samples, losses) = Base.drain(source)
        #expect(samples == expected && losses.isEmpty && source.hasEnded)
        #expect(frames.map(\.sequenceNumber) == (0..<UInt64(count)).map { $0 })
        let frame = try #require(frames.first).image
        #expect(frame.frame.cfa == .monochrome && frame.frame.cfa.isMonochrome)
        #expect(frame.frame.whiteLevel == UInt32((1 << format.bitsPerSample) - 1) && frame.frame.bitsPerSample == format.bitsPerSample)
        // No metadata: 4096 of 65536 scaled to the bits, one level.
        #expect(frame.frame.blackLevels.values == [Double(4096 >> (16 - format.bitsPerSample))])
        #expect(frame.calibration == nil && frames[0].settings.asShotNeutral.isEmpty)
        #expect(source.capabilities.cfaPattern == "mono" && (try? CFALayout(source.capabilities.cfaPattern)) == .monochrome)
    }

    @Test("rpicam metadata on a monochrome stream: one black level (the mean of four), no neutral, no calibration")
    func metadata() throws {
        let scratch = try Base.Scratch()
        let format = PixelFormat.v4l2Grey10CSI2P
        let (bytes, _) = Base.stream(format, width: 16, height: 8, stride: nil, count: 2)
        let path = try scratch.write("s.raw", Data(bytes))
        let json = try scratch.write("m.json", Data(Base.rpicamJSON.utf8))
        // A profile's matrices are given: a monochrome frame still carries none, and the colour gains are not its.
        let calibration = try ColorCalibration(colorMatrix1: try ColorMatrix([1, 0, 0], [0, 1, 0], [0, 0, 1]), illuminant1: .d65)
        let source = try Base.source(path, format, width: 16, height: 8, stride: nil,
                                     camera: StreamCamera(calibration: calibration, baseISO: 50), metadata: json)
        source.followWaitNanoseconds = 20_000_000
        let (frames, _, losses) = Base.drain(source)
        #expect(frames.count == 2 && losses.isEmpty)
        #expect(frames[0].settings.shutter == 0.033965 && frames[0].settings.iso == 200)
        #expect(frames[0].image.metadata.iso == 200 && frames[0].image.metadata.exposureTime == 0.033965)
        // SensorBlackLevels 4096, 4160, 4224, 4288 of 65536: mean 4192, 65.5 at 10 bits.
        #expect(frames[0].image.frame.blackLevels.values == [65.5])
        #expect(frames[1].image.frame.blackLevels.values == [64])
        #expect(frames.allSatisfy { $0.image.calibration == nil && $0.settings.asShotNeutral.isEmpty })
    }
}
