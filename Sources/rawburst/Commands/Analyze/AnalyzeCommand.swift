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
        do not change with output size or exposure. --peaking-threshold: a level as cameras name them — high (the \
        most marks), medium (the default) or low (only the sharpest edges) — or contrast:C, all absolute: an edge \
        is marked when its contrast against the brightest light nearby reaches the level (0.3, 0.4, 0.55; a sharp \
        black-to-white step measures 0.75) and it stands clear of the frame's own noise, so a subject out of focus \
        marks little or nothing at any exposure or ISO. Relative rules remain: a fraction of the grid to mark (4%) \
        or strength levels at mean + k standard deviations (sd:1,2,3). Zebra marks pixels of a developed \
        1024-px preview whose luma is at or above --zebra-threshold percent of full scale.

        Without --histogram, --peaking, --zebra or --sharpness, histograms, sharpness and metering are reported. \
        --best N lists the N sharpest frames. --png DIR writes pictures: <name>-histogram.png (raw), \
        <name>-rgb-histogram.png (developed), <name>-peaking.png, <name>-zebra.png, and contact-sheet.png (every \
        frame labelled with EV, ISO, shutter and sharpness; the --best frames framed).
        As a worker (--manifest with --results, --shard, --resume, --timeout-per-file or --memory-limit-per-file): \
        each job analyses one file in a sandbox process and writes its analysis as JSON to the job's output, one \
        JSON line of results per job (docs/worker.md); pictures and --best are not made there.
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

    @Option(parsing: .unconditional, help: "List the N sharpest frames (implies --sharpness).")
    var best: Int?

    @Option(parsing: .unconditional, help: "Raw histogram bins in the report (0: one per code value).")
    var bins: Int = 256

    @Option(help: ArgumentHelp("Peaking threshold: high, medium or low (absolute edge contrast; default medium), contrast:C, "
                               + "a fraction such as 4%, or sd:K1,K2,K3 strength levels.", valueName: "peaking-threshold"),
            transform: {
                try BadValue.parse($0, otherwise: "--peaking-threshold: '\($0)' is not high, medium, low, contrast:C (0 < C ≤ 4), "
                                   + "a fraction (4%, 0.04) or sd:K1,K2,K3")
            })
    var peakingThreshold = PeakingThreshold.standard

    @Option(parsing: .unconditional, help: "Zebra threshold in percent of full scale, 50-100.")
    var zebraThreshold: Double = 95

    @Option(parsing: .unconditional, help: ArgumentHelp("Spot meter position X,Y in 0...1 (default 0.5,0.5, the centre).", valueName: "spot"),
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

    @OptionGroup
    var worker: WorkerOptions

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

    func run() throws {
        if worker.isActive || worker.workerChild { return try WorkerMode.run(self) }
        let files = try inputFiles()
        let bar = ProgressBar(total: files.count, enabled: reporting.showsProgress)
        let report = AnalysisBatch(options: batchOptions()).run(files) { result, done, failed in
            if let message = result.error { bar.finish(); Terminal.error("error: \(message)") }
            bar.update(done: done, label: URL(fileURLWithPath: result.path).lastPathComponent, failed: failed)
        }
        bar.finish()
        for sheet in report.files.dropFirst(files.count) where !sheet.ok {
            Terminal.error("error: \(sheet.path): \(sheet.error ?? "")")
        }
        if reporting.json {
            Terminal.printJSON(report)
        } else if !reporting.quiet {
            for r in report.files where r.ok { print(Self.summary(r)) }
            if let bestPaths = report.best {
                print("sharpest \(bestPaths.count): " + bestPaths.map { ($0 as NSString).lastPathComponent }.joined(separator: ", "))
            }
            if let sheetPath = report.contactSheet { print("contact sheet: \(sheetPath)") }
        }
        if report.failed > 0 { throw ExitCode(1) }
    }

    /// The raw files of the inputs, and the --png folder ready; a refusal is one line, exit status 2.
    private func inputFiles() throws -> [String] {
        let files: [String]
        do { files = try ConversionPlan.rawFiles(in: input.inputs, recursive: input.recursive, allFiles: input.allFiles) } catch { throw BadValue(error.message) }
        if let png {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: png, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else { throw BadValue("--png \(png) is a file, not a directory") }
            } else {
                do { try FileManager.default.createDirectory(atPath: png, withIntermediateDirectories: true) } catch {
                    throw BadValue("cannot create \(png): \(error.localizedDescription)")
                }
            }
            // No picture may be one of the raws (by device and inode: a linked folder or a hard link changes
            // nothing) or another picture; --overwrite replaces pictures, never a FIFO, device or folder that has a
            // picture's name.
            let planned = AnalysisBatch(options: batchOptions()).plannedPaths(files)
            if let clash = OutputClashCheck.firstClash(in: planned) { throw BadValue(clash.description) }
            for picture in planned.flatMap(\.outputs) {
                do { try AtomicFile.checkReplaceable(picture) } catch { throw BadValue("\(error)") }
            }
        }
        return files
    }

    /// What to measure (histograms, sharpness and metering unless some were chosen) and write.
    func batchOptions() -> AnalysisBatch.Options {
        let anyChosen = histogram || peaking || zebra || sharpness
        var options = AnalysisBatch.Options()
        options.analysis.histogram = !anyChosen || histogram
        options.analysis.clipping = options.analysis.histogram
        options.analysis.metering = !anyChosen || histogram
        options.analysis.sharpness = !anyChosen || sharpness || best != nil || png != nil
        options.analysis.peaking = peaking
        options.analysis.peakingRule = peakingThreshold
        options.analysis.bins = bins == 0 ? nil : bins
        options.analysis.spot = spot
        options.zebraThreshold = zebra ? zebraThreshold / 100 : nil
        options.best = best
        options.pictureDirectory = png
        options.scale = scale
        options.overwrite = overwrite
        return options
    }

    /// One line per file.
    static func summary(_ r: AnalysisFileResult) -> String {
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
