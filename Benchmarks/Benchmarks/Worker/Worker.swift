import Benchmark
import BenchSupport
import Foundation
import RawBurst

// Issue #22: what the worker mode adds to each job besides the job itself — the SHA-256 of the output read back
// from disk (every job, and every kept file on --resume) and the manifest parsing of a large chunk. docs/benchmarks.md,
// "Issue #22".

/// The scratch folder, a 24 MB file and a 10,000-line manifest (setup, iterations and teardown run one after the other).
final class WorkerState: @unchecked Sendable {   // @unchecked: the benchmark runs setup, iterations, teardown serially
    var directory = ""
}

let state = WorkerState()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], // never ARC metrics here
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(10),
        maxIterations: 30
    )
    Benchmark("SHA-256 of a 24 MB output file (page cache), as each job's results line and each --resume check") { _ in
        blackHole(FileSHA256.hex(ofFileAt: state.directory + "/output.dng"))
    } setup: {
        state.directory = BenchSupport.makeScratchDirectory("worker-sha")
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(24_000_000 / 8)).map { _ in generator.next() as UInt64 }
        try bytes.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: state.directory + "/output.dng")) }
    } teardown: {
        BenchSupport.removeScratchDirectory(state.directory)
    }

    Benchmark("manifest of 10,000 jobs read and checked (no command-line parse)") { _ in
        blackHole(try WorkerManifest.read(path: state.directory + "/jobs.jsonl") { _ in })
    } setup: {
        state.directory = BenchSupport.makeScratchDirectory("worker-manifest")
        let lines = (0..<10_000).map {
            #"{"input": "/archive/2026/11/26/IMG_\#($0).CR2", "output": "/dng/2026/11/26/IMG_\#($0).dng", "options": {"compression": "packed", "preview": 512}, "timeout": 120}"#
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: state.directory + "/jobs.jsonl", atomically: true, encoding: .utf8)
    } teardown: {
        BenchSupport.removeScratchDirectory(state.directory)
    }
}
