import Foundation
import RawBurst
import TestSupport
import Testing

/// Monochrome DNGs (written by rawburst: LinearRaw, one sample per pixel) on the command line: `develop` makes grey
/// JPEG, HEIF, TIFF and PNG files whose one channel holds the developer's own samples (read back by Pillow, tifffile
/// and pillow-heif), `--json` says grey; colour options are ignored with a warning; the DNG's own thumbnail is grey;
/// `analyze` gives one raw plane equal to LibRaw's samples counted by numpy; `capture --replay --develop` develops a
/// monochrome burst into grey files; the viewfinder's page (headless chromium) draws a grey picture, one luma trace
/// and one clipping indicator.
@Suite("Monochrome DNGs on the command line")
struct MonochromeCLITests {
    static let width = 160, height = 120
    /// The clipped block: 24 x 10 pixels at (100, 20).
    static let clipped = (x: 100..<124, y: 20..<30)

    /// A 12-bit monochrome DNG (lossless JPEG, black 256, a 96-px JPEG preview): a ramp of light across, darker in
    /// the bottom half, the clipped block at white.
    static func dng(in tmp: TemporaryDirectory, name: String = "mono.dng") throws -> URL {
        var image = try MonochromeRaw.image(width: width, height: height, bits: 12, black: 256) { x, y in
            if clipped.x.contains(x) && clipped.y.contains(y) { return 1.5 }
            return (y < height / 2 ? 0.08 : 0.04) + 0.5 * Double(x) / Double(width)
        }
        image.metadata = try SyntheticRaw.fullMetadata()
        image.metadata.orientation = .normal
        var options = DNGWriter.Options()
        options.compression = .lj92
        options.previewLongEdge = 96
        let url = tmp.url.appendingPathComponent(name)
        try DNGWriter(options: options, previewEncoder: JPEGPreviews()).write(image, to: url.path)
        return url
    }

    /// One channel's samples as Pillow (JPEG, PNG, HEIF through pillow-heif) or tifffile (TIFF) read them, with the
    /// number of bands and the sample type.
    static let readerScript = """
        import json, sys
        import numpy as np
        path = sys.argv[1]
        if path.endswith(".tif"):
            import tifffile
            with tifffile.TiffFile(path) as t:
                p = t.pages[0]
                a = p.asarray()
                bands = 1 if a.ndim == 2 else a.shape[2]
                out = {"bands": bands, "photometric": int(p.photometric), "dtype": str(a.dtype)}
        else:
            from PIL import Image
            import pillow_heif
            pillow_heif.register_heif_opener()
            im = Image.open(path)
            if path.endswith(".heic"):
                f = pillow_heif.open_heif(path, convert_hdr_to_8bit=False)
                a = np.asarray(f)
            else:
                a = np.asarray(im)
            out = {"bands": len(im.getbands()), "mode": im.mode, "dtype": str(a.dtype)}
        out["samples"] = [float(v) for v in a.ravel()]
        print(json.dumps(out))
        """

    /// The developer's own grey samples for `dng` with `settings` (on the 0...1 scale of their type).
    static func developed(_ dng: URL, _ settings: DevelopSettings) throws -> DevelopedImage {
        try RawDeveloper(settings: settings).develop(try RawFileReader().readContent(path: dng.path)).image
    }

    struct Output: Sendable, CustomTestStringConvertible {
        let format: String, bits: Int
        var testDescription: String { "\(format) \(bits)-bit" }
    }

