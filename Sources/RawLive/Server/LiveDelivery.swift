/// One previewed frame's delivery: its sequence number and the time from its capture (`CLOCK_MONOTONIC`) to the
/// moment the first page's socket write of it completed.
public struct LiveDelivery: Sendable, Hashable, Codable {
    /// The frame's sequence number.
    public var sequenceNumber: UInt64
    /// Capture (`LiveFrame.captureMonotonicNanoseconds`) to the first completed socket write, in milliseconds.
    public var milliseconds: Double

    /// A delivery.
    public init(sequenceNumber: UInt64, milliseconds: Double) {
        self.sequenceNumber = sequenceNumber
        self.milliseconds = milliseconds
    }
}
