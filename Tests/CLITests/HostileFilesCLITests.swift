import Foundation
import RawBurst
import Synchronization
import Testing
import TestSupport

/// The largest peak RSS of any run so far (printed by the mutation test, for the record).
private let peakRSS = Mutex(0)

/// Issue #17 item 6 and the mutation test's subprocess half: hostile and damaged DNGs through `inspect` and
/// `convert`. Each run ends by itself (no signal, no timeout), within 64 MiB + 4x the file of memory, with exit 0
/// and a result or a non-zero exit and exactly one line on stderr; a refused conversion creates nothing.
@Suite("hostile files through the CLI (issue #17)")
struct HostileFilesCLITests {
    /// Mutants per seed: 16, or `RAWBURST_CLI_MUTANTS` for a longer local run.
    static let mutantsPerSeed = ProcessInfo.processInfo.environment["RAWBURST_CLI_MUTANTS"].flatMap { Int($0) } ?? 16

    /// The memory any one run may use on a file of `size` bytes.
    static func memoryLimit(fileSize size: Int) -> Int { (64 << 20) + 4 * size }

    /// A DNG of our writer (640x480, uncompressed or lossless JPEG) and its bytes.
    static func seed(in tmp: TemporaryDirectory, lj92: Bool) throws -> [UInt8] {
        var options = DNGWriter.Options()
        if lj92 { options.compression = .lj92 }
        let path = tmp.file("seed-\(lj92).dng").path
        try DNGWriter(options: options).write(try SyntheticRaw.image(width: 640, height: 480), to: path)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Checks one run of `arguments` on a file of `size` bytes; returns the run.
    @discardableResult
    static func checkRun(_ arguments: [String], fileSize size: Int, label: String) throws -> ProcessResult {
        let result = try ExternalTool(CLI.executable.path).runMeasuringPeakMemory(arguments, timeout: 60)
        #expect(!result.terminatedBySignal, "\(label): \(result)")
        let rss = try #require(result.maximumResidentBytes)
        peakRSS.withLock { $0 = max($0, rss) }
        // Under AddressSanitizer (make sanitize) shadow memory and quarantine add hundreds of MiB: the bound is for
        // the ordinary build; ASan's own checks stand in for it there.
        if !Sanitizers.address {
            #expect(rss <= memoryLimit(fileSize: size), "\(label): peak RSS \(rss >> 20) MiB for a file of \(size) bytes")
        }
        if arguments.contains("--validate"), result.exitStatus == 3 {
            // Validation errors: listed in the report on stdout, nothing on stderr.
            #expect(result.stderr.isEmpty && result.stdout.contains("\n  error "), "\(label): \(result)")
        } else if result.exitStatus != 0 {
            let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
            #expect(lines.count == 1, "\(label): \(result)")
        }
        return result
    }

    @Test("garbage entries over the image data: inspect and convert refuse in one line, in bounded memory (item 6)")
    func garbageEntries() throws {
        let tmp = try TemporaryDirectory()
        let seed = try Self.seed(in: tmp, lj92: false)
        let raw = try #require(try TIFFStructure(bytes: seed).rawDirectory)
        let bytes = TIFFMutator(seed: seed).withGarbageEntries(copying: raw.offset, garbage: 30000)
        let path = tmp.file("garbage.dng").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let out = tmp.file("out.dng").path
        for arguments in [["inspect", path], ["inspect", "--validate", path], ["convert", path, "-o", out]] {
            let result = try Self.checkRun(arguments, fileSize: bytes.count, label: arguments[0])
            #expect(result.exitStatus == 1, "\(arguments): \(result)")
            #expect(result.stderr.contains("\(path): TIFF structure refused at IFD0.SubIFD0"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("12000x12000 samples in one-row strips that all overlap: refused in bounded memory, not allocated")
    func overlappingStrips() throws {
        let tmp = try TemporaryDirectory()
        let seed = try Self.seed(in: tmp, lj92: false)
        let raw = try #require(try TIFFStructure(bytes: seed).rawDirectory)
        let bytes = TIFFMutator(seed: seed).withOverlappingStrips(directoryAt: raw.offset, side: 12000)
        let path = tmp.file("overlap.dng").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let out = tmp.file("out.dng").path
        for arguments in [["inspect", path], ["convert", path, "-o", out]] {
            let result = try Self.checkRun(arguments, fileSize: bytes.count, label: arguments[0])
            #expect(result.exitStatus == 1, "\(result)")
            #expect(result.stderr.hasPrefix("error: \(path): a 12000x12000 image needs at least 288000000 bytes of image data, "
                                            + "more than the whole file (\(bytes.count) bytes): its strips overlap"), "\(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("inspect and convert of a device (/dev/zero never ends): one line, exit 1, bounded memory")
    func device() throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.file("out.dng").path
        for arguments in [["inspect", "/dev/zero"], ["inspect", "--validate", "/dev/zero"], ["convert", "/dev/zero", "-o", out]] {
            let result = try Self.checkRun(arguments, fileSize: 0, label: arguments.joined(separator: " "))
            #expect(result.exitStatus == 1 && result.stderr.contains("/dev/zero: not a regular file"), "\(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("16 mutants of each seed through inspect --validate and convert: a result or one line, no signal, bounded memory")
    func mutants() throws {
        let tmp = try TemporaryDirectory()
        var exits: [Int32: Int] = [:]
        for lj92 in [false, true] {
            let mutator = TIFFMutator(seed: try Self.seed(in: tmp, lj92: lj92))
            var rng = SplitMix64(seed: lj92 ? 0x1717 : 0x17)
            for index in 0..<Self.mutantsPerSeed {
                let mutant = mutator.mutate(using: &rng)
                let path = tmp.file("mutant-\(lj92)-\(index).dng").path
                try Data(mutant.bytes).write(to: URL(fileURLWithPath: path))
                let label = "lj92 \(lj92) #\(index) \(mutant.description)"
                let out = tmp.file("converted-\(lj92)-\(index).dng").path
                try Self.checkRun(["inspect", "--validate", path], fileSize: mutant.bytes.count, label: "inspect " + label)
                let converted = try Self.checkRun(["convert", path, "-o", out], fileSize: mutant.bytes.count,
                                                  label: "convert " + label)
                exits[converted.exitStatus, default: 0] += 1
                #expect(FileManager.default.fileExists(atPath: out) == (converted.exitStatus == 0), "\(label): \(converted)")
            }
        }
        print("HostileFilesCLITests: \(2 * Self.mutantsPerSeed) mutants, exits \(exits), largest peak RSS \(peakRSS.withLock { $0 } >> 20) MiB")
        // Both outcomes occur: the mutants are neither all harmless nor all fatal.
        #expect(exits[0, default: 0] > 0 && exits.count > 1, "\(exits)")
    }

    @Test("a captured frame carries its raw digest: damage to its samples fails convert and inspect --validate (item 9)")
    func capturedFramesCarryTheirDigest() throws {
        let tmp = try TemporaryDirectory()
        let dng = try TinyCamera.dng(in: tmp.url)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dng)))
        let structure = try TIFFStructure(bytes: bytes)
        #expect(structure.mainDirectory[TIFFTag.newRawImageDigest]?.count == 16)
        // One sample changed in the middle of the raw strip: structurally the same file.
        let offsets = try #require(structure.rawDirectory?[TIFFTag.stripOffsets]?.integers?.first)
        bytes[offsets + 1001] ^= 0x10
        let damaged = tmp.url.appendingPathComponent("damaged.dng")
        try Data(bytes).write(to: damaged)
        let out = tmp.url.appendingPathComponent("converted")
        let convert = try CLI.run(["convert", damaged.path, "-o", out.path])
        #expect(convert.exitStatus == 1, "\(convert)")
        #expect(convert.stderr.split(separator: "\n").count == 1 && convert.stderr.contains("NewRawImageDigest"), "\(convert.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path) && !FileManager.default.fileExists(atPath: out.path + ".dng"))
        let inspect = try CLI.run(["inspect", "--validate", damaged.path])
        #expect(inspect.exitStatus != 0, "\(inspect)")
    }
}
