import Foundation
import RawBurst
import TestSupport
import Testing

/// `--compression packed` end to end: `convert` writes smaller files by exactly the unused bits of 16-bit samples,
/// `capture` writes packed DNGs and says so in its manifest, and bad values are refused naming every choice.
@Suite("rawburst --compression packed")
struct PackedCLITests {
    private static func size(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
    }

    private static func rawTags(_ path: String) throws -> (bits: [Int]?, compression: Int?, byteCounts: Int) {
        let raw = try #require(try TIFFStructure(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))).rawDirectory)
        return (raw.integers(TIFFTag.bitsPerSample), raw.integer(TIFFTag.compression),
                raw.integers(TIFFTag.stripByteCounts)?.reduce(0, +) ?? -1)
    }

    @Test("convert --compression packed is smaller than none by exactly the unused bits; the samples are the same",
          arguments: [10, 12, 14])
    func convertSizes(bits: Int) throws {
        let tmp = try TemporaryDirectory()
        // 600x400: one strip either way (16-bit rows 1200 bytes, 400 rows < 1 MiB), so only the sample bytes differ.
        let (width, height) = (600, 400)
        let source = tmp.url.appendingPathComponent("source.dng").path
        try DNGWriter().write(try SyntheticRaw.image(cfa: .rggb, bits: bits, width: width, height: height), to: source)
        let plain = tmp.url.appendingPathComponent("none.dng").path, packed = tmp.url.appendingPathComponent("packed.dng").path
        for (out, choice) in [(plain, "none"), (packed, "packed")] {
            let result = try CLI.run(["convert", source, "-o", out, "--compression", choice])
            #expect(result.exitStatus == 0 && result.stderr.isEmpty, "\(choice): \(result)")
        }
        let rowBytes = (width * bits + 7) / 8
        let p = try Self.rawTags(packed), n = try Self.rawTags(plain)
        #expect(p.bits == [bits] && p.compression == 1 && p.byteCounts == height * rowBytes)
        #expect(n.bits == [16] && n.compression == 1 && n.byteCounts == height * width * 2)
        // 12-bit: 25 % fewer sample bytes (10-bit 37.5 %, 14-bit 12.5 %); nothing else in the file changes size.
        #expect(Self.size(plain) - Self.size(packed) == height * (width * 2 - rowBytes),
                "\(bits)-bit: \(Self.size(plain)) vs \(Self.size(packed)) bytes")
        #expect(Double(p.byteCounts) / Double(n.byteCounts) == Double(bits) / 16)
        // Both read back to the same samples (inspect --validate passes; a packed → none conversion is identical).
        let check = try CLI.run(["inspect", "--validate", packed])
        #expect(check.exitStatus == 0, "\(check)")
        let back = tmp.url.appendingPathComponent("back.dng").path
        #expect(try CLI.run(["convert", packed, "-o", back, "--compression", "none"]).exitStatus == 0)
        let a = try RawFileReader().read(path: plain).frame, b = try RawFileReader().read(path: back).frame
        #expect(Data(bytes: a.storage.baseAddress, count: width * height * 2) == Data(bytes: b.storage.baseAddress, count: width * height * 2))
        let inspected = try CLI.run(["inspect", packed])
        #expect(inspected.stdout.contains("uncompressed, packed \(bits)-bit (Compression 1)"), "\(inspected.stdout)")
    }

    @Test("capture --compression packed --frames 3 writes packed DNGs, and the manifest says packed")
    func capture() throws {
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("burst")
        let profile = try BurstCLITests.smallProfile(in: tmp).path // phone-front: 10-bit samples
        let result = try CLI.run(["capture", "--profile", profile] + BurstCLITests.fixed
                                 + ["--frames", "3", "--compression", "packed", "-o", out.path])
        #expect(result.exitStatus == 0, "\(result)")
        let manifest = try JSONValue(parsing: try Data(contentsOf: out.appendingPathComponent("manifest.json")))
        let frames = manifest["frames"]?.array ?? []
        #expect(frames.count == 3 && frames.allSatisfy { $0["compression"]?.string == "packed" }, "\(frames)")
        let plan = manifest["burst"]?["compression"]
        #expect(plan?["requested"]?.string == "packed" && plan?["chosen"]?.string == "packed", "\(plan ?? .null)")
        #expect(BurstCLITests.dngs(in: out).count == 3)
        for name in BurstCLITests.dngs(in: out) {
            let path = out.appendingPathComponent(name).path
            let tags = try Self.rawTags(path)
            #expect(tags.bits == [10] && tags.compression == 1 && tags.byteCounts == 480 * (640 * 10 / 8), "\(name)")
            let check = try CLI.run(["inspect", "--validate", path])
            #expect(check.exitStatus == 0, "\(name): \(check)")
        }
    }

    @Test("hostile packed DNGs: inspect --validate names the wrong strip, convert refuses in one line and writes nothing")
    func hostileFiles() throws {
        let tmp = try TemporaryDirectory()
        let good = tmp.url.appendingPathComponent("good.dng").path
        var options = DNGWriter.Options()
        options.compression = .packed
        // 100 samples of 12 bits: 150 bytes a row, 40 rows in one strip of 6000 bytes.
        try DNGWriter(options: options).write(try SyntheticRaw.image(cfa: .rggb, bits: 12, width: 100, height: 40), to: good)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        let cases: [(String, UInt16, UInt32, UInt32, String)] = [
            ("short", TIFFTag.stripByteCounts, 6000, 5000, "image data is 5000 bytes, too few for a 100x40 image (at least 6000)"),
            ("long", TIFFTag.stripByteCounts, 6000, 6001, "StripByteCounts[0] is 6001, expected 6000 for 40 rows of 100 12-bit samples"),
            ("zero", TIFFTag.bitsPerSample, 12, 0, "BitsPerSample is 0, outside 1...32"),
            ("wide", TIFFTag.bitsPerSample, 12, 17, "the DNG's raw image has 17 bits per sample; rawburst reads at most 16"),
        ]
        for (name, tag, value, replacement, words) in cases {
            var mutant = bytes
            try TIFFEntryPatch.replace(&mutant, tag: tag, value: value, with: replacement)
            let path = tmp.url.appendingPathComponent("\(name).dng").path
            try Data(mutant).write(to: URL(fileURLWithPath: path))
            let out = tmp.url.appendingPathComponent("\(name)-out.dng").path
            let converted = try CLI.run(["convert", path, "-o", out])
            #expect(converted.exitStatus == 1, "\(name): \(converted)")
            let lines = converted.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains(path) && lines[0].contains(words), "\(name): \(converted.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(name)")
            if name == "long" || name == "zero" {
                let validated = try CLI.run(["inspect", "--validate", path])
                #expect(validated.exitStatus != 0 && validated.stdout.contains(words), "\(name): \(validated)")
            }
        }
    }

    @Test("a bad --compression is one line naming every choice, exit 2; --help explains packed")
    func badValueAndHelp() throws {
        let tmp = try TemporaryDirectory()
        for command in ["convert", "capture"] {
            var arguments = [command, "--compression", "zip", "-o", tmp.url.appendingPathComponent("x").path]
            if command == "convert" { arguments.insert(tmp.url.path, at: 1) }
            let result = try CLI.run(arguments)
            #expect(result.exitStatus == 2, "\(command): \(result)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines.first?.contains("--compression must be none, lj92 or packed, not \"zip\"") == true,
                    "\(command): \(result.stderr)")
            let help = try CLI.run([command, "--help"])
            #expect(help.stdout.contains("packed"), "\(command) --help")
        }
        #expect(!FileManager.default.fileExists(atPath: tmp.url.appendingPathComponent("x").path))
    }
}
