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
        libraw-ahd (LibRaw's AHD on the same mosaic, for comparison).
        Spaces: srgb, p3, adobe, rec2020, prophoto. Looks: natural, vivid, dramatic, mono, silvertone, noir.

        With one input file, -o may name the output file itself; otherwise -o must be an existing directory \
        and each input becomes <dir>/<name>.<format>.

        --composite stacked|pip puts two frames taken together (two sensors) into one picture. Files given one \
        by one pair in order (first, second); a directory's raws pair by the sequence number ending their names \
        (phone-wide-0003.dng with phone-front-0003.dng; --primary names the frame that comes first). Outputs are \
        <first frame>-composite.<format>.

        Nothing is overwritten without --overwrite, and nothing half-written is left under a final name.
        Exit status: 0 all developed, 1 some files failed, 2 nothing could start (bad arguments or paths).
        """
    )

    @Argument(help: "Raw files or directories.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "Output file (one input) or existing directory.")
    var output: String

    @Flag(name: .shortAndLong, help: "Search input directories recursively.")
    var recursive = false

    @Option(help: "Output format: jpg, heic, tiff or png (default: from -o's extension, else jpg).")
    var format: String?

    @Option(help: "JPEG/HEIF quality, 1-100.")
    var quality: Int = 90

    @Option(help: "Bits per sample: HEIF 8 or 10, TIFF 16 or 32 (float), PNG 8 or 16 (default 8, 8, 16, 16).")
    var bits: Int?

    @Option(help: "White balance: as-shot, auto, daylight, cloudy, shade, tungsten, fluorescent, flash, 5600K+10, neutral:R,G,B.")
    var wb: String = "as-shot"

    @Option(help: "Demosaic: gbtf, mhc, bilinear, libraw-ahd.")
    var demosaic: String = "gbtf"

    @Option(help: "Output colour space: srgb, p3, adobe, rec2020, prophoto.")
    var space: String = "srgb"

    @Option(help: "Look: natural, vivid, dramatic, mono, silvertone, noir.")
    var look: String = "natural"

    @Option(help: "Tone curve: standard, or linear (no curve: colorimetric, for measuring).")
    var tone: String = "standard"

    @Option(help: "Exposure compensation in EV, -5...+5, on top of the file's BaselineExposure.", transform: { text in
        guard let v = Double(text.hasPrefix("+") ? String(text.dropFirst()) : text) else {
            throw ValidationError("--exposure must be a number of EV such as +0.3 or -1, not \"\(text)\"")
        }
        return v
    })
    var exposure: Double = 0

    @Flag(help: "Ignore the file's BaselineExposure.")
    var noBaselineExposure = false

    @Option(help: "Clipped highlights: clip, or reconstruct.")
    var highlights: String = "clip"

    @Option(help: "Crop: default (the file's DefaultCrop), none (whole active area), or an aspect such as 16:9, 4:3, 1:1.")
    var crop: String = "default"

    @Option(help: "Long edge of the output in pixels (never enlarged).")
    var size: Int?

    @Flag(help: "Leave the pixels as stored instead of turning them upright.")
    var noRotate = false

    @Flag(help: "Encode linear light (the embedded ICC profile says so) instead of the space's curve.")
    var linear = false

    @Option(name: .shortAndLong, help: "Files developed in parallel (default 1: each file uses every core).")
    var jobs: Int = 1

    @Flag(help: "Replace existing output files.")
    var overwrite = false

    @Option(help: "Composite pairs of frames: stacked or pip.")
    var composite: String?

    @Option(help: "Stacked composite: vertical (top/bottom) or horizontal (side by side).")
    var stack: String = "vertical"

    @Option(help: "Stacked composite: the first frame's share, 50/50, 60/40 or 70/30.")
    var split: String = "50/50"

    @Option(help: "Composite border in pixels (0 for none).")
    var border: Int = 0

    @Option(help: "Composite border colour: white, black, grey or #RRGGBB.")
    var borderColor: String = "white"

    @Option(help: "Picture-in-picture corner: top-left, top-right, bottom-left, bottom-right.")
    var pipCorner: String = "bottom-right"

    @Option(help: "Picture-in-picture width as a fraction of the picture, 0.1-0.5.")
    var pipSize: Double = 0.3

    @Option(help: "Composite: text in the file name of the frame that comes first (e.g. a sensor name).")
    var primary: String?

    @Flag(help: "Print a JSON report on standard output instead of text.")
    var json = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        guard jobs >= 1 && jobs <= 256 else { throw ValidationError("--jobs must be between 1 and 256, not \(jobs)") }
    }

    /// Everything the options say, checked before any file is touched.
    struct Choices {
        var settings = DevelopSettings()
        var format: OutputFormat
        var options: EncodeOptions
        var compositor: DualSensorCompositor?
    }

    func choices() throws(InvalidValueError) -> Choices {
        var settings = DevelopSettings()
        settings.whiteBalance = try WhiteBalanceChoice(parsing: wb)
        settings.demosaic = try DemosaicMethod(parsing: demosaic)
        settings.colorSpace = try OutputColorSpace(validating: space)
        settings.look = try Look(parsing: look)
        settings.tone = try ToneCurve(parsing: tone)
        settings.exposure = exposure
        settings.applyBaselineExposure = !noBaselineExposure
        guard let mode = HighlightMode(rawValue: highlights.lowercased()) else {
            throw InvalidValueError("highlights", "\"\(highlights)\" is not clip or reconstruct")
        }
        settings.highlights = mode
        settings.crop = try CropChoice(parsing: crop)
        settings.longEdge = size
        settings.applyOrientation = !noRotate
        settings.linearOutput = linear
        let chosen: OutputFormat
        if let format {
            guard let parsed = OutputFormat(parsing: format) else {
                throw InvalidValueError("format", "\"\(format)\" is not jpg, heic, tiff or png")
            }
            chosen = parsed
        } else {
            chosen = OutputFormat(pathExtension: output) ?? .jpeg
        }
        var options = EncodeOptions(quality: quality, overwrite: overwrite)
        if let bits {
            switch chosen {
            case .heif: options.heifBitDepth = bits
            case .tiff: options.tiffBitDepth = bits
            case .png: options.pngBitDepth = bits
            case .jpeg: try require(bits == 8, "bits", "JPEG is 8 bits per sample, not \(bits)")
            }
        }
        options = try options.validated()
        settings.sampleFormat = SampleFormat.for(chosen, options: options)
        settings = try settings.validated()
        var compositor: DualSensorCompositor?
        if let composite {
            let layout = try CompositeLayout(kind: composite, stack: stack, split: split, corner: pipCorner, size: pipSize)
            compositor = try DualSensorCompositor(layout: layout, border: border, borderColor: BorderColor(parsing: borderColor))
        }
        return Choices(settings: settings, format: chosen, options: options, compositor: compositor)
    }

    func run() throws {
        let chosen: Choices
        do { chosen = try choices() } catch {
            Terminal.error("rawburst develop: \(error)")
            throw ExitCode(2)
        }
        let ext = chosen.format.fileExtension
        var single: [ConversionJob] = []
        var pairs: [CompositeJob] = []
        do {
            if chosen.compositor != nil {
                pairs = try CompositePlan.pairs(inputs: inputs, output: output, recursive: recursive, overwrite: overwrite,
                                                extension: ext, primary: primary)
            } else {
                let plan = try ConversionPlan(inputs: inputs, output: output, recursive: recursive, overwrite: overwrite,
                                              outputExtension: ext)
                for directory in plan.outputDirectories where !FileManager.default.fileExists(atPath: directory) {
                    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                }
                single = plan.jobs
            }
        } catch let error as ConversionPlanError {
            Terminal.error("rawburst develop: \(error.message)")
            throw ExitCode(2)
        } catch {
            Terminal.error("rawburst develop: cannot create output directories: \(error.localizedDescription)")
            throw ExitCode(2)
        }

        let cores = ProcessInfo.processInfo.activeProcessorCount
        let developer = FileDeveloper(settings: chosen.settings, format: chosen.format, options: chosen.options,
                                      threadsPerFile: max(1, cores / jobs))
        let total = chosen.compositor == nil ? single.count : pairs.count
        let bar = ProgressBar(total: total, enabled: Terminal.stderrIsTerminal && !json && !quiet)
        let failures = FailureCounter()
        let started = Date()
        let report: @Sendable (FileDeveloper.Result, Int, Int) -> Void = { result, done, _ in
            if let error = result.error {
                failures.increment()
                bar.finish()
                Terminal.error("error: \(error)")
            } else if !quiet && !json {
                for warning in result.warnings { bar.finish(); Terminal.error("warning: \(result.inputs[0]): \(warning)") }
            }
            bar.update(done: done, label: URL(fileURLWithPath: result.output).lastPathComponent, failed: failures.value)
        }
        let results = chosen.compositor.map { developer.composite(pairs, compositor: $0, parallelism: jobs, progress: report) }
            ?? developer.develop(single, parallelism: jobs, progress: report)
        bar.finish()
        let seconds = Date().timeIntervalSince(started)
        let written = results.filter(\.succeeded)
        let bytes = written.compactMap(\.bytes).reduce(0, +)
        if json {
            Terminal.printJSON(DevelopReport(results: results, seconds: seconds, format: chosen.format,
                                             settings: chosen.settings, composite: chosen.compositor?.layout.description))
        } else if !quiet {
            if results.count == 1, let only = written.first {
                print("\(only.inputs.joined(separator: " + ")) → \(only.output) (\(only.width ?? 0)x\(only.height ?? 0), "
                      + "\(formatBytes(bytes)), white balance \(only.whiteBalance ?? "?"), \(String(format: "%.2f", seconds)) s)")
            } else {
                print("developed \(written.count) of \(results.count) \(chosen.compositor == nil ? "files" : "pairs") to \(output) "
                      + "(\(formatBytes(bytes)), \(String(format: "%.1f", seconds)) s)"
                      + (results.count > written.count ? ", \(results.count - written.count) failed" : ""))
            }
        }
        if written.count < results.count { throw ExitCode(1) }
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
