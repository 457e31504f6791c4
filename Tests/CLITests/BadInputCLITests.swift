import Foundation
import TestSupport
import Testing

/// Bad input: one line naming the file and the problem, a non-zero exit, nothing overwritten,
/// nothing half-written left behind.
@Suite("rawburst convert: bad input")
struct BadInputCLITests {
    /// Runs a conversion of `input` into a fresh directory and checks the one-line error and that the
    /// directory stays empty.
    private func expectFailure(_ input: String, exit: Int32, message: String) throws {
        let tmp = try TemporaryDirectory()
        let result = try CLI.run(["convert", input, "-o", tmp.url.path])
        #expect(result.exitStatus == exit, "\(result)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "expected one line, got: \(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.url.path).isEmpty)
    }

    @Test("truncated files that LibRaw 0.20 would zero-fill are refused",
          arguments: ["stubs/truncated-canon-350d.dng", "stubs/truncated-panasonic-lx3.rw2"])
    func truncatedZeroFilled(stub: String) throws {
        let path = try #require(TestPaths.sharedSample(stub)).path
        try expectFailure(path, exit: 1, message: "\(path): ")
        let tmp = try TemporaryDirectory()
        let result = try CLI.run(["convert", path, "-o", tmp.url.path])
        #expect(result.stderr.lowercased().contains("truncated") || result.stderr.contains("past the end")
                || result.stderr.contains("ends at byte"), "\(result.stderr)")
    }

    @Test("a cut NEF, a RAF header and the GoPro VC-5 file each give their own clear error")
    func otherBadRaws() throws {
        try expectFailure(try #require(TestPaths.sharedSample("stubs/truncated-nikon-d70.nef")).path, exit: 1, message: "truncated-nikon-d70.nef: ")
        try expectFailure(try #require(TestPaths.sharedSample("stubs/header-only.raf")).path, exit: 1, message: "header-only.raf: ")
        try expectFailure(try #require(TestPaths.sharedSample("gopro-hero7.gpr")).path, exit: 1, message: "compression")
    }

    @Test("a text file and an unknown format are not raws")
    func notARaw() throws {
        let tmp = try TemporaryDirectory()
        let text = tmp.url.appendingPathComponent("notes.dng")
        try Data("hello, this is not a raw file\n".utf8).write(to: text)
        try expectFailure(text.path, exit: 1, message: "notes.dng: ")
        let png = tmp.url.appendingPathComponent("image.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 64)).write(to: png)
        try expectFailure(png.path, exit: 1, message: "image.png: ")
    }

    @Test("a missing input, a missing output directory and an existing output stop before anything is written")
    func pathsRefusedUpFront() throws {
        try expectFailure("/nonexistent/raw.crw", exit: 2, message: "/nonexistent/raw.crw: no such file or directory")
        let source = try #require(TestPaths.sharedSample("kodak-dc120.kdc")).path
        let missing = try CLI.run(["convert", source, source, "-o", "/nonexistent-dir/"])
        #expect(missing.exitStatus == 2)
        #expect(missing.stderr == "rawburst convert: /nonexistent-dir/: output directory does not exist\n")

        let tmp = try TemporaryDirectory()
        let existing = tmp.url.appendingPathComponent("kodak-dc120.dng")
        try Data("precious".utf8).write(to: existing)
        let refused = try CLI.run(["convert", source, "-o", tmp.url.path])
        #expect(refused.exitStatus == 2)
        #expect(refused.stderr.contains("already exists (use --overwrite to replace it)"))
        #expect(try Data(contentsOf: existing) == Data("precious".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.url.path) == ["kodak-dc120.dng"])
    }

    @Test("an unwritable output directory fails with the reason and leaves no temporary file")
    func unwritableDirectory() throws {
        let source = try #require(TestPaths.sharedSample("kodak-dc120.kdc")).path
        let result = try CLI.run(["convert", source, "-o", "/proc/"])
        #expect(result.exitStatus == 1, "\(result)")
        #expect(result.stderr.contains("/proc/kodak-dc120.dng: cannot create a file in /proc"), "\(result.stderr)")
    }

    /// A file-size limit (RLIMIT_FSIZE, with SIGXFSZ ignored) makes `write` fail the way a full disk does,
    /// without privileges: the error names the final file and the system's reason, nothing is left behind.
    @Test("a write that the system refuses part-way fails with its reason and leaves no file")
    func fileSizeLimit() throws {
        let source = try #require(TestPaths.sharedSample("canon-powershot-g2.crw")).path
        // 2 MB: the uncompressed DNG (8.4 MB) stops in its first strips, the lossless-JPEG one (3.0 MB) in a tile, the
        // packed one (the G2's 10-bit samples: 5.3 MB) in a strip.
        for (compression, unit) in [("none", "strip 1"), ("lj92", "tile "), ("packed", "strip ")] {
            let tmp = try TemporaryDirectory()
            let script = "trap '' XFSZ; ulimit -f 2000; exec \"$0\" \"$@\""
            let result = try ExternalTool("/bin/bash").run(["-c", script, CLI.executable.path, "convert", source,
                                                            "-o", tmp.url.path, "--compression", compression], timeout: 120)
            #expect(result.exitStatus == 1, "\(result)")
            #expect(result.stderr.hasPrefix("error: \(tmp.url.path)/canon-powershot-g2.dng: cannot write \(unit)"), "\(result.stderr)")
            #expect(result.stderr.hasSuffix(": File too large\n") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.url.path).isEmpty)
        }
    }

    /// Whether this process may mount a small tmpfs (root in a container or VM); the full-disk test needs one.
    static let canMountTmpfs: Bool = {
        guard let tmp = try? TemporaryDirectory(), let mount = try? ExternalTool("mount"),
              let result = try? mount.run(["-t", "tmpfs", "-o", "size=64k", "tmpfs", tmp.url.path]), result.succeeded else {
            return false
        }
        _ = try? ExternalTool("umount").run([tmp.url.path])
        return true
    }()

    @Test("a full file system: ENOSPC named, the existing file kept, no temporary file left",
          .enabled(if: canMountTmpfs))
    func fullDisk() throws {
        let source = try #require(TestPaths.sharedSample("canon-powershot-g2.crw")).path
        let tmp = try TemporaryDirectory()
        let disk = tmp.url.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        // 2 MiB: too small for the uncompressed DNG (8.4 MB) and for the lossless-JPEG one (3.0 MB).
        let mounted = try ExternalTool("mount").run(["-t", "tmpfs", "-o", "size=2m", "tmpfs", disk.path])
        try #require(mounted.succeeded, "\(mounted)")
        defer { _ = try? ExternalTool("umount").run([disk.path]) }
        let existing = disk.appendingPathComponent("canon-powershot-g2.dng")
        try Data("precious".utf8).write(to: existing)

        for (compression, unit) in [("none", "strip "), ("lj92", "tile "), ("packed", "strip ")] {
            let result = try CLI.run(["convert", source, "-o", disk.path, "--overwrite", "--compression", compression])
            #expect(result.exitStatus == 1, "\(result)")
            #expect(result.stderr.hasPrefix("error: \(existing.path): cannot write \(unit)"), "\(result.stderr)")
            #expect(result.stderr.hasSuffix(": No space left on device\n"), "\(result.stderr)")
            #expect(try Data(contentsOf: existing) == Data("precious".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == ["canon-powershot-g2.dng"])
        }
    }

    @Test("one bad file among good ones: the good ones are written, exit status 1")
    func partialFailure() throws {
        let good = try #require(TestPaths.sharedSample("kodak-dc120.kdc")).path
        let bad = try #require(TestPaths.sharedSample("stubs/header-only.raf")).path
        let tmp = try TemporaryDirectory()
        let result = try CLI.run(["convert", good, bad, "-o", tmp.url.path, "--json"])
        #expect(result.exitStatus == 1)
        let report = try JSONValue(parsing: result.stdout)
        #expect(report["converted"]?.int == 1 && report["failed"]?.int == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.url.path) == ["kodak-dc120.dng"])
    }

    @Test("impossible options are refused by the argument parser")
    func badOptions() throws {
        let result = try CLI.run(["convert", "x.crw", "-o", "/tmp", "-j", "0"])
        #expect(result.exitStatus == 2)
        #expect(result.stderr == "rawburst convert: --jobs must be between 1 and 256, not 0\n", "\(result.stderr)")
    }
}
