@testable import RawDNG
import RawCore
import RawDevelop
import TestSupport
import Testing

/// The thumbnails and previews DNGs embed, of monochrome frames: a grey picture stored as RGB with R = G = B, the
/// developer's grey values — not the mid-grey fallback picture.
@Suite("DNG previews of monochrome frames")
struct MonochromePreviewTests {
    /// A ramp of light across and a dark band down the middle rows, 12-bit, black 256.
    static func image(width: Int, height: Int, crop: PixelRect? = nil) throws -> RawImage {
        try MonochromeRaw.image(width: width, height: height, bits: 12, black: 256, crop: crop) { x, y in
            let band = abs(y - height / 2) < height / 10
            return (band ? 0.05 : 0.1) + 0.8 * Double(x) / Double(width)
        }
    }

    /// The grey preview the developer gives for `image` at `longEdge`, as bytes.
    static func developed(_ image: RawImage, longEdge: Int) throws -> (width: Int, height: Int, grey: [UInt8]) {
        let picture = try RawDeveloper(settings: PreviewRenderer.settings).preview(image, longEdge: longEdge)
        #expect(picture.isGrey)
        return (picture.width, picture.height, picture.uint8Samples)
    }

    @Test("a thumbnail (developer's sampled path) is R = G = B = the developer's grey preview, a ramp, not mid-grey")
    func thumbnail() throws {
        let image = try Self.image(width: 640, height: 480)
        let rgb = PreviewRenderer.render(image, longEdge: 96)
        let grey = try Self.developed(image, longEdge: 96)
        #expect(rgb.width == 96 && rgb.height == 72 && grey.width == 96 && grey.height == 72)
        for i in 0..<(rgb.width * rgb.height) {
            let p = rgb.pixels[(3 * i)..<(3 * i + 3)]
            #expect(p.allSatisfy { $0 == grey.grey[i] }, "pixel \(i): \(Array(p)) vs \(grey.grey[i])")
            if p.first != grey.grey[i] { break }
        }
        // A ramp from dark to light across, darker in the middle band.
        // Light 0.12 at the left (+0.5 EV of the standard curve, sRGB: about 114), 0.89 at the right (rolled into white).
        #expect(abs(Int(rgb[2, 10].r) - 114) <= 6 && rgb[93, 10].r > 240, "\(rgb[2, 10]) \(rgb[93, 10])")
        #expect(rgb[48, 36].r < rgb[48, 10].r)
    }

    @Test("a preview much smaller than the frame is banded (one pixel per sample period) and matches the whole grey preview")
    func banded() throws {
        let image = try Self.image(width: 800, height: 600, crop: try PixelRect(top: 4, left: 6, height: 580, width: 780))
        let developer = RawDeveloper(settings: PreviewRenderer.settings)
        let banded = try #require(BandedPreview.render(image, longEdge: 320, developer: developer))
        let whole = try Self.developed(image, longEdge: 320)
        #expect(banded.width == whole.width && banded.height == whole.height && banded.width == 320)
        var largest = 0, total = 0
        for i in 0..<(whole.width * whole.height) {
            let r = banded.pixels[3 * i], g = banded.pixels[3 * i + 1], b = banded.pixels[3 * i + 2]
            #expect(r == g && g == b)
            let d = abs(Int(r) - Int(whole.grey[i]))
            largest = max(largest, d)
            total += d
        }
        // Two box filters of the same area (samples first, or binned pixels after): the same picture up to rounding.
        #expect(largest <= 12 && Double(total) / Double(whole.grey.count) <= 1.0,
                "largest \(largest), mean \(Double(total) / Double(whole.grey.count))")
        #expect(PreviewRenderer.render(image, longEdge: 320).pixels == banded.pixels)
        #expect(Set(banded.pixels).count > 100) // a picture, not a flat fallback
    }
}
