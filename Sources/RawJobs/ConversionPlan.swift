import Foundation
import RawCore
import RawFiles

/// One raw file to convert and the file it becomes.
public struct ConversionJob: Sendable, Hashable {
    /// The source raw file.
    public let input: String
    /// The file to write.
    public let output: String

    /// Creates a job.
    public init(input: String, output: String) {
        self.input = input
        self.output = output
    }
}

/// Turns command-line style inputs (files and directories) and an output (file or directory) into jobs,
/// refusing anything that could lose data before a single file is touched.
public struct ConversionPlan: Sendable {
    /// File name extensions (lower case) of raw formats picked up when scanning a directory: the files of the
    /// formats LibRaw 0.20 identifies (by content; these are the names those cameras and programs give them — Apple
    /// QuickTake `qtk`, Kodak `kc2`/`dc2`, Sinar `sti`/`ia`, Casio `bay`, Leica `rwl`, Phantom `cine`, ...). With
    /// `allFiles` a scan takes every file and LibRaw decides.
    public static let rawExtensions: Set<String> = [
        "3fr", "ari", "arw", "bay", "bmq", "cap", "cine", "cr2", "cr3", "crw", "cs1", "dc2", "dcr", "dcs", "dng", "drf",
        "eip", "erf", "fff", "gpr", "ia", "iiq", "k25", "kc2", "kdc", "mdc", "mef", "mfw", "mos", "mrw", "nef", "nrw",
        "orf", "ori", "pef", "ptx", "pxn", "qtk", "r3d", "raf", "raw", "rdc", "rw1", "rw2", "rwl", "rwz", "sr2", "srf",
        "srw", "sti", "x3f",
    ]

    /// The jobs, in a stable order (inputs as given; directory contents sorted by path).
    public let jobs: [ConversionJob]

    /// Plans jobs that were worked out elsewhere (pairs of a composite), with the same refusals.
    public init(checked jobs: [ConversionJob], overwrite: Bool) throws(ConversionPlanError) {
        try Self.check(jobs, overwrite: overwrite)
        self.jobs = jobs
    }

