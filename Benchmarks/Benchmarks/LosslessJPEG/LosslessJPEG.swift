#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Benchmark
import BenchSupport
import Foundation
import RawBurst

// Issue #7's lossless-JPEG targets, measured side by side in one run (docs/benchmarks.md):
// - against the lj92 encoder PiDNG ships, on the identical 12 MP frame: size within 3 %, encode speed per core
//   at least 1.5x (the references run in Python, timed around the C call: custom metrics `ms` and `bytes`);
// - our tile encoder on one thread and on all cores, our tile decoder (RawFileReader) against LibRaw's, and whole
//   DNG writes with and without compression.
// The frame: the simulated phone-wide sensor (4032x3024, 12-bit, depth scene, ISO 100), written once in setup.

final class LJ92State: @unchecked Sendable {
    var directory = ""
    var image: RawImage?
    var samples = ""
    var lj92DNG = ""
}

let state = LJ92State()

func prepare(_ label: String) throws {
    state.directory = BenchSupport.makeScratchDirectory(label)
    let sensor = try SimulatedSensor(profile: SensorProfile.builtIn(named: "phone-wide")!,
                                     scene: SceneCatalog.scene(named: "depth"), seed: 1)
    try sensor.configure(CaptureSettings(iso: 100, shutter: 1.0 / 60, focus: .metres(2)))
    let image = try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame)).image
    state.image = image
    let frame = image.frame
    state.samples = state.directory + "/frame.u16"
    FileManager.default.createFile(atPath: state.samples,
                                   contents: Data(bytes: frame.storage.baseAddress, count: frame.width * frame.height * 2))
    var options = DNGWriter.Options()
    options.compression = .lj92
    state.lj92DNG = state.directory + "/lj92.dng"
    try DNGWriter(options: options).write(image, to: state.lj92DNG)
}

func cleanUp() {
    BenchSupport.removeScratchDirectory(state.directory)
    state.image = nil
}

/// Runs the Python reference encoder and returns its JSON answer.
func reference(_ encoder: String) -> [String: Any] {
    let frame = state.image!.frame
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", BenchSupport.repositoryRoot + "/Benchmarks/Reference/lj92_reference.py", state.samples,
                         "\(frame.width)", "\(frame.height)", "\(frame.bitsPerSample)", encoder, "3"]
    var environment = ProcessInfo.processInfo.environment
    environment["OMP_NUM_THREADS"] = "1"
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { fatalError("cannot start python3: \(error)") }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
          let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        fatalError("the \(encoder) reference failed: \(String(decoding: data, as: UTF8.self))")
    }
    return json
}

/// Encodes the frame's tiles and returns their total size.
func encodeTiles(threads: Int) throws -> Int {
    let frame = state.image!.frame
    let encoder = try LJ92TileEncoder(threads: threads)
    var bytes = 0
    try encoder.encode(frame, precision: LJ92TileEncoder.precision(for: frame)) { _, tile in bytes += tile.count }
    return bytes
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], // never ARC metrics here
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(15),
        maxIterations: 20
    )
    let referenceMetrics: [BenchmarkMetric] = [.custom("ms"), .custom("bytes")]

    for encoder in ["pidng", "imagecodecs"] {
        Benchmark("reference \(encoder) lj92 encode 12 MP, one core (timed in Python)",
                  configuration: .init(metrics: referenceMetrics, warmupIterations: 0, maxIterations: 3)) { benchmark in
            let answer = reference(encoder)
            precondition(answer["exact"] as? Bool == true, "\(encoder) did not round-trip")
            benchmark.measurement(.custom("ms"), Int((answer["milliseconds"] as? Double ?? 0).rounded()))
            benchmark.measurement(.custom("bytes"), answer["bytes"] as? Int ?? 0)
        } setup: { try prepare("lj92-\(encoder)") } teardown: { cleanUp() }
    }

    Benchmark("ours: LJ92 tiles 12 MP, one thread (bytes: custom metric)",
              configuration: .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .custom("bytes")])) { benchmark in
        let bytes = try encodeTiles(threads: 1)
        benchmark.measurement(.custom("bytes"), bytes)
    } setup: { try prepare("lj92-one") } teardown: { cleanUp() }

    Benchmark("ours: LJ92 tiles 12 MP, all cores") { _ in
        blackHole(try encodeTiles(threads: ProcessInfo.processInfo.activeProcessorCount))
    } setup: { try prepare("lj92-all") } teardown: { cleanUp() }

    Benchmark("read the LJ92 DNG: our decoder (tiles on all cores)") { _ in
        blackHole(try RawFileReader().read(path: state.lj92DNG))
    } setup: { try prepare("lj92-read") } teardown: { cleanUp() }

    Benchmark("read the LJ92 DNG: LibRaw's decoder (baseline)") { _ in
        blackHole(try RawFileReader(decodesLosslessJPEGDirectly: false).read(path: state.lj92DNG))
    } setup: { try prepare("lj92-read-libraw") } teardown: { cleanUp() }

    for compression in DNGCompression.allCases {
        Benchmark("write a 12 MP DNG, compression \(compression.rawValue)") { _ in
            var options = DNGWriter.Options()
            options.compression = compression
            options.overwrite = true
            try DNGWriter(options: options).write(state.image!, to: state.directory + "/out.dng")
        } setup: { try prepare("lj92-write-\(compression.rawValue)") } teardown: { cleanUp() }
    }
}
