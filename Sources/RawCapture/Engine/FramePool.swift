import Foundation
import RawCore

/// The burst engine's frame buffers: a fixed set of slots allocated once from a memory budget, each moving
/// `free → filling → full → encoding → free`.
///
/// The sensor thread takes a free slot (`acquire…`), has the frame source fill it, and hands it on with
/// `markFull`; writer threads take full slots in the order they were filled (`nextFull`), encode them
/// straight from the slot's storage and give them back with `release`. A frame is never copied between
/// the sensor and the encoder, and the pool never allocates after `init`.
///
/// The slot states, and who may move a slot out of each:
///
/// | state | held by | leaves by |
/// |---|---|---|
/// | `free` | the pool | `acquire(waiting:)` / `tryAcquire()` → `filling` |
/// | `filling` | the sensor thread | `markFull(_:payload:)` → `full`, or `abandon(_:)` → `free` |
/// | `full` | the pool's queue | `nextFull()` → `encoding`, or `reclaimOldestFull()` → `filling` (a drop) |
/// | `encoding` | one writer thread | `release(_:)` → `free` |
///
/// Moving a slot out of a state it is not in is a programming error and stops the process.
/// `Payload` travels with a full slot to its writer (the frame's description).
// @unchecked: every mutable field is read and written only while holding `condition`; slot buffers follow the slot states.
public final class FramePool<Payload: Sendable>: @unchecked Sendable {
    /// Where a slot is in its cycle.
    public enum SlotState: String, Sendable, Hashable {
        case free, filling, full, encoding
    }

    /// A slot handed out by the pool: its index and its buffer.
    public struct Slot: Sendable, Hashable {
        /// Index of the slot, 0..<slotCount.
        public let index: Int
        /// The slot's buffer (the pool owns it; valid while the pool lives).
        public let storage: PixelStorage

        public static func == (a: Slot, b: Slot) -> Bool { a.index == b.index && a.storage === b.storage }
        public func hash(into hasher: inout Hasher) { hasher.combine(index) }
    }

    /// A snapshot of the pool's use.
    public struct Statistics: Sendable, Hashable {
        /// Number of slots.
        public let slotCount: Int
        /// Slots not free now (filling, full or encoding).
        public let occupied: Int
        /// Full slots waiting for a writer.
        public let queued: Int
        /// The most slots ever occupied at once.
        public let highWater: Int
        /// Slots reclaimed from the queue by `reclaimOldestFull` (frames dropped to make room).
        public let reclaimed: Int
    }

    /// Number of slots.
    public let slotCount: Int
    /// Samples (16-bit) in each slot.
    public let samplesPerSlot: Int
    /// Bytes of pixel memory the pool holds (slots × samples × 2).
    public var bytes: Int { slotCount * samplesPerSlot * MemoryLayout<UInt16>.stride }

    private let storages: [PixelStorage]
    private var states: [SlotState]
    private var payloads: [Payload?]
    private var freeSlots: [Int]
    private var fullQueue: [Int] = []
    private var fullHead = 0
    private var closed = false
    private var held = false
    private var highWater = 0
    /// Slots below this index have been handed to `slotToWarm` (owner: the lock).
    private var warmed = 0
    private var reclaimed = 0
    private let condition = NSCondition()

    /// Creates a pool of `slotCount` slots of `samplesPerSlot` samples each, all allocated now.
    public init(samplesPerSlot: Int, slotCount: Int) throws(FramePoolError) {
        guard samplesPerSlot > 0 else { throw FramePoolError("a slot must hold at least one sample") }
        guard slotCount >= 2 else {
            throw FramePoolError("\(slotCount) slot\(slotCount == 1 ? "" : "s"): a burst needs at least 2 (one filling, one encoding)")
        }
        self.slotCount = slotCount
        self.samplesPerSlot = samplesPerSlot
        // Lazily zeroed: a slot costs RAM only once a frame has been made into it.
        storages = (0..<slotCount).map { _ in PixelStorage(lazilyZeroedCount: samplesPerSlot) }
        states = Array(repeating: .free, count: slotCount)
        payloads = Array(repeating: nil, count: slotCount)
        freeSlots = Array((0..<slotCount).reversed())
    }

