#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RawBurst

/// Inputs and scratch space shared by the benchmark executables.
public enum BenchSupport {
    /// The rawburst repository: this file is `<repo>/Benchmarks/Benchmarks/BenchSupport/BenchSupport.swift`.
    public static let repositoryRoot: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        parts.removeLast(4)
        return parts.joined(separator: "/")
    }()

    /// The folder of real camera raws: `$RAWBURST_SAMPLES`, else `$SHARED/samples-raw` (the Makefile's variable;
    /// a relative `SHARED` is taken from the repository), else `<repo>/../shared/samples-raw`, else the copy of
    /// the same files in `<repo>/samples/raw` — the first of these that exists.
    public static var samplesDirectory: String {
        if let dir = environment("RAWBURST_SAMPLES"), !dir.isEmpty { return dir }
        var candidates: [String] = []
        if let shared = environment("SHARED"), !shared.isEmpty {
            candidates.append((shared.hasPrefix("/") ? shared : repositoryRoot + "/" + shared) + "/samples-raw")
        }
        candidates.append(repositoryRoot + "/../shared/samples-raw")
        return candidates.first { access($0, R_OK) == 0 } ?? repositoryRoot + "/samples/raw"
    }

    /// A sample raw by file name; stops the run with a clear message when it is missing.
    public static func sample(_ name: String) -> String {
        let path = samplesDirectory + "/" + name
        guard access(path, R_OK) == 0 else {
            fatalError("benchmark input \(path) is missing; set RAWBURST_SAMPLES to the folder that holds \(name)")
        }
        return path
    }

    /// Creates a new empty directory for output files.
    ///
    /// It lies under `$RAWBURST_BENCH_TMPDIR` when set, else `<repo>/Benchmarks/.build-benchtmp` (git-ignored),
    /// so that files go to the same disk as the repository rather than to a possibly memory-backed /tmp.
    public static func makeScratchDirectory(_ label: String) -> String {
        let parent = environment("RAWBURST_BENCH_TMPDIR").flatMap { $0.isEmpty ? nil : $0 }
            ?? repositoryRoot + "/Benchmarks/.build-benchtmp"
        mkdir(parent, 0o755) // may already exist
        var template = Array("\(parent)/\(label)-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            fatalError("cannot create a scratch directory in \(parent): \(String(cString: strerror(errno)))")
        }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes a scratch directory made by `makeScratchDirectory` with the files in it (no sub-directories),
    /// and its parent when that is left empty.
    public static func removeScratchDirectory(_ path: String) {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(dir)
        }
        rmdir(path)
        if let slash = path.lastIndex(of: "/") { rmdir(String(path[..<slash])) } // only if empty
    }

    /// Size of a file in bytes, or nil when it does not exist.
    public static func fileSize(_ path: String) -> Int? {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : nil
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// The synthetic frame of the DNG write benchmarks: 4032x3024 (12 MP), 14-bit samples, RGGB, black 512,
/// white 16383, filled with deterministic pseudo-random codes between black and white.
public enum SyntheticFrame {
    public static let width = 4032
    public static let height = 3024

    /// A complete image: frame, plausible metadata and a 3x3 colour matrix (so the writer adds no warning).
    public static func image() -> RawImage {
        let storage = PixelStorage(count: width * height)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 // xorshift64*, fixed seed: the same pixels every run
        let span = UInt64(16383 - 512 + 1)
        for i in 0..<storage.count {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            let r = (state &* 0x2545_F491_4F6C_DD1D) >> 32
            storage.baseAddress[i] = UInt16(512 + r % span)
        }
        do {
            let frame = try RawFrame(width: width, height: height, storage: storage, cfa: .rggb,
                                     blackLevels: BlackLevels(uniform: 512), whiteLevel: 16383, bitsPerSample: 14)
            let metadata = try FrameMetadata(make: "rawburst", model: "Benchmark synthetic sensor",
                                             captureTime: CaptureTime(millisecondsSince1970: 1_700_000_000_123,
                                                                      utcOffsetSeconds: 3600),
                                             sequenceNumber: 1, exposureTime: 1.0 / 250, fNumber: 2.8, iso: 100,
                                             focalLength: 50)
            // A Canon-like XYZ(D65) -> camera matrix; any valid 3x3 matrix serves.
            let matrix = try ColorMatrix([0.6461, -0.0907, -0.0882],
                                         [-0.4300, 1.2184, 0.2378],
                                         [-0.0819, 0.1944, 0.5931])
            let calibration = try ColorCalibration(colorMatrix1: matrix, illuminant1: .d65,
                                                   asShotNeutral: [0.5, 1, 0.65])
            return RawImage(frame: frame, metadata: metadata, calibration: calibration)
        } catch {
            fatalError("synthetic frame: \(error)")
        }
    }
}
