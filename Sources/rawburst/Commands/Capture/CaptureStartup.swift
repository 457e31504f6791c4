import Foundation
import RawBurst
import Synchronization

/// Moments of this process's start-up on the `CLOCK_MONOTONIC` time line, each recorded the first time it is
/// marked. The process owns them (``shared``): any thread may mark or read, under the `Mutex`.
final class StartupClock: Sendable {
    /// A moment of `capture`'s start-up, in the order they happen.
    enum Mark: Hashable, Sendable {
        /// `main` began: the executable is loaded and linked.
        case main
        /// The sources exist and are configured: automatic settings resolved, the first optical image rendered.
        case sourcesReady
        /// The output folder is prepared and the chart files are written.
        case outputReady
        /// The CPU and disk plan is made (calibrated, or read from the cache) and the compression chosen.
        case planned
    }

    /// The process's moments. (An instance holds the `Mutex`: a `Mutex` stored in a static property itself
    /// corrupted the heap in release builds with Swift 6.3.1 here.)
    static let shared = StartupClock()

    private let marks = Mutex<[Mark: UInt64]>([:])

    /// Records `mark` now, unless it was recorded before.
    static func mark(_ mark: Mark) {
        let now = MonotonicClock.nanoseconds()
        shared.marks.withLock { if $0[mark] == nil { $0[mark] = now } }
    }

    /// When `mark` was recorded, or nil.
    static func time(_ mark: Mark) -> UInt64? { shared.marks.withLock { $0[mark] } }
}

/// Where the time from the process's start to the first frame went: the manifest's `startup`.
///
/// The process's start is the kernel's (`/proc/self/stat`, in clock ticks: `processStartResolutionSeconds`);
/// every other moment is read from `CLOCK_MONOTONIC` when it happens. The phases add up to
/// `startToFirstFrameSeconds`; a phase whose moments are unknown is nil.
struct CaptureStartup: Encodable {
    /// Process start → the first frame in the pool (made and marked full), in seconds.
    let startToFirstFrameSeconds: Double
    /// The resolution of the process's start time (one clock tick).
    let processStartResolutionSeconds: Double
    /// Process start → `main`: loading and linking the executable and its libraries.
    let loadingSeconds: Double?
    /// `main` → the sources ready: parsing options, making the sensors, resolving automatic settings (metering,
    /// autofocus, white balance) and rendering the first optical image.
    let sourcesSeconds: Double?
    /// Preparing the output folder and writing chart files.
    let outputSeconds: Double?
    /// The CPU and disk plan (`burst.plan`): calibrating the writer and the sensor and probing the disk the first
    /// time, reading the calibration cache after.
    let planSeconds: Double?
    /// Planning memory, allocating the frame pool and starting the writers, until the burst started.
    let sessionSeconds: Double?
    /// The burst's start → its first frame in the pool (waiting for the first tick, noise, making the frame).
    let firstFrameSeconds: Double?

    /// The account of a burst's start, or nil when the process's start or the first frame is unknown.
    init?(report: BurstSession.Report) {
        guard let first = report.firstFrameNanoseconds, let start = ProcessClock.startMonotonicNanoseconds(),
              first > start else { return nil }
        func seconds(_ from: UInt64?, _ to: UInt64?) -> Double? {
            guard let from, let to, to >= from else { return nil }
            return (Double(to - from) / 1e3).rounded() / 1e6
        }
        let main = StartupClock.time(.main), sources = StartupClock.time(.sourcesReady)
        let output = StartupClock.time(.outputReady), planned = StartupClock.time(.planned)
        startToFirstFrameSeconds = seconds(start, first) ?? 0
        processStartResolutionSeconds = 1 / Double(max(1, sysconf(Int32(_SC_CLK_TCK))))
        loadingSeconds = seconds(start, main)
        sourcesSeconds = seconds(main, sources)
        outputSeconds = seconds(sources, output)
        planSeconds = seconds(output, planned)
        sessionSeconds = seconds(planned, report.startedNanoseconds)
        firstFrameSeconds = seconds(report.startedNanoseconds, first)
    }
}
