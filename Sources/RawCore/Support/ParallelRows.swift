import Dispatch
import Foundation

/// The one compute parallel-for of the package: splits work over the cores with
/// `DispatchQueue.concurrentPerform`, or on ``BackgroundWorkers`` when the caller runs at the background priority
/// (compute only; blocking I/O runs on dedicated threads instead, as RawJobs' `BatchRunner` and RawCapture's writers
/// do). Package-wide: the developer, the analysis kernels, the simulator, the lossless-JPEG tile encoder and the dual
/// source share it.
package enum ParallelRows {
    /// Calls `body` with disjoint row ranges covering `0..<rows`, on up to `threads` threads, and returns when
    /// all are done. `body` may capture pointers: it must only write rows of its own range (that is what makes
    /// sharing them across the workers sound, and why the closure need not be `@Sendable`).
    package static func run(rows: Int, threads: Int, minimumRows: Int = 16, _ body: (Range<Int>) -> Void) {
        guard rows > 0 else { return }
        let workers = max(1, min(threads, rows / max(1, minimumRows)))
        if workers == 1 {
            body(0..<rows)
            return
        }
        // A few chunks per worker balance uneven progress.
        let chunks = min(rows, workers * 4)
        let size = (rows + chunks - 1) / chunks
        perform(iterations: chunks) { k in
            let start = k * size
            if start < rows { body(start..<min(rows, start + size)) }
        }
    }

    /// Calls `body(0)`, `body(1)` ... `body(iterations - 1)` concurrently and returns when all are done. As
    /// with ``run(rows:threads:minimumRows:_:)``, each call must only write what its own index owns.
    package static func perform(iterations: Int, _ body: (Int) -> Void) {
        guard iterations > 1 else {
            if iterations == 1 { body(0) }
            return
        }
        // A thread at the background priority (a burst's writer) keeps its helpers there too: Dispatch's workers would
        // run its work at the normal priority, beside the sensor's thread.
        if ThreadPriority.currentThreadIsBackground {
            BackgroundWorkers.shared.perform(iterations: iterations, body)
            return
        }
        withoutActuallyEscaping(body) { escapable in
            let shared = UncheckedBox(escapable)
            DispatchQueue.concurrentPerform(iterations: iterations) { shared.value($0) }
        }
    }

    /// The default number of threads: the machine's active cores.
    package static var defaultThreads: Int { ProcessInfo.processInfo.activeProcessorCount }
}

/// Carries a value the compiler cannot prove Sendable into concurrently running workers of ``ParallelRows``.
// @unchecked: the callers keep the workers' writes disjoint (each writes only its own rows or index).
package struct UncheckedBox<T>: @unchecked Sendable {
    /// The carried value.
    package let value: T
    /// Wraps `value`.
    package init(_ value: T) { self.value = value }
}
