import Foundation
import RawCore
import RawDevelop
import RawFiles
import RawImageIO

/// Two raw files taken together (two sensors triggered at once) and the composite picture they become.
public struct CompositeJob: Sendable, Hashable {
    /// The frame that fills the picture (stacked: the first share; picture in picture: the background).
    public let first: String
    /// The other frame.
    public let second: String
    /// The file to write.
    public let output: String
    /// Whether the first and the second frame are flipped left to right in the composite (`capture --mirror`).
    public var mirrorsFirst = false
    public var mirrorsSecond = false

    /// Creates a job.
    public init(first: String, second: String, output: String) {
        self.first = first
        self.second = second
        self.output = output
    }
}

/// Develops raw files (anything LibRaw reads, DNGs included) into finished JPEG, HEIF, TIFF or PNG files:
/// `RawFileReader` → `RawDeveloper` → `ImageFileWriter`, one file per job, jobs on dedicated threads.
public struct FileDeveloper: Sendable {
    /// The outcome of one job.
    public struct Result: Sendable {
        /// The raw file(s) read: one, or the two frames of a composite.
        public let inputs: [String]
        /// The file written (or that would have been).
        public let output: String
        /// Bytes written, or nil when the job failed.
        public let bytes: Int?
        /// Size of the picture written.
        public let width: Int?
        public let height: Int?
        /// Grey (a monochrome sensor's picture, one sample per pixel) or RGB, and the bits per sample in the file.
        public var channels: DevelopedImage.Channels?
        public var bitsPerSample: Int?
        /// The white balance used, as a temperature and tint (or the neutral when the camera has no matrix; nil for
        /// a monochrome frame, which has none).
        public let whiteBalance: String?
        /// The demosaic used.
        public let demosaic: String?
        /// Wall-clock seconds for read + develop + write.
        public let seconds: Double
        /// Notes the user should see.
        public let warnings: [String]
        /// The one-line error, or nil on success.
        public let error: String?
        /// The kind of failure (nil on success).
        public var failureKind: JobFailureKind?

        /// True when the file was written.
        public var succeeded: Bool { error == nil }
    }

    /// Development settings.
    public let settings: DevelopSettings
    /// Output format and encoder options (quality, bit depth, overwrite).
    public let writer: ImageFileWriter
    /// Threads for each file (nil: every core).
    public let threadsPerFile: Int?

    /// Creates a developer of files (the samples developed are the type the format needs, whatever
    /// `settings.sampleFormat` says).
    public init(settings: DevelopSettings, format: OutputFormat, options: EncodeOptions, threadsPerFile: Int? = nil) {
        var settings = settings
        settings.sampleFormat = SampleFormat.for(format, options: options)
        self.settings = settings
        writer = ImageFileWriter(format: format, options: options)
        self.threadsPerFile = threadsPerFile
    }

    /// The developer of the settings, mirroring the picture too when `mirrored`.
    private func developer(mirrored: Bool = false) -> RawDeveloper {
        var settings = self.settings
        settings.mirror = settings.mirror || mirrored
        return RawDeveloper(settings: settings, externalDemosaicer: settings.demosaic == .libRawAHD ? LibRawDemosaicer() : nil,
                            threads: threadsPerFile)
    }

    private static func describe(_ plan: ColorPlan) -> String {
        plan.white?.description ?? "neutral " + plan.neutral.map { String(format: "%.3f", $0) }.joined(separator: ",")
    }

    /// The white balance of a development: the plan's, none for a grey picture (a monochrome frame has no colour).
    private static func whiteBalance(_ developed: RawDeveloper.Result) -> String? {
        developed.image.isGrey ? nil : describe(developed.plan)
    }

    /// Develops one file. Never throws: failures are results.
    public func develop(_ job: ConversionJob) -> Result { develop(job, mirrored: false) }

    /// Develops one file, its picture flipped left to right when `mirrored` (a front camera's frame after a burst).
    /// Never throws: failures are results.
    public func develop(_ job: ConversionJob, mirrored: Bool) -> Result {
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        do {
            let developed = try developer(mirrored: mirrored).develop(try RawFileReader().readContent(path: job.input))
            let report = try writer.write(developed.image, to: job.output)
            return Result(inputs: [job.input], output: job.output, bytes: report.bytes, width: report.width, height: report.height,
                          channels: report.channels, bitsPerSample: report.bitsPerSample,
                          whiteBalance: Self.whiteBalance(developed), demosaic: developed.demosaic, seconds: elapsed(),
                          warnings: developed.warnings, error: nil)
        } catch {
            var result = Result(inputs: [job.input], output: job.output, bytes: nil, width: nil, height: nil, whiteBalance: nil,
                                demosaic: nil, seconds: elapsed(), warnings: [], error: "\(error)")
            result.failureKind = (error as? RawReadError).map { JobFailureKind($0.kind) } ?? .writeFailed
            return result
        }
    }

    /// Develops both frames of `job` and writes their composite. Never throws: failures are results.
    public func composite(_ job: CompositeJob, compositor: DualSensorCompositor) -> Result {
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        do {
            let first = try developer(mirrored: job.mirrorsFirst).develop(try RawFileReader().readContent(path: job.first))
            let second = try developer(mirrored: job.mirrorsSecond).develop(try RawFileReader().readContent(path: job.second))
            let picture = try compositor.compose(first.image, second.image)
            let report = try writer.write(picture, to: job.output)
            let balances = [first, second].map { Self.whiteBalance($0) ?? "monochrome" }
            return Result(inputs: [job.first, job.second], output: job.output, bytes: report.bytes, width: report.width,
                          height: report.height, channels: report.channels, bitsPerSample: report.bitsPerSample,
                          whiteBalance: balances.joined(separator: " / "),
                          demosaic: first.demosaic, seconds: elapsed(), warnings: first.warnings + second.warnings, error: nil)
        } catch {
            return Result(inputs: [job.first, job.second], output: job.output, bytes: nil, width: nil, height: nil,
                          whiteBalance: nil, demosaic: nil, seconds: elapsed(), warnings: [], error: "\(error)")
        }
    }

