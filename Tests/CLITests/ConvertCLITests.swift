import Foundation
import RawBurst
import TestSupport
import Testing

/// `rawburst convert` end to end, on real camera raws and on DNGs from an independent writer.
@Suite("rawburst convert")
struct ConvertCLITests {
    /// Real raws that LibRaw 0.20 decodes fully (see shared/samples-raw/README.md).
    static let decodable = ["canon-powershot-g2.crw", "kodak-dc120.kdc", "kodak-dc120-jpeg.kdc", "canon-550d-magiclantern.dng"]

    @Test("LibRaw reads exactly the same raw values, levels and pattern from our DNG as from the source",
          .enabled(if: ToolAvailability.hasPythonModules("rawpy", "numpy") && ToolAvailability.has("exiftool")),
          arguments: decodable)
    func bitIdentical(sample: String) throws {
        let source = try #require(TestPaths.sharedSample(sample), "missing sample \(sample)")
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("out.dng")
        let result = try CLI.run(["convert", source.path, "-o", out.path])
        #expect(result.exitStatus == 0, "\(result)")
        let original = try LibRawView(path: source.path, scratch: tmp.url)
        let converted = try LibRawView(path: out.path, scratch: tmp.url)
        for key in ["pattern", "white_level", "black_level_per_channel", "raw_width", "raw_height", "width", "height",
                    "top_margin", "left_margin", "pixel_aspect", "flip"] {
            #expect(original.info[key] == converted.info[key], "\(sample): \(key)")
        }
        #expect(original.pixels.count > 0)
        #expect(original.pixels == converted.pixels, "\(sample): raw data differs")
        #expect(try ExifTool.validate(out.path) == [], "\(sample)")
    }

    /// DNGs of our own writer as sources: the four Bayer phases at 10, 12, 14 and 16 bits and X-Trans, with an
    /// active area and per-position black levels; LibRaw must see the same data and levels in the conversion.
    @Test("our own DNGs (four Bayer phases, 10-16 bits, X-Trans) convert bit-exactly",
          .enabled(if: ToolAvailability.hasPythonModules("rawpy", "numpy")),
          arguments: [("RGGB", 10), ("GRBG", 12), ("GBRG", 14), ("BGGR", 16), ("X-Trans", 14)])
    func ownWriterSources(layout: String, bits: Int) throws {
        let tmp = try TemporaryDirectory()
        let cfa = layout == "X-Trans" ? CFALayout.xTrans : try CFALayout(layout)
        let source = tmp.url.appendingPathComponent("source-\(layout)-\(bits).dng")
        try DNGWriter().write(try SyntheticRaw.image(cfa: cfa, bits: bits, width: 312, height: 204), to: source.path)
        let out = tmp.url.appendingPathComponent("converted.dng")
        let result = try CLI.run(["convert", source.path, "-o", out.path])
        #expect(result.exitStatus == 0, "\(result)")
        let original = try LibRawView(path: source.path, scratch: tmp.url)
        let converted = try LibRawView(path: out.path, scratch: tmp.url)
        #expect(original.pixels.count == 312 * 204 * 2)
        #expect(original.pixels == converted.pixels, "\(layout) \(bits): raw data differs")
        for key in ["pattern", "white_level", "black_level_per_channel", "width", "height", "top_margin", "left_margin"] {
            #expect(original.info[key] == converted.info[key], "\(layout) \(bits): \(key)")
        }
    }

