import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A stream that stalls (its writer keeps the pipe open and sends nothing) does not hold a stop request hostage: the
/// first Ctrl-C ends the wait for the next frame's bytes, the frames in hand are written, and the burst ends cleanly.
@Suite("stopping a stalled stream")
struct StreamStopCLITests {
    @Test("SIGINT while the FIFO's writer sends nothing: exit 0 within seconds, every frame read written, none failed")
    func interruptStalledFIFO() throws {
        let tmp = try TemporaryDirectory()
        let fifo = tmp.url.appendingPathComponent("frames.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let out = tmp.url.appendingPathComponent("out")
        let stdout = tmp.url.appendingPathComponent("report.json")
        let process = try BurstCLITests.start(["capture", "--source", fifo.path, "--format", "SGRBG8", "--size", "32x16",
                                               "--memory-budget", "64MiB", "-o", out.path, "--json"], stdout: stdout)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // Opening blocks until rawburst opens its end; two whole frames, then silence with the pipe still open.
        let writer = open(fifo.path, O_WRONLY)
        #expect(writer >= 0)
        defer { close(writer) }
        let (bytes, _) = StreamCLITests.Packer.stream(format: "SGRBG8", width: 32, height: 16, stride: nil, count: 2)
        #expect(bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == bytes.count)
        #expect(BurstCLITests.wait(60) { BurstCLITests.dngs(in: out).count == 2 })
        usleep(300_000)  // rawburst is now blocked waiting for the third frame's bytes
        let stopped = Date()
        kill(process.processIdentifier, SIGINT)
        #expect(BurstCLITests.wait(10) { !process.isRunning })
        #expect(Date().timeIntervalSince(stopped) < 5, "the stop waited for input")
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let burst = try JSONValue(parsing: Data(contentsOf: out.appendingPathComponent("manifest.json")))["burst"]
        #expect(burst?["produced"]?.int == 2 && burst?["written"]?.int == 2 && burst?["dropped"]?.array?.isEmpty == true)
        #expect(burst?["stopReason"]?.string?.contains("SIGINT") == true, "\(String(describing: burst?["stopReason"]))")
        let failures: [JSONValue] = burst?["failures"]?.array ?? []
        #expect(failures.isEmpty, "\(failures)")
    }
}
