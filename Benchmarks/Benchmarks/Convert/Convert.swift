#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Benchmark
import BenchSupport
import CLibRawBench
import RawBurst

// Benchmark 2: converting a real camera raw (Canon PowerShot G2 CRW) to DNG, against LibRaw alone.
//
// Goal (from the issue): the whole conversion ≤ 1.2 × LibRaw's `open_file` + `unpack` of the same file,
// measured in the same run. `RawFileReader.read` alone is measured too, so the read/write split shows.
// See docs/benchmarks.md.

/// Scratch directory of the conversion benchmark (setup, iterations and teardown run one after the other).
final class ConvertState: @unchecked Sendable {
    var directory = ""
    var dngBytes: [UInt8] = []
    var decoded: RawImage?
    /// Issue #18: the 12 MP input DNG (uncompressed, as `capture --compression none` writes it).
    var large = ""
}

let state = ConvertState()

let sampleName = "canon-powershot-g2.crw"

struct LibRawFailure: Error, CustomStringConvertible {
    let step: String
    let status: Int32
    var description: String { "LibRaw \(step) failed: \(String(cString: libraw_strerror(status)))" }
}

/// What LibRaw must do anyway: identify the file and decode the mosaic into its raw buffer.
func libRawUnpack(_ path: String) throws -> Int {
    guard let handle = libraw_init(0) else { throw LibRawFailure(step: "init", status: LIBRAW_UNSPECIFIED_ERROR.rawValue) }
    defer { libraw_close(handle) }
    var status = libraw_open_file(handle, path)
    guard status == LIBRAW_SUCCESS.rawValue else { throw LibRawFailure(step: "open_file", status: status) }
    status = libraw_unpack(handle)
    guard status == LIBRAW_SUCCESS.rawValue else { throw LibRawFailure(step: "unpack", status: status) }
    return Int(handle.pointee.sizes.raw_width) * Int(handle.pointee.sizes.raw_height)
}

/// `open` + `write` + `fsync` + `close` of `bytes`: the least any converter must add to LibRaw to leave a file
/// of that size durable on disk.
func plainWrite(_ bytes: [UInt8], to path: String) -> Int {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    precondition(fd >= 0, "cannot create \(path)")
    defer { close(fd) }
    var done = 0
    bytes.withUnsafeBytes { raw in
        while done < raw.count {
            let n = write(fd, raw.baseAddress! + done, raw.count - done)
            if n < 0 && errno == EINTR { continue }
            precondition(n > 0, "cannot write \(path)")
            done += n
        }
    }
    precondition(fsync(fd) == 0, "cannot fsync \(path)")
    return done
}

/// Issue #18 item 8: a 12 MP 12-bit frame of the simulated phone-wide sensor written as an uncompressed DNG in
/// `directory` (what `rawburst capture --frames 1 --compression none` makes).
func writeLargeInput(in directory: String) throws -> String {
    let sensor = try SimulatedSensor(profile: SensorProfile.builtIn(named: "phone-wide")!, scene: SceneCatalog.scene(named: "depth"),
                                     seed: 1)
    try sensor.configure(CaptureSettings(iso: 100, shutter: 1.0 / 60, focus: .metres(2)))
    let frame = try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame))
    let path = directory + "/input-12mp.dng"
    try DNGWriter().write(frame.image, to: path)
    return path
}

/// `rawburst convert`'s own path (RawConverter, default 1024 px preview) with `compression`.
func convertLarge(_ compression: DNGCompression) -> RawConverter.Result {
    var options = converterOptions()
    options.previewLongEdge = 1024
    options.compression = compression
    return RawConverter(writerOptions: options).convert(ConversionJob(input: state.large, output: state.directory + "/out.dng"))
}

func converterOptions() -> DNGWriter.Options {
    var options = DNGWriter.Options()
    options.overwrite = true
    return options
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], // never ARC metrics here
        timeUnits: .milliseconds,
        warmupIterations: 2,
        maxDuration: .seconds(10),
        maxIterations: 50
    )
    let input = BenchSupport.sample(sampleName)

    Benchmark("LibRaw open+unpack (CRW, baseline)") { benchmark in
        blackHole(try libRawUnpack(input))
    }

    Benchmark("RawFileReader.read (CRW)") { benchmark in
        let image = try RawFileReader().read(path: input)
        blackHole(image.frame.width)
    }

    Benchmark("Convert CRW to DNG (read + DNGWriter)") { benchmark in
        let image = try RawFileReader().read(path: input)
        let report = try DNGWriter(options: converterOptions()).write(image, to: state.directory + "/g2.dng")
        blackHole(report.bytes)
    } setup: {
        state.directory = BenchSupport.makeScratchDirectory("convert")
    } teardown: {
        BenchSupport.removeScratchDirectory(state.directory)
    }

    // The write half alone, on the frame decoded once in setup: where the time beyond LibRaw goes.
    Benchmark("DNGWriter of the decoded CRW frame (write half)") { benchmark in
        let report = try DNGWriter(options: converterOptions()).write(state.decoded!, to: state.directory + "/g2.dng")
        blackHole(report.bytes)
    } setup: {
        state.directory = BenchSupport.makeScratchDirectory("convert-write")
        state.decoded = try RawFileReader().read(path: input)
    } teardown: {
        BenchSupport.removeScratchDirectory(state.directory)
        state.decoded = nil
    }

    // Issue #18 item 8: a 12 MP DNG converted as `rawburst convert` does (1024 px preview, digest), against LibRaw's
    // own unpack of the same file (what `unprocessed_raw` does before writing its TIFF).
    Benchmark("LibRaw open+unpack 12 MP DNG (baseline)") { _ in
        blackHole(try libRawUnpack(state.large))
    } setup: {
        state.directory = BenchSupport.makeScratchDirectory("convert-12mp-libraw")
        state.large = try writeLargeInput(in: state.directory)
    } teardown: {
        BenchSupport.removeScratchDirectory(state.directory)
    }

    for compression in [DNGCompression.none, .lj92] {
        Benchmark("Convert 12 MP DNG to DNG, \(compression.rawValue) (RawConverter, 1024 px preview)") { _ in
            let result = convertLarge(compression)
            precondition(result.succeeded, result.error ?? "")
            blackHole(result.bytes)
        } setup: {
            state.directory = BenchSupport.makeScratchDirectory("convert-12mp-\(compression.rawValue)")
            state.large = try writeLargeInput(in: state.directory)
        } teardown: {
            BenchSupport.removeScratchDirectory(state.directory)
        }
    }

    // The floor for the goal: LibRaw's unpack plus a plain durable write of as many bytes as the converted DNG
    // (taken from one unmeasured conversion in setup).
    Benchmark("LibRaw open+unpack + plain write+fsync of the DNG's size") { benchmark in
        blackHole(try libRawUnpack(input))
        blackHole(plainWrite(state.dngBytes, to: state.directory + "/plain.bin"))
    } setup: {
        state.directory = BenchSupport.makeScratchDirectory("convert-floor")
        let probe = state.directory + "/probe.dng"
        let image = try RawFileReader().read(path: input)
        let report = try DNGWriter(options: converterOptions()).write(image, to: probe)
        let fd = open(probe, O_RDONLY)
        var bytes = [UInt8](repeating: 0, count: report.bytes)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        close(fd)
        unlink(probe)
        precondition(n == report.bytes, "could not read back the probe DNG")
        state.dngBytes = bytes
        print("converted DNG size: \(report.bytes) bytes")
    } teardown: {
        BenchSupport.removeScratchDirectory(state.directory)
        state.dngBytes = []
    }
}
