import ArgumentParser
import Foundation
import RawBurst
import Synchronization

/// `rawburst convert`: camera raws → DNG.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert camera raw files (anything LibRaw reads) to DNG.",
        discussion: """
        The raw mosaic is copied bit for bit, with its masked border (as ActiveArea), black and white levels,
        colour matrices, as-shot white balance, exposure, lens, capture time and orientation. A LinearRaw DNG
        (3 samples per pixel, no colour filter array) is already what this makes: it is read in full and checked as
        inspect --validate checks it, then copied as is (the summary and --json's "action" say "copied as is"); one
        that fails a check is not copied. A DNG whose raw data cannot be re-encoded exactly (lossy JPEG tiles, as
        Blackmagic cameras write; floating-point samples) keeps its tiles or strips verbatim, whatever --compression
        says (--json: "action" "converted-verbatim", with "verbatimReason").

        With one input file, -o may name the DNG itself; otherwise -o must be an existing directory and each
        input becomes <dir>/<name>.dng. Directories given as input are searched for raw files (-r: also their
        sub-directories, which are mirrored in the output).

        As a worker (--manifest, --results, --shard, --resume, --timeout-per-file or --memory-limit-per-file): \
        each file is a job run in a sandbox process (-j of them), with limits, one JSON line of results per job \
        and --resume to keep what an earlier run finished (docs/worker.md).

        No output may be an input or another output: paths are compared by what they name (device and inode), so a \
        linked folder, a hard link or .. cannot make --overwrite or --resume replace an input; the refusal names both.

        Exit status: 0 all converted, 1 some files failed, 2 nothing could start (bad arguments or paths).
        """
    )

    @OptionGroup
    var input: InputOptions

    @OptionGroup
    var outputOptions: OutputOptions

    @Option(name: .shortAndLong, parsing: .unconditional, help: "Files converted in parallel (default: number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(parsing: .unconditional, help: "Long edge of the embedded JPEG preview in pixels (0 for none, at most 1024).")
    var preview: Int = 1024

    @Option(help: ArgumentHelp(
        "Raw data compression: lj92 (lossless JPEG tiles, bit-exact; the default), packed or none.",
        discussion: "lj92 stores the mosaic as 256x256 lossless-JPEG tiles (DNG Compression 7, predictor 1), "
            + "typically 40-65 % smaller; none stores 16-bit samples in strips; packed stores them uncompressed at "
            + "the raw's bit depth (9-15 bits, most significant bit first; 12-bit: 25 % smaller than none, at almost "
            + "no CPU; 8- and 16-bit raws are written as none). Every way the DNG carries NewRawImageDigest, so "
            + "damaged data is detected when it is read.",
        valueName: "none|lj92|packed"), transform: DNGCompressionArgument.parse)
    var compression: DNGCompression = .lj92

    @OptionGroup
    var reporting: ReportOptions

    @OptionGroup
    var worker: WorkerOptions

    func validate() throws {
        guard jobs >= 1 && jobs <= 256 else { throw BadValue("--jobs must be between 1 and 256, not \(jobs)") }
        guard (0...DNGWriter.Options.maximumPreviewLongEdge).contains(preview) else {
            throw BadValue("--preview must be between 0 and \(DNGWriter.Options.maximumPreviewLongEdge), not \(preview)")
        }
    }

    /// The DNG writer's options, encoding tiles with `threads` threads.
    func writerOptions(threads: Int) -> DNGWriter.Options {
        var options = DNGWriter.Options()
        options.overwrite = outputOptions.overwrite
        options.previewLongEdge = preview == 0 ? nil : preview
        options.compression = compression
        options.encodingThreads = max(1, min(64, threads))
        return options
    }

    func run() throws {
        if worker.isActive || worker.workerChild { return try WorkerMode.run(self) }
        let plan = try outputOptions.plan(input)
        // Files already run in parallel: share the cores between them.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let converter = RawConverter(writerOptions: writerOptions(threads: cores / max(1, min(jobs, plan.jobs.count))))
        let bar = ProgressBar(total: plan.jobs.count, enabled: reporting.showsProgress)
        let failures = FailureCounter()
        let started = Date()
        let results = converter.convert(plan.jobs, parallelism: jobs) { result, done, _ in
            if let error = result.error {
                failures.increment()
                bar.finish()
                Terminal.error("error: \(error)")
            } else if !reporting.quiet && !reporting.json {
                for warning in result.warnings { bar.finish(); Terminal.error("warning: \(result.job.input): \(warning)") }
            }
            bar.update(done: done, label: URL(fileURLWithPath: result.job.input).lastPathComponent, failed: failures.value)
        }
        bar.finish()
        let seconds = Date().timeIntervalSince(started)
        let converted = results.filter(\.succeeded)
        let bytes = converted.compactMap(\.bytes).reduce(0, +)

        if reporting.json {
            Terminal.printJSON(ConvertReport(results: results, seconds: seconds, compression: compression))
        } else if !reporting.quiet {
            if results.count == 1, let only = converted.first {
                let how = switch only.action {
                case .copiedAsIs: ", copied as is: already a LinearRaw DNG"
                case .convertedVerbatim: ", raw data copied verbatim: " + (only.verbatimReason.map(Self.explain) ?? "")
                case .converted: ""
                }
                print("\(only.job.input) → \(only.job.output) (\(formatBytes(bytes)), \(String(format: "%.2f", seconds)) s\(how))")
            } else if converted.isEmpty {
                // Nothing was written: name no output (the errors above say why each file failed).
                print("converted none of \(results.count) file\(results.count == 1 ? "" : "s"): \(results.count) failed")
            } else {
                let copied = converted.filter { $0.action == .copiedAsIs }.count
                let verbatim = converted.filter { $0.action == .convertedVerbatim }.count
                print("converted \(converted.count) of \(results.count) files to \(outputOptions.output ?? "") "
                      + "(\(formatBytes(bytes)), \(String(format: "%.1f", seconds)) s)"
                      + (copied > 0 ? ", \(copied) LinearRaw DNG\(copied == 1 ? "" : "s") copied as is" : "")
                      + (verbatim > 0 ? ", \(verbatim) with \(verbatim == 1 ? "its" : "their") raw data copied verbatim" : "")
                      + (results.count > converted.count ? ", \(results.count - converted.count) failed" : ""))
            }
        }
        if converted.count < results.count { throw ExitCode(1) }
    }

    /// Why a DNG's raw data was copied verbatim, in words.
    static func explain(_ reason: DNGVerbatimRawData.Reason) -> String {
        switch reason {
        case .lossyJPEG: "lossy JPEG, which no re-encoding keeps exactly"
        case .floatingPoint: "floating-point samples"
        case .linearizationTable: "codes through a LinearizationTable in a layout rawburst does not decode"
        }
    }
}

