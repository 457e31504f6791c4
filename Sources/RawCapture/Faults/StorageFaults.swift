import Foundation
import RawCore
import RawSources
import Synchronization

/// Storage faults to inject into a burst's writes, for testing policies and the governor without a bad disk:
/// a bandwidth limit shared by all writers, stalls, and failing writes.
///
/// Text form (`--simulate-disk`), items joined by commas:
/// - `80MB/s`: the disk writes at most this many bytes per second, shared by every writer;
/// - `stall:2s@3s`: from 3 s after the burst starts, writes wait 2 s (a disk that stops answering);
/// - `stalls:300ms/10%`: each write first waits 300 ms with probability 10 % (seeded, repeatable);
/// - `fail@20`: the 20th write and every one after fail with "No space left on device" (a full disk);
/// - `error@7`: the 7th write alone fails with an I/O error.
public struct StorageFaults: Sendable, Hashable, CustomStringConvertible {
    /// Bytes per second of the shared disk, nil for no limit.
    public var bytesPerSecond: Int?
    /// One-off stalls: from `at` seconds after the start, for `seconds`.
    public var stalls: [Stall] = []
    /// Random stalls: each write waits `seconds` with probability `probability`.
    public var randomStall: (seconds: Double, probability: Double)?
    /// The 1-based write from which every write fails as a full disk would.
    public var fullFromWrite: Int?
    /// 1-based writes that fail with an I/O error.
    public var errorWrites: Set<Int> = []
    /// The text this was parsed from.
    public let description: String

    /// A stall of the whole disk.
    public struct Stall: Sendable, Hashable {
        public let at: Double
        public let seconds: Double
    }

    public static func == (a: StorageFaults, b: StorageFaults) -> Bool { a.description == b.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    /// Parses the text form (see the type's documentation).
    public init(parsing text: String) throws(BurstOptionError) {
        description = text
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = part.trimmingCharacters(in: .whitespaces).lowercased()
            if item.hasPrefix("stall:") {
                let pieces = item.dropFirst(6).split(separator: "@", omittingEmptySubsequences: false)
                guard pieces.count == 2, let length = BurstOptionError.seconds(String(pieces[0])), length > 0, length <= 3600,
                      let at = BurstOptionError.seconds(String(pieces[1])), at >= 0 else {
                    throw BurstOptionError("'\(item)' is not stall:LENGTH@TIME (e.g. stall:2s@3s)")
                }
                stalls.append(Stall(at: at, seconds: length))
            } else if item.hasPrefix("stalls:") {
                let pieces = item.dropFirst(7).split(separator: "/", omittingEmptySubsequences: false)
                guard pieces.count == 2, let length = BurstOptionError.seconds(String(pieces[0])), length > 0, length <= 60,
                      pieces[1].hasSuffix("%"), let percent = Double(pieces[1].dropLast()), percent > 0, percent <= 100 else {
                    throw BurstOptionError("'\(item)' is not stalls:LENGTH/P% (e.g. stalls:300ms/10%)")
                }
                randomStall = (length, percent / 100)
            } else if item.hasPrefix("fail@") || item.hasPrefix("error@") {
                let full = item.hasPrefix("fail@")
                guard let n = Int(item.dropFirst(full ? 5 : 6)), n >= 1 else {
                    throw BurstOptionError("'\(item)' is not \(full ? "fail" : "error")@N with N a write number from 1 (e.g. fail@20)")
                }
                if full { fullFromWrite = min(n, fullFromWrite ?? n) } else { errorWrites.insert(n) }
            } else {
                let rate = item.hasSuffix("/s") ? String(item.dropLast(2)) : item
                guard let bytes = BurstOptionError.bytes(rate), bytes >= 1000 else {
                    throw BurstOptionError("'\(item)' is not a rate of at least 1kB/s (e.g. 80MB/s), stall:2s@3s, "
                                           + "stalls:300ms/10%, fail@N or error@N")
                }
                bytesPerSecond = bytes
            }
        }
    }
}