    /// Develops `jobs` on `parallelism` dedicated threads, calling `progress` serially after each; results keep
    /// the jobs' order.
    public func develop(_ jobs: [ConversionJob], parallelism: Int,
                        progress: @escaping @Sendable (Result, _ done: Int, _ total: Int) -> Void = { _, _, _ in }) -> [Result] {
        BatchRunner.run(jobs, parallelism: parallelism, work: { self.develop($0) }, progress: progress)
    }

    /// Composites `jobs` on `parallelism` dedicated threads (see ``develop(_:parallelism:progress:)``).
    public func composite(_ jobs: [CompositeJob], compositor: DualSensorCompositor, parallelism: Int,
                          progress: @escaping @Sendable (Result, _ done: Int, _ total: Int) -> Void = { _, _, _ in }) -> [Result] {
        BatchRunner.run(jobs, parallelism: parallelism, work: { self.composite($0, compositor: compositor) }, progress: progress)
    }
}

/// Pairs raw files for composites: a directory's raws are grouped by the sequence number at the end of their names
/// (`phone-wide-0003.dng` with `phone-front-0003.dng`); files named one by one pair in the order given.
public enum CompositePlan {
    /// The pairs of `inputs` and their outputs in `output` (an existing directory, or a file for a single pair).
    ///
    /// - Parameters:
    ///   - inputs: Raw files, or directories whose raws are paired by sequence number.
    ///   - output: An existing directory, or a file for a single pair.
    ///   - recursive: Search the directories' subdirectories too (mirrored under `output`).
    ///   - overwrite: Replace outputs that exist.
    ///   - ext: The output files' extension (the format).
    ///   - primary: A text that names the first frame of each pair (e.g. a sensor name); by default the
    ///     first of each pair as given, or for a directory the name that sorts first.
    ///   - allFiles: Take every file of a directory, not only names with a raw extension.
    public static func pairs(inputs: [String], output: String, recursive: Bool, overwrite: Bool, extension ext: String,
                             primary: String?, allFiles: Bool = false) throws(ConversionPlanError) -> [CompositeJob] {
        guard !inputs.isEmpty else { throw ConversionPlanError("no input files given") }
        let fm = FileManager.default
        var files: [String] = []
        var groups: [[String]] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: input, isDirectory: &isDirectory) else {
                throw ConversionPlanError("\(input): no such file or directory")
            }
            if isDirectory.boolValue {
                let found = try ConversionPlan.scan(directory: input, recursive: recursive, allFiles: allFiles).map(\.path)
                var bySequence: [String: [String]] = [:]
                for path in found {
                    let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
                    let digits = String(stem.reversed().prefix { $0.isNumber }.reversed())
                    guard !digits.isEmpty else {
                        throw ConversionPlanError("\(path): no sequence number at the end of the name to pair it by")
                    }
                    bySequence[AtomicFile.directory(of: path) + "#" + digits, default: []].append(path)
                }
                for key in bySequence.keys.sorted() {
                    let group = bySequence[key]!.sorted()
                    guard group.count == 2 else {
                        throw ConversionPlanError("\(group[0]): sequence \(key.split(separator: "#").last!) has \(group.count) "
                                                  + "raw files; a composite needs exactly two")
                    }
                    groups.append(group)
                }
            } else {
                files.append(input)
            }
        }
        guard files.count % 2 == 0 else {
            throw ConversionPlanError("\(files.last!): composites take files in pairs; this one has no partner")
        }
        for i in stride(from: 0, to: files.count, by: 2) { groups.append([files[i], files[i + 1]]) }
        guard !groups.isEmpty else { throw ConversionPlanError("no raw files found to pair") }

        var outputIsDirectory: ObjCBool = false
        let outputExists = fm.fileExists(atPath: output, isDirectory: &outputIsDirectory)
        var jobs: [CompositeJob] = []
        for group in groups {
            var (first, second) = (group[0], group[1])
            if let primary, URL(fileURLWithPath: second).lastPathComponent.contains(primary),
               !URL(fileURLWithPath: first).lastPathComponent.contains(primary) {
                swap(&first, &second)
            }
            let stem = URL(fileURLWithPath: first).deletingPathExtension().lastPathComponent + "-composite." + ext
            let target: String
            if groups.count == 1, !outputIsDirectory.boolValue, !output.hasSuffix("/") {
                target = output
            } else {
                guard outputExists, outputIsDirectory.boolValue else {
                    throw ConversionPlanError("\(output): output directory does not exist")
                }
                target = output.hasSuffix("/") ? output + stem : output + "/" + stem
            }
            jobs.append(CompositeJob(first: first, second: second, output: target))
        }
        try ConversionPlan.check(jobs.map { JobPaths(inputs: [$0.first, $0.second], outputs: [$0.output]) }, overwrite: overwrite)
        let parent = AtomicFile.directory(of: jobs[0].output)
        var parentIsDirectory: ObjCBool = false
        guard fm.fileExists(atPath: parent, isDirectory: &parentIsDirectory), parentIsDirectory.boolValue else {
            throw ConversionPlanError("\(jobs[0].output): output directory \(parent) does not exist")
        }
        return jobs
    }
}
