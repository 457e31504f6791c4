import Foundation
import Synchronization
import Testing
import TestSupport

/// The property of issue #17 "What to build" 2: every option that takes a value, every numeric field of a sensor
/// profile and every axis of a bracketing plan, given huge, tiny, negative, zero, NaN, infinite, empty and
/// non-numeric values, either works (exit status 0) or is refused in one line with exit status 2 — never a
/// signal, never anything created in the output folder.
@Suite("hostile values for every option, profile field and plan (issue #17)")
struct OptionPropertyCLITests {
    /// The values every option and field is fed.
    static let hostile = ["1e308", "9223372036854775808", "1e-300", "-1", "0", "nan", "inf", "-inf", "", "abc"]
    /// Fewer for options whose values are words or paths (the numbers above are only more non-words there).
    static let hostileWords = ["1e308", "-1", "nan", "", "abc"]

    /// Each command's options that take a value (a hand-kept table: `coversHelp` fails when `--help` shows one that
    /// is missing), and whether they are numbers. `nil`: not fed (`stress --keep` takes any folder and would run
    /// every scenario in it); flags are listed too, so the table names every option.
    static let options: [String: [String: Kind?]] = [
        "capture": [
            "--compression": .words, "--cinemadng": .flag, "--reel": .words, "--develop": .words,
            "--develop-size": .number, "--develop-quality": .number, "--develop-look": .words, "--develop-space": .words,
            "--composite": .words, "--composite-stack": .words, "--composite-split": .number, "--composite-border": .number,
            "--composite-border-color": .words, "--pip-corner": .words, "--pip-size": .number, "--sensor": .words,
            "--profile": .words, "--replay": .words, "--lens": .words, "--scene": .words, "--iso": .number,
            "--shutter": .number, "--aperture": .number, "--focus": .number, "--focus-point": .number,
            "--focus-zone": .number, "--ev": .number, "--metering": .words, "--wb": .words, "--preset": .words,
            "--presets": .words, "--fps": .number, "--interval": .number, "--duration": .number, "--late": .words, "--seed": .number,
            "--frames": .number, "--bracket": .words, "--bracket-file": .words, "--output": .words,
            "--memory-budget": .number, "--overflow": .words, "--writers": .number, "--simulate-disk": .words,
            "--simulate-cpu": .number, "--render-ahead": .number, "--simulate-thermal": .words, "--pre-record": .number, "--trigger-after": .number, "--preview": .number,
            "--no-governor": .flag, "--name": .words, "--gps": .number, "--sidecar": .flag, "--analyze": .flag,
            "--overwrite": .flag, "--json": .flag, "--source": .words, "--format": .words, "--size": .words,
            "--stride": .number, "--metadata": .words, "--pts": .words, "--camera": .words, "--pixel-format": .words,
            "--crop": .words, "--trigger": .words, "--trigger-timeout": .number, "--binning": .words, "--balance-ratio": .words,
            "--live": .words, "--live-token": .words, "--live-size": .number, "--ignore-saved-settings": .flag,
            "--orientation": .number, "--mirror": .words,
        ],
        "develop": [
            "--recursive": .flag, "--all-files": .flag, "--output": .words, "--overwrite": .flag, "--format": .words,
            "--quality": .number, "--bits": .number, "--tiff-compression": .words, "--wb": .words, "--demosaic": .words, "--space": .words,
            "--look": .words, "--tone": .words,
            "--exposure": .number, "--no-baseline-exposure": .flag, "--highlights": .words, "--crop": .words,
            "--size": .number, "--no-rotate": .flag, "--linear": .flag, "--jobs": .number, "--composite": .words,
            "--composite-stack": .words, "--composite-split": .number, "--composite-border": .number,
            "--composite-border-color": .words, "--pip-corner": .words, "--pip-size": .number, "--primary": .words,
            "--json": .flag, "--quiet": .flag, "--manifest": .words, "--results": .words, "--resume": .flag, "--shard": .number, "--timeout-per-file": .number, "--exit-with-parent": .number,
                    "--memory-limit-per-file": .number, "--run-id": .words, "--check": .flag,
        ],
        "convert": ["--recursive": .flag, "--all-files": .flag, "--output": .words, "--overwrite": .flag, "--jobs": .number,
                    "--preview": .number, "--compression": .words, "--json": .flag, "--quiet": .flag,
                    "--manifest": .words, "--results": .words, "--resume": .flag, "--shard": .number, "--timeout-per-file": .number, "--exit-with-parent": .number,
                    "--memory-limit-per-file": .number, "--run-id": .words, "--check": .flag],
        "analyze": ["--recursive": .flag, "--all-files": .flag, "--histogram": .flag, "--peaking": .flag, "--zebra": .flag,
                    "--sharpness": .flag, "--best": .number, "--bins": .number, "--peaking-threshold": .number, "--zebra-threshold": .number,
                    "--spot": .number, "--scale": .words, "--png": .words, "--overwrite": .flag, "--json": .flag,
                    "--quiet": .flag, "--manifest": .words, "--results": .words, "--resume": .flag, "--shard": .number, "--timeout-per-file": .number, "--exit-with-parent": .number,
                    "--memory-limit-per-file": .number, "--run-id": .words, "--check": .flag],
        "inspect": ["--validate": .flag, "--json": .flag, "--tags": .flag],
        "recover": ["--json": .flag, "--force": .flag],
        "stress": ["--scenario": .words, "--quick": .flag, "--sensor": .words, "--profile": .words, "--writers": .number,
                   "--keep": nil, "--json": .flag],
        "sensors": ["--json": .flag],
        "cameras": ["--json": .flag],
        "storage": ["--file-size": .number, "--seconds": .number, "--no-cache": .flag, "--json": .flag],
    ]