    /// Plans the conversion of `inputs` into `output`.
    ///
    /// - A single input file and an output that is not an existing directory: the output is the DNG's path.
    /// - Otherwise `output` must be an existing directory; each file becomes `<dir>/<name>.<outputExtension>`, and with
    ///   `recursive` the sub-directories of an input directory are mirrored inside it.
    /// - Two inputs that would write the same output, or an output that is its own input, are refused.
    public init(inputs: [String], output: String, recursive: Bool, overwrite: Bool,
                outputExtension: String = "dng", allFiles: Bool = false) throws(ConversionPlanError) {
        guard !inputs.isEmpty else { throw ConversionPlanError("no input files given") }
        let fm = FileManager.default
        var outputIsDirectory: ObjCBool = false
        let outputExists = fm.fileExists(atPath: output, isDirectory: &outputIsDirectory)

        var sources: [(path: String, relativeDirectory: String)] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: input, isDirectory: &isDirectory) else {
                throw ConversionPlanError("\(input): no such file or directory")
            }
            if isDirectory.boolValue {
                let found = try Self.scan(directory: input, recursive: recursive, allFiles: allFiles)
                if found.isEmpty {
                    let hint = [recursive ? nil : "-r to search sub-directories", allFiles ? nil : "--all-files to try every file"]
                        .compactMap { $0 }.joined(separator: ", ")
                    throw ConversionPlanError("\(input): no raw files found" + (hint.isEmpty ? "" : " (use \(hint))"))
                }
                sources += found
            } else {
                sources.append((input, ""))
            }
        }

        var jobs: [ConversionJob] = []
        if sources.count == 1, inputs.count == 1, !outputIsDirectory.boolValue, !output.hasSuffix("/") {
            let parent = AtomicFile.directory(of: output)
            var parentIsDirectory: ObjCBool = false
            guard fm.fileExists(atPath: parent, isDirectory: &parentIsDirectory), parentIsDirectory.boolValue else {
                throw ConversionPlanError("\(output): output directory \(parent) does not exist")
            }
            jobs = [ConversionJob(input: sources[0].path, output: output)]
        } else {
            guard outputExists, outputIsDirectory.boolValue else {
                throw ConversionPlanError(outputExists
                    ? "\(output): is a file; several inputs need an output directory"
                    : "\(output): output directory does not exist")
            }
            for source in sources {
                let name = (URL(fileURLWithPath: source.path).deletingPathExtension().lastPathComponent) + "." + outputExtension
                let directory = source.relativeDirectory.isEmpty ? output : output + "/" + source.relativeDirectory
                jobs.append(ConversionJob(input: source.path, output: Self.join(directory, name)))
            }
        }

        try Self.check(jobs, overwrite: overwrite)
        self.jobs = jobs
    }

    /// Refuses two jobs with one output, an output that is its own input or another job's, (without `overwrite`)
    /// existing outputs, and (with it) outputs that are not regular files.
    static func check(_ jobs: [ConversionJob], overwrite: Bool) throws(ConversionPlanError) {
        try check(jobs.map { JobPaths(inputs: [$0.input], outputs: [$0.output]) }, overwrite: overwrite)
    }

    /// Refuses, before anything is written, an output that is an input or another output — by what the paths name
    /// (``OutputClashCheck``: device and inode, a symbolic link or hard link or `..` changes nothing), not by how they
    /// are spelled — then (without `overwrite`) outputs that exist, and (with it) outputs that are not regular files.
    /// The message names both paths.
    public static func check(_ jobs: [JobPaths], overwrite: Bool) throws(ConversionPlanError) {
        if let clash = OutputClashCheck.firstClash(in: jobs) {
            guard clash.kind == .sameOutput else { throw ConversionPlanError(clash.description) }
            let inputs = [clash.otherJob, clash.outputJob].map { jobs[$0].inputs.joined(separator: " + ") }
            throw ConversionPlanError("\(inputs[0]) and \(inputs[1]) would both be written to \(clash.output)"
                                      + (clash.other == clash.output ? "" : " (\(clash.other) is the same file)"))
        }
        for output in jobs.flatMap(\.outputs) {
            if !overwrite, FileManager.default.fileExists(atPath: output) {
                throw ConversionPlanError("\(output): already exists (use --overwrite to replace it)")
            }
            do { try AtomicFile.checkReplaceable(output) } catch { throw ConversionPlanError("\(error)") }
        }
    }

    /// Directories that must exist before the jobs run (mirrored sub-directories of a recursive scan).
    public var outputDirectories: [String] {
        Array(Set(jobs.map { AtomicFile.directory(of: $0.output) })).sorted()
    }

    /// The raw files named by `inputs`: files as given, directories scanned (sub-directories too when `recursive`)
    /// for files with a ``rawExtensions`` extension (every file with `allFiles`), in name order; a missing input is
    /// an error.
    public static func rawFiles(in inputs: [String], recursive: Bool, allFiles: Bool = false) throws(ConversionPlanError) -> [String] {
        guard !inputs.isEmpty else { throw ConversionPlanError("no input files given") }
        var files: [String] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
                throw ConversionPlanError("\(input): no such file or directory")
            }
            if isDirectory.boolValue {
                let found = try scan(directory: input, recursive: recursive, allFiles: allFiles).map(\.path)
                guard !found.isEmpty else { throw ConversionPlanError("\(input): no raw files in the directory") }
                files += found
            } else {
                files.append(input)
            }
        }
        return files
    }

    /// The first entry of `directory` that a scan would take but whose name is not valid UTF-8 (Foundation's listing
    /// leaves such names out): a raw file (any file with `allFiles`), or with `recursive` a sub-directory; hidden names
    /// are skipped as the scan skips them. Its bytes above 0x7F are written as \xHH; nil when there is none.
    static func undecodableName(in directory: String, recursive: Bool, allFiles: Bool) -> String? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard bytes.first != UInt8(ascii: "."), String(validating: bytes, as: UTF8.self) == nil else { continue }
            let taken: Bool
            if entry.pointee.d_type == UInt8(DT_DIR) {
                taken = recursive
            } else {
                let suffix = bytes.lastIndex(of: UInt8(ascii: ".")).map { String(decoding: bytes[($0 + 1)...], as: UTF8.self) } ?? ""
                taken = allFiles || rawExtensions.contains(suffix.lowercased())
            }
            if taken { return bytes.map { $0 < 0x80 ? String(UnicodeScalar($0)) : String(format: "\\x%02x", $0) }.joined() }
        }
        return nil
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    static func scan(directory: String, recursive: Bool,
                     allFiles: Bool = false) throws(ConversionPlanError) -> [(path: String, relativeDirectory: String)] {
        let fm = FileManager.default
        var out: [(String, String)] = []
        var pending: [String] = [""]
        while let relative = pending.popLast() {
            let path = relative.isEmpty ? directory : join(directory, relative)
            let names: [String]
            do { names = try fm.contentsOfDirectory(atPath: path).sorted() } catch {
                throw ConversionPlanError("\(path): cannot list the directory")
            }
            if let unnamed = undecodableName(in: path, recursive: recursive, allFiles: allFiles) {
                throw ConversionPlanError("\(path): the file name \"\(unnamed)\" is not UTF-8; rename it (no file is left out unsaid)")
            }
            for name in names where !name.hasPrefix(".") {
                let full = join(path, name)
                var isDirectory: ObjCBool = false
                guard fm.fileExists(atPath: full, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    if recursive { pending.append(relative.isEmpty ? name : relative + "/" + name) }
                } else if allFiles || rawExtensions.contains(URL(fileURLWithPath: name).pathExtension.lowercased()) {
                    out.append((full, relative))
                }
            }
        }
        return out.sorted { $0.0 < $1.0 }
    }
}

/// The domain of `ConversionPlanError`.
public enum ConversionPlanErrorDomain {}

/// A conversion that cannot start, described in one line.
public typealias ConversionPlanError = MessageError<ConversionPlanErrorDomain>
