import Foundation
import RawCore
import RawDNG
import RawImageIO
import RawLive
import RawSimulator
import RawSources
import TestSupport
import Testing

/// The viewfinder of a monochrome sensor: the binned copy stays a one-plane mosaic, the preview is grey (R = G = B)
/// as bright as the DNG preview's, the histogram one luma trace with one clipping fraction, and peaking and zebra find
/// what they should.
@Suite("Live: monochrome frames")
struct LiveMonochromeTests {
    static let width = 320, height = 240

    /// A monochrome frame: a step from 0.1 to 0.5 of the range at the middle column, and a 40 x 30 block of clipped
    /// samples (light 1.2) at (200, 40); 12-bit, black 256.
    static func frame() throws -> CapturedFrame {
        let image = try MonochromeRaw.image(width: width, height: height, bits: 12, black: 256) { x, y in
            if (200..<240).contains(x) && (40..<70).contains(y) { return 1.2 }
            return x < width / 2 ? 0.1 : 0.5
        }
        return CapturedFrame(image: image, settings: LiveBinnedMosaicTests.settings, sequenceNumber: 7,
                             monotonicNanoseconds: 1000, latenessNanoseconds: 0, sensorName: "mono")
    }

    @Test("the binned copy is a monochrome mosaic of k x k means; the clipping counts full-resolution samples")
    func binnedMosaic() throws {
        let frame = try Self.frame()
        let mosaic = LiveBinnedMosaic()
        mosaic.fill(from: frame, longEdge: 100)
        #expect(mosaic.factor == 4 && mosaic.width == 80 && mosaic.height == 60 && mosaic.isMonochrome)
        let binned = try mosaic.image()
        #expect(binned.frame.cfa == .monochrome && binned.calibration == nil)
        let raw = frame.image.frame
        for (i, j) in [(0, 0), (10, 20), (51, 12), (79, 59), (39, 30), (40, 30)] {
            var sum = 0
            for dy in 0..<4 { for dx in 0..<4 { sum += Int(raw[j * 4 + dy, i * 4 + dx]) } }
            #expect(Int(binned.frame[j, i]) == (sum + 8) / 16, "(\(i), \(j))")
        }
        let clipped = 40.0 * 30 / Double(Self.width * Self.height)
        #expect(mosaic.clippedFractions == [clipped, clipped, clipped])
    }

    @Test("the preview: grey JPEG pixels (R = G = B) as bright as the DNG preview; one luma histogram; one clipping fraction")
    func preview() throws {
        let frame = try Self.frame()
        let live = try LivePreviewerTests.preview([frame], longEdge: 160,
                                                  overlays: LiveOverlays(peaking: true, zebra: true, zebraLevel: 0.95))
        #expect(live.width == 160 && live.height == 120)
        let decoded = try live.jpeg.withUnsafeBytes { try JPEGMemoryDecoder.decode($0, maximumPixels: 1 << 22).get() }
        #expect(decoded.width == 160 && decoded.height == 120)
        var greyish = true
        for i in 0..<(160 * 120) {
            let r = Int(decoded.samples[3 * i]), g = Int(decoded.samples[3 * i + 1]), b = Int(decoded.samples[3 * i + 2])
            if abs(r - g) > 2 || abs(g - b) > 2 { greyish = false }
        }
        #expect(greyish, "the preview of a monochrome frame has colour")
        let reference = PreviewRenderer.render(frame.image, longEdge: 160)
        #expect(abs(LivePreviewerTests.meanOf(decoded.samples) - LivePreviewerTests.meanOf(reference.pixels)) < 3)
        let histogram = live.histogram
        #expect(histogram.monochrome && histogram.red.isEmpty && histogram.green.isEmpty && histogram.blue.isEmpty)
        #expect(histogram.luma.count == LiveHistogram.bins && histogram.luma.reduce(0, +) == 160 * 120)
        #expect(histogram.clipped == [40.0 * 30 / Double(Self.width * Self.height)])
        // Zebra marks the clipped block (100..<120 x 20..<35 in the picture) and nothing in the 0.1 half.
        let zebra = try #require(live.zebra)
        #expect(zebra.isMarked(x: 110, y: 27) && !zebra.isMarked(x: 20, y: 60))
        #expect(abs(zebra.fraction - 20.0 * 15 / (160 * 120)) < 0.01, "\(zebra.fraction)")
        // Peaking marks the step at the middle, not the flat left half.
        let peaking = try #require(live.peaking)
        #expect((78...81).contains { peaking.isMarked(x: $0, y: 100) } && !peaking.isMarked(x: 30, y: 100))
        #expect(live.sensors.first?.kelvin == nil)
        // On the wire: the page's JSON says monochrome and carries one clipping fraction.
        let message = LiveWire.encode(live)
        let jsonLength = Int(message[40]) | Int(message[41]) << 8 | Int(message[42]) << 16 | Int(message[43]) << 24
        let json = try JSONSerialization.jsonObject(with: Data(message[72..<(72 + jsonLength)])) as? [String: Any]
        let wired = json?["histogram"] as? [String: Any]
        #expect(wired?["monochrome"] as? Bool == true && (wired?["clipped"] as? [Double])?.count == 1)
        #expect((wired?["red"] as? [Int])?.isEmpty == true && (wired?["luma"] as? [Int])?.count == LiveHistogram.bins)
    }

    @Test("a monochrome and a colour sensor together: an RGB preview with both histograms' colours, clipping per colour")
    func mixedSensors() throws {
        let colour = try LivePreviewerTests.capture(ColorChartScene(), width: 320, sequence: 7)
        let live = try LivePreviewerTests.preview([try Self.frame(), colour], longEdge: 128)
        #expect(live.panes.count == 2 && !live.histogram.monochrome)
        #expect(live.histogram.red.count == LiveHistogram.bins && live.histogram.clipped.count == 3)
        // The monochrome sensor's clipped block shows in every colour's clipping.
        #expect(live.histogram.clipped.allSatisfy { $0 >= 40.0 * 30 / Double(Self.width * Self.height) - 1e-12 })
    }
}
