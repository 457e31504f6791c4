import Foundation
import RawAnalysis
import RawCore
import RawDevelop
import RawFiles
import RawImageIO

/// Writes the pictures of one analysed file as 8-bit PNGs named `<stem>-<kind>.png` in a directory.
struct AnalysisPictureWriter {
    let directory: String
    let stem: String
    let scale: HistogramPlot.Scale
    let overwrite: Bool

    /// Writes the raw and RGB histograms, the peaking overlay and the zebra that `analysis` and `zebra` hold, adding
    /// each path to `written` as soon as the picture is on disk.
    func write(for image: RawFileContent, path: String, analysis: FrameAnalysis, preview: DevelopedImage,
               zebra: Zebra?, written: inout [String]) throws {
        let name = (path as NSString).lastPathComponent
        if let histogram = analysis.rawHistogram {
            let raw = AnalysisPictures.rawHistogram(histogram, scale: scale, title: "\(name) RAW")
            try put(raw.image(), "histogram", &written)
            let rgb = AnalysisPictures.imageHistogram(ImageHistogram(preview), scale: scale, title: "\(name) RGB + LUMA")
            try put(rgb.image(), "rgb-histogram", &written)
        }
        if let mask = analysis.peakingMask {
            var settings = AnalysisBatch.previewSettings()
            settings.applyOrientation = false
            settings.crop = .activeArea
            let sensorPreview = try RawDeveloper(settings: settings).preview(image, longEdge: 1024)
            try put(AnalysisPictures.peakingOverlay(mask, on: sensorPreview, orientation: image.metadata.orientation),
                    "peaking", &written)
        }
        if let zebra {
            try put(AnalysisPictures.zebraOverlay(zebra, on: preview), "zebra", &written)
        }
    }

    private func put(_ picture: DevelopedImage, _ suffix: String, _ written: inout [String]) throws {
        let target = (directory as NSString).appendingPathComponent("\(stem)-\(suffix).png")
        try Self.writePNG(picture, to: target, overwrite: overwrite)
        written.append(target)
    }

    /// Writes `image` as an 8-bit PNG at `path`.
    static func writePNG(_ image: DevelopedImage, to path: String, overwrite: Bool) throws {
        _ = try ImageFileWriter(format: .png, options: EncodeOptions(pngBitDepth: 8, overwrite: overwrite)).write(image, to: path)
    }
}
