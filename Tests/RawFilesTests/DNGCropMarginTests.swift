import Foundation
import RawCore
import RawDNG
import RawFiles
import TestSupport
import Testing

/// The crop margin Adobe's DNG SDK wants around a CFA image's default crop, and the 8-bit digest it computes.
@Suite("DNG crop margin and 8-bit digest")
struct DNGCropMarginTests {
    @Test("the margin is the smallest whole number of CFA repeats of at least 2 px")
    func margins() {
        #expect(DNGCropMargin.margin(period: 1) == 2)
        #expect(DNGCropMargin.margin(period: 2) == 2)
        #expect(DNGCropMargin.margin(period: 3) == 3)
        #expect(DNGCropMargin.margin(period: 6) == 6)
    }

    @Test("a crop is pulled in only where it comes closer than the margin; a tiny area is left as it is")
    func crops() throws {
        let whole = try PixelRect.whole(width: 100, height: 80)
        #expect(DNGCropMargin.crop(whole, areaWidth: 100, areaHeight: 80, cfa: .rggb)
                    == (try PixelRect(top: 2, left: 2, height: 76, width: 96)))
        let inside = try PixelRect(top: 5, left: 1, height: 70, width: 98)   // left edge 1, right edge 99
        #expect(DNGCropMargin.crop(inside, areaWidth: 100, areaHeight: 80, cfa: .rggb)
                    == (try PixelRect(top: 5, left: 2, height: 70, width: 96)))
        #expect(DNGCropMargin.crop(whole, areaWidth: 100, areaHeight: 80, cfa: .xTrans)
                    == (try PixelRect(top: 6, left: 6, height: 68, width: 88)))
        let tiny = try PixelRect.whole(width: 4, height: 4)
        #expect(DNGCropMargin.crop(tiny, areaWidth: 4, areaHeight: 4, cfa: .rggb) == tiny)
        #expect(DNGCropMargin.keepsMargin(try PixelRect(top: 2, left: 2, height: 76, width: 96), areaWidth: 100, areaHeight: 80,
                                          cfa: .rggb))
    }

    @Test("an 8-bit lossless-JPEG DNG: Adobe's SDK computes the NewRawImageDigest written (bytes, not 16-bit samples)",
          .enabled(if: ToolAvailability.hasPythonModules("dngpy")))
    func eightBitDigest() throws {
        let tmp = try TemporaryDirectory()
        var options = DNGWriter.Options()
        options.compression = .lj92
        let path = tmp.file("eight.dng").path
        let report = try DNGWriter(options: options).write(try SyntheticRaw.image(bits: 8, width: 320, height: 240), to: path)
        #expect(report.bitsPerSample == 8)
        let saved = try Python.run(script: "import sys, dngpy\ndngpy.Dng(sys.argv[1]).save(sys.argv[2])",
                                   arguments: [path, tmp.file("adobe.dng").path])
        #expect(saved.succeeded && !saved.stderr.contains("NewRawImageDigest does not match"), "\(saved)")
        // rawburst's reader checks it the same way.
        #expect(throws: Never.self) { try RawFileReader().read(path: path) }
    }
}
