import RawAnalysis
import RawCore
import RawSources
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A width x height plane of `Float` values owned by one object (scene responses, depths, blurred signal).
///
/// Planes of 4 MiB and more are aligned to 2 MiB and asked to live in transparent huge pages: the defocus
/// blur walks them down columns, touching a new 4 KiB page on every row, and huge pages save most of the
/// TLB misses that costs (the kernel may decline; the plane works either way).
///
/// Not synchronised: the simulator fills a plane (possibly from several threads, each writing its own rows)
/// before anyone reads it.
// @unchecked: a raw pointer; writers fill disjoint rows and hand the plane to readers only after they finish.
final class FloatPlane: @unchecked Sendable {
    let width: Int
    let height: Int
    let values: UnsafeMutablePointer<Float>
    var count: Int { width * height }

    /// Bytes the plane allocates.
    var byteCount: Int { Self.bytes(width: width, height: height) }

    /// Bytes a `width` x `height` plane allocates.
    static func bytes(width: Int, height: Int) -> Int { max(1, width * height) * MemoryLayout<Float>.stride }

    /// A plane with every value `value`.
    convenience init(width: Int, height: Int, repeating value: Float = 0) {
        self.init(width: width, height: height, uninitialized: ())
        values.initialize(repeating: value, count: max(1, width * height))
    }

    /// A plane whose values are not set: for planes the caller fills entirely before reading any (writing
    /// zeros first would touch every page twice).
    init(width: Int, height: Int, uninitialized: Void) {
        self.width = width
        self.height = height
        let count = max(1, width * height)
        let bytes = Self.bytes(width: width, height: height)
        let hugePage = 2 << 20
        var memory: UnsafeMutableRawPointer?
        if bytes >= 2 * hugePage, posix_memalign(&memory, hugePage, bytes) == 0, let memory {
            #if os(Linux)
            _ = madvise(memory, bytes, MADV_HUGEPAGE)
            #endif
            values = memory.bindMemory(to: Float.self, capacity: count)
        } else {
            values = UnsafeMutableRawPointer(malloc(bytes)!).bindMemory(to: Float.self, capacity: count)
        }
    }

    deinit { free(values) }

    subscript(row: Int, column: Int) -> Float {
        get { values[row * width + column] }
        set { values[row * width + column] = newValue }
    }
}

extension FloatPlane: MeteredPlane {
    /// The value at (row, column), for the exposure meter.
    func value(row: Int, column: Int) -> Double { Double(values[row * width + column]) }
}