    @Test("develop → grey files, one channel holding the developer's samples; --json says 1 channel and the depth",
          .enabled(if: ToolAvailability.hasPythonModules("PIL", "pillow_heif", "tifffile", "numpy")),
          arguments: [Output(format: "jpg", bits: 8), Output(format: "heic", bits: 8), Output(format: "heic", bits: 10),
                      Output(format: "tif", bits: 8), Output(format: "tif", bits: 16), Output(format: "tif", bits: 32),
                      Output(format: "png", bits: 8), Output(format: "png", bits: 16)])
    func develop(output: Output) throws {
        let tmp = try TemporaryDirectory()
        let dng = try Self.dng(in: tmp)
        let out = tmp.url.appendingPathComponent("grey.\(output.format)")
        let result = try CLI.run(["develop", dng.path, "-o", out.path, "--bits", "\(output.bits)", "--quality", "100", "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let file = try #require(try JSONValue(parsing: result.stdout)["files"]?[0])
        #expect(file["channels"]?.int == 1 && file["bitsPerSample"]?.int == output.bits, "\(file)")
        #expect(file["demosaic"]?.string == "none (monochrome)" && file["whiteBalance"] == nil)
        #expect(file["width"]?.int == Self.width && file["height"]?.int == Self.height)
        #expect(file["warnings"]?.array?.isEmpty == true)
        let read = try Python.json(script: Self.readerScript, arguments: [out.path])
        #expect(read["bands"]?.int == 1, "\(read["bands"] ?? .null) \(read["mode"] ?? .null)")
        if output.format == "tif" { #expect(read["photometric"]?.int == 1) }
        // The developer's own picture for the same file, in the type the format holds.
        var settings = DevelopSettings()
        settings.sampleFormat = SampleFormat.for(OutputFormat(parsing: output.format)!,
                                                 options: EncodeOptions(heifBitDepth: output.bits == 10 ? 10 : 8,
                                                                        tiffBitDepth: output.bits, pngBitDepth: output.bits))
        let picture = try Self.developed(dng, settings)
        #expect(picture.isGrey)
        let expected: [Double]
        let tolerance: Double
        switch (output.format, output.bits) {
        case ("tif", 32): (expected, tolerance) = (picture.floatSamples.map(Double.init), 0)
        case (_, 16): (expected, tolerance) = (picture.uint16Samples.map(Double.init), 0)
        case ("heic", 10): (expected, tolerance) = (picture.samples(bits: 10).map { Double($0) * 64 }, 4 * 64) // pillow-heif: v << 6
        case ("jpg", _), ("heic", _): (expected, tolerance) = (picture.uint8Samples.map(Double.init), 3)
        default: (expected, tolerance) = (picture.uint8Samples.map(Double.init), 0)
        }
        let got = read["samples"]?.numbers ?? []
        try #require(got.count == expected.count, "\(got.count) samples, expected \(expected.count)")
        let worst = zip(got, expected).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= tolerance, "largest difference \(worst)")
    }

    @Test("--wb, --demosaic and a toned look are ignored for a monochrome DNG: warnings, exit 0, the same grey pixels")
    func colourOptionsIgnored() throws {
        let tmp = try TemporaryDirectory()
        let dng = try Self.dng(in: tmp)
        let plain = tmp.url.appendingPathComponent("plain.png"), coloured = tmp.url.appendingPathComponent("coloured.png")
        #expect(try CLI.run(["develop", dng.path, "-o", plain.path]).exitStatus == 0)
        let result = try CLI.run(["develop", dng.path, "-o", coloured.path, "--wb", "3200K", "--demosaic", "mhc"])
        #expect(result.exitStatus == 0, "\(result)")
        #expect(result.stderr.contains("monochrome") && result.stderr.contains("3200K") && result.stderr.contains("mhc"),
                "\(result.stderr)")
        #expect(result.stdout.contains(", grey,"), "\(result.stdout)")
        let a = try ImageFileReader.read(path: plain.path), b = try ImageFileReader.read(path: coloured.path)
        #expect(a.channels == 1 && b.channels == 1 && a.samples == b.samples)
        let toned = try CLI.run(["develop", dng.path, "-o", tmp.url.appendingPathComponent("silver.png").path,
                                 "--look", "silvertone", "--json"])
        let warnings = try JSONValue(parsing: toned.stdout)["files"]?[0]?["warnings"]?.array?.compactMap(\.string) ?? []
        #expect(toned.exitStatus == 0 && warnings.contains { $0.contains("silvertone") && $0.contains("toning") }, "\(warnings)")
    }

    @Test("the DNG's thumbnail (IFD0, tifffile) and JPEG preview (exiftool, Pillow) are the grey picture: R = G = B, a ramp",
          .enabled(if: ToolAvailability.has("exiftool") && ToolAvailability.hasPythonModules("PIL", "tifffile", "numpy")))
    func embeddedPreviews() throws {
        let tmp = try TemporaryDirectory()
        let dng = try Self.dng(in: tmp)
        let preview = tmp.url.appendingPathComponent("preview.jpg")
        try ExternalTool("exiftool").run(["-b", "-PreviewImage", dng.path]).requireSuccess().standardOutput.write(to: preview)
        let info = try Python.json(script: """
            import json, sys, tifffile
            import numpy as np
            from PIL import Image
            def describe(a):
                a = a.astype(np.int64)
                h, w = a.shape[0], a.shape[1]
                return {"size": [w, h], "channels": int(a.shape[2]), "maxChroma": int((a.max(axis=2) - a.min(axis=2)).max()),
                        "left": int(a[h // 4, 2, 0]), "right": int(a[h // 4, w - 3, 0]), "distinct": int(len(np.unique(a[..., 0])))}
            with tifffile.TiffFile(sys.argv[1]) as t:
                thumbnail = describe(t.pages[0].asarray())
            print(json.dumps({"thumbnail": thumbnail, "preview": describe(np.asarray(Image.open(sys.argv[2]).convert("RGB")))}))
            """, arguments: [dng.path, preview.path])
        let thumbnail = try #require(info["thumbnail"]), jpeg = try #require(info["preview"])
        // Half the 160x120 frame: a thumbnail as large as the frame would be taken for the raw image by dcraw.
        #expect(thumbnail["size"]?.numbers == [80, 60] && thumbnail["channels"]?.int == 3, "\(thumbnail)")
        #expect(thumbnail["maxChroma"]?.int == 0, "\(thumbnail)")
        #expect(jpeg["size"]?.numbers == [96, 72] && (jpeg["maxChroma"]?.int ?? 99) <= 4, "\(jpeg)")
        for picture in [thumbnail, jpeg] {
            #expect((picture["left"]?.int ?? 0) + 60 < (picture["right"]?.int ?? 0), "\(picture)")
            #expect((picture["distinct"]?.int ?? 0) > 20, "\(picture)")
        }
    }

    @Test("analyze --json: one raw plane W equal to numpy's histogram of LibRaw's samples; the known clipped pixels",
          .enabled(if: ToolAvailability.hasPythonModules("rawpy", "numpy")))
    func analyze() throws {
        let tmp = try TemporaryDirectory()
        let dng = try Self.dng(in: tmp)
        let pictures = tmp.url.appendingPathComponent("pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        let result = try CLI.run(["analyze", dng.path, "--histogram", "--bins", "4096", "--peaking", "--zebra",
                                  "--png", pictures.path, "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let file = try #require(try JSONValue(parsing: result.stdout)["files"]?[0])
        let channels = file["analysis"]?["channels"]?.array ?? []
        #expect(channels.count == 1 && channels.first?["color"]?.string == "W")
        let counts = channels.first?["counts"]?.numbers?.map { Int($0) } ?? []
        let libraw = try Python.json(script: """
            import json, sys, rawpy, numpy as np
            with rawpy.imread(sys.argv[1]) as r:
                v = r.raw_image_visible.astype(np.int64).ravel()
                print(json.dumps({"colors": int(r.num_colors), "counts": np.bincount(v, minlength=4096)[:4096].tolist()}))
            """, arguments: [dng.path])
        #expect(libraw["colors"]?.int == 1)
        #expect(counts == (libraw["counts"]?.numbers?.map { Int($0) } ?? []), "raw histogram differs from LibRaw's samples")
        let total = Double(Self.width * Self.height), clippedPixels = 24.0 * 10
        #expect(counts.count == 4096 && counts[4095] == 240)
        #expect(channels.first?["clippedFraction"]?.double == clippedPixels / total)
        // 2x2 cells: the block covers columns 50...61 and rows 10...14 of cells.
        #expect(file["analysis"]?["clippedCells"]?["W"]?.int == 12 * 5)
        #expect(file["analysis"]?["exposure"]?["clippedFraction"]?.double == clippedPixels / total)
        // Zebra on the grey preview marks the clipped block (at least it; the ramp's top end is below 95 %).
        let zebra = file["zebra"]?["markedFraction"]?.double ?? 0
        #expect(abs(zebra - clippedPixels / total) < 0.003, "zebra \(zebra)")
        let names = try FileManager.default.contentsOfDirectory(atPath: pictures.path).sorted()
        #expect(names == ["contact-sheet.png", "mono-histogram.png", "mono-peaking.png", "mono-rgb-histogram.png",
                          "mono-zebra.png"], "\(names)")
        let zebraPicture = try ImageFileReader.read(path: pictures.appendingPathComponent("mono-zebra.png").path)
        #expect(zebraPicture.width == Self.width && zebraPicture.height == Self.height && zebraPicture.channels == 3)
    }

