import ArgumentParser
import Foundation
import RawBurst

/// `rawburst analyze`: histograms, focus peaking, zebra, sharpness and metering of raw files, as data and pictures.
struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Histograms, focus peaking, zebra, sharpness and metering of raw files.",
        discussion: """
        For each raw: per-channel raw histograms with the fractions clipped at the white level and at black, the \
        mean EV and used dynamic range (stops relative to clipping), sharpness (a Tenengrad score, whole frame and \
        3x3 zones), metering (EV per zone, matrix, centre-weighted, spot), and on request a focus-peaking mask and \
        a zebra.

        Peaking and sharpness work on linear luma at a fixed analysis scale (one value per 2x2 Bayer block), so they \
        do not change with output size or exposure. --peaking-threshold: a fraction of the grid to mark (4%, the \
        default) or strength levels at mean + k standard deviations (sd:1,2,3). Zebra marks pixels of a developed \
        1024-px preview whose luma is at or above --zebra-threshold percent of full scale.

        Without --histogram, --peaking, --zebra or --sharpness, histograms, sharpness and metering are reported. \
        --best N lists the N sharpest frames. --png DIR writes pictures: <name>-histogram.png (raw), \
        <name>-rgb-histogram.png (developed), <name>-peaking.png, <name>-zebra.png, and contact-sheet.png (every \
        frame labelled with EV, ISO, shutter and sharpness; the --best frames framed).
        Exit status: 0 all analysed, 1 some files failed, 2 nothing could start.
        """
    )

    @Argument(help: "Raw files or directories.")
    var inputs: [String]

    @Flag(name: .shortAndLong, help: "Search input directories recursively.")
    var recursive = false

    @Flag(help: "Raw histograms, clipping, exposure statistics and metering.")
    var histogram = false

    @Flag(help: "Focus-peaking mask.")
    var peaking = false

    @Flag(help: "Zebra on the developed preview.")
    var zebra = false

    @Flag(help: "Sharpness scores.")
    var sharpness = false

    @Option(help: "List the N sharpest frames (implies --sharpness).")
    var best: Int?

    @Option(help: "Raw histogram bins in the report (0: one per code value).")
    var bins: Int = 256

    @Option(help: "Peaking threshold: a fraction such as 4% or 0.04, or sd:K1,K2,K3 strength levels.")
    var peakingThreshold: String = "4%"

    @Option(help: "Zebra threshold in percent of full scale, 50-100.")
    var zebraThreshold: Double = 95

    @Option(help: "Spot meter position X,Y in 0...1 (0.5,0.5 is the centre).")
    var spot: String = "0.5,0.5"

    @Option(help: "Histogram pictures' count axis: linear or log.")
    var scale: String = "log"

    @Option(help: "Write PNG pictures into this directory (created if missing).")
    var png: String?

    @Flag(help: "Replace existing pictures.")
    var overwrite = false

    @Flag(help: "Print a JSON report on standard output instead of text.")
    var json = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    /// The options checked before any file is read: one line naming the option, exit status 2.
    func checkOptions() throws {
        if let best, best < 1 { throw ValidationError("--best must be at least 1, not \(best)") }
        guard bins >= 0 && bins <= 65536 else { throw ValidationError("--bins must be within 0...65536, not \(bins)") }
        guard (50...100).contains(zebraThreshold) else {
            throw ValidationError("--zebra-threshold must be within 50...100 percent, not \(zebraThreshold)")
        }
        guard PeakingThreshold(parsing: peakingThreshold) != nil else {
            throw ValidationError("--peaking-threshold: '\(peakingThreshold)' is not a fraction (4%, 0.04) or sd:K1,K2,K3")
        }
        guard HistogramPlot.Scale(rawValue: scale) != nil else { throw ValidationError("--scale must be linear or log, not '\(scale)'") }
        guard spotPoint != nil else { throw ValidationError("--spot must be X,Y with both in 0...1, not '\(spot)'") }
    }

    var spotPoint: NormalisedPoint? {
        let parts = spot.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], (0...1).contains(x), (0...1).contains(y) else { return nil }
        return NormalisedPoint(x: x, y: y)
    }

    /// One file's result.
    struct FileResult: Encodable {
        let path: String
        var ok: Bool
        var error: String?
        var width: Int?
        var height: Int?
        var iso: Double?
        var shutter: Double?
        var analysis: FrameAnalysis?
        var zebra: ZebraReport?
        var pictures: [String] = []
        var best = false
    }

    struct ZebraReport: Encodable {
        let threshold: Double
        let markedFraction: Double
        let previewWidth: Int
        let previewHeight: Int
    }

    struct Report: Encodable {
        let analysed: Int
        let failed: Int
        let best: [String]?
        let contactSheet: String?
        let files: [FileResult]
    }

    func run() throws {
        do { try checkOptions() } catch {
            Terminal.error("rawburst analyze: \(error)")
            throw ExitCode(2)
        }
        let files: [String]
        do { files = try ConversionPlan.rawFiles(in: inputs, recursive: recursive) } catch {
            Terminal.error("rawburst analyze: \(error.message)")
            throw ExitCode(2)
        }
        if let png {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: png, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else {
                    Terminal.error("rawburst analyze: --png \(png) is a file, not a directory")
                    throw ExitCode(2)
                }
            } else {
                do { try FileManager.default.createDirectory(atPath: png, withIntermediateDirectories: true) } catch {
                    Terminal.error("rawburst analyze: cannot create \(png): \(error.localizedDescription)")
                    throw ExitCode(2)
                }
            }
        }
        let anyChosen = histogram || peaking || zebra || sharpness
        var options = FrameAnalysis.Options()
        options.histogram = !anyChosen || histogram
        options.clipping = options.histogram
        options.metering = !anyChosen || histogram
        options.sharpness = !anyChosen || sharpness || best != nil || png != nil
        options.peaking = peaking
        options.peakingRule = PeakingThreshold(parsing: peakingThreshold)!
        options.bins = bins == 0 ? nil : bins
        options.spot = spotPoint!
        let plotScale = HistogramPlot.Scale(rawValue: scale)!

        let stems = Self.stems(files)
        let bar = ProgressBar(total: files.count, enabled: Terminal.stderrIsTerminal && !json && !quiet)
        var results: [FileResult] = []
        var thumbnails: [AnalysisPictures.Tile?] = []
        for (index, path) in files.enumerated() {
            var result = FileResult(path: path, ok: false)
            var tile: AnalysisPictures.Tile?
            do {
                let image = try RawFileReader().read(path: path)
                result.width = image.frame.activeArea.width
                result.height = image.frame.activeArea.height
                result.iso = image.metadata.iso
                result.shutter = image.metadata.exposureTime
                let analysis = FrameAnalysis(frame: image.frame, options: options)
                result.analysis = analysis
                let needsPreview = zebra || png != nil
                let preview = needsPreview ? try RawDeveloper(settings: Self.previewSettings()).preview(image, longEdge: 1024) : nil
                var zebraMask: Zebra?
                if zebra, let preview {
                    let z = Zebra(preview, threshold: zebraThreshold / 100)
                    zebraMask = z
                    result.zebra = ZebraReport(threshold: zebraThreshold / 100, markedFraction: z.markedFraction,
                                               previewWidth: preview.width, previewHeight: preview.height)
                }
                if let png, let preview {
                    try writePictures(for: image, path: path, stem: stems[index], analysis: analysis, preview: preview,
                                      zebra: zebraMask, directory: png, scale: plotScale, written: &result.pictures)
                    let thumb = try RawDeveloper(settings: Self.previewSettings()).preview(image, longEdge: 256)
                    tile = AnalysisPictures.Tile(thumbnail: thumb, lines: Self.labels(path: path, image: image, analysis: analysis))
                }
                result.ok = true
            } catch let error as RawReadError {
                result.error = error.description
            } catch {
                result.error = "\(path): \(error)"
            }
            if let message = result.error { bar.finish(); Terminal.error("error: \(message)") }
            results.append(result)
            thumbnails.append(tile)
            bar.update(done: index + 1, label: URL(fileURLWithPath: path).lastPathComponent,
                       failed: results.filter { !$0.ok }.count)
        }
        bar.finish()

        var bestPaths: [String]?
        if let best {
            let ranked = results.indices.filter { results[$0].ok }
                .sorted { (results[$0].analysis?.sharpness?.score ?? 0) > (results[$1].analysis?.sharpness?.score ?? 0) }
            let chosen = Array(ranked.prefix(best))
            for i in chosen { results[i].best = true }
            bestPaths = chosen.map { results[$0].path }
        }
        var sheetPath: String?
        if let png {
            let tiles = zip(thumbnails, results).compactMap { tile, result in
                tile.map { AnalysisPictures.Tile(thumbnail: $0.thumbnail, lines: $0.lines, highlighted: result.best) }
            }
            if !tiles.isEmpty {
                let path = (png as NSString).appendingPathComponent("contact-sheet.png")
                do {
                    try write(AnalysisPictures.contactSheet(tiles).image(), to: path)
                    sheetPath = path
                } catch {
                    Terminal.error("error: \(path): \(error)")
                    results.append(FileResult(path: path, ok: false, error: "\(error)"))
                }
            }
        }
        let failed = results.filter { !$0.ok }.count
        if json {
            Terminal.printJSON(Report(analysed: results.count - failed, failed: failed, best: bestPaths, contactSheet: sheetPath,
                                      files: results))
        } else if !quiet {
            for r in results where r.ok { print(Self.summary(r)) }
            if let bestPaths { print("sharpest \(bestPaths.count): " + bestPaths.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")) }
            if let sheetPath { print("contact sheet: \(sheetPath)") }
        }
        if failed > 0 { throw ExitCode(1) }
    }

    /// Previews for pictures: sRGB 8-bit, upright, the file's crop.
    static func previewSettings() -> DevelopSettings {
        var s = DevelopSettings()
        s.sampleFormat = .uint8
        return s
    }

    /// Picture name stems: each file's name without its extension, with `-2`, `-3`, ... added where two inputs share
    /// one (IMG_1.CR2 and IMG_1.DNG, or the same name in two folders of a recursive scan), so no picture replaces another.
    static func stems(_ files: [String]) -> [String] {
        var seen: [String: Int] = [:]
        return files.map { path in
            let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            let n = (seen[stem.lowercased()] ?? 0) + 1
            seen[stem.lowercased()] = n
            return n == 1 ? stem : "\(stem)-\(n)"
        }
    }

    /// Writes the pictures of one file, adding each path to `written` as soon as the picture is on disk.
    func writePictures(for image: RawImage, path: String, stem: String, analysis: FrameAnalysis, preview: DevelopedImage,
                       zebra: Zebra?, directory: String, scale: HistogramPlot.Scale, written: inout [String]) throws {
        func target(_ suffix: String) -> String { (directory as NSString).appendingPathComponent("\(stem)-\(suffix).png") }
        let name = (path as NSString).lastPathComponent
        if let histogram = analysis.rawHistogram {
            let raw = AnalysisPictures.rawHistogram(histogram, scale: scale, title: "\(name) RAW")
            try write(raw.image(), to: target("histogram"))
            written.append(target("histogram"))
            let rgb = AnalysisPictures.imageHistogram(ImageHistogram(preview), scale: scale, title: "\(name) RGB + LUMA")
            try write(rgb.image(), to: target("rgb-histogram"))
            written.append(target("rgb-histogram"))
        }
        if let mask = analysis.peakingMask {
            var settings = Self.previewSettings()
            settings.applyOrientation = false
            settings.crop = .activeArea
            let sensorPreview = try RawDeveloper(settings: settings).preview(image, longEdge: 1024)
            try write(AnalysisPictures.peakingOverlay(mask, on: sensorPreview, orientation: image.metadata.orientation),
                      to: target("peaking"))
            written.append(target("peaking"))
        }
        if let zebra {
            try write(AnalysisPictures.zebraOverlay(zebra, on: preview), to: target("zebra"))
            written.append(target("zebra"))
        }
    }

    /// Writes a picture as an 8-bit PNG.
    func write(_ image: DevelopedImage, to path: String) throws {
        _ = try ImageFileWriter(format: .png, options: EncodeOptions(pngBitDepth: 8, overwrite: overwrite)).write(image, to: path)
    }

    /// The contact sheet lines of one frame.
    static func labels(path: String, image: RawImage, analysis: FrameAnalysis) -> [String] {
        var second: [String] = []
        if let ev = analysis.exposure?.meanEV { second.append(String(format: "EV %.1f", ev)) }
        if let iso = image.metadata.iso { second.append("ISO \(Int(iso.rounded()))") }
        if let t = image.metadata.exposureTime { second.append(ShutterSpeed.display(t)) }
        var lines = [(path as NSString).lastPathComponent, second.joined(separator: " ")]
        if let s = analysis.sharpness?.score { lines.append(String(format: "SHARPNESS %.3g", s)) }
        return lines
    }

    /// One line per file.
    static func summary(_ r: FileResult) -> String {
        var parts: [String] = []
        if let e = r.analysis?.exposure {
            parts.append(String(format: "mean %.2f EV, range %.1f stops, clipped %.2f%%", e.meanEV, e.usedDynamicRange,
                                e.clippedFraction * 100))
        }
        if let m = r.analysis?.metering { parts.append(String(format: "matrix %.2f EV, spot %.2f EV", m.matrix, m.spot)) }
        if let s = r.analysis?.sharpness { parts.append(String(format: "sharpness %.4g", s.score)) }
        if let p = r.analysis?.peaking { parts.append(String(format: "peaking %.1f%%", p.markedFraction * 100)) }
        if let z = r.zebra { parts.append(String(format: "zebra %.2f%%", z.markedFraction * 100)) }
        if r.best { parts.append("best") }
        return "\((r.path as NSString).lastPathComponent): " + parts.joined(separator: "; ")
    }
}
