import Foundation
import Synchronization

/// A large file whose every byte is a function of its offset, so a download can be checked byte by byte as it
/// arrives, without keeping it.
enum LiveLargeFile {
    static func byte(at offset: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: offset ^ (offset >> 8) ^ (offset >> 16) ^ (offset >> 24))
    }

    static func write(to path: String, bytes: Int) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteUnknown)
        }
        defer { try? handle.close() }
        let block = 1 << 20
        var chunk = [UInt8](repeating: 0, count: block)
        for start in stride(from: 0, to: bytes, by: block) {
            let count = min(block, bytes - start)
            chunk.withUnsafeMutableBufferPointer { out in
                for i in 0..<count { out[i] = byte(at: start + i) }
            }
            try handle.write(contentsOf: chunk[0..<count])
        }
    }

    /// Checks a download's bytes in order.
    struct Checker {
        private(set) var offset = 0
        private(set) var mismatches = 0
        private(set) var firstMismatch: Int?

        mutating func check(_ chunk: UnsafeRawBufferPointer) {
            for value in chunk {
                if value != LiveLargeFile.byte(at: offset) {
                    mismatches += 1
                    if firstMismatch == nil { firstMismatch = offset }
                }
                offset += 1
            }
        }
    }
}

/// When each preview reached a page: a thread reading a WebSocket until stopped.
final class LivePreviewClock: @unchecked Sendable {  // `times` behind a mutex; the client used by its thread only
    private let client: LiveWebSocketClient
    private let times = Mutex<[Date]>([])
    private let running = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(_ client: LiveWebSocketClient) { self.client = client }

    func start() {
        running.store(true, ordering: .relaxed)
        Thread { [self] in
            while running.load(ordering: .relaxed) {
                guard let message = try? client.receive() else { break }
                if case .binary = message { times.withLock { $0.append(Date()) } }
            }
            finished.signal()
        }.start()
    }

    func stop() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        _ = finished.wait(timeout: .now() + 6)
    }

    /// The arrival times within `from...to`.
    func arrivals(from: Date, to: Date) -> [Date] { times.withLock { $0.filter { $0 >= from && $0 <= to } } }
}

/// The process's resident memory (`VmRSS` of /proc/self/status), sampled every 5 ms on a thread.
final class LiveMemorySampler: Sendable {
    private let baseline = LiveMemorySampler.residentBytes()
    private let peak = Atomic<Int>(0)
    private let running = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    func start() {
        running.store(true, ordering: .relaxed)
        Thread { [self] in
            while running.load(ordering: .relaxed) {
                peak.max(Self.residentBytes(), ordering: .relaxed)
                Thread.sleep(forTimeInterval: 0.005)
            }
            finished.signal()
        }.start()
    }

    /// Stops; the most the resident memory rose above what it was when the sampler was made.
    func stop() -> Int {
        running.store(false, ordering: .relaxed)
        finished.wait()
        return max(0, max(peak.load(ordering: .relaxed), Self.residentBytes()) - baseline)
    }

    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") else { return 0 }
        return kilobytes * 1024
    }
}
