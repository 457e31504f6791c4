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

    @OptionGroup
    var input: InputOptions

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

    @Option(help: ArgumentHelp("Peaking threshold: a fraction such as 4% or 0.04, or sd:K1,K2,K3 strength levels (default 4%).",
                               valueName: "peaking-threshold"),
            transform: { try BadValue.parse($0, otherwise: "--peaking-threshold: '\($0)' is not a fraction (4%, 0.04) or sd:K1,K2,K3") })
    var peakingThreshold = PeakingThreshold.standard

    @Option(help: "Zebra threshold in percent of full scale, 50-100.")
    var zebraThreshold: Double = 95

    @Option(help: ArgumentHelp("Spot meter position X,Y in 0...1 (default 0.5,0.5, the centre).", valueName: "spot"),
            transform: AnalyzeCommand.spot)
    var spot = NormalisedPoint.centre

    @Option(help: ArgumentHelp("Histogram pictures' count axis: linear or log (default log).", valueName: "scale"),
            transform: { try BadValue.parse($0, otherwise: "--scale must be linear or log, not '\($0)'") })
    var scale = HistogramPlot.Scale.log

    @Option(help: "Write PNG pictures into this directory (created if missing).")
    var png: String?

    @Flag(help: "Replace existing pictures.")
    var overwrite = false

    @OptionGroup
    var reporting: ReportOptions

    /// The options checked before any file is read: one line naming the option, exit status 2.
    func validate() throws {
        if let best, best < 1 { throw BadValue("--best must be at least 1, not \(best)") }
        guard bins >= 0 && bins <= 65536 else { throw BadValue("--bins must be within 0...65536, not \(bins)") }
        guard (50...100).contains(zebraThreshold) else {
            throw BadValue("--zebra-threshold must be within 50...100 percent, not \(zebraThreshold)")
        }
    }

    /// `--spot X,Y`, both in 0...1.
    static func spot(_ text: String) throws -> NormalisedPoint {
        guard let point = NormalisedPoint(argument: text), (0...1).contains(point.x), (0...1).contains(point.y) else {
            throw BadValue("--spot must be X,Y with both in 0...1, not '\(text)'")
        }
        return point
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
        let files = try inputFiles()
        let (analysed, thumbnails) = analyse(files, options: analysisOptions())
        var results = analysed
        let bestPaths = best.map { markBest($0, in: &results) }
        let sheetPath = png.flatMap { contactSheet(in: $0, thumbnails: thumbnails, results: &results) }
        let failed = results.filter { !$0.ok }.count
        if reporting.json {
            Terminal.printJSON(Report(analysed: results.count - failed, failed: failed, best: bestPaths, contactSheet: sheetPath,
                                      files: results))
        } else if !reporting.quiet {
            for r in results where r.ok { print(Self.summary(r)) }
            if let bestPaths { print("sharpest \(bestPaths.count): " + bestPaths.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")) }
            if let sheetPath { print("contact sheet: \(sheetPath)") }
        }
        if failed > 0 { throw ExitCode(1) }
    }

    /// The raw files of the inputs, and the --png folder ready; a refusal is one line, exit status 2.
    private func inputFiles() throws -> [String] {
        let files: [String]
        do { files = try ConversionPlan.rawFiles(in: input.inputs, recursive: input.recursive) } catch { throw BadValue(error.message) }
        if let png {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: png, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else { throw BadValue("--png \(png) is a file, not a directory") }
            } else {
                do { try FileManager.default.createDirectory(atPath: png, withIntermediateDirectories: true) } catch {
                    throw BadValue("cannot create \(png): \(error.localizedDescription)")
                }
            }
        }
        return files
    }

    /// What to measure: histograms, sharpness and metering unless some were chosen.
    private func analysisOptions() -> FrameAnalysis.Options {
        let anyChosen = histogram || peaking || zebra || sharpness
        var options = FrameAnalysis.Options()
        options.histogram = !anyChosen || histogram
        options.clipping = options.histogram
        options.metering = !anyChosen || histogram
        options.sharpness = !anyChosen || sharpness || best != nil || png != nil
        options.peaking = peaking
        options.peakingRule = peakingThreshold
        options.bins = bins == 0 ? nil : bins
        options.spot = spot
        return options
    }

    /// Analyses each file in turn, with a progress bar; a file that fails is reported and the rest go on.
    private func analyse(_ files: [String], options: FrameAnalysis.Options) -> ([FileResult], [AnalysisPictures.Tile?]) {
        let stems = Self.stems(files)
        let bar = ProgressBar(total: files.count, enabled: reporting.showsProgress)
        var results: [FileResult] = []
        var thumbnails: [AnalysisPictures.Tile?] = []
        for (index, path) in files.enumerated() {
            let (result, tile) = analyse(path, stem: stems[index], options: options)
            if let message = result.error { bar.finish(); Terminal.error("error: \(message)") }
            results.append(result)
            thumbnails.append(tile)
            bar.update(done: index + 1, label: URL(fileURLWithPath: path).lastPathComponent,
                       failed: results.filter { !$0.ok }.count)
        }
        bar.finish()
        return (results, thumbnails)
    }

    /// One file's analysis, pictures and contact-sheet tile.
    private func analyse(_ path: String, stem: String, options: FrameAnalysis.Options) -> (FileResult, AnalysisPictures.Tile?) {
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
                try writePictures(for: image, path: path, stem: stem, analysis: analysis, preview: preview,
                                  zebra: zebraMask, directory: png, scale: scale, written: &result.pictures)
                let thumb = try RawDeveloper(settings: Self.previewSettings()).preview(image, longEdge: 256)
                tile = AnalysisPictures.Tile(thumbnail: thumb, lines: Self.labels(path: path, image: image, analysis: analysis))
            }
            result.ok = true
        } catch let error as RawReadError {
            result.error = error.description
        } catch {
            result.error = "\(path): \(error)"
        }
        return (result, tile)
    }

    /// Marks the `count` sharpest files and returns their paths.
    private func markBest(_ count: Int, in results: inout [FileResult]) -> [String] {
        let ranked = results.indices.filter { results[$0].ok }
            .sorted { (results[$0].analysis?.sharpness?.score ?? 0) > (results[$1].analysis?.sharpness?.score ?? 0) }
        let chosen = Array(ranked.prefix(count))
        for i in chosen { results[i].best = true }
        return chosen.map { results[$0].path }
    }

    /// Writes the contact sheet of the tiles into `png`; its path, or nil (a failure is added to the results).
    private func contactSheet(in png: String, thumbnails: [AnalysisPictures.Tile?], results: inout [FileResult]) -> String? {
        let tiles = zip(thumbnails, results).compactMap { tile, result in
            tile.map { AnalysisPictures.Tile(thumbnail: $0.thumbnail, lines: $0.lines, highlighted: result.best) }
        }
        guard !tiles.isEmpty else { return nil }
        let path = (png as NSString).appendingPathComponent("contact-sheet.png")
        do {
            try write(AnalysisPictures.contactSheet(tiles).image(), to: path)
            return path
        } catch {
            Terminal.error("error: \(path): \(error)")
            results.append(FileResult(path: path, ok: false, error: "\(error)"))
            return nil
        }
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
