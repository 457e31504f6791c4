#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The scheduling priority of the calling thread (Linux: each thread has its own nice value).
///
/// A burst's sensor thread is its real-time part: a frame that cannot start on its tick is lost. The writers'
/// work (encoding, digests, development) can wait a few milliseconds for a core without losing anything, so they
/// run at a lower priority and the sensor thread gets a core as soon as its tick comes.
public enum ThreadPriority {
    /// The nice value writer threads take: the scheduler then gives them about a tenth of a core's time while a
    /// nice-0 thread wants it, all of it otherwise.
    public static let background: Int32 = 10

    /// How the calling thread is scheduled.
    public enum Scheduling: String, Sendable, Hashable, Codable {
        /// The kernel's real-time FIFO class: the thread runs as soon as it is runnable, ahead of every ordinary one.
        case realTime = "real-time"
        /// The ordinary time-sharing class.
        case normal
    }

    /// Asks for real-time FIFO scheduling (priority `priority`, low in 1...99) for the calling thread. The system
    /// grants it to root, to a process with `CAP_SYS_NICE`, or within `ulimit -r`; otherwise nothing changes.
    /// Returns the scheduling the thread has afterwards.
    public static func requestRealTime(priority: Int32 = 10) -> Scheduling {
        #if os(Linux)
        var parameters = sched_param()
        parameters.sched_priority = priority
        return pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters) == 0 ? .realTime : .normal
        #else
        return .normal
        #endif
    }

    /// Returns the calling thread to ordinary scheduling (after `requestRealTime`).
    public static func returnToNormal() {
        #if os(Linux)
        var parameters = sched_param()
        parameters.sched_priority = 0
        _ = pthread_setschedparam(pthread_self(), SCHED_OTHER, &parameters)
        #endif
    }

    /// Whether the calling thread runs at ``background`` or below (a burst's writer, or a thread one started).
    /// `ParallelRows` then keeps its workers there too. A process the user started a little `nice` is not
    /// background: its threads keep Dispatch's workers.
    public static var currentThreadIsBackground: Bool {
        #if os(Linux)
        // getpriority may return -1 as a value: errno tells an error apart.
        errno = 0
        let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        return errno == 0 && nice >= background
        #else
        return false
        #endif
    }

    /// Lowers the calling thread's priority to `nice` (only ever lowers: an unprivileged process cannot raise it
    /// back). Returns false when the system refused (the thread keeps its priority; nothing else changes).
    @discardableResult
    public static func lowerCurrentThread(to nice: Int32) -> Bool {
        #if os(Linux)
        // On Linux the nice value is per thread, and `PRIO_PROCESS` with `who` 0 sets the calling thread's alone.
        return setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) == 0
        #else
        return false
        #endif
    }
}
