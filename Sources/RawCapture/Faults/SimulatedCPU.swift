import Foundation
import RawCore
import Synchronization

/// CPU time injected into a burst's writes (`BurstSession.Configuration.simulatedWriteCPU`, `--simulate-cpu`), for
/// tests and benchmarks of the time plan that must not depend on how busy the machine is.
///
/// The cores are one resource every writer shares, so the injected CPU is a queue they share, as the simulated disk's
/// bandwidth is: a frame's CPU takes `seconds ÷ cores` of it, after the frames queued before. A writer waits (it never
/// spins) until its frame's share has passed; together the writers take at most `cores ÷ seconds` frames a second,
/// which is what the plan counts — as long as each writer's own work takes less than what the others queue meanwhile.
/// Shared by the writer threads; the queue's end is behind a `Mutex`.
final class SimulatedCPU: Sendable {
    /// CPU seconds per frame, and the cores they are spread over.
    let seconds: Double
    let cores: Int
    /// When the queue is free again (`CLOCK_MONOTONIC`, ns).
    private let freeAt = Mutex<UInt64>(0)

    init(seconds: Double, cores: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.seconds = max(0, seconds)
        self.cores = max(1, cores)
    }

    /// Waits out one frame's share of the cores.
    func spend() {
        let until = freeAt.withLock { end -> UInt64 in
            let begin = max(MonotonicClock.nanoseconds(), end)
            end = begin + UInt64(seconds / Double(cores) * 1e9)
            return end
        }
        MonotonicClock.sleep(until: until)
    }
}