    /// Creates as many slots of `samplesPerSlot` samples as fit in `budgetBytes` after `reservedBytes`
    /// (what the rest of the burst needs: encoders' working memory and so on).
    public convenience init(samplesPerSlot: Int, budgetBytes: Int, reservedBytes: Int = 0) throws(FramePoolError) {
        try self.init(samplesPerSlot: samplesPerSlot,
                      slotCount: Self.slotCount(samplesPerSlot: samplesPerSlot, budgetBytes: budgetBytes,
                                                reservedBytes: reservedBytes))
    }

    /// How many slots of `samplesPerSlot` samples fit in `budgetBytes` after `reservedBytes`, without
    /// allocating anything; throws, with the sizes, when fewer than 2 fit.
    public static func slotCount(samplesPerSlot: Int, budgetBytes: Int, reservedBytes: Int = 0) throws(FramePoolError) -> Int {
        let slotBytes = samplesPerSlot * MemoryLayout<UInt16>.stride
        let available = budgetBytes - reservedBytes
        let count = slotBytes > 0 && available > 0 ? available / slotBytes : 0
        guard count >= 2 else {
            throw FramePoolError("a memory budget of \(FramePoolError.mebibytes(budgetBytes))"
                + (reservedBytes > 0 ? " less \(FramePoolError.mebibytes(reservedBytes)) reserved" : "")
                + " holds \(count) frame\(count == 1 ? "" : "s") of \(FramePoolError.mebibytes(slotBytes)); at least 2 are needed "
                + "(\(FramePoolError.mebibytes(2 * slotBytes + reservedBytes)))")
        }
        return count
    }

    // MARK: - The sensor side

    /// Takes a free slot for filling, waiting for one when `waiting` is true (the `block` policy) until a
    /// writer releases one or the pool is closed. Nil when none is free and not waiting, or when closed.
    public func acquire(waiting: Bool) -> Slot? {
        acquire(waiting: waiting, until: nil)
    }

    /// `acquire(waiting: true)` that gives up (nil) once `CLOCK_MONOTONIC` passes `deadline` (ns) without a free slot.
    public func acquire(until deadline: UInt64) -> Slot? {
        acquire(waiting: true, until: deadline)
    }

    private func acquire(waiting: Bool, until deadline: UInt64?) -> Slot? {
        condition.lock()
        defer { condition.unlock() }
        while freeSlots.isEmpty && waiting && !closed {
            guard let deadline else {
                condition.wait()
                continue
            }
            let now = MonotonicClock.nanoseconds()
            guard now < deadline else { break }
            // NSCondition waits on the wall clock: in slices of at most 20 ms, checked against the monotonic deadline,
            // so a clock step cannot stretch the wait.
            _ = condition.wait(until: Date(timeIntervalSinceNow: min(Double(deadline - now) / 1e9, 0.02)))
        }
        guard !closed, let index = freeSlots.popLast() else { return nil }
        move(index, from: .free, to: .filling)
        return Slot(index: index, storage: storages[index])
    }

    /// A free slot for filling, or nil at once when none is free.
    public func tryAcquire() -> Slot? { acquire(waiting: false) }

    /// Takes back the oldest full slot that no writer has started (the `drop-oldest` policy) and hands it
    /// out for filling; returns it with the payload of the frame it held, which is thereby dropped.
    /// Nil when no slot is queued.
    public func reclaimOldestFull() -> (slot: Slot, dropped: Payload)? {
        condition.lock()
        defer { condition.unlock() }
        guard !closed, let taken = popOldestFull(to: .filling) else { return nil }
        reclaimed += 1
        return (taken.slot, taken.payload)
    }

    /// Hands a filled slot to the writers, with the description of its frame.
    public func markFull(_ slot: Slot, payload: Payload) {
        condition.lock()
        defer { condition.unlock() }
        move(slot.index, from: .filling, to: .full)
        payloads[slot.index] = payload
        fullQueue.append(slot.index)
        condition.broadcast()
    }

    /// Gives back a slot whose filling failed; it becomes free.
    public func abandon(_ slot: Slot) {
        condition.lock()
        defer { condition.unlock() }
        move(slot.index, from: .filling, to: .free)
        freeSlots.append(slot.index)
        condition.broadcast()
    }

    // MARK: - The writer side

