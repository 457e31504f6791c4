#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import Synchronization

/// Work run on a thread of its own (blocking I/O kept off the caller's thread) whose CPU time can be read while it
/// runs, so that process-wide CPU measurements taken meanwhile can leave it out: the burst's plan probes the disk on
/// a side thread while it times the writer and the sensor by the process's CPU clock.
///
/// Ownership: `state` is written by the side thread (its CPU clock when it starts, its result and final CPU time
/// when it ends) and read by any thread, always under its lock; the side thread cannot end while a reader holds
/// the lock, so its clock is valid whenever it is read.
public final class SideThread<Result: Sendable>: Sendable {
    private struct State {
        var clock: clockid_t?
        var finalCPU: UInt64?
        var result: Result?
    }

    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)

    /// Starts `work` on a new thread.
    public init(name: String, _ work: @escaping @Sendable () -> Result) {
        let thread = Thread { [self] in run(work) }
        thread.name = name
        thread.start()
    }

    /// The side thread's body.
    private func run(_ work: () -> Result) {
        var clock = clockid_t()
        let own = pthread_getcpuclockid(pthread_self(), &clock) == 0 ? clock : nil
        state.withLock { $0.clock = own }
        let result = work()
        state.withLock {
            $0.finalCPU = own.map(Self.read) ?? 0
            $0.result = result
            $0.clock = nil
        }
        done.signal()
    }

    /// CPU nanoseconds the side thread has used so far (0 before it started, its total once it ended).
    public var cpuNanoseconds: UInt64 {
        state.withLock { s in s.finalCPU ?? s.clock.map(Self.read) ?? 0 }
    }

    /// Waits for the work to end and returns its result.
    public func wait() -> Result {
        done.wait()
        done.signal()   // later waits return at once
        return state.withLock { $0.result! }
    }

    private static func read(_ clock: clockid_t) -> UInt64 {
        var ts = timespec()
        guard clock_gettime(clock, &ts) == 0 else { return 0 }
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}
