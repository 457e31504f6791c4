import Foundation
import RawBurst
import Testing
import TestSupport

/// Issue #18 item 8 through the CLI: `convert` keeps a checked NewRawImageDigest as Adobe's SDK computes it, holds the
/// mosaic once (peak RSS grows by about one mosaic per megapixel), and `develop --tiff-compression` takes a typed value.
@Suite("convert without waste (issue #18)")
struct ConvertWithoutWasteCLITests {
    /// Bytes of one megapixel of 16-bit samples, in MiB: 1.91.
    static let mosaicMiBPerMP = 2.0 * 1_000_000 / 1_048_576

    @Test("converting a DNG writes the digest it checked: the same as the source's, and as Adobe's SDK computes it",
          .enabled(if: ToolAvailability.hasPythonModules("dngpy") && ToolAvailability.has("exiftool")))
    func digestCarriedOver() throws {
        let tmp = try TemporaryDirectory()
        let source = tmp.file("source.dng").path
        try DNGWriter().write(try SyntheticRaw.image(width: 700, height: 520), to: source)
        for compression in ["none", "lj92"] {
            let out = tmp.file("out-\(compression).dng").path
            let result = try CLI.run(["convert", source, "-o", out, "--compression", compression])
            #expect(result.exitStatus == 0, "\(result)")
            let theirs = try #require(try ExifTool.tags(of: source)["IFD0:NewRawImageDigest"]?.string)
            let ours = try #require(try ExifTool.tags(of: out)["IFD0:NewRawImageDigest"]?.string)
            #expect(ours == theirs, "\(compression)")
            let resaved = tmp.file("adobe-\(compression).dng").path
            let saved = try Python.run(script: "import sys, dngpy\ndngpy.Dng(sys.argv[1]).save(sys.argv[2])",
                                       arguments: [out, resaved])
            #expect(saved.succeeded && !saved.stderr.contains("NewRawImageDigest does not match"), "\(saved)")
            #expect(try ExifTool.tags(of: resaved)["IFD0:NewRawImageDigest"]?.string == ours, "\(compression)")
        }
    }

    /// The check of the source's digest runs while the output is written; it must still decide before the output
    /// takes its final name.
    @Test("a damaged source fails convert: an existing output stays as it was, and no temporary file is left")
    func damagedSourceLeavesNothing() throws {
        let tmp = try TemporaryDirectory()
        let source = tmp.file("source.dng").path
        try DNGWriter().write(try SyntheticRaw.image(width: 700, height: 520), to: source)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        let structure = try TIFFStructure(bytes: bytes)
        let strip = try #require(structure.rawDirectory?.integers(TIFFTag.stripOffsets)?.last)
        bytes[strip + 4001] ^= 0x08   // one sample of the last strip, the last rows hashed
        try Data(bytes).write(to: URL(fileURLWithPath: source))
        let out = tmp.file("out").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let existing = (out as NSString).appendingPathComponent("source.dng")
        try Data("an earlier output".utf8).write(to: URL(fileURLWithPath: existing))
        for compression in ["none", "lj92"] {
            let result = try CLI.run(["convert", source, "-o", out, "--compression", compression, "--overwrite"])
            #expect(result.exitStatus == 1, "\(result)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && result.stderr.contains("NewRawImageDigest"), "\(result.stderr)")
            #expect(try String(contentsOfFile: existing, encoding: .utf8) == "an earlier output", "\(compression)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["source.dng"], "\(compression)")
        }
    }

    /// Peak RSS of `convert SOURCE -o OUT --compression C` (default preview), in bytes.
    static func peak(_ source: String, _ out: String, _ compression: String) throws -> Int {
        let result = try ExternalTool(CLI.executable.path).runMeasuringPeakMemory(
            ["convert", source, "-o", out, "--compression", compression, "--overwrite", "-q"], timeout: 300)
        #expect(result.exitStatus == 0, "\(result)")
        return try #require(result.maximumResidentBytes)
    }

    @Test("peak RSS grows by at most 2.3 MiB per megapixel between a 6 MP and a 15 MP DNG, for both compressions",
          .disabled(if: Sanitizers.address, "AddressSanitizer's shadow memory and quarantine are not the program's"))
    func oneMosaic() throws {
        let tmp = try TemporaryDirectory()
        // Both large enough for the banded 1024 px preview (at least one CFA period per preview pixel), so that the
        // preview costs the same in both and the difference is what grows with the frame.
        let small = tmp.file("6mp.dng").path, large = tmp.file("15mp.dng").path
        try DNGWriter().write(try SyntheticRaw.image(width: 3000, height: 2000), to: small)
        try DNGWriter().write(try SyntheticRaw.image(width: 4800, height: 3200), to: large)
        for compression in ["none", "lj92"] {
            let a = try Self.peak(small, tmp.file("a.dng").path, compression)
            let b = try Self.peak(large, tmp.file("b.dng").path, compression)
            let perMP = Double(b - a) / 1_048_576 / 9.36
            // One mosaic is 1.91 MiB per MP; a second copy anywhere (decoder and frame, file and frame, a picture-sized
            // preview) makes it 3 or more.
            #expect(perMP <= 2.3, "\(compression): \(perMP) MiB per MP (peaks \(a >> 20) and \(b >> 20) MiB)")
            #expect(perMP >= Self.mosaicMiBPerMP * 0.75, "\(compression): \(perMP) MiB per MP: the frame is not in memory?")
        }
    }

    @Test("develop --tiff-compression: a bad value, or a format that is not TIFF, is one line and exit status 2")
    func tiffCompressionRefusals() throws {
        let tmp = try TemporaryDirectory()
        let source = tmp.file("s.dng").path
        try DNGWriter().write(try SyntheticRaw.image(width: 128, height: 96), to: source)
        for (arguments, needle) in [(["--tiff-compression", "jpeg", "--format", "tiff"], "--tiff-compression must be"),
                                    (["--tiff-compression", "zstd", "--format", "jpg"], "applies to TIFF output")] {
            let out = tmp.file("out").path
            let result = try CLI.run(["develop", source, "-o", out] + arguments)
            #expect(result.exitStatus == 2, "\(result)")
            let lines = result.stderr.split(separator: "\n").filter { !$0.isEmpty }
            #expect(lines.count == 1 && lines[0].contains(needle), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(arguments)")
        }
        let help = try CLI.run(["develop", "--help"])
        #expect(help.stdout.contains("--tiff-compression <none|deflate|zstd|lzw>"))
    }
}
