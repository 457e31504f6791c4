#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A heap buffer of 16-bit samples owned by one object, so that frames can share it without copying.
///
/// `RawFrame` refers to its pixels through a `PixelStorage`; a frame pool can hand out the same
/// preallocated storages again and again. The storage is not synchronised: whoever fills it must
/// finish before handing the frame to readers (the capture engine's slot states guarantee this).
// @unchecked: a raw buffer; its owner (a frame pool slot, a decoder) finishes writing before readers get it.
public final class PixelStorage: @unchecked Sendable {
    /// First sample.
    public let baseAddress: UnsafeMutablePointer<UInt16>
    /// Number of samples.
    public let count: Int
    /// How the buffer is released.
    private let release: Release
    /// What keeps an adopted buffer alive (nil for buffers this storage allocated itself).
    private let owner: AnyObject?

    private enum Release {
        /// Allocated with `allocate`: deallocated.
        case deallocate
        /// Allocated with `calloc`: freed with `free`.
        case free
        /// Another object's memory (a decoder's buffer): released with that object.
        case owner
    }

    /// Allocates `count` samples, zero-filled.
    public init(count: Int) {
        precondition(count >= 0, "negative sample count")
        baseAddress = .allocate(capacity: max(count, 1))
        baseAddress.initialize(repeating: 0, count: max(count, 1))
        self.count = count
        release = .deallocate
        owner = nil
    }

    /// Allocates `count` zero samples without touching them: the system hands out zero pages lazily, so the
    /// memory becomes resident only as it is written (a frame pool's slots that a burst never uses cost no
    /// RAM).
    public init(lazilyZeroedCount count: Int) {
        precondition(count >= 0, "negative sample count")
        guard let memory = calloc(max(count, 1), MemoryLayout<UInt16>.stride) else {
            fatalError("PixelStorage: cannot allocate \(count) samples")
        }
        baseAddress = memory.bindMemory(to: UInt16.self, capacity: max(count, 1))
        self.count = count
        release = .free
        owner = nil
    }

    /// Allocates `count` samples without zero-filling them and lets `fill` write them, for callers that
    /// overwrite the whole buffer at once (a copy from a decoder): this saves touching the memory twice.
    /// `fill` must write every one of the `count` samples.
    public init(unsafeUninitializedCount count: Int, fill: (UnsafeMutablePointer<UInt16>) -> Void) {
        precondition(count >= 0, "negative sample count")
        baseAddress = .allocate(capacity: max(count, 1))
        if count == 0 { baseAddress.initialize(to: 0) }
        self.count = count
        release = .deallocate
        owner = nil
        fill(baseAddress)
    }

    /// Allocates `count` samples without writing them, for a reader that fills the storage after handing it to
    /// others: a digest check that hashes rows as they arrive. Nothing may read a sample before the reader has
    /// written it and said so (the reader's own protocol, e.g. a count of rows written behind a lock).
    package convenience init(unsafeUninitializedCount count: Int) {
        self.init(unsafeUninitializedCount: count) { _ in }
    }

    /// Wraps `count` samples at `baseAddress` that belong to `owner` (a decoder's own buffer), without copying
    /// them: the storage keeps `owner` alive, and the memory is released when `owner` is. So a decoded mosaic is
    /// held once, not once by the decoder and once by the frame. Whoever adopts the buffer must no longer write to
    /// it through `owner`.
    package init(adopting baseAddress: UnsafeMutablePointer<UInt16>, count: Int, owner: AnyObject) {
        precondition(count >= 0, "negative sample count")
        self.baseAddress = baseAddress
        self.count = count
        release = .owner
        self.owner = owner
    }

    /// Allocates storage holding a copy of `samples`.
    public convenience init(copying samples: some Collection<UInt16>) {
        self.init(count: samples.count)
        _ = UnsafeMutableBufferPointer(start: baseAddress, count: count).initialize(from: samples)
    }

    deinit {
        switch release {
        case .deallocate: baseAddress.deallocate()
        case .free: free(baseAddress)
        case .owner: break // `owner` goes with this storage and releases its memory itself
        }
    }

    /// Whether the samples are another object's buffer (``init(adopting:count:owner:)``), held without a copy.
    package var isAdopted: Bool { release == .owner }

    /// The samples as a mutable buffer.
    public var buffer: UnsafeMutableBufferPointer<UInt16> {
        UnsafeMutableBufferPointer(start: baseAddress, count: count)
    }

    /// Faults in the whole pages of the storage now, writable, without changing a sample (Linux's
    /// `MADV_POPULATE_WRITE`): the kernel's zero-fill of a lazily zeroed storage is paid by the caller instead of by
    /// the first writer of its samples. Safe while another thread writes the samples. Returns false when the system
    /// cannot (an older kernel, another platform): nothing changes then.
    @discardableResult
    public func populate() -> Bool {
        #if os(Linux)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = Int(bitPattern: baseAddress)
        let first = (start + page - 1) / page * page
        let end = (start + count * MemoryLayout<UInt16>.stride) / page * page
        guard page > 0, end > first, let address = UnsafeMutableRawPointer(bitPattern: first) else { return false }
        return madvise(address, end - first, Self.populateWrite) == 0
        #else
        return false
        #endif
    }

    /// Linux's `MADV_POPULATE_WRITE` (since 5.14; not in every libc's headers).
    private static let populateWrite: Int32 = 23
}
