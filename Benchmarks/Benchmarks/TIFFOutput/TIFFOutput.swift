import Benchmark
import BenchSupport
import Foundation
import RawBurst

#if canImport(Glibc)
import Glibc
#endif

// Issue #18 item 8: a developed 12 MP 16-bit picture written as TIFF with each `TIFFCompression`, against nothing
// else (the sizes are printed in setup). docs/benchmarks.md, "Convert without waste".
// Issue #33: the uncompressed TIFF output stage (the developed picture in memory → a durable file under its name)
// against a durable write of the same byte count as `dd bs=4M conv=fsync` makes it (4 MiB writes, one fsync), and
// each without its fsync, to see where the time goes. docs/benchmarks.md, "Issue #33: TIFF output".

/// The developed picture and the scratch folder (setup, iterations and teardown run one after the other).
final class TIFFState: @unchecked Sendable {
    var directory = ""
    var picture: DevelopedImage?
    /// The uncompressed TIFF's size: the byte count the plain writes write.
    var bytes = 0
    /// 4 MiB of bytes to write, as dd's block.
    var block: [UInt8] = []
}

/// Writes `state.bytes` bytes to `path` in 4 MiB writes (a new file, or truncated), then fsyncs it when `durable`:
/// what `dd if=/dev/zero of=PATH bs=4M count=N iflag=count_bytes conv=fsync` does.
func plainWrite(to path: String, durable: Bool) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    precondition(fd >= 0, "cannot create \(path)")
    var left = state.bytes
    state.block.withUnsafeBytes { block in
        while left > 0 {
            let n = write(fd, block.baseAddress, min(left, block.count))
            precondition(n > 0, "write failed")
            left -= n
        }
    }
    if durable { precondition(fsync(fd) == 0, "fsync failed") }
    close(fd)
}

/// The picture and the byte count, once per benchmark (setup).
func prepare(_ label: String) throws {
    state.directory = BenchSupport.makeScratchDirectory(label)
    state.picture = try developedPicture()
    let path = state.directory + "/probe.tif"
    try writer(.none).write(state.picture!, to: path)
    state.bytes = BenchSupport.fileSize(path) ?? 0
    state.block = [UInt8](repeating: 0, count: 4 << 20)
}

func finish() {
    BenchSupport.removeScratchDirectory(state.directory)
    state.picture = nil
}

let state = TIFFState()

/// Develops the simulated phone-wide sensor's 12 MP frame to 16-bit sRGB, as `develop --format tiff` does.
func developedPicture() throws -> DevelopedImage {
    let sensor = try SimulatedSensor(profile: SensorProfile.builtIn(named: "phone-wide")!, scene: SceneCatalog.scene(named: "depth"),
                                     seed: 1)
    try sensor.configure(CaptureSettings(iso: 100, shutter: 1.0 / 60, focus: .metres(2)))
    let frame = try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame))
    var settings = DevelopSettings()
    settings.sampleFormat = .uint16
    return try RawDeveloper(settings: settings).develop(frame.image).image
}

func writer(_ compression: TIFFCompression) -> ImageFileWriter {
    ImageFileWriter(format: .tiff, options: EncodeOptions(overwrite: true, tiffCompression: compression))
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], // never ARC metrics here
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(10),
        maxIterations: 20
    )
    for compression in TIFFCompression.allCases {
        Benchmark("TIFF 12 MP 16-bit, \(compression) (write + fsync)") { _ in
            blackHole(try writer(compression).write(state.picture!, to: state.directory + "/out.tif"))
        } setup: {
            state.directory = BenchSupport.makeScratchDirectory("tiff-\(compression)")
            state.picture = try developedPicture()
            let path = state.directory + "/probe.tif"
            try writer(compression).write(state.picture!, to: path)
            print("TIFF 12 MP 16-bit, \(compression): \(BenchSupport.fileSize(path) ?? 0) bytes")
        } teardown: {
            BenchSupport.removeScratchDirectory(state.directory)
            state.picture = nil
        }
    }

    // Issue #33: the stage and its yardstick, each with and without the fsync.
    Benchmark("TIFF output stage 12 MP 16-bit, uncompressed (ImageFileWriter: encode, fsync, rename, directory fsync)") { _ in
        blackHole(try writer(.none).write(state.picture!, to: state.directory + "/out.tif"))
    } setup: { try prepare("stage") } teardown: { finish() }

    Benchmark("Durable write of the same bytes (4 MiB writes + fsync, as dd bs=4M conv=fsync)") { _ in
        plainWrite(to: state.directory + "/plain.bin", durable: true)
    } setup: { try prepare("plain") } teardown: { finish() }

    Benchmark("TIFF encode 12 MP 16-bit into a file, uncompressed, no fsync (TIFFEncoder)") { _ in
        try TIFFEncoder().write(state.picture!, toTemporaryPath: state.directory + "/encoded.tif",
                                reportingAs: state.directory + "/encoded.tif")
    } setup: { try prepare("encode") } teardown: { finish() }

    Benchmark("Write of the same bytes, no fsync (4 MiB writes)") { _ in
        plainWrite(to: state.directory + "/plain.bin", durable: false)
    } setup: { try prepare("plain-nosync") } teardown: { finish() }
}