    /// How an option is fed.
    enum Kind: Sendable { case number, words, flag }

    @Test("the table names every option --help shows, for every command")
    func coversHelp() throws {
        for (command, table) in Self.options {
            let help = try CLI.run([command, "--help"])
            #expect(help.exitStatus == 0)
            var shown = Set<String>()
            for line in help.stdout.split(separator: "\n") where line.hasPrefix("  -") {
                let first = line.split(separator: " ").first { $0.hasPrefix("--") }
                if let name = first.map({ String($0.prefix { $0 != "," && $0 != " " }) }) { shown.insert(name) }
            }
            shown.subtract(["--help", "--version"])
            #expect(!shown.isEmpty)
            #expect(shown.subtracting(table.keys).isEmpty, "\(command): options missing from the table: \(shown.subtracting(table.keys).sorted())")
        }
    }

    /// One run: the arguments, the folder that must stay as it was on a refusal, and that folder's entries before.
    struct Run: Sendable {
        let arguments: [String]
        let output: URL
    }

    /// Runs every case in parallel (a few at a time) from `scratch` and checks each: exit 0, or exit 2 with one
    /// stderr line and `output` unchanged; never a signal or a time-out.
    static func check(_ runs: [Run], scratch: URL) {
        let problems = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for run in runs.enumerated().filter({ $0.offset % 4 == worker }).map(\.element) {
                // A folder that did not exist must not exist after a refusal (an empty new folder lists like a missing one).
                let existed = FileManager.default.fileExists(atPath: run.output.path)
                let before = (try? FileManager.default.contentsOfDirectory(atPath: run.output.path)) ?? []
                let result: ProcessResult
                do { result = try CLI.run(run.arguments, in: scratch, timeout: 60) } catch {
                    problems.withLock { $0.append("\(run.arguments): \(error)") }
                    continue
                }
                let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
                var problem: String?
                if result.terminatedBySignal {
                    problem = "signal \(result.exitStatus)"
                } else if result.exitStatus == 2 {
                    let after = (try? FileManager.default.contentsOfDirectory(atPath: run.output.path)) ?? []
                    if lines.count != 2 || !lines[1].isEmpty { problem = "not one line: \(result.stderr)" }
                    if after.sorted() != before.sorted() { problem = "created \(Set(after).subtracting(before).sorted())" }
                    if !existed && FileManager.default.fileExists(atPath: run.output.path) { problem = "created \(run.output.path)" }
                } else if result.exitStatus != 0 {
                    problem = "exit status \(result.exitStatus): \(result.stderr.prefix(300))"
                }
                if let problem { problems.withLock { $0.append("\(run.arguments.joined(separator: " ")): \(problem)") } }
            }
        }
        let found = problems.withLock { $0 }
        #expect(found.isEmpty, "\(found.count) of \(runs.count) runs broke the property:\n\(found.prefix(40).joined(separator: "\n"))")
    }

    @Test("every option of every command")
    func everyOption() throws {
        let tmp = try TemporaryDirectory()
        let dng = try TinyCamera.dng(in: tmp.url)
        let profile = try TinyCamera.writeProfile(in: tmp.url)
        var runs: [Run] = []
        for (command, table) in Self.options.sorted(by: { $0.key < $1.key }) {
            for (option, kind) in table.sorted(by: { $0.key < $1.key }) {
                guard let kind, kind != .flag else { continue }
                for value in kind == .number ? Self.hostile : Self.hostileWords {
                    let out = tmp.url.appendingPathComponent("out-\(runs.count)")
                    let base: [String]
                    switch command {
                    case "capture":
                        // The option under test replaces the same option of the quick capture.
                        var quick = TinyCamera.quickCapture
                        if let at = quick.firstIndex(of: option) { quick.removeSubrange(at...at + 1) }
                        base = ["capture", "--profile", profile] + quick
                            + (option == "--output" ? [] : ["-o", out.path])
                    case "develop", "convert":
                        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
                        base = [command, dng] + (option == "--output" ? [] : ["-o", out.path])
                    case "analyze":
                        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
                        base = [command, dng] + (option == "--png" ? [] : ["--png", out.path])
                    case "storage":
                        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
                        base = [command, out.path]
                    default:
                        base = [command, "--quick", "--scenario", "thermal", "--keep", out.path]
                    }
                    runs.append(Run(arguments: base + [option, value], output: out))
                }
            }
        }
        Self.check(runs, scratch: tmp.url)
    }

    /// The numeric fields of a profile: its own, its first lens's and its first red lobe's.
    static let profileFields = ["width", "height", "bitsPerSample", "blackLevel", "fullWellElectrons", "readNoiseElectrons",
                                "baseISO", "maximumISO", "shortestShutter", "longestShutter", "maximumFrameRate",
                                "pixelPitchMicrons", "lenses.0.focalLength", "lenses.0.widestAperture",
                                "lenses.0.narrowestAperture", "lenses.0.minimumFocusDistance", "lenses.0.horizontalFieldOfView",
                                "lenses.0.vignetting", "lenses.0.transmission", "sensitivity.red.0.peak",
                                "sensitivity.red.0.width", "sensitivity.red.0.weight", "sensitivity.infraredCutoff"]

    /// `json` with the field at `path` (dot-separated keys and indices) replaced by `literal` (JSON text, which may be
    /// invalid JSON such as NaN: that is one of the cases).
    static func replacing(_ path: String, in json: String, with literal: String) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let marker = "@@HOSTILE@@"
        func set(_ value: Any, keys: ArraySlice<Substring>) -> Any {
            guard let key = keys.first else { return marker }
            if var array = value as? [Any], let index = Int(key) {
                array[index] = set(array[index], keys: keys.dropFirst())
                return array
            }
            var dictionary = value as? [String: Any] ?? [:]
            dictionary[String(key)] = set(dictionary[String(key)] as Any, keys: keys.dropFirst())
            return dictionary
        }
        object = set(object, keys: path.split(separator: ".")[...]) as? [String: Any] ?? object
        let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        return text.replacingOccurrences(of: "\"\(marker)\"", with: literal)
    }

    @Test("every numeric field of a sensor profile, and every axis of a bracketing plan (--bracket and --bracket-file)")
    func profileAndPlan() throws {
        let tmp = try TemporaryDirectory()
        let json = try TinyCamera.profileJSON()
        let literals = ["1e308", "9223372036854775808", "1e-300", "-1", "0", "NaN", "Infinity", "-Infinity", "\"\"", "\"abc\""]
        var runs: [Run] = []
        for field in Self.profileFields {
            for literal in literals {
                let profile = try TinyCamera.writeProfile(in: tmp.url, text: try Self.replacing(field, in: json, with: literal))
                let out = tmp.url.appendingPathComponent("out-\(runs.count)")
                runs.append(Run(arguments: ["capture", "--profile", profile, "-o", out.path] + TinyCamera.quickCapture, output: out))
            }
        }
        let profile = try TinyCamera.writeProfile(in: tmp.url)
        var quick = TinyCamera.quickCapture
        quick.removeSubrange(quick.firstIndex(of: "--frames")!...quick.firstIndex(of: "--frames")! + 1)
        for axis in ["ev", "iso", "shutter", "focus", "wb", "repeat"] {
            for value in Self.hostile {
                let plan = "\(axis):\(value)"
                let out = tmp.url.appendingPathComponent("out-\(runs.count)")
                runs.append(Run(arguments: ["capture", "--profile", profile, "--bracket", plan, "-o", out.path] + quick, output: out))
                let file = tmp.url.appendingPathComponent("plan-\(runs.count).json")
                try JSONSerialization.data(withJSONObject: ["plan": plan]).write(to: file)
                let fileOut = tmp.url.appendingPathComponent("out-\(runs.count)")
                runs.append(Run(arguments: ["capture", "--profile", profile, "--bracket-file", file.path, "-o", fileOut.path] + quick,
                                output: fileOut))
            }
        }
        Self.check(runs, scratch: tmp.url)
    }

    /// The fields of a camera profile, fed hostile values on a raw stream read from a file.
    static let cameraProfileFields = ["colorMatrix1.0", "colorMatrix1", "illuminant1", "colorMatrix2.4", "illuminant2",
                                      "forwardMatrix1.0", "baselineExposure", "blackLevel", "whiteLevel", "bitsPerSample",
                                      "gain.unit", "gain.points.0.gain", "gain.points.1.iso", "gain.points", "name", "model"]

    @Test("every field of a camera profile (--profile with --source)")
    func cameraProfile() throws {
        let tmp = try TemporaryDirectory()
        let input = try CameraProfileCLITests.streamInput(frames: 1, in: tmp)
        let meta = tmp.url.appendingPathComponent("meta.json")
        try Data("[{\"ExposureTime\": 10000, \"AnalogueGain\": 2.0}]".utf8).write(to: meta)
        let json = """
            {"name": "hostile", "model": "M", "colorMatrix1": [0.9, -0.3, -0.1, -0.4, 1.2, 0.2, -0.1, 0.2, 0.6],
             "illuminant1": "A", "colorMatrix2": [0.7, -0.1, -0.05, -0.5, 1.26, 0.2, -0.15, 0.26, 0.62], "illuminant2": 21,
             "forwardMatrix1": [0.6142, 0.3, 0.05, 0.25, 0.7, 0.05, 0.05, 0.05, 0.7249],
             "forwardMatrix2": [0.6142, 0.3, 0.05, 0.25, 0.7, 0.05, 0.05, 0.05, 0.7249], "baselineExposure": 0.5,
             "blackLevel": 256, "whiteLevel": 4000, "bitsPerSample": 12,
             "gain": {"unit": "dB", "points": [{"gain": 0, "iso": 100}, {"gain": 12, "iso": 400}]}}
            """
        let literals = ["1e308", "9223372036854775808", "1e-300", "-1", "0", "NaN", "Infinity", "\"\"", "\"abc\"", "[]", "{}", "null"]
        var runs: [Run] = []
        for field in Self.cameraProfileFields {
            for literal in literals {
                let profile = tmp.url.appendingPathComponent("camera-\(runs.count).json")
                try Data(try Self.replacing(field, in: json, with: literal).utf8).write(to: profile)
                let out = tmp.url.appendingPathComponent("out-\(runs.count)")
                runs.append(Run(arguments: ["capture", "--source", input.path, "--format", "SRGGB12_CSI2P", "--size", "64x48",
                                            "--metadata", meta.path, "--profile", profile.path, "-o", out.path, "--late", "wait",
                                            "--memory-budget", "64MiB"], output: out))
            }
        }
        Self.check(runs, scratch: tmp.url)
    }
}
