#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Benchmark
import BenchSupport
import Foundation
import RawBurst

// Benchmark 1: writing one 12 MP 14-bit frame as a DNG, against writing the same number of bytes plainly.
//
// Goal (from the issue): DNGWriter ≤ 1.25 × the plain `open`/`write`/`fsync`/`close` of a file as large as
// the DNG, both measured in the same run. Both end with the data durable on disk (the writer's AtomicFile
// fsyncs the file and its directory). See docs/benchmarks.md.

/// State of one benchmark between its setup, its iterations and its teardown. They run one after the other on
/// one thread at a time, hence `@unchecked Sendable` without a lock.
final class WriteState: @unchecked Sendable {
    var directory = ""
    var plainBytes: [UInt8] = []
}

let state = WriteState()

/// Built once per process, outside any measurement (each benchmark's setup touches it).
let image: RawImage = SyntheticFrame.image()

func writer(preview: Int?, digest: Bool = true) -> DNGWriter {
    var options = DNGWriter.Options()
    options.overwrite = true
    options.previewLongEdge = preview
    options.rawImageDigest = digest
    return DNGWriter(options: options)
}

func makeDirectory(_ label: String) {
    state.directory = BenchSupport.makeScratchDirectory(label)
}

func removeDirectory() {
    BenchSupport.removeScratchDirectory(state.directory)
    state.directory = ""
    state.plainBytes = []
}

/// `open` + one `write` loop + `fsync` + `close`: the cheapest durable write of `bytes` to `path`.
func plainWrite(_ bytes: [UInt8], to path: String) throws -> Int {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw PlainWriteError(path: path, what: "open") }
    defer { close(fd) }
    var done = 0
    try bytes.withUnsafeBytes { raw in
        while done < raw.count {
            let n = write(fd, raw.baseAddress! + done, raw.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw PlainWriteError(path: path, what: "write")
            }
            done += n
        }
    }
    guard fsync(fd) == 0 else { throw PlainWriteError(path: path, what: "fsync") }
    return done
}

struct PlainWriteError: Error, CustomStringConvertible {
    let path: String
    let what: String
    var description: String { "\(path): \(what) failed: \(String(cString: strerror(errno)))" }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], // never ARC metrics here
        timeUnits: .milliseconds,
        warmupIterations: 2,
        maxDuration: .seconds(10),
        maxIterations: 40
    )

    // The writer as a camera or converter uses it: IFD0 thumbnail (256 px), raw SubIFD, EXIF, atomic commit.
    Benchmark("DNGWriter 12MP 14-bit, no preview") { benchmark in
        let path = state.directory + "/frame.dng"
        let report = try writer(preview: nil).write(image, to: path)
        blackHole(report.bytes)
    } setup: {
        makeDirectory("dngwrite")
        blackHole(image.frame.width)
    } teardown: {
        removeDirectory()
    }

    // The same without NewRawImageDigest (on by default, bursts included): what the digest costs a write.
    Benchmark("DNGWriter 12MP 14-bit, no preview, no digest") { benchmark in
        let path = state.directory + "/frame-nodigest.dng"
        let report = try writer(preview: nil, digest: false).write(image, to: path)
        blackHole(report.bytes)
    } setup: {
        makeDirectory("dngwrite-nodigest")
        blackHole(image.frame.width)
    } teardown: {
        removeDirectory()
    }

    // The digest alone, on the writer's threads (all cores) and on one core.
    Benchmark("NewRawImageDigest 12MP, all cores") { benchmark in
        blackHole(NewRawImageDigest.digest(of: image.frame, threads: ProcessInfo.processInfo.activeProcessorCount))
    } setup: {
        blackHole(image.frame.width)
    }

    Benchmark("NewRawImageDigest 12MP, one core") { benchmark in
        blackHole(NewRawImageDigest.digest(of: image.frame, threads: 1))
    } setup: {
        blackHole(image.frame.width)
    }

    // The baseline: as many bytes as that DNG (taken from one unmeasured write of it), written plainly.
    Benchmark("Plain write+fsync, DNG-sized") { benchmark in
        let written = try plainWrite(state.plainBytes, to: state.directory + "/plain.bin")
        blackHole(written)
    } setup: {
        makeDirectory("plainwrite")
        let probe = state.directory + "/probe.dng"
        let report = try writer(preview: nil).write(image, to: probe)
        // The DNG's own bytes: same size, and content no easier to write than the real thing.
        let fd = open(probe, O_RDONLY)
        var bytes = [UInt8](repeating: 0, count: report.bytes)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        close(fd)
        unlink(probe)
        precondition(n == report.bytes, "could not read back the probe DNG")
        state.plainBytes = bytes
        print("plain write size: \(report.bytes) bytes (the DNG without preview)")
    } teardown: {
        removeDirectory()
    }

    // The same write with the optional 1024 px JPEG preview SubIFD (rendered from the mosaic and encoded).
    Benchmark("DNGWriter 12MP 14-bit + 1024px JPEG preview") { benchmark in
        let path = state.directory + "/frame-preview.dng"
        let report = try writer(preview: 1024).write(image, to: path)
        blackHole(report.bytes)
    } setup: {
        makeDirectory("dngwrite-preview")
        blackHole(image.frame.width)
    } teardown: {
        removeDirectory()
    }

    // Parts of the writer that do not touch the disk, to show where the CPU time goes: rendering the
    // 1024 px preview and the 256 px thumbnail that every DNG carries in IFD0.
    Benchmark("PreviewRenderer.render 1024px (part of the preview variant)") { benchmark in
        blackHole(PreviewRenderer.render(image, longEdge: 1024).width)
    } setup: {
        blackHole(image.frame.width)
    }

    Benchmark("PreviewRenderer.render 256px (thumbnail of every DNG)") { benchmark in
        blackHole(PreviewRenderer.render(image, longEdge: 256).width)
    } setup: {
        blackHole(image.frame.width)
    }
    registerPackedBenchmarks() // issue #18: none vs packed vs lj92 at 12 bits (PackedWrite.swift)
}