    @Test("make, model, exposure, time and white balance are carried over from the Canon G2 CRW",
          .enabled(if: ToolAvailability.has("exiftool") && ToolAvailability.has("raw-identify")))
    func metadataCarriedOver() throws {
        let source = try #require(TestPaths.sharedSample("canon-powershot-g2.crw"))
        let tmp = try TemporaryDirectory()
        let out = tmp.url.appendingPathComponent("g2.dng")
        #expect(try CLI.run(["convert", source.path, "-o", out.path]).exitStatus == 0)
        let before = try RawIdentify.identify(source.path)
        let after = try RawIdentify.identify(out.path)
        #expect(after.make == before.make && after.model == before.model)
        #expect(after.iso == before.iso)
        #expect(after.shutter == before.shutter)
        #expect(after.aperture == before.aperture)
        #expect(after.focalLength == before.focalLength)
        #expect(after.value("Timestamp") == before.value("Timestamp"))
        let src = try ExifTool.tags(of: source.path)
        let dng = try ExifTool.tags(of: out.path)
        #expect(dng["ExifIFD:DateTimeOriginal"]?.string == src["ExifIFD:DateTimeOriginal"]?.string
                || dng["ExifIFD:DateTimeOriginal"]?.string == (src["CanonRaw:DateTimeOriginal"]?.string))
        #expect(dng["IFD0:AsShotNeutral"] != nil)
        #expect(dng["IFD0:ColorMatrix1"]?.numbers?.count == 9)
    }

    /// PiDNG's 14-bit packing is broken (its `pack14` strides do not match for any useful width), so the
    /// fixtures use the 10-, 12- and 16-bit layouts it writes correctly, in all four Bayer phases.
    @Test("DNGs from PiDNG (packed 10/12-bit and 16-bit, tiled, raw in IFD0) convert bit-exactly",
          .enabled(if: ToolAvailability.hasPythonModules("pidng", "rawpy", "numpy")),
          arguments: [("RGGB", 10), ("GRBG", 12), ("GBRG", 16), ("BGGR", 12)])
    func independentWriter(pattern: String, bits: Int) throws {
        let tmp = try TemporaryDirectory()
        let fixture = try PiDNG.make(in: tmp.url, pattern: pattern, bits: bits, width: 96, height: 64, seed: bits)
        let out = tmp.url.appendingPathComponent("ours.dng")
        let result = try CLI.run(["convert", fixture.dng.path, "-o", out.path])
        #expect(result.exitStatus == 0, "\(result)")
        let view = try LibRawView(path: out.path, scratch: tmp.url)
        let expected = fixture.samples.withUnsafeBytes { Data($0) }
        #expect(view.pixels == expected)
        #expect(view.info["pattern"]?.string == pattern)
        #expect(view.info["white_level"]?.int == fixture.white)
        #expect(view.info["black_level_per_channel"]?.numbers == [Double](repeating: Double(fixture.black), count: 4))
    }

    @Test("directories, -r, -j and --json: every raw found, sub-directories mirrored, report per file",
          .enabled(if: ToolAvailability.hasPythonModules("pidng", "numpy")))
    func directoriesAndJSON() throws {
        let tmp = try TemporaryDirectory()
        let inbox = tmp.url.appendingPathComponent("in")
        let nested = inbox.appendingPathComponent("day2")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        _ = try PiDNG.make(in: inbox, pattern: "RGGB", bits: 12)
        _ = try PiDNG.make(in: nested, pattern: "BGGR", bits: 10)
        try Data("not a raw".utf8).write(to: inbox.appendingPathComponent("notes.txt"))
        let outbox = tmp.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)

        let flat = try CLI.run(["convert", inbox.path, "-o", outbox.path, "--json"])
        #expect(flat.exitStatus == 0, "\(flat)")
        let flatReport = try JSONValue(parsing: flat.stdout)
        #expect(flatReport["converted"]?.int == 1)

        let deep = try CLI.run(["convert", inbox.path, "-o", outbox.path, "-r", "-j", "2", "--json", "--overwrite"])
        #expect(deep.exitStatus == 0, "\(deep)")
        let report = try JSONValue(parsing: deep.stdout)
        #expect(report["converted"]?.int == 2 && report["failed"]?.int == 0)
        #expect(report["files"]?.array?.allSatisfy { $0["ok"]?.bool == true && ($0["bytes"]?.int ?? 0) > 0 } == true)
        #expect(FileManager.default.fileExists(atPath: outbox.appendingPathComponent("pidng-RGGB-12.dng").path))
        #expect(FileManager.default.fileExists(atPath: outbox.appendingPathComponent("day2/pidng-BGGR-10.dng").path))
    }

    @Test("a summary line reports what was converted; nothing else is printed")
    func summary() throws {
        let source = try #require(TestPaths.sharedSample("canon-powershot-g2.crw"))
        let tmp = try TemporaryDirectory()
        let result = try CLI.run(["convert", source.path, "-o", tmp.url.path])
        #expect(result.exitStatus == 0, "\(result)")
        // Lossless JPEG by default: 3.0 MB where the uncompressed DNG takes 8.4 MB.
        #expect(result.stdout.hasPrefix("\(source.path) → \(tmp.url.path)/canon-powershot-g2.dng (3.0 MB, "), "\(result.stdout)")
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(result.stderr.isEmpty)
        let plain = try CLI.run(["convert", source.path, "-o", tmp.url.appendingPathComponent("plain.dng").path, "--compression", "none"])
        #expect(plain.stdout.hasPrefix("\(source.path) → \(tmp.url.path)/plain.dng (8.4 MB, "), "\(plain.stdout)")
    }

    @Test("a camera without a known colour matrix converts with a one-line warning saying so")
    func missingMatrixWarning() throws {
        let source = try #require(TestPaths.sharedSample("kodak-dc120.kdc"))
        let tmp = try TemporaryDirectory()
        let result = try CLI.run(["convert", source.path, "-o", tmp.url.path])
        #expect(result.exitStatus == 0, "\(result)")
        #expect(result.stderr == "warning: \(source.path): no colour matrix is known for this camera; "
                + "wrote the sRGB (D65) matrix, colours will be approximate\n")
        let quiet = try CLI.run(["convert", source.path, "-o", tmp.url.path, "--overwrite", "-q"])
        #expect(quiet.exitStatus == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet)")
    }

    @Test("a folder scan takes every raw extension LibRaw's formats use (.qtk among them); --all-files tries every file")
    func folderScanAndAllFiles() throws {
        let source = try #require(TestPaths.sharedSample("kodak-dc120.kdc"))
        let tmp = try TemporaryDirectory()
        let quicktake = tmp.url.appendingPathComponent("quicktake")
        let odd = tmp.url.appendingPathComponent("odd")
        for folder in [quicktake, odd, tmp.url.appendingPathComponent("out"), tmp.url.appendingPathComponent("out2")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(at: source, to: quicktake.appendingPathComponent("frame.qtk"))
        let scanned = try CLI.run(["convert", quicktake.path, "-o", tmp.url.appendingPathComponent("out").path, "--json"])
        let scannedReport = try JSONValue(parsing: scanned.stdout)
        #expect(scanned.exitStatus == 0 && scannedReport["converted"]?.int == 1, "\(scanned)")
        // A raw under a name no camera uses, beside a text file: found only with --all-files; LibRaw decides.
        try FileManager.default.copyItem(at: source, to: odd.appendingPathComponent("frame.bin"))
        try Data("not a raw".utf8).write(to: odd.appendingPathComponent("notes.txt"))
        let refused = try CLI.run(["convert", odd.path, "-o", tmp.url.appendingPathComponent("out2").path])
        #expect(refused.exitStatus == 2 && refused.stderr.contains("--all-files"), "\(refused)")
        let all = try CLI.run(["convert", odd.path, "-o", tmp.url.appendingPathComponent("out2").path, "--all-files", "--json"])
        #expect(all.exitStatus == 1, "\(all)")
        let report = try JSONValue(parsing: all.stdout)
        #expect(report["converted"]?.int == 1 && report["failed"]?.int == 1)
        #expect(FileManager.default.fileExists(atPath: tmp.url.appendingPathComponent("out2/frame.dng").path))
    }

    @Test("a convert that writes nothing names no output file in its summary")
    func failedSummary() throws {
        let tmp = try TemporaryDirectory()
        let text = tmp.url.appendingPathComponent("notes.txt")
        try Data("not a raw".utf8).write(to: text)
        let target = tmp.url.appendingPathComponent("x.dng")
        let result = try CLI.run(["convert", text.path, "-o", target.path])
        #expect(result.exitStatus == 1)
        #expect(result.stdout == "converted none of 1 file: 1 failed\n", "\(result)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }
}