    @Test("capture --replay of a monochrome DNG with --develop png: monochrome DNGs and grey pictures beside them")
    func captureDevelops() throws {
        let tmp = try TemporaryDirectory()
        let dng = try Self.dng(in: tmp)
        let out = tmp.url.appendingPathComponent("burst")
        let result = try CLI.run(["capture", "--replay", dng.path, "--frames", "3", "--fps", "4", "--late", "wait",
                                  "--develop", "png", "-o", out.path, "--json"])
        #expect(result.exitStatus == 0, "\(result)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        let pngs = names.filter { $0.hasSuffix(".png") }, dngs = names.filter { $0.hasSuffix(".dng") }
        #expect(pngs.count == 3 && dngs.count == 3, "\(names)")
        let reference = try Self.developed(dng, { var s = DevelopSettings(); s.sampleFormat = .uint16; return s }())
        for name in dngs {
            let written = try RawFileReader().read(path: out.appendingPathComponent(name).path)
            #expect(written.frame.cfa.isMonochrome)
            let picture = try ImageFileReader.read(path: out.appendingPathComponent(name.replacingOccurrences(of: ".dng", with: ".png")).path)
            #expect(picture.channels == 1 && picture.bitDepth == 16 && picture.width == Self.width)
            // The same grey as developing the source file (the decoded grey is repeated into R, G, B).
            let grey = stride(from: 0, to: picture.samples.count, by: 3).map { picture.samples[$0] }
            #expect(grey == reference.uint16Samples, "\(name): the burst's picture differs from the file's development")
        }
    }

