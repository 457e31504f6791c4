/// A heap buffer of 16-bit samples owned by one object, so that frames can share it without copying.
///
/// `RawFrame` refers to its pixels through a `PixelStorage`; a frame pool can hand out the same
/// preallocated storages again and again. The storage is not synchronised: whoever fills it must
/// finish before handing the frame to readers (the capture engine's slot states guarantee this).
public final class PixelStorage: @unchecked Sendable {
    /// First sample.
    public let baseAddress: UnsafeMutablePointer<UInt16>
    /// Number of samples.
    public let count: Int

    /// Allocates `count` samples, zero-filled.
    public init(count: Int) {
        precondition(count >= 0, "negative sample count")
        baseAddress = .allocate(capacity: max(count, 1))
        baseAddress.initialize(repeating: 0, count: max(count, 1))
        self.count = count
    }

    /// Allocates `count` samples without zero-filling them and lets `fill` write them, for callers that
    /// overwrite the whole buffer at once (a copy from a decoder): this saves touching the memory twice.
    /// `fill` must write every one of the `count` samples.
    public init(unsafeUninitializedCount count: Int, fill: (UnsafeMutablePointer<UInt16>) -> Void) {
        precondition(count >= 0, "negative sample count")
        baseAddress = .allocate(capacity: max(count, 1))
        if count == 0 { baseAddress.initialize(to: 0) }
        self.count = count
        fill(baseAddress)
    }

    /// Allocates storage holding a copy of `samples`.
    public convenience init(copying samples: some Collection<UInt16>) {
        self.init(count: samples.count)
        _ = UnsafeMutableBufferPointer(start: baseAddress, count: count).initialize(from: samples)
    }

    deinit {
        baseAddress.deallocate()
    }

    /// The samples as a mutable buffer.
    public var buffer: UnsafeMutableBufferPointer<UInt16> {
        UnsafeMutableBufferPointer(start: baseAddress, count: count)
    }
}
