import Dispatch

/// Dispatch's `concurrentPerform`, kept in one place.
enum DispatchQueueBridge {
    static func concurrentPerform(iterations: Int, execute work: @Sendable (Int) -> Void) {
        DispatchQueue.concurrentPerform(iterations: iterations, execute: work)
    }
}
