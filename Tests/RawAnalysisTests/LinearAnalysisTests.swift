import Foundation
import RawAnalysis
import RawCore
import Testing

/// Analysing a linear raw (three samples per pixel): one histogram per channel counting exactly the samples present,
/// clipping per channel at its own white level, and focus peaking on its luma grid marking edges and nothing else.
@Suite("Analysis: linear raws")
struct LinearAnalysisTests {
    /// 64 x 48 pixels (black 64, white 4000): left half (R, G, B) = (500, 1000, 300), right half (3000, 4000, 800):
    /// green is clipped on the right, a vertical edge in the middle.
    static func frame() throws -> LinearRawFrame {
        let width = 64, height = 48
        let storage = PixelStorage(count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let rgb: [UInt16] = x < width / 2 ? [500, 1000, 300] : [3000, 4000, 800]
                for c in 0..<3 { storage.baseAddress[(y * width + x) * 3 + c] = rgb[c] }
            }
        }
        return try LinearRawFrame(width: width, height: height, storage: storage, blackLevels: [64, 64, 64],
                                  whiteLevels: [4000, 4000, 4000])
    }

    @Test("RGB histograms count every sample at its code value; clipping per channel")
    func histograms() throws {
        var options = FrameAnalysis.Options()
        options.bins = nil
        let analysis = FrameAnalysis(linear: try Self.frame(), options: options)
        let channels = try #require(analysis.channels)
        #expect(channels.map(\.color) == ["R", "G", "B"])
        let half = 64 * 48 / 2
        #expect(channels[0].bins == 4096)
        #expect(channels[0].counts[500] == half && channels[0].counts[3000] == half)
        #expect(channels[1].counts[1000] == half && channels[1].counts[4000] == half)
        #expect(channels[2].counts[300] == half && channels[2].counts[800] == half)
        #expect(channels[1].clippedFraction == 0.5 && channels[0].clippedFraction == 0)
        #expect(analysis.clippedCells == ["R": 0, "G": half, "B": 0])
        #expect(channels[0].blackLevel == 64)
    }

    @Test("focus peaking marks the edge between the halves and nothing in the flat areas")
    func peaking() throws {
        var options = FrameAnalysis.Options()
        options.peaking = true
        let analysis = FrameAnalysis(linear: try Self.frame(), options: options)
        let mask = try #require(analysis.peakingMask)
        // One cell per 2x2 pixels, as on a Bayer mosaic: the edge between pixels 31 and 32 lies between cells 15 and 16.
        #expect(mask.width == 32 && mask.height == 24)
        for y in 2..<22 {
            #expect(mask.mask[y * 32 + 5] == 0 && mask.mask[y * 32 + 25] == 0)
            #expect(mask.mask[y * 32 + 15] != 0 || mask.mask[y * 32 + 16] != 0, "row \(y)")
        }
        #expect((analysis.peaking?.markedFraction ?? 0) > 0 && (analysis.peaking?.markedFraction ?? 1) < 0.2)
        #expect((analysis.sharpness?.score ?? 0) > 0)
    }
}
