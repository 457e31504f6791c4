import Dispatch
import Foundation

/// A heap buffer of floats owned by one object (scratch planes of the developer). Not synchronised: the
/// developer's workers write disjoint rows.
final class PlaneBuffer: @unchecked Sendable {
    let base: UnsafeMutablePointer<Float>
    let count: Int

    /// Allocates `count` floats (uninitialised: every user writes before it reads).
    init(count: Int) {
        self.count = count
        base = .allocate(capacity: max(count, 1))
        base.initialize(repeating: 0, count: max(count, 1))
    }

    deinit { base.deallocate() }
}

/// Splits row ranges over the cores with `DispatchQueue.concurrentPerform` (compute only; no I/O). Package-wide: the
/// analysis kernels of RawAnalysis share it.
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
        withoutActuallyEscaping(body) { escapable in
            let shared = UncheckedBox(escapable)
            DispatchQueue.concurrentPerform(iterations: chunks) { k in
                let start = k * size
                if start < rows { shared.value(start..<min(rows, start + size)) }
            }
        }
    }

    /// The default number of threads: the machine's active cores.
    static var defaultThreads: Int { ProcessInfo.processInfo.activeProcessorCount }
}

/// Carries a value the compiler cannot prove Sendable into concurrently running workers whose writes the
/// caller keeps disjoint.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
