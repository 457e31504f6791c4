#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Benchmark
import BenchSupport
import Foundation
import RawBurst

// Issue #5's speed targets, measured side by side in one run (docs/benchmarks.md):
// - a 12 MP raw → sRGB JPEG q90 end to end in at most 1/3 of `dcraw_emu -w -q 3` (LibRaw AHD) on the same file;
// - a 1024-px preview from a 12 MP frame in at most 50 ms.
// The input is a 4032x3024 14-bit DNG of the simulated phone-wide sensor (depth scene), written once in setup.

final class DevelopState: @unchecked Sendable {
    var directory = ""
    var dng = ""
    var image: RawImage?
    var developed: DevelopedImage?
}

let state = DevelopState()

/// Writes the 12 MP input DNG (once per benchmark that needs it) and decodes it.
func prepare(_ label: String, decode: Bool = true, develop: Bool = false) throws {
    state.directory = BenchSupport.makeScratchDirectory(label)
    let sensor = try SimulatedSensor(profile: SensorProfile.builtIn(named: "phone-wide")!, scene: SceneCatalog.scene(named: "depth"),
                                     seed: 1)
    try sensor.configure(CaptureSettings(iso: 100, shutter: 1.0 / 60, focus: .metres(2)))
    let frame = try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame))
    state.dng = state.directory + "/input.dng"
    try DNGWriter().write(frame.image, to: state.dng)
    if decode { state.image = try RawFileReader().read(path: state.dng) }
    if develop { state.developed = try RawDeveloper(settings: settings()).develop(state.image!).image }
}

func cleanUp() {
    BenchSupport.removeScratchDirectory(state.directory)
    state.image = nil
    state.developed = nil
}

/// Runs a command and waits; stops the run when it fails.
func run(_ executable: String, _ arguments: [String]) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { fatalError("cannot start \(executable): \(error)") }
    process.waitUntilExit()
    precondition(process.terminationStatus == 0, "\(executable) \(arguments) failed")
}

/// What `rawburst develop --format jpg` develops with: the default pipeline finishing straight into 8-bit samples.
func settings(_ demosaic: DemosaicMethod = .gradientWeighted) -> DevelopSettings {
    var s = DevelopSettings()
    s.demosaic = demosaic
    s.sampleFormat = .uint8
    return s
}

func jpegWriter() -> ImageFileWriter { ImageFileWriter(format: .jpeg, options: EncodeOptions(quality: 90, overwrite: true)) }

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], // never ARC metrics here
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(15),
        maxIterations: 20
    )

    Benchmark("dcraw_emu -w -q 3 12 MP DNG → PPM (LibRaw AHD, baseline)") { _ in
        run("/usr/bin/dcraw_emu", ["-w", "-q", "3", "-Z", state.directory + "/libraw.ppm", state.dng])
    } setup: { try prepare("develop-dcraw", decode: false) } teardown: { cleanUp() }

    Benchmark("12 MP DNG → sRGB JPEG q90 (read + develop + write)") { _ in
        let image = try RawFileReader().read(path: state.dng)
        let developed = try RawDeveloper(settings: settings()).develop(image).image
        blackHole(try jpegWriter().write(developed, to: state.directory + "/out.jpg").bytes)
    } setup: { try prepare("develop-jpeg", decode: false) } teardown: { cleanUp() }

    Benchmark("RawFileReader.read 12 MP DNG") { _ in
        blackHole(try RawFileReader().read(path: state.dng).frame.width)
    } setup: { try prepare("develop-read", decode: false) } teardown: { cleanUp() }

    for method in [DemosaicMethod.gradientWeighted, .malvarHeCutler, .bilinear] {
        Benchmark("RawDeveloper.develop 12 MP, \(method.rawValue)") { _ in
            blackHole(try RawDeveloper(settings: settings(method)).develop(state.image!).image.width)
        } setup: { try prepare("develop-\(method.rawValue)") } teardown: { cleanUp() }
    }

    // Issue #33: the 16-bit samples `develop --format tiff` makes (the finishing's 16-bit path).
    Benchmark("RawDeveloper.develop 12 MP → 16-bit samples (develop --format tiff), gbtf") { _ in
        var sixteen = settings()
        sixteen.sampleFormat = .uint16
        blackHole(try RawDeveloper(settings: sixteen).develop(state.image!).image.width)
    } setup: { try prepare("develop-16bit") } teardown: { cleanUp() }

    Benchmark("JPEG q90 encode + write 12 MP") { _ in
        blackHole(try jpegWriter().write(state.developed!, to: state.directory + "/out.jpg").bytes)
    } setup: { try prepare("develop-encode", develop: true) } teardown: { cleanUp() }

    Benchmark("HEIF q90 8-bit encode + write 12 MP") { _ in
        let writer = ImageFileWriter(format: .heif, options: EncodeOptions(quality: 90, overwrite: true))
        blackHole(try writer.write(state.developed!, to: state.directory + "/out.heic").bytes)
    } setup: { try prepare("develop-heif", develop: true) } teardown: { cleanUp() }

    // Issue #18: a reduced output costs less than a full one (superpixel path at most about half size; 3000 px
    // demosaics the whole crop and resizes it).
    for longEdge in [2048, 3000] {
        Benchmark("RawDeveloper.develop 12 MP → \(longEdge) px, gbtf") { _ in
            var s = settings()
            s.longEdge = longEdge
            blackHole(try RawDeveloper(settings: s).develop(state.image!).image.width)
        } setup: { try prepare("develop-reduced-\(longEdge)") } teardown: { cleanUp() }
    }

    Benchmark("12 MP DNG → 2048 px sRGB JPEG q90 (read + develop + write)") { _ in
        var s = settings()
        s.longEdge = 2048
        let image = try RawFileReader().read(path: state.dng)
        let developed = try RawDeveloper(settings: s).develop(image).image
        blackHole(try jpegWriter().write(developed, to: state.directory + "/out.jpg").bytes)
    } setup: { try prepare("develop-jpeg-2048", decode: false) } teardown: { cleanUp() }

    Benchmark("RawDeveloper.preview 1024 px from 12 MP") { _ in
        blackHole(try RawDeveloper(settings: settings()).preview(state.image!, longEdge: 1024).width)
    } setup: { try prepare("develop-preview") } teardown: { cleanUp() }

    monochromeBenchmarks()
}