/// The domain of `StorageFaultError`.
public enum StorageFaultErrorDomain {}

/// A simulated storage fault: the message says what a real disk would have said, and that it was simulated.
public typealias StorageFaultError = MessageError<StorageFaultErrorDomain>

/// Applies `StorageFaults` to a burst's writes; shared by the writer threads.
final class StorageFaultInjector: Sendable {
    /// What the writer threads share: the simulated disk's queue, the write count and the stall generator.
    private struct Shared {
        var diskFreeAt: UInt64 = 0
        var writes = 0
        var random: UInt64
    }

    private let faults: StorageFaults
    private let shared: Mutex<Shared>
    private let startNanoseconds: UInt64

    init(_ faults: StorageFaults, startNanoseconds: UInt64, seed: UInt64 = 0x5EED) {
        self.faults = faults
        self.startNanoseconds = startNanoseconds
        shared = Mutex(Shared(random: seed | 1))
    }

    /// Called by a writer before it writes a file: waits out a stall, then throws if this write is one that fails.
    func beforeWrite() throws(StorageFaultError) {
        let (number, stall) = shared.withLock { s -> (Int, Double) in
            s.writes += 1
            var stall = 0.0
            if let (seconds, probability) = faults.randomStall {
                s.random ^= s.random << 13; s.random ^= s.random >> 7; s.random ^= s.random << 17
                if Double(s.random >> 11) / Double(1 << 53) < probability { stall = seconds }
            }
            return (s.writes, stall)
        }
        let now = MonotonicClock.nanoseconds()
        let elapsed = Double(now - min(now, startNanoseconds)) / 1e9
        var wakeAt: UInt64 = 0
        for s in faults.stalls where elapsed >= s.at && elapsed < s.at + s.seconds {
            wakeAt = max(wakeAt, startNanoseconds + UInt64((s.at + s.seconds) * 1e9))
        }
        if stall > 0 { wakeAt = max(wakeAt, now + UInt64(stall * 1e9)) }
        if wakeAt > now { MonotonicClock.sleep(until: wakeAt) }
        if let full = faults.fullFromWrite, number >= full {
            throw StorageFaultError("No space left on device (simulated: write \(number), full from write \(full))")
        }
        if faults.errorWrites.contains(number) {
            throw StorageFaultError("Input/output error (simulated: write \(number))")
        }
    }

    /// Called by a writer after it wrote a file of `bytes`: with a bandwidth limit, waits until the simulated disk
    /// (one queue shared by every writer) has taken them.
    func afterWrite(bytes: Int) {
        guard let rate = faults.bytesPerSecond else { return }
        let until = shared.withLock { s -> UInt64 in
            let now = MonotonicClock.nanoseconds()
            let begin = max(now, s.diskFreeAt)
            s.diskFreeAt = begin + UInt64(Double(bytes) / Double(rate) * 1e9)
            return s.diskFreeAt
        }
        MonotonicClock.sleep(until: until)
    }
}

extension BurstOptionError {
    /// Bytes in `512MiB`, `2GiB`, `800MB`, `1.5G`, `1048576` (binary units for KiB/MiB/GiB and K/M/G, decimal
    /// for kB/MB/GB); nil when not a positive size below a petabyte.
    public static func bytes(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let digits = t.prefix { $0.isNumber || $0 == "." }
        guard let value = Double(digits), value > 0 else { return nil }
        let units: [String: Double] = ["": 1, "b": 1, "k": 1024, "kib": 1024, "kb": 1000, "m": 1_048_576, "mib": 1_048_576,
                                       "mb": 1e6, "g": 1_073_741_824, "gib": 1_073_741_824, "gb": 1e9]
        guard let unit = units[t.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()] else { return nil }
        let bytes = value * unit
        return bytes < 1e15 ? Int(bytes) : nil
    }
}
