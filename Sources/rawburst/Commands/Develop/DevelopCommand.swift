import ArgumentParser
import Foundation
import RawBurst

/// `rawburst develop`: raws → finished JPEG, HEIF, TIFF or PNG files (or composites of pairs).
struct DevelopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "develop",
        abstract: "Develop raw files (DNG or anything LibRaw reads) into JPEG, HEIF, TIFF or PNG.",
        discussion: """
        Each raw is white-balanced, demosaiced, converted through the camera's colour matrices into the output \
        space, given a tone curve and a look, cropped, resized and turned upright, then written with its ICC \
        profile and EXIF (with GPS when the raw has a position).

        White balance (--wb): as-shot (the camera's), auto (grey world), a preset (daylight 5500K, cloudy \
        6500K, shade 7500K, tungsten 2850K, fluorescent 4000K+10, flash 5900K), a temperature with an optional \
        tint (5600K, 5600K+10: + is magenta, - is green; 2000-12000 K, tint -100...100), or neutral:R,G,B. A \
        temperature goes through the camera's own colour model, so it means the same light on every camera.

        Demosaic: gbtf (default; gradient-weighted, follows edges), mhc (Malvar-He-Cutler), bilinear (fast), \
        libraw-ahd (LibRaw's AHD on the same mosaic, for comparison). LinearRaw DNGs (3 samples per pixel, no \
        colour filter array: phone, "linear" and lossy DNGs) are already demosaiced and skip it.
        Spaces: srgb, p3, adobe, rec2020, prophoto. Looks: natural, vivid, dramatic, mono, silvertone, noir.

        With one input file, -o may name the output file itself; otherwise -o must be an existing directory \
        and each input becomes <dir>/<name>.<format>.

        --composite stacked|pip puts two frames taken together (two sensors) into one picture. Files given one \
        by one pair in order (first, second); a directory's raws pair by the sequence number ending their names \
        (phone-wide-0003.dng with phone-front-0003.dng; --primary names the frame that comes first). Outputs are \
        <first frame>-composite.<format>.

        Nothing is overwritten without --overwrite, and nothing half-written is left under a final name. No output \
        may be an input (either frame of a composite) or another output, compared by device and inode, so a linked \
        folder, a hard link or .. cannot hide one.

        As a worker (--manifest, --results, --shard, --resume, --timeout-per-file or --memory-limit-per-file): \
        each file is a job run in a sandbox process (-j of them), with limits, one JSON line of results per job \
        (the output's SHA-256 as its digest) and --resume to keep what an earlier run finished (docs/worker.md). \
        A job's format is its output's extension unless --format says.
        Exit status: 0 all developed, 1 some files failed, 2 nothing could start (bad arguments or paths).
        """
    )

    @OptionGroup
    var input: InputOptions

    @OptionGroup
    var outputOptions: OutputOptions

    @Option(help: ArgumentHelp("Output format: jpg, heic, tiff or png (default: from -o's extension, else jpg).", valueName: "format"),
            transform: DevelopValues.format)
    var format: OutputFormat?

    @Option(parsing: .unconditional, help: "JPEG/HEIF quality, 1-100.")
    var quality: Int = 90

    @Option(parsing: .unconditional, help: "Bits per sample: HEIF 8 or 10, TIFF 16 or 32 (float), PNG 8 or 16 (default 8, 8, 16, 16).")
    var bits: Int?

    @Option(help: ArgumentHelp(
        "TIFF compression: none (the default), deflate, zstd or lzw; all lossless.",
        discussion: "Developed 16-bit pictures are noisy and barely compress: on a 12 MP picture deflate and zstd "
            + "(with the predictor) saved about 16 % and lzw made the file 11 % larger, each at 10-12x the time of an "
            + "uncompressed write. zstd files need a reader built with Zstandard (libtiff, tifffile); lzw is TIFF 6 "
            + "baseline.",
        valueName: "none|deflate|zstd|lzw"), transform: TIFFCompressionArgument.parse)
    var tiffCompression: TIFFCompression?

    @Option(help: ArgumentHelp("White balance: as-shot, auto, daylight, cloudy, shade, tungsten, fluorescent, flash, 5600K+10, "
                               + "neutral:R,G,B (default as-shot).", valueName: "wb"),
            transform: DevelopValues.whiteBalance)
    var wb = WhiteBalanceChoice.asShot

    @Option(help: ArgumentHelp("Demosaic: gbtf, mhc, bilinear, libraw-ahd (default gbtf).", valueName: "demosaic"),
            transform: DevelopValues.demosaic)
    var demosaic = DemosaicMethod.gradientWeighted

    @Option(help: ArgumentHelp("Output colour space: srgb, p3, adobe, rec2020, prophoto (default srgb).", valueName: "space"),
            transform: DevelopValues.space)
    var space = OutputColorSpace.sRGB

    @Option(help: ArgumentHelp("Look: natural, vivid, dramatic, mono, silvertone, noir (default natural).", valueName: "look"),
            transform: DevelopValues.look)
    var look = Look.natural

    @Option(help: ArgumentHelp("Tone curve: standard (+0.5 EV, highlights rolled off into white; docs/develop.md) "
                               + "or linear (no curve: colorimetric, for measuring) (default standard).",
                               valueName: "tone"),
            transform: DevelopValues.tone)
    var tone = ToneCurve.standard

    @Option(parsing: .unconditional, help: "Exposure compensation in EV, -5...+5, on top of the file's BaselineExposure.", transform: { text in
        guard let v = Double(text.hasPrefix("+") ? String(text.dropFirst()) : text) else {
            throw BadValue("--exposure must be a number of EV such as +0.3 or -1, not \"\(text)\"")
        }
        return v
    })
    var exposure: Double = 0

    @Flag(help: "Ignore the file's BaselineExposure.")
    var noBaselineExposure = false

    @Option(help: ArgumentHelp("Clipped highlights: clip, or reconstruct (default clip).", valueName: "highlights"),
            transform: DevelopValues.highlights)
    var highlights = HighlightMode.clip

    @Option(help: ArgumentHelp("Crop: default (the file's DefaultCrop), none (whole active area), or an aspect such as 16:9, "
                               + "4:3, 1:1 (default default).", valueName: "crop"),
            transform: DevelopValues.crop)
    var crop = CropChoice.defaultCrop

    @Option(parsing: .unconditional, help: "Long edge of the output in pixels (never enlarged).")
    var size: Int?

    @Flag(help: "Leave the pixels as stored instead of turning them upright.")
    var noRotate = false

    @Flag(help: "Encode linear light (the embedded ICC profile says so) instead of the space's curve.")
    var linear = false

    @Option(name: .shortAndLong, parsing: .unconditional, help: "Files developed in parallel (default 1: each file uses every core).")
    var jobs: Int = 1

    @OptionGroup
    var compositeOptions: CompositeOptions

    @Option(help: "Composite: text in the file name of the frame that comes first (e.g. a sensor name).")
    var primary: String?

    @OptionGroup
    var reporting: ReportOptions

    @OptionGroup
    var worker: WorkerOptions

    func validate() throws {
        guard jobs >= 1 && jobs <= 256 else { throw BadValue("--jobs must be between 1 and 256, not \(jobs)") }
    }

    /// Everything the options say, checked before any file is touched.
    struct Choices {
        var settings = DevelopSettings()
        var format: OutputFormat
        var options: EncodeOptions
        var compositor: DualSensorCompositor?
    }

    /// The choices for writing `output` (its extension is the format unless --format says; default -o's).
    func choices(output: String? = nil) throws(InvalidValueError) -> Choices {
        var settings = DevelopSettings()
        settings.whiteBalance = wb
        settings.demosaic = demosaic
        settings.colorSpace = space
        settings.look = look
        settings.tone = tone
        settings.exposure = exposure
        settings.applyBaselineExposure = !noBaselineExposure
        settings.highlights = highlights
        settings.crop = crop
        settings.longEdge = size
        settings.applyOrientation = !noRotate
        settings.linearOutput = linear
        let chosen = format ?? OutputFormat(pathExtension: output ?? outputOptions.output ?? "") ?? .jpeg
        var options = EncodeOptions(quality: quality, overwrite: outputOptions.overwrite)
        if let bits {
            switch chosen {
            case .heif: options.heifBitDepth = bits
            case .tiff: options.tiffBitDepth = bits
            case .png: options.pngBitDepth = bits
            case .jpeg: try require(bits == 8, "bits", "JPEG is 8 bits per sample, not \(bits)")
            }
        }
        if let tiffCompression {
            try require(chosen == .tiff, "TIFF compression", "--tiff-compression applies to TIFF output, not \(chosen)")
            options.tiffCompression = tiffCompression
        }
        options = try options.validated()
        settings.sampleFormat = SampleFormat.for(chosen, options: options)
        settings = try settings.validated()
        let compositor = try compositeOptions.compositor()
        return Choices(settings: settings, format: chosen, options: options, compositor: compositor)
    }

    func run() throws {
        if worker.isActive || worker.workerChild { return try WorkerMode.run(self) }
        let chosen: Choices
        do { chosen = try choices() } catch { throw BadValue("\(error)") }
        let work = try plan(chosen)
        let started = Date()
        let results = develop(work, chosen: chosen)
        printReport(results, chosen: chosen, seconds: Date().timeIntervalSince(started))
        if results.contains(where: { !$0.succeeded }) { throw ExitCode(1) }
    }

    /// What to develop: single files, or pairs for composites.
    enum Work {
        case files([ConversionJob])
        case pairs([CompositeJob], DualSensorCompositor)
    }

    /// The files or pairs of the inputs, output directories created; a refusal is one line, exit status 2.
    private func plan(_ chosen: Choices) throws -> Work {
        let ext = chosen.format.fileExtension
        guard let compositor = chosen.compositor else {
            return .files(try outputOptions.plan(input, outputExtension: ext).jobs)
        }
        let output = try outputOptions.required()
        do {
            return .pairs(try CompositePlan.pairs(inputs: input.inputs, output: output, recursive: input.recursive,
                                                  overwrite: outputOptions.overwrite, extension: ext, primary: primary,
                                                  allFiles: input.allFiles), compositor)
        } catch {
            throw BadValue(error.message)
        }
    }

    /// Develops the work with a progress bar; each failure is reported as it happens.
    private func develop(_ work: Work, chosen: Choices) -> [FileDeveloper.Result] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let developer = FileDeveloper(settings: chosen.settings, format: chosen.format, options: chosen.options,
                                      threadsPerFile: max(1, cores / jobs))
        let total: Int
        switch work {
        case .files(let files): total = files.count
        case .pairs(let pairs, _): total = pairs.count
        }
        let bar = ProgressBar(total: total, enabled: reporting.showsProgress)
        let failures = FailureCounter()
        let verbose = !reporting.quiet && !reporting.json
        let report: @Sendable (FileDeveloper.Result, Int, Int) -> Void = { result, done, _ in
            if let error = result.error {
                failures.increment()
                bar.finish()
                Terminal.error("error: \(error)")
            } else if verbose {
                for warning in result.warnings { bar.finish(); Terminal.error("warning: \(result.inputs[0]): \(warning)") }
            }
            bar.update(done: done, label: URL(fileURLWithPath: result.output).lastPathComponent, failed: failures.value)
        }
        defer { bar.finish() }
        switch work {
        case .files(let files): return developer.develop(files, parallelism: jobs, progress: report)
        case .pairs(let pairs, let compositor): return developer.composite(pairs, compositor: compositor, parallelism: jobs, progress: report)
        }
    }

    /// The JSON report, or the human summary unless --quiet.
    private func printReport(_ results: [FileDeveloper.Result], chosen: Choices, seconds: Double) {
        let written = results.filter(\.succeeded)
        let bytes = written.compactMap(\.bytes).reduce(0, +)
        if reporting.json {
            Terminal.printJSON(DevelopReport(results: results, seconds: seconds, format: chosen.format,
                                             settings: chosen.settings, composite: chosen.compositor?.layout.description))
        } else if !reporting.quiet {
            if results.count == 1, let only = written.first {
                print("\(only.inputs.joined(separator: " + ")) → \(only.output) (\(only.width ?? 0)x\(only.height ?? 0), "
                      + "\(formatBytes(bytes)), white balance \(only.whiteBalance ?? "?"), \(String(format: "%.2f", seconds)) s)")
            } else {
                print("developed \(written.count) of \(results.count) \(chosen.compositor == nil ? "files" : "pairs") to "
                      + "\(outputOptions.output ?? "") (\(formatBytes(bytes)), \(String(format: "%.1f", seconds)) s)"
                      + (results.count > written.count ? ", \(results.count - written.count) failed" : ""))
            }
        }
    }
}