    @Test("the viewfinder's page in a browser: grey picture, one grey histogram trace, one clipping indicator (Y)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") || ToolAvailability.toolsRequired))
    func livePage() throws {
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), "chromium-driver is missing: run make deps")
        #expect(Python.hasModule("selenium"), "selenium is missing: run make deps")
        let tmp = try TemporaryDirectory()
        let dng = try Self.dng(in: tmp)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Live/live_mono_page_check.py")
        let report = try Python.json(scriptFile: script, arguments: [CLI.executable.path, tmp.path, dng.path], timeout: 600)
        #expect(report["error"] == nil, "\(report["error"]?.string ?? ""): \(report["stderr"]?.string ?? "")")
        #expect(report["browserLog"]?.array?.isEmpty ?? false, "the page logged errors: \(String(describing: report["browserLog"]))")
        #expect(report["monochrome"] == .bool(true) && report["red"]?.int == 0 && report["luma"]?.int == 64)
        #expect((report["picture"]?["drawn"]?.int ?? 0) > 1000 && (report["picture"]?["maxChroma"]?.int ?? 99) <= 3,
                "picture: \(String(describing: report["picture"]))")
        #expect((report["histogram"]?["drawn"]?.int ?? 0) > 50 && report["histogram"]?["maxChroma"]?.int == 0,
                "histogram: \(String(describing: report["histogram"]))")
        #expect(report["clipR"]?.string == "Y" && report["clipROn"]?.string == "on")
        #expect(report["clipGHidden"] == .bool(true) && report["clipBHidden"] == .bool(true))
        #expect(report["clipped"]?.numbers == [240.0 / Double(Self.width * Self.height)])
        let text = report["clipText"]?.string ?? ""
        #expect(text.hasPrefix("clipped 1.") && text.hasSuffix("%") && !text.contains("R "), "\(text)")
    }
}
