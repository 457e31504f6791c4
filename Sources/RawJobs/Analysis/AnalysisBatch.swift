import Foundation
import RawAnalysis
import RawCore
import RawDevelop
import RawFiles
import RawImageIO
import RawSources

/// Analyses raw files one after the other: histograms, clipping, metering, sharpness, peaking and zebra of each,
/// the pictures of each (`<stem>-histogram.png`, `-rgb-histogram.png`, `-peaking.png`, `-zebra.png`), the N
/// sharpest frames and a contact sheet. What `rawburst analyze` runs; a file that fails is reported and the rest
/// go on.
public struct AnalysisBatch: Sendable {
    /// What to measure and write.
    public struct Options: Sendable {
        /// What to measure in each frame.
        public var analysis = FrameAnalysis.Options()
        /// Zebra on a developed 1024-px preview at this fraction of full scale (0.5...1), or nil for none.
        public var zebraThreshold: Double?
        /// Mark the N sharpest frames, or nil.
        public var best: Int?
        /// Write pictures (and the contact sheet) into this existing directory, or nil.
        public var pictureDirectory: String?
        /// The histogram pictures' count axis.
        public var scale = HistogramPlot.Scale.log
        /// Replace existing pictures.
        public var overwrite = false

        /// Options measuring what `analysis` says and writing nothing.
        public init() {}
    }

    /// The options.
    public let options: Options

    /// A batch with `options`.
    public init(options: Options) { self.options = options }

    /// Analyses `files` in order; `progress` is called after each file with its result, the files done and the
    /// failures so far.
    public func run(_ files: [String],
                    progress: (AnalysisFileResult, _ done: Int, _ failed: Int) -> Void = { _, _, _ in }) -> AnalysisReport {
        let stems = AnalysisBatch.stems(files)
        var results: [AnalysisFileResult] = []
        var tiles: [AnalysisPictures.Tile?] = []
        for (index, path) in files.enumerated() {
            let (result, tile) = analyse(path, stem: stems[index])
            results.append(result)
            tiles.append(tile)
            progress(result, index + 1, results.filter { !$0.ok }.count)
        }
        let bestPaths = options.best.map { markBest($0, in: &results) }
        let sheet = options.pictureDirectory.flatMap { contactSheet(in: $0, tiles: tiles, results: &results) }
        let failed = results.filter { !$0.ok }.count
        return AnalysisReport(analysed: results.count - failed, failed: failed, best: bestPaths, contactSheet: sheet,
                              files: results)
    }

    /// What ``run(_:progress:)`` may write, for ``OutputClashCheck`` before it runs: each file with its pictures (named
    /// by ``stems(_:)``), then the contact sheet; nothing without a picture directory.
    public func plannedPaths(_ files: [String]) -> [JobPaths] {
        guard let directory = options.pictureDirectory else { return [] }
        var kinds: [String] = []
        if options.analysis.histogram { kinds += ["histogram", "rgb-histogram"] }
        if options.analysis.peaking { kinds.append("peaking") }
        if options.zebraThreshold != nil { kinds.append("zebra") }
        let picture = { (name: String) in (directory as NSString).appendingPathComponent(name) }
        return zip(files, Self.stems(files)).map { file, stem in
            JobPaths(inputs: [file], outputs: kinds.map { picture("\(stem)-\($0).png") })
        } + [JobPaths(inputs: [], outputs: [picture("contact-sheet.png")])]
    }