/// The `--json` report of `convert`.
struct ConvertReport: Encodable {
    struct File: Encodable {
        let input: String
        let output: String
        let ok: Bool
        let bytes: Int?
        let seconds: Double
        let warnings: [String]
        let error: String?
        /// "converted", "converted-verbatim" (the source DNG's raw data copied as stored) or "copied-as-is" (a
        /// LinearRaw DNG).
        let action: String
        /// Why the raw data was copied verbatim: "lossy-jpeg", "floating-point" or "linearization-table" (absent
        /// otherwise).
        let verbatimReason: String?
    }
    let converted: Int
    let failed: Int
    let bytes: Int
    let seconds: Double
    let compression: String
    let files: [File]

    init(results: [RawConverter.Result], seconds: Double, compression: DNGCompression) {
        self.compression = compression.rawValue
        files = results.map {
            File(input: $0.job.input, output: $0.job.output, ok: $0.succeeded, bytes: $0.bytes,
                 seconds: ($0.seconds * 1000).rounded() / 1000, warnings: $0.warnings, error: $0.error,
                 action: $0.action.rawValue, verbatimReason: $0.verbatimReason?.rawValue)
        }
        converted = results.filter(\.succeeded).count
        failed = results.count - converted
        bytes = results.compactMap(\.bytes).reduce(0, +)
        self.seconds = (seconds * 1000).rounded() / 1000
    }
}

/// Counts failures reported from worker threads.
final class FailureCounter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// "24.4 MB" style sizes (decimal units).
func formatBytes(_ bytes: Int) -> String {
    let units = ["B", "kB", "MB", "GB", "TB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1000 && unit < units.count - 1 { value /= 1000; unit += 1 }
    return unit == 0 ? "\(bytes) B" : String(format: "%.1f ", value) + units[unit]
}
