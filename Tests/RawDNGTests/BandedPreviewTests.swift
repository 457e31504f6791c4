@testable import RawDNG
import RawCore
import RawDevelop
import TestSupport
import Testing

/// The cheap JPEG preview of issue #18 item 8: band by band from the frame's periods averaged down to one per pixel.
@Suite struct BandedPreviewTests {
    static func image(width: Int, height: Int, margins: (top: Int, left: Int) = (0, 0), crop: PixelRect? = nil,
                      defaultScale: (Double, Double) = (1, 1)) throws -> RawImage {
        try RawImage(frame: SyntheticRaw.frame(width: width, height: height, margins: margins, crop: crop,
                                               defaultScale: defaultScale),
                     metadata: SyntheticRaw.fullMetadata(), calibration: SyntheticRaw.calibration())
    }

    @Test("a preview much smaller than the frame is banded, exactly its size, and within a few levels of developing the whole frame")
    func bandedMatchesWholeFrame() throws {
        let image = try Self.image(width: 1600, height: 1200, margins: (4, 6),
                                   crop: try PixelRect(top: 10, left: 14, height: 1150, width: 1540))
        let developer = RawDeveloper(settings: PreviewRenderer.settings)
        let banded = try #require(BandedPreview.render(image, longEdge: 512, developer: developer))
        let whole = try developer.preview(image, longEdge: 512)
        // The crop's 770x575 periods at a long edge of 512: 512x382 (the developer rounds the same way).
        #expect(banded.width == 512 && banded.height == 382)
        #expect(whole.width == banded.width && whole.height == banded.height)
        let a = banded.pixels, b = whole.uint8Samples
        try #require(a.count == b.count)
        var total = 0, largest = 0
        for i in 0..<a.count {
            let d = abs(Int(a[i]) - Int(b[i]))
            total += d
            largest = max(largest, d)
        }
        // Two box filters of the same area (periods first, or binned pixels after): the same picture up to rounding.
        #expect(Double(total) / Double(a.count) <= 1.0, "mean difference \(Double(total) / Double(a.count))")
        #expect(largest <= 12, "largest difference \(largest)")
        // PreviewRenderer takes the banded path for it.
        #expect(PreviewRenderer.render(image, longEdge: 512).pixels == a)
    }

    @Test("thumbnails, frames not larger than the preview and non-square pixels keep the developer's own path")
    func fallsBack() throws {
        let developer = RawDeveloper(settings: PreviewRenderer.settings)
        let image = try Self.image(width: 1600, height: 1200)
        #expect(BandedPreview.render(image, longEdge: 128, developer: developer) == nil) // 800 periods ≥ 4 x 128
        #expect(BandedPreview.render(image, longEdge: 1000, developer: developer) == nil) // fewer periods than pixels
        let stretched = try Self.image(width: 1600, height: 1200, defaultScale: (1.5, 1))
        #expect(BandedPreview.render(stretched, longEdge: 512, developer: developer) == nil)
        #expect(BandedPreview.render(image, longEdge: 512, developer: developer) != nil)
    }

    @Test("ExactDivisor gives the integer division's quotients: small and large divisors, dividends up to 2^32 - 1")
    func exactDivisor() {
        var rng = SplitMix64(seed: 0x18)
        let divisors: [UInt32] = Array(1...300) + [511, 512, 513, 4095, 65535, 65536, 1 << 20, 3_000_000_019, .max]
        for d in divisors {
            let divisor = ExactDivisor(d)
            var values: [UInt32] = [0, 1, d - 1, d, d &+ 1, .max, .max - 1, .max / d * d, .max / d * d - 1]
            values += (0..<2000).map { _ in UInt32(truncatingIfNeeded: rng.next()) }
            values += (0..<2000).map { _ in UInt32(truncatingIfNeeded: rng.next() % (65536 * 16)) }
            for v in values {
                #expect(divisor.quotient(v) == v / d, "\(v) / \(d)")
                if v <= .max - d / 2 {
                    #expect(UInt64(divisor.roundedQuotient(v)) == (UInt64(v) + UInt64(d / 2)) / UInt64(d), "\(v) / \(d) rounded")
                }
            }
        }
    }
}
