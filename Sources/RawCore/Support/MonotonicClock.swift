#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's monotonic clock (`CLOCK_MONOTONIC`): never jumps with wall-clock changes, so frame
/// timestamps and schedules can be compared and subtracted safely.
public enum MonotonicClock {
    /// Nanoseconds of `CLOCK_MONOTONIC` (since an unspecified point, usually boot).
    public static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// CPU time this process has used so far, all threads (`CLOCK_PROCESS_CPUTIME_ID`), in nanoseconds.
    public static func processCPUNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Sleeps until `CLOCK_MONOTONIC` reaches `deadline` (absolute; restarted after signals). Returns at once
    /// when the deadline has passed.
    public static func sleep(until deadline: UInt64) {
        var ts = timespec()
        ts.tv_sec = time_t(deadline / 1_000_000_000)
        ts.tv_nsec = Int(deadline % 1_000_000_000)
        #if canImport(Darwin)
        // Darwin has no clock_nanosleep: sleep the remaining time relatively.
        while true {
            let now = nanoseconds()
            guard now < deadline else { return }
            let remaining = deadline - now
            var rel = timespec(tv_sec: time_t(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
            _ = nanosleep(&rel, nil)
        }
        #else
        // clock_nanosleep returns the error number itself (not through errno); EINTR means a signal came first.
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
        #endif
    }
}