/// The `--json` report of `develop`.
struct DevelopReport: Encodable {
    struct File: Encodable {
        let inputs: [String]
        let output: String
        let ok: Bool
        let bytes: Int?
        let width: Int?
        let height: Int?
        let whiteBalance: String?
        let demosaic: String?
        let seconds: Double
        let warnings: [String]
        let error: String?
    }
    struct Settings: Encodable {
        let format: String
        let whiteBalance: String
        let demosaic: String
        let space: String
        let look: String
        let tone: String
        let exposure: Double
        let highlights: String
        let crop: String
        let size: Int?
        let composite: String?
    }
    let developed: Int
    let failed: Int
    let bytes: Int
    let seconds: Double
    let settings: Settings
    let files: [File]

    init(results: [FileDeveloper.Result], seconds: Double, format: OutputFormat, settings s: DevelopSettings, composite: String?) {
        files = results.map {
            File(inputs: $0.inputs, output: $0.output, ok: $0.succeeded, bytes: $0.bytes, width: $0.width, height: $0.height,
                 whiteBalance: $0.whiteBalance, demosaic: $0.demosaic, seconds: ($0.seconds * 1000).rounded() / 1000,
                 warnings: $0.warnings, error: $0.error)
        }
        developed = results.filter(\.succeeded).count
        failed = results.count - developed
        bytes = results.compactMap(\.bytes).reduce(0, +)
        self.seconds = (seconds * 1000).rounded() / 1000
        settings = Settings(format: format.rawValue, whiteBalance: s.whiteBalance.description, demosaic: s.demosaic.rawValue,
                            space: s.colorSpace.rawValue, look: s.look.name, tone: s.tone.rawValue, exposure: s.exposure,
                            highlights: s.highlights.rawValue, crop: s.crop.description, size: s.longEdge, composite: composite)
    }
}