    /// The oldest full slot and its payload, moved to `encoding`; waits while none is queued. Nil once the
    /// pool is closed and its queue is empty.
    public func nextFull() -> (slot: Slot, payload: Payload)? {
        condition.lock()
        defer { condition.unlock() }
        while (held || fullHead == fullQueue.count) && !closed { condition.wait() }
        return popOldestFull(to: .encoding)
    }

    /// While held, `nextFull` hands out nothing: full slots stay queued (a pre-record keeps its frames there
    /// until the trigger, reclaiming the oldest for each new one). Releasing the hold wakes the writers.
    public func setHeld(_ hold: Bool) {
        condition.lock()
        held = hold
        condition.broadcast()
        condition.unlock()
    }

    /// Gives back a slot whose frame has been written (or has failed); it becomes free.
    public func release(_ slot: Slot) {
        condition.lock()
        defer { condition.unlock() }
        move(slot.index, from: .encoding, to: .free)
        freeSlots.append(slot.index)
        condition.broadcast()
    }

    /// A slot no frame has been made into yet that the sensor will take soon — slots are taken lowest index first
    /// and the most recently freed again first, so the next new one is the one at the high-water mark — for a writer to
    /// fault in (`PixelStorage.populate`) before the sensor's thread needs it: a new slot's first touch is the kernel
    /// zero-filling 24 MB for a 12 MP frame, which under a busy burst took the simulated sensor 50–80 ms, not 5
    /// (issue #33). Keeps `ahead` slots beyond the high-water mark warm; nil when they are.
    public func slotToWarm(ahead: Int) -> PixelStorage? {
        condition.lock()
        defer { condition.unlock() }
        guard warmed < min(slotCount, highWater + ahead) else { return nil }
        warmed += 1
        return storages[warmed - 1]
    }

    /// No more frames will come: waiting writers drain the queue and then get nil; waiting acquirers get nil.
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    // MARK: - State

    /// The state of slot `index`.
    public func state(of index: Int) -> SlotState {
        condition.lock()
        defer { condition.unlock() }
        return states[index]
    }

    /// Occupancy, queue length and high-water mark now.
    public var statistics: Statistics {
        condition.lock()
        defer { condition.unlock() }
        return Statistics(slotCount: slotCount, occupied: slotCount - freeSlots.count, queued: fullQueue.count - fullHead,
                          highWater: highWater, reclaimed: reclaimed)
    }

    /// Moves slot `index` from `from` to `to` (lock held); stops on a move the state machine does not allow.
    private func move(_ index: Int, from: SlotState, to: SlotState) {
        precondition(states[index] == from, "FramePool: slot \(index) is \(states[index].rawValue), not \(from.rawValue)")
        states[index] = to
        if from == .free { highWater = max(highWater, slotCount - freeSlots.count) }
    }

    /// Takes the oldest full slot off the queue into `state`, with its payload (lock held); nil when none is queued.
    private func popOldestFull(to state: SlotState) -> (slot: Slot, payload: Payload)? {
        guard fullHead < fullQueue.count else { return nil }
        let index = fullQueue[fullHead]
        fullHead += 1
        compactQueue()
        move(index, from: .full, to: state)
        let payload = payloads[index]!
        payloads[index] = nil
        return (Slot(index: index, storage: storages[index]), payload)
    }

    /// Drops consumed entries from the front of the queue once they are most of it (lock held).
    private func compactQueue() {
        if fullHead > 64 && fullHead * 2 > fullQueue.count {
            fullQueue.removeFirst(fullHead)
            fullHead = 0
        }
    }
}

/// The domain of `FramePoolError`.
public enum FramePoolErrorDomain {}

/// A frame pool that cannot be made as asked, in one line.
public typealias FramePoolError = MessageError<FramePoolErrorDomain>

extension MessageError where Domain == FramePoolErrorDomain {
    /// `512 MiB`, `23.3 MiB`, `150 KiB` (below 1 MiB).
    static func mebibytes(_ bytes: Int) -> String {
        if bytes < 1_048_576 { return "\(Int((Double(bytes) / 1024).rounded())) KiB" }
        let value = Double(bytes) / 1_048_576
        return value == value.rounded() ? "\(Int(value)) MiB" : String(format: "%.1f MiB", value)
    }
}
