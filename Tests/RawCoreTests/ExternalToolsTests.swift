import Foundation
import TestSupport
import Testing

/// Self-tests of TestSupport: the process runner, the tool wrappers on the real sample raws, and the paths.
@Suite("TestSupport: external tools")
struct ExternalToolsTests {
    static let g2 = TestPaths.sharedSample("canon-powershot-g2.crw")
    static let ml550d = TestPaths.sharedSample("canon-550d-magiclantern.dng")
    static let kodak = TestPaths.sharedSample("kodak-dc120.kdc")
    static let samplesPresent = g2 != nil && ml550d != nil && kodak != nil

    // MARK: the process runner

    @Test("Runs a program, capturing stdout, stderr and the exit status")
    func basicRun() throws {
        let result = try ExternalTool.run("sh", ["-c", "printf 'out\\n'; printf 'err\\n' >&2; exit 3"])
        #expect(result.stdout == "out\n")
        #expect(result.stderr == "err\n")
        #expect(result.exitStatus == 3)
        #expect(!result.succeeded && !result.terminatedBySignal)
        #expect(throws: ExternalToolError.self) { try result.requireSuccess() }
        #expect(try ExternalTool.run("true").succeeded)
    }

    @Test("Arguments reach the program verbatim (no shell), and stdin and environment are passed")
    func argumentsInputEnvironment() throws {
        let args = ["a b", "$HOME", "it's", "", "*"]
        let echo = try ExternalTool.run("python3", ["-c", "import sys, json; print(json.dumps(sys.argv[1:]))"] + args)
        #expect(try JSONValue(parsing: echo.standardOutput) == .array(args.map(JSONValue.string)))
        let cat = try ExternalTool.run("cat", input: Data("piped\n".utf8))
        #expect(cat.stdout == "piped\n")
        let env = try ExternalTool.run("sh", ["-c", "printf %s \"$RAWBURST_TEST_VAR\""], environment: ["RAWBURST_TEST_VAR": "x=1"])
        #expect(env.stdout == "x=1")
        let tmp = try TemporaryDirectory()
        let pwd = try ExternalTool.run("pwd", currentDirectory: tmp.url)
        #expect(URL(fileURLWithPath: pwd.stdout.trimmingCharacters(in: .newlines)).resolvingSymlinksInPath()
                == tmp.url.resolvingSymlinksInPath())
    }

    @Test("Megabytes on stdout and stderr at once do not deadlock")
    func bigOutputs() throws {
        let script = "head -c 6000000 /dev/zero | tr '\\0' a; head -c 5000000 /dev/zero | tr '\\0' b >&2; head -c 1000000 /dev/zero | tr '\\0' c"
        let result = try ExternalTool.run("sh", ["-c", script], timeout: 60)
        #expect(result.succeeded)
        #expect(result.standardOutput.count == 7_000_000)
        #expect(result.standardError.count == 5_000_000)
        #expect(result.standardOutput.last == UInt8(ascii: "c"))
    }

    @Test("stdout can go straight to a file")
    func stdoutToFile() throws {
        let tmp = try TemporaryDirectory()
        let file = tmp.file("out.bin")
        let result = try ExternalTool.run("head", ["-c", "123456", "/dev/zero"], standardOutputFile: file)
        #expect(result.succeeded && result.standardOutput.isEmpty)
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber
        #expect(size?.intValue == 123_456)
    }

    @Test("A run past its timeout is killed and reported, promptly")
    func timeout() throws {
        let start = Date()
        do {
            _ = try ExternalTool.run("sh", ["-c", "echo started; exec sleep 30"], timeout: 0.5)
            Issue.record("sleep 30 finished within 0.5 s?")
        } catch let ExternalToolError.timedOut(command, seconds, out, _) {
            #expect(command.last == "echo started; exec sleep 30")
            #expect(seconds == 0.5)
            #expect(out == "started\n")
        }
        #expect(Date().timeIntervalSince(start) < 10)
        // A program that ignores SIGTERM is killed 2 s later.
        let stubborn = Date()
        #expect(throws: ExternalToolError.self) {
            try ExternalTool.run("sh", ["-c", "trap '' TERM; sleep 30 & wait; sleep 30"], timeout: 0.3)
        }
        #expect(Date().timeIntervalSince(stubborn) < 10)
    }

    @Test("A crash is reported as a signal")
    func signal() throws {
        let result = try ExternalTool.run("sh", ["-c", "kill -SEGV $$"])
        #expect(result.terminatedBySignal)
        #expect(result.exitStatus == SIGSEGV)
        #expect(!result.succeeded)
    }

    @Test("A missing tool is reported as not found, and ToolAvailability says so")
    func missingTool() {
        #expect(ExternalTool.locate("rawburst-no-such-tool") == nil)
        #expect(ExternalTool.locate("sh") != nil)
        #expect(ExternalTool.locate("/bin/sh")?.path == "/bin/sh")
        #expect(!ToolAvailability.isInstalled("rawburst-no-such-tool"))
        #expect(ToolAvailability.isInstalled("sh"))
        #expect(ToolAvailability.has("rawburst-no-such-tool") == ToolAvailability.toolsRequired)
        do {
            _ = try ExternalTool("rawburst-no-such-tool")
            Issue.record("found a tool that does not exist")
        } catch {
            #expect("\(error)".contains("make deps"))
        }
    }

    @Test("The async run works from a task and several runs go on at once")
    func asyncRuns() async throws {
        let sh = try ExternalTool("sh")
        try await withThrowingTaskGroup(of: String.self) { group in
            for i in 0..<6 {
                group.addTask { try await sh.run(["-c", "sleep 0.2; echo \(i)"]).stdout }
            }
            var seen: Set<String> = []
            for try await out in group { seen.insert(out) }
            #expect(seen == Set((0..<6).map { "\($0)\n" }))
        }
    }

    // MARK: JSONValue, paths and temporary directories

    @Test("JSONValue keeps integers exact and reads exiftool-style number lists")
    func jsonValue() throws {
        let v = try JSONValue(parsing: #"{"a": 1, "b": 2.5, "c": "1 2.477 1.462", "d": [1, 2], "e": null, "f": true, "g": 18446744073709551615}"#)
        #expect(v["a"] == .int(1) && v["a"]?.double == 1)
        #expect(v["b"]?.double == 2.5 && v["b"]?.int == nil)
        #expect(v["c"]?.numbers == [1, 2.477, 1.462])
        #expect(v["d"]?.numbers == [1, 2] && v["d"]?[1]?.int == 2)
        #expect(v["e"]?.isNull == true && v["f"]?.bool == true)
        #expect(v["g"]?.double == 0x1p64) // beyond Int64: kept as the nearest Double
        #expect(v["missing"] == nil)
        #expect(JSONValue.string("abc").numbers == nil)
        #expect(try JSONValue(parsing: v.description) == v)
    }

    @Test("Package root, sample folders and temporary directories")
    func paths() throws {
        #expect(FileManager.default.fileExists(atPath: TestPaths.packageRoot.appendingPathComponent("Package.swift").path))
        #expect(TestPaths.packageRoot(containing: #filePath) == TestPaths.packageRoot)
        #expect(TestPaths.samples.lastPathComponent == "samples")
        // ../shared/samples-raw, or the repository's copy samples/raw in a lone clone; either holds the G2 CRW.
        #expect(["samples-raw", "raw"].contains(TestPaths.sharedSamples.lastPathComponent))
        #expect(TestPaths.sharedSample("canon-powershot-g2.crw") != nil)
        #expect(TestPaths.sharedSample("no-such-file.crw") == nil)

        var url: URL?
        do {
            let tmp = try TemporaryDirectory(prefix: "rawburst-selftest")
            url = tmp.url
            try Data("x".utf8).write(to: tmp.file("a.txt"))
            _ = try tmp.subdirectory("nested/deeper")
            #expect(FileManager.default.fileExists(atPath: tmp.path + "/nested/deeper"))
            let other = try TemporaryDirectory(prefix: "rawburst-selftest")
            #expect(other.url != tmp.url)
        }
        if ProcessInfo.processInfo.environment["RAWBURST_KEEP_TEMP"] != "1" {
            #expect(!FileManager.default.fileExists(atPath: try #require(url).path), "removed on deinit")
        }
    }

    @Test("The shared sample raws are where TestPaths says", .enabled(if: samplesPresent))
    func sharedSamples() throws {
        let g2 = try #require(Self.g2)
        #expect(g2.deletingLastPathComponent() == TestPaths.sharedSamples)
    }

    // MARK: exiftool

    @Test("exiftool: group-qualified tags of a real DNG", .enabled(if: ToolAvailability.has("exiftool") && samplesPresent))
    func exiftoolTags() throws {
        let tags = try ExifTool.tags(of: try #require(Self.ml550d))
        #expect(tags["IFD0:Make"]?.string == "Canon")
        #expect(tags["IFD0:Model"]?.string == "Canon EOS Kiss X4")
        #expect(tags["IFD0:BitsPerSample"]?.int == 14)
        #expect(tags["IFD0:BlackLevel"]?.int == 2056)
        #expect(tags["IFD0:WhiteLevel"]?.int == 15000)
        #expect(tags["IFD0:ActiveArea"]?.numbers == [26, 152, 1182, 1886])
        #expect(tags["IFD0:CFAPattern2"]?.numbers == [0, 1, 1, 2])
        #expect(tags["IFD0:DNGVersion"]?.numbers == [1, 1, 0, 0])
        #expect(tags["IFD0:ColorMatrix1"]?.numbers?.count == 9)
        #expect(tags["ExifIFD:ExifVersion"]?.string == "0221")
        #expect(tags["File:FileType"]?.string == "DNG")
        #expect(try ExifTool.version().first?.isNumber == true)
    }

    @Test("exiftool: a missing file is an error, not an empty tag list", .enabled(if: ToolAvailability.has("exiftool")))
    func exiftoolMissingFile() {
        #expect(throws: ExternalToolError.self) { try ExifTool.tags(of: "/nonexistent/file.dng") }
        #expect(throws: ExternalToolError.self) { try ExifTool.validate("/nonexistent/file.dng") }
    }

    @Test("exiftool -validate: OK files give no problems, others list each warning",
          .enabled(if: ToolAvailability.has("exiftool") && samplesPresent))
    func exiftoolValidate() throws {
        #expect(try ExifTool.validate(try #require(Self.g2)) == [])
        let problems = try ExifTool.validate(try #require(Self.ml550d))
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.allSatisfy { $0.hasPrefix("Warning: [minor]") })
        #expect(problems.contains("Warning: [minor] Undefined value for IFD0:BaselineExposure"))
    }

    // MARK: raw-identify and dcraw

    @Test("raw-identify: sizes, pattern, camera and exposure of the PowerShot G2 CRW",
          .enabled(if: ToolAvailability.has("raw-identify") && samplesPresent))
    func rawIdentifyG2() throws {
        let r = try RawIdentify.identify(try #require(Self.g2))
        #expect(r.camera == "Canon PowerShot G2")
        #expect(r.make == "Canon" && r.model == "PowerShot G2")
        #expect(r.rawSize == PixelSize(width: 2376, height: 1728))
        #expect(r.imageSize == PixelSize(width: 2312, height: 1720))
        #expect(r.outputSize == PixelSize(width: 2312, height: 1720))
        #expect(r.filterPattern == "RGGBRGGBRGGBRGGB" && r.bayerPattern == "RGGB")
        #expect(r.iso == 50)
        #expect(close(try #require(r.shutter), 1 / 50.4))
        #expect(r.aperture == 4 && r.focalLength == 7)
        #expect(r.pixelAspectRatio == nil && r.dngVersion == nil)
        #expect(r.flip == 0 && r.rawColors == 3 && r.rawImageCount == 1)
        #expect(r.value("SensorLeftBorder") == "32")
    }

    @Test("raw-identify: black and white levels of a DNG, and a non-square-pixel KDC",
          .enabled(if: ToolAvailability.has("raw-identify") && samplesPresent))
    func rawIdentifyLevelsAndAspect() throws {
        let dng = try RawIdentify.identify(try #require(Self.ml550d))
        #expect(dng.blackLevel == 2056)
        #expect(dng.linearityLimits == [15000, 15000, 15000, 0])
        #expect(dng.dngVersion == "1.1.0.0")
        #expect(dng.rawSize == PixelSize(width: 1888, height: 1182))
        #expect(dng.imageSize == PixelSize(width: 1734, height: 1156))
        #expect(dng.make == "Canon" && dng.model == "EOS Kiss X4")
        let kdc = try RawIdentify.identify(try #require(Self.kodak))
        #expect(kdc.pixelAspectRatio == 1.534591)
        #expect(kdc.bayerPattern == "GRBG")
        #expect(kdc.outputSize == PixelSize(width: 1301, height: 976))
        #expect(kdc.iso == 160 && kdc.aperture == 4 && kdc.focalLength == 37)
    }

    @Test("raw-identify: a file it cannot decode is an error although it exits 0",
          .enabled(if: ToolAvailability.has("raw-identify") && TestPaths.sharedSample("stubs/header-only.raf") != nil))
    func rawIdentifyRejects() throws {
        let raf = try #require(TestPaths.sharedSample("stubs/header-only.raf"))
        #expect(try ExternalTool.run("raw-identify", ["-v", raf.path]).exitStatus == 0)
        #expect(throws: ExternalToolError.self) { try RawIdentify.identify(raf) }
    }

    @Test("dcraw -i -v: identification, with dcraw's own field formats",
          .enabled(if: ToolAvailability.has("dcraw") && samplesPresent))
    func dcrawIdentify() throws {
        let r = try DCRaw.identify(try #require(Self.g2))
        #expect(r.camera == "Canon PowerShot G2")
        #expect(r.filterPattern == "RG/GB" && r.bayerPattern == "RGGB")
        #expect(r.rawSize == PixelSize(width: 2376, height: 1728))
        #expect(r.imageSize == PixelSize(width: 2312, height: 1720))
        #expect(close(try #require(r.shutter), 1 / 50.4))
        #expect(r.aperture == 4 && r.focalLength == 7 && r.iso == 50)
        let kdc = try DCRaw.identify(try #require(Self.kodak))
        #expect(kdc.pixelAspectRatio == 1.534591 && kdc.bayerPattern == "GRBG")
        if let raf = TestPaths.sharedSample("stubs/header-only.raf") {
            #expect(throws: ExternalToolError.self) { try DCRaw.identify(raf) }
        }
    }

    @Test("dcraw decodes to a TIFF file, developed and as a 16-bit raw mosaic",
          .enabled(if: ToolAvailability.has("dcraw") && samplesPresent))
    func dcrawDecode() throws {
        let tmp = try TemporaryDirectory()
        let developed = try DCRaw.decode(try #require(Self.g2), to: tmp.file("g2.tiff"))
        #expect(developed.succeeded, "\(developed.process)")
        #expect(developed.outputSize > 2312 * 1720 * 3) // 8-bit RGB plus a header
        let mosaic = try DCRaw.decode(try #require(Self.g2), mode: .rawMosaic16, to: tmp.file("g2-raw.tiff"))
        #expect(mosaic.succeeded, "\(mosaic.process)")
        #expect(mosaic.outputSize > 2312 * 1720 * 2) // one 16-bit sample per pixel
        let head = try FileHandle(forReadingFrom: mosaic.output).read(upToCount: 4)
        #expect(head == Data("MM\0*".utf8) || head == Data("II*\0".utf8))
        let missing = try DCRaw.decode("/nonexistent.crw", to: tmp.file("none.tiff"))
        #expect(!missing.succeeded && missing.outputSize == 0)
    }

    // MARK: darktable and Python

    @Test("darktable-cli exports a JPEG with a private config dir; a missing input fails",
          .enabled(if: ToolAvailability.has("darktable-cli") && samplesPresent), .timeLimit(.minutes(5)))
    func darktable() throws {
        let tmp = try TemporaryDirectory()
        let ok = try Darktable.export(try #require(Self.g2), to: tmp.file("g2.jpg"))
        #expect(ok.succeeded, "\(ok.log)")
        #expect(ok.outputSize > 10_000)
        #expect(throws: ExternalToolError.self) { try Darktable.export(try #require(Self.g2), to: tmp.file("g2.jpg")) }
        let bad = try Darktable.export("/nonexistent/input.dng", to: tmp.file("bad.jpg"))
        #expect(!bad.succeeded)
    }

    @Test("Python: JSON answers, tracebacks as errors, module detection",
          .enabled(if: ToolAvailability.has("python3")))
    func python() throws {
        let answer = try Python.json(script: "import json, sys; print(json.dumps({'args': sys.argv[1:], 'n': 3}))",
                                     arguments: ["x", "y z"])
        #expect(answer["args"] == .array([.string("x"), .string("y z")]))
        #expect(answer["n"]?.int == 3)
        #expect(throws: ExternalToolError.self) { try Python.json(script: "raise SystemExit(2)") }
        #expect(throws: ExternalToolError.self) { try Python.json(script: "print('not json')") }
        #expect(Python.hasModule("json"))
        #expect(!Python.hasModule("rawburst_no_such_module"))
        #expect(!Python.hasModule("os; import sys"))
        let tmp = try TemporaryDirectory()
        let script = tmp.file("s.py")
        try Data("import json, sys\nprint(json.dumps(len(sys.argv)))\n".utf8).write(to: script)
        #expect(try Python.json(scriptFile: script, arguments: ["a", "b"]) == .int(3))
    }

    @Test("rawpy reads the G2 raw with the same sizes LibRaw reports",
          .enabled(if: ToolAvailability.hasPythonModules("rawpy") && samplesPresent))
    func rawpy() throws {
        let info = try Python.json(script: """
            import json, sys, rawpy
            with rawpy.imread(sys.argv[1]) as raw:
                s = raw.sizes
                print(json.dumps({"raw": [s.raw_width, s.raw_height], "image": [s.width, s.height],
                                  "pattern": "".join("RGBG"[c] for c in raw.raw_pattern.flatten()),
                                  "white": int(raw.white_level), "black": [int(b) for b in raw.black_level_per_channel]}))
            """, arguments: [try #require(Self.g2).path])
        #expect(info["raw"]?.numbers == [2376, 1728])
        #expect(info["image"]?.numbers == [2312, 1720])
        #expect(info["pattern"]?.string == "RGGB") // rawpy numbers the second green 3
        #expect(info["white"]?.int == 1023)
    }
}
