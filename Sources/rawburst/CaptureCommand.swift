import ArgumentParser
import Foundation
import RawBurst

/// `rawburst capture`: frames from the simulated sensor, written as DNGs with full metadata.
struct CaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Take frames with the simulated sensor and write them as DNG.",
        discussion: """
        Every setting is optional: without --iso/--shutter auto exposure meters the scene, without --focus
        contrast-detect autofocus focuses on --focus-point, without --wb the white balance is estimated from the
        frame. Settings out of the sensor's range are refused before anything is captured.

        Scenes: colorchart, siemens-star, slanted-edge, grey-ramp, depth, hdr, or image:PATH (PNG, JPEG, TIFF).
        Sensors: see `rawburst sensors`.

        Files: OUT/<sensor>-<sequence>.dng. Exit status: 0 all frames written, 1 a frame failed, 2 bad settings.
        """
    )

    @Option(help: "Sensor profile (rawburst sensors lists them).")
    var sensor = "phone-wide"

    @Option(help: "Lens of the profile (default: its first).")
    var lens: String?

    @Option(help: "Scene: colorchart, siemens-star, slanted-edge, grey-ramp, depth, hdr or image:PATH.")
    var scene = "colorchart"

    @Option(help: "ISO speed (default: automatic).")
    var iso: Double?

    @Option(help: "Exposure time, e.g. 1/100, 0.5, 2s (default: automatic).")
    var shutter: String?

    @Option(help: "f-number (default: the lens's widest).")
    var aperture: Double?

    @Option(help: "Focus distance: 1.5m, 0.8, inf (default: autofocus).")
    var focus: String?

    @Option(help: "Autofocus point as x,y in 0...1 (default: 0.5,0.5).")
    var focusPoint: String?

    @Option(name: .customLong("ev"), help: "Exposure compensation in EV, −3...+3 in 0.1 steps.")
    var exposureCompensation: Double = 0

    @Option(help: "Metering: matrix, centre-weighted, spot:X,Y or zone:N (0...8).")
    var metering = "matrix"

    @Option(name: .customLong("wb"), help: "White balance: auto, daylight, cloudy, shade, tungsten, fluorescent, flash, or 5600K[+tint].")
    var whiteBalance = "auto"

    @Option(help: "Noise seed: the same seed gives byte-identical frames.")
    var seed: UInt64 = 0

    @Option(help: "Number of frames.")
    var frames = 1

    @Option(name: .shortAndLong, help: "Output directory (created if missing).")
    var output: String

    @Flag(help: "Replace existing DNGs.")
    var overwrite = false

    @Flag(help: "Print a JSON report on standard output.")
    var json = false

    func validate() throws {
        guard (1...100_000).contains(frames) else { throw ValidationError("--frames must be within 1...100000, not \(frames)") }
    }

    /// The settings the options describe; throws with the option named.
    func captureSettings() throws -> CaptureSettings {
        var s = CaptureSettings()
        s.iso = iso
        s.aperture = aperture
        s.lens = lens
        s.exposureCompensation = exposureCompensation
        if let shutter {
            guard let seconds = ShutterSpeed.parse(shutter), seconds > 0 else {
                throw ValidationError("--shutter: '\(shutter)' is not an exposure time (e.g. 1/100, 0.5, 2s)")
            }
            s.shutter = seconds
        }
        if let focus {
            let text = focus.lowercased()
            if text == "inf" || text == "infinity" {
                s.focus = .infinity
            } else {
                let number = text.hasSuffix("m") ? String(text.dropLast()) : text
                guard let metres = Double(number), metres > 0, metres.isFinite else {
                    throw ValidationError("--focus: '\(focus)' is not a distance (e.g. 1.5m, 0.8, inf)")
                }
                s.focus = .metres(metres)
            }
        }
        if let focusPoint { s.focusPoint = try Self.point(focusPoint, option: "--focus-point") }
        switch metering.lowercased() {
        case "matrix": s.metering = .matrix
        case "centre-weighted", "center-weighted": s.metering = .centreWeighted
        case let m where m.hasPrefix("spot:"): s.metering = .spot(try Self.point(String(m.dropFirst(5)), option: "--metering spot"))
        case let m where m.hasPrefix("zone:"):
            guard let zone = Int(m.dropFirst(5)) else { throw ValidationError("--metering: '\(metering)' has no zone number") }
            s.metering = .zone(zone)
        default: throw ValidationError("--metering: '\(metering)' is not matrix, centre-weighted, spot:X,Y or zone:N")
        }
        guard let wb = WhiteBalanceSetting.parse(whiteBalance) else {
            throw ValidationError("--wb: '\(whiteBalance)' is not auto, a preset (daylight, cloudy, shade, tungsten, fluorescent, flash) or a temperature like 5600K+10")
        }
        s.whiteBalance = wb
        return s
    }

    static func point(_ text: String, option: String) throws -> NormalisedPoint {
        let parts = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2 else { throw ValidationError("\(option): '\(text)' is not X,Y (two numbers in 0...1)") }
        return NormalisedPoint(x: parts[0], y: parts[1])
    }

    func run() throws {
        guard let profile = SensorProfile.builtIn(named: sensor) else {
            Terminal.error("rawburst capture: unknown sensor '\(sensor)' (known: \(SensorProfile.builtIn.map(\.name).joined(separator: ", ")))")
            throw ExitCode(2)
        }
        let settings = try captureSettings()
        let source: SimulatedSensor
        do {
            let sceneValue = try SceneCatalog.scene(named: scene)
            source = try SimulatedSensor(profile: profile, scene: sceneValue, seed: seed)
            try source.configure(settings)
        } catch {
            Terminal.error("rawburst capture: \(error)")
            throw ExitCode(2)
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                Terminal.error("rawburst capture: \(output): exists and is not a directory")
                throw ExitCode(2)
            }
        } else {
            do { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) } catch {
                Terminal.error("rawburst capture: \(output): cannot create the directory: \(error.localizedDescription)")
                throw ExitCode(2)
            }
        }
        var options = DNGWriter.Options()
        options.overwrite = overwrite
        let writer = DNGWriter(options: options)
        let storage = PixelStorage(count: source.samplesPerFrame)
        var written: [CaptureReport.Frame] = []
        var failed = false
        let bar = ProgressBar(total: frames, enabled: Terminal.stderrIsTerminal && !json && frames > 1)
        for index in 0..<frames {
            let started = Date()
            do {
                let frame = try source.nextFrame(into: storage)
                let path = (output as NSString).appendingPathComponent(
                    "\(profile.name)-\(String(format: "%04d", Int(frame.sequenceNumber))).dng")
                let report = try writer.write(frame.image, to: path)
                written.append(CaptureReport.Frame(frame: frame, path: path, bytes: report.bytes,
                                                   seconds: Date().timeIntervalSince(started)))
            } catch {
                failed = true
                bar.finish()
                Terminal.error("error: frame \(index): \(error)")
            }
            bar.update(done: index + 1, label: "frame \(index + 1)", failed: failed ? 1 : 0)
        }
        bar.finish()
        if json {
            Terminal.printJSON(CaptureReport(sensor: profile.name, scene: scene, seed: seed, frames: written))
        } else if let first = written.first {
            let s = first.settings
            print("captured \(written.count) frame\(written.count == 1 ? "" : "s") with \(profile.name) of \(scene): "
                  + "ISO \(Int(s.iso.rounded())), \(ShutterSpeed.describe(s.shutter)), f/\(s.aperture), focus \(s.focus), "
                  + "WB \(s.whiteBalance)" + (s.automatic.isEmpty ? "" : " (auto: \(s.automatic.joined(separator: ", ")))"))
            for f in written { print("  \(f.path)") }
        }
        if failed { throw ExitCode(1) }
    }
}

/// The `--json` report of `capture`.
struct CaptureReport: Encodable {
    struct Frame: Encodable {
        let sequenceNumber: UInt64
        let path: String
        let bytes: Int
        let seconds: Double
        let monotonicNanoseconds: UInt64
        let settings: AppliedSettings

        init(frame: CapturedFrame, path: String, bytes: Int, seconds: Double) {
            sequenceNumber = frame.sequenceNumber
            self.path = path
            self.bytes = bytes
            self.seconds = (seconds * 1000).rounded() / 1000
            monotonicNanoseconds = frame.monotonicNanoseconds
            settings = frame.settings
        }
    }
    let sensor: String
    let scene: String
    let seed: UInt64
    let frames: [Frame]
}