    /// One file's analysis, pictures and contact-sheet tile.
    private func analyse(_ path: String, stem: String) -> (AnalysisFileResult, AnalysisPictures.Tile?) {
        var result = AnalysisFileResult(path: path, ok: false)
        var tile: AnalysisPictures.Tile?
        do {
            let image = try RawFileReader().readContent(path: path)
            let analysis: FrameAnalysis
            switch image {
            case .mosaic(let mosaic):
                (result.width, result.height) = (mosaic.frame.activeArea.width, mosaic.frame.activeArea.height)
                analysis = FrameAnalysis(frame: mosaic.frame, options: options.analysis)
            case .linear(let linear):
                (result.width, result.height) = (linear.frame.activeArea.width, linear.frame.activeArea.height)
                analysis = FrameAnalysis(linear: linear.frame, options: options.analysis)
            }
            result.iso = image.metadata.iso
            result.shutter = image.metadata.exposureTime
            result.analysis = analysis
            let needsPreview = options.zebraThreshold != nil || options.pictureDirectory != nil
            let preview = needsPreview ? try RawDeveloper(settings: Self.previewSettings()).preview(image, longEdge: 1024) : nil
            var zebraMask: Zebra?
            if let threshold = options.zebraThreshold, let preview {
                let z = Zebra(preview, threshold: threshold)
                zebraMask = z
                result.zebra = AnalysisFileResult.ZebraReport(threshold: threshold, markedFraction: z.markedFraction,
                                                              previewWidth: preview.width, previewHeight: preview.height)
            }
            if let directory = options.pictureDirectory, let preview {
                let pictures = AnalysisPictureWriter(directory: directory, stem: stem, scale: options.scale,
                                                     overwrite: options.overwrite)
                try pictures.write(for: image, path: path, analysis: analysis, preview: preview, zebra: zebraMask,
                                   written: &result.pictures)
                let thumb = try RawDeveloper(settings: Self.previewSettings()).preview(image, longEdge: 256)
                tile = AnalysisPictures.Tile(thumbnail: thumb, lines: Self.labels(path: path, image: image, analysis: analysis))
            }
            result.ok = true
        } catch let error as RawReadError {
            result.error = error.description
            result.errorKind = JobFailureKind(error.kind)
        } catch {
            result.error = "\(path): \(error)"
            result.errorKind = .writeFailed
        }
        return (result, tile)
    }

    /// Marks the `count` sharpest files and returns their paths.
    private func markBest(_ count: Int, in results: inout [AnalysisFileResult]) -> [String] {
        let ranked = results.indices.filter { results[$0].ok }
            .sorted { (results[$0].analysis?.sharpness?.score ?? 0) > (results[$1].analysis?.sharpness?.score ?? 0) }
        let chosen = Array(ranked.prefix(count))
        for i in chosen { results[i].best = true }
        return chosen.map { results[$0].path }
    }

    /// Writes the contact sheet of the tiles into `directory`; its path, or nil (a failure is added to the results).
    private func contactSheet(in directory: String, tiles: [AnalysisPictures.Tile?],
                              results: inout [AnalysisFileResult]) -> String? {
        let framed = zip(tiles, results).compactMap { tile, result in
            tile.map { AnalysisPictures.Tile(thumbnail: $0.thumbnail, lines: $0.lines, highlighted: result.best) }
        }
        guard !framed.isEmpty else { return nil }
        let path = (directory as NSString).appendingPathComponent("contact-sheet.png")
        do {
            try AnalysisPictureWriter.writePNG(AnalysisPictures.contactSheet(framed).image(), to: path, overwrite: options.overwrite)
            return path
        } catch {
            results.append(AnalysisFileResult(path: path, ok: false, error: "\(error)"))
            return nil
        }
    }

    /// Previews for pictures: sRGB 8-bit, upright, the file's crop.
    public static func previewSettings() -> DevelopSettings {
        var s = DevelopSettings()
        s.sampleFormat = .uint8
        return s
    }

    /// Picture name stems: each file's name without its extension, with `-2`, `-3`, ... added where two inputs share
    /// one (IMG_1.CR2 and IMG_1.DNG, or the same name in two folders of a recursive scan), so no picture replaces another.
    public static func stems(_ files: [String]) -> [String] {
        var seen: [String: Int] = [:]
        return files.map { path in
            let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            let n = (seen[stem.lowercased()] ?? 0) + 1
            seen[stem.lowercased()] = n
            return n == 1 ? stem : "\(stem)-\(n)"
        }
    }

    /// The contact sheet lines of one frame.
    static func labels(path: String, image: RawFileContent, analysis: FrameAnalysis) -> [String] {
        var second: [String] = []
        if let ev = analysis.exposure?.meanEV { second.append(String(format: "EV %.1f", ev)) }
        if let iso = image.metadata.iso { second.append("ISO \(Int(iso.rounded()))") }
        if let t = image.metadata.exposureTime { second.append(ShutterSpeed.display(t)) }
        var lines = [(path as NSString).lastPathComponent, second.joined(separator: " ")]
        if let s = analysis.sharpness?.score { lines.append(String(format: "SHARPNESS %.3g", s)) }
        return lines
    }
}
