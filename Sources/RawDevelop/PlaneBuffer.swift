import Dispatch
import Foundation

/// A heap buffer of floats owned by one object (scratch planes of the developer). Not synchronised: the
/// developer's workers write disjoint rows.
// @unchecked: a raw pointer; the developer's workers write disjoint rows and read only after the parallel pass ends.
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

