import RawSources

/// Every frame of a burst accounted for: each sequence number the sensor produced ends as written or as
/// dropped (with the reason), exactly once, and no sequence number appears that was not produced.
///
/// The engine records into the ledger as frames move; `problems()` checks the invariant at the end of a
/// burst (`produced = written + dropped`, no number twice, none reused), and the manifest lists the drops.
/// Not synchronised: the engine records from behind its own lock.
public struct BurstLedger: Sendable, Hashable {
    /// Why a produced frame was not written (RawSources' one list, shared with the sources' `FrameLoss`).
    public typealias DropReason = FrameDropReason

    /// A dropped frame.
    public struct Drop: Sendable, Hashable, Codable {
        /// Its sequence number.
        public let sequenceNumber: UInt64
        /// Why.
        public let reason: DropReason
        /// A drop.
        public init(sequenceNumber: UInt64, reason: DropReason) {
            self.sequenceNumber = sequenceNumber
            self.reason = reason
        }
    }

    /// Sequence numbers produced, in order.
    public private(set) var produced: [UInt64] = []
    /// Sequence numbers written, in the order their files became durable.
    public private(set) var written: [UInt64] = []
    /// Frames dropped, in the order they were dropped.
    public private(set) var drops: [Drop] = []

    /// An empty ledger.
    public init() {}

    /// The sensor produced frame `sequenceNumber`.
    public mutating func recordProduced(_ sequenceNumber: UInt64) { produced.append(sequenceNumber) }

    /// Frame `sequenceNumber` is durable on disk.
    public mutating func recordWritten(_ sequenceNumber: UInt64) { written.append(sequenceNumber) }

    /// Frame `sequenceNumber` was dropped for `reason`.
    public mutating func recordDropped(_ sequenceNumber: UInt64, reason: DropReason) {
        drops.append(Drop(sequenceNumber: sequenceNumber, reason: reason))
    }

    /// Frames produced but neither written nor dropped yet (in flight).
    public var outstanding: Int { produced.count - written.count - drops.count }

    /// What breaks the invariant, one line each; empty when every frame is accounted for exactly once.
    public func problems() -> [String] {
        var out: [String] = []
        var producedSet = Set<UInt64>()
        for n in produced where !producedSet.insert(n).inserted { out.append("sequence number \(n) was produced twice") }
        var accounted: [UInt64: String] = [:]
        for n in written {
            if let previous = accounted[n] { out.append("frame \(n) is \(previous) and also written") }
            accounted[n] = "written"
        }
        for drop in drops {
            if let previous = accounted[drop.sequenceNumber] {
                out.append("frame \(drop.sequenceNumber) is \(previous) and also dropped (\(drop.reason.rawValue))")
            }
            accounted[drop.sequenceNumber] = "dropped"
        }
        for n in accounted.keys.sorted() where !producedSet.contains(n) {
            out.append("frame \(n) is \(accounted[n]!) but was never produced")
        }
        let missing = producedSet.subtracting(accounted.keys).sorted()
        if !missing.isEmpty {
            let shown = missing.prefix(10).map(String.init).joined(separator: ", ")
            out.append("\(missing.count) produced frame\(missing.count == 1 ? " is" : "s are") neither written nor dropped: "
                       + shown + (missing.count > 10 ? ", ..." : ""))
        }
        return out
    }

    /// Frames produced, written and dropped over several ledgers (one per sensor).
    public static func totals(_ ledgers: some Sequence<BurstLedger>) -> (produced: Int, written: Int, dropped: Int) {
        ledgers.reduce((0, 0, 0)) { ($0.0 + $1.produced.count, $0.1 + $1.written.count, $0.2 + $1.drops.count) }
    }
}
