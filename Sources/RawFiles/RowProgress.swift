import Foundation
import Synchronization

/// How many rows of a frame a reader has written so far, for a thread that works on the rows as they arrive (the
/// digest check hashing while the strips are read): the reader publishes after each strip, the worker waits for
/// the rows it needs. Publishing happens after the rows are written and waiting returns after the count is read,
/// both under one lock, so the worker sees the rows' samples.
final class RowProgress: Sendable {
    private struct State {
        var rows = 0
        var abandoned = false
    }
    /// Owner: the reader writes it, the worker reads it.
    private let state = Mutex(State())
    /// Signalled after every change, so a waiting worker looks again.
    private let changed = DispatchSemaphore(value: 0)

    /// An empty progress: no rows written.
    init() {}

    /// Says that the first `rows` rows are written.
    func publish(rows: Int) {
        state.withLock { $0.rows = max($0.rows, rows) }
        changed.signal()
    }

    /// Says that no more rows will come (the read failed): waiting workers give up.
    func abandon() {
        state.withLock { $0.abandoned = true }
        changed.signal()
    }

    /// Waits until the first `rows` rows are written (true) or the reader gave up (false).
    func wait(forRows rows: Int) -> Bool {
        while true {
            let now = state.withLock { $0 }
            if now.abandoned { return false }
            if now.rows >= rows { return true }
            changed.wait()
        }
    }
}
