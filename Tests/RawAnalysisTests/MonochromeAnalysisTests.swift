import Foundation
import RawAnalysis
import RawCore
import RawDevelop
import TestSupport
import Testing

/// Analysing monochrome frames: one raw plane (W) with exact counts, clipping, metering and peaking on a grid of one
/// cell per 2x2 pixels (as a linear raw's), and the developed grey picture's histogram (luma only) and zebra.
@Suite("Analysis: monochrome frames")
struct MonochromeAnalysisTests {
    static let width = 40, height = 30
    static let clipped = 37, atBlack = 50

    /// 40 x 30, 12-bit, black 256, white 4095: the first 37 pixels (row-major) at white, the next 50 at black, the rest
    /// at 257 + (index mod 1000).
    static func frame() throws -> RawFrame {
        let image = try MonochromeRaw.image(width: width, height: height, bits: 12, black: 256) { _, _ in 0 }
        let frame = image.frame
        for i in 0..<(width * height) {
            frame.storage.baseAddress[i] = i < clipped ? 4095 : i < clipped + atBlack ? 256 : UInt16(257 + i % 1000)
        }
        return frame
    }

    @Test("one raw plane, W: every sample counted at its code value, clipped and black fractions, clipped 2x2 cells")
    func histogram() throws {
        var options = FrameAnalysis.Options()
        options.bins = nil
        let analysis = FrameAnalysis(frame: try Self.frame(), options: options)
        let channels = try #require(analysis.channels)
        #expect(channels.map(\.color) == ["W"])
        let counts = channels[0].counts
        #expect(channels[0].bins == 4096 && counts.reduce(0, +) == 1200)
        #expect(counts[4095] == Self.clipped && counts[256] == Self.atBlack)
        var expected = [Int](repeating: 0, count: 4096)
        for i in 0..<1200 { expected[i < 37 ? 4095 : i < 87 ? 256 : 257 + i % 1000] += 1 }
        #expect(counts == expected)
        #expect(channels[0].clippedFraction == 37.0 / 1200 && channels[0].blackFraction == 50.0 / 1200)
        // The clipped pixels are columns 0...36 of row 0: cells 0...18 of the first row of 2x2 cells.
        #expect(analysis.clippedCells == ["W": 19])
        #expect(analysis.exposure?.clippedFraction == 37.0 / 1200 && analysis.exposure?.blackFraction == 50.0 / 1200)
        // The report as JSON: one channel.
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(analysis)) as? [String: Any]
        let reported = json?["channels"] as? [[String: Any]]
        #expect(reported?.count == 1 && reported?.first?["color"] as? String == "W")
    }

    @Test("metering reads the light of the one plane: a flat frame at 1/8 of the range meters −3 EV in every zone")
    func metering() throws {
        let image = try MonochromeRaw.image(width: 90, height: 60, bits: 13, black: 256, white: 4096 + 255) { _, _ in 0.125 }
        let metering = Metering(frame: image.frame)
        #expect(metering.zones.allSatisfy { abs($0 + 3) < 0.01 } && abs(metering.matrix + 3) < 0.01)
        #expect(abs(metering.spot + 3) < 0.01 && abs(metering.centreWeighted + 3) < 0.01)
    }

    @Test("focus peaking on a grid of one cell per 2x2 pixels marks a sharp step and nothing in the flat areas")
    func peaking() throws {
        let image = try MonochromeRaw.image(width: 64, height: 48, bits: 12, black: 256) { x, _ in x < 32 ? 0.1 : 0.6 }
        var options = FrameAnalysis.Options()
        options.peaking = true
        let analysis = FrameAnalysis(frame: image.frame, options: options)
        let mask = try #require(analysis.peakingMask)
        // The step between pixels 31 and 32 lies between cells 15 and 16.
        #expect(mask.width == 32 && mask.height == 24)
        for y in 2..<22 {
            #expect(mask.mask[y * 32 + 5] == 0 && mask.mask[y * 32 + 27] == 0)
            #expect(mask.mask[y * 32 + 15] != 0 || mask.mask[y * 32 + 16] != 0, "row \(y)")
        }
        #expect((analysis.peaking?.markedFraction ?? 1) < 0.15 && (analysis.sharpness?.score ?? 0) > 0)
    }

    @Test("the developed grey picture: histogram of luma only, zebra marks exactly the clipped block, overlays are RGB")
    func developedPicture() throws {
        // A 12 x 10 block at full light (white after the curve), the rest at 5 % of clipping.
        let image = try MonochromeRaw.image(width: 64, height: 48, bits: 12, black: 256) { x, y in
            (20..<32).contains(x) && (10..<20).contains(y) ? 1.0 : 0.05
        }
        var settings = DevelopSettings()
        settings.sampleFormat = .uint8
        let picture = try RawDeveloper(settings: settings).develop(image).image
        #expect(picture.isGrey)
        let histogram = ImageHistogram(picture)
        #expect(histogram.isGrey && histogram.luma.counts.reduce(0, +) == 64 * 48)
        #expect(histogram.luma.counts[255] == 120 && histogram.red.counts == histogram.luma.counts)
        #expect(histogram.clippedFractions[0] == 120.0 / Double(64 * 48))
        let zebra = Zebra(picture, threshold: 0.95)
        #expect(zebra.mask.reduce(0) { $0 + Int($1) } == 120 && zebra.mask[15 * 64 + 25] == 1 && zebra.mask[5 * 64 + 5] == 0)
        // Sixteen-bit grey: the same pixels marked.
        settings.sampleFormat = .uint16
        let sixteen = try RawDeveloper(settings: settings).develop(image).image
        #expect(Zebra(sixteen, threshold: 0.95).mask == zebra.mask)
        let plot = AnalysisPictures.imageHistogram(histogram, title: "grey")
        #expect(plot.width > 0 && plot.pixels.count == plot.width * plot.height * 3)
        let striped = try AnalysisPictures.zebraOverlay(zebra, on: picture)
        #expect(striped.channels == .rgb && striped.width == 64 && striped.height == 48)
        let stripe = striped.pixel(x: 25, y: 15), plain = striped.pixel(x: 5, y: 5)
        #expect(stripe.red == stripe.green && (stripe.red == 0 || stripe.red == 65535))
        #expect(plain == picture.pixel(x: 5, y: 5))
    }
}
