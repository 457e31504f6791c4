/// A width x height plane of `Float` values owned by one object (scene responses, depths, blurred signal).
///
/// Not synchronised: the simulator fills a plane (possibly from several threads, each writing its own rows)
/// before anyone reads it.
final class FloatPlane: @unchecked Sendable {
    let width: Int
    let height: Int
    let values: UnsafeMutablePointer<Float>
    var count: Int { width * height }

    init(width: Int, height: Int, repeating value: Float = 0) {
        self.width = width
        self.height = height
        values = .allocate(capacity: max(1, width * height))
        values.initialize(repeating: value, count: max(1, width * height))
    }

    deinit { values.deallocate() }

    subscript(row: Int, column: Int) -> Float {
        get { values[row * width + column] }
        set { values[row * width + column] = newValue }
    }
}

/// Runs `body(chunk)` for `chunks` chunks of work on all cores and waits (rows of a plane, usually).
func parallelChunks(_ chunks: Int, _ body: (Int) -> Void) {
    if chunks <= 1 {
        if chunks == 1 { body(0) }
        return
    }
    withoutActuallyEscaping(body) { escapable in
        let box = UncheckedBox(escapable)
        DispatchQueueBridge.concurrentPerform(iterations: chunks) { box.value($0) }
    }
}

/// A value that crosses to other threads without a Sendable check (the caller guarantees exclusive access).
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
