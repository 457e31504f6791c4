import Foundation
@testable import RawCapture
import RawCore
import Testing

/// `FramePool`: sizing from a budget, the slot state machine, waiting, reclaiming, and the accounting under
/// random stalls and policies.
@Suite struct FramePoolTests {
    static let twelveMP = 4032 * 3024

    @Test func slotsComeFromTheBudget() throws {
        // 1.5 MiB slots (a 768x1024 frame) in 16 MiB: 10 slots; with 4 MiB reserved: 8.
        let pool = try FramePool<UInt64>(samplesPerSlot: 768 * 1024, budgetBytes: 16 << 20)
        #expect(pool.slotCount == 10 && pool.bytes == 15 << 20)
        let reserved = try FramePool<UInt64>(samplesPerSlot: 768 * 1024, budgetBytes: 16 << 20, reservedBytes: 4 << 20)
        #expect(reserved.slotCount == 8)
        #expect((0..<8).allSatisfy { reserved.state(of: $0) == .free })
        let error = try #require(throws: FramePoolError.self) {
            try FramePool<UInt64>(samplesPerSlot: Self.twelveMP, budgetBytes: 40 << 20)
        }
        #expect(error.description
                == "a memory budget of 40 MiB holds 1 frame of 23.3 MiB; at least 2 are needed (46.5 MiB)")
        #expect(throws: FramePoolError.self) { try FramePool<UInt64>(samplesPerSlot: 100, slotCount: 1) }
    }

    @Test("new slots are handed out to warm once each, up to `ahead` beyond the high-water mark, in the order the sensor takes them")
    func newSlotsAreWarmedAheadOfTheHighWaterMark() throws {
        let pool = try FramePool<UInt64>(samplesPerSlot: 16, slotCount: 5)
        // Nothing taken yet: the first two slots the sensor will take.
        let first = [pool.slotToWarm(ahead: 2), pool.slotToWarm(ahead: 2)].compactMap { $0 }
        #expect(first.count == 2 && pool.slotToWarm(ahead: 2) == nil)
        let a = try #require(pool.tryAcquire()), b = try #require(pool.tryAcquire())
        let c = try #require(pool.tryAcquire())
        #expect(first[0] === a.storage && first[1] === b.storage)
        // High-water mark 3: slots 2, 3 and 4 — and no more, the pool has 5.
        let next = [pool.slotToWarm(ahead: 2), pool.slotToWarm(ahead: 2), pool.slotToWarm(ahead: 2)].compactMap { $0 }
        #expect(next.count == 3 && pool.slotToWarm(ahead: 2) == nil)
        #expect(next[0] === c.storage)
        // A slot written and given back is taken again first; the next new one is the next warmed.
        pool.markFull(c, payload: 3)
        let (written, _) = try #require(pool.nextFull())
        pool.release(written)
        let again = try #require(pool.tryAcquire())
        #expect(again.storage === c.storage)
        let d = try #require(pool.tryAcquire())
        #expect(d.storage === next[1])
    }

    @Test func slotsMoveFreeFillingFullEncodingFree() throws {
        let pool = try FramePool<UInt64>(samplesPerSlot: 16, slotCount: 3)
        let a = try #require(pool.tryAcquire())
        #expect(a.storage.buffer.allSatisfy { $0 == 0 }, "slots start zeroed")
        #expect(pool.state(of: a.index) == .filling)
        a.storage.baseAddress[0] = 1234 // the sensor fills the slot's own buffer
        pool.markFull(a, payload: 7)
        #expect(pool.state(of: a.index) == .full)
        #expect(pool.statistics.queued == 1 && pool.statistics.occupied == 1)
        let taken = try #require(pool.nextFull())
        #expect(taken.slot == a && taken.payload == 7)
        #expect(taken.slot.storage === a.storage && taken.slot.storage.baseAddress[0] == 1234) // no copy
        #expect(pool.state(of: a.index) == .encoding)
        pool.release(taken.slot)
        #expect(pool.state(of: a.index) == .free)
        let b = try #require(pool.tryAcquire())
        pool.abandon(b)
        #expect(pool.state(of: b.index) == .free)
        #expect(pool.statistics.occupied == 0 && pool.statistics.highWater == 1)
    }

    @Test func fullSlotsGoToWritersInFillingOrderAndTheOldestCanBeReclaimed() throws {
        let pool = try FramePool<UInt64>(samplesPerSlot: 4, slotCount: 4)
        for n in UInt64(0)..<4 {
            let slot = try #require(pool.tryAcquire())
            pool.markFull(slot, payload: n)
        }
        #expect(pool.tryAcquire() == nil)
        #expect(pool.statistics.highWater == 4)
        let reclaimed = try #require(pool.reclaimOldestFull())
        #expect(reclaimed.dropped == 0)
        #expect(pool.state(of: reclaimed.slot.index) == .filling)
        pool.markFull(reclaimed.slot, payload: 4)
        #expect(pool.statistics.reclaimed == 1)
        var order: [UInt64] = []
        pool.close()
        while let (slot, payload) = pool.nextFull() {
            order.append(payload)
            pool.release(slot)
        }
        #expect(order == [1, 2, 3, 4])
        #expect(pool.acquire(waiting: true) == nil, "a closed pool hands out nothing")
    }

    @Test func aBlockedAcquireWaitsForARelease() throws {
        let pool = try FramePool<UInt64>(samplesPerSlot: 4, slotCount: 2)
        for n in UInt64(0)..<2 { pool.markFull(try #require(pool.tryAcquire()), payload: n) }
        let released = ManagedFlag()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let slot = pool.acquire(waiting: true)
            #expect(slot != nil)
            #expect(released.value, "acquire returned before any slot was released")
            done.signal()
        }
        usleep(50_000)
        let (slot, _) = try #require(pool.nextFull())
        released.value = true
        pool.release(slot)
        #expect(done.wait(timeout: .now() + 5) == .success)
    }

    /// Random policies, producer and writer stalls: every produced frame ends written or dropped exactly
    /// once, no slot is ever held by two parties, occupancy never exceeds the slots.
    @Test("accounting holds under random stalls and policies", arguments: [1, 2, 3, 4, 5, 6])
    func accountingUnderRandomStalls(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let slots = 2 + Int(random.next() % 5)
        let writers = 1 + Int(random.next() % 3)
        let policy = ["block", "drop-newest", "drop-oldest"][Int(random.next() % 3)]
        let frames = 400
        let pool = try FramePool<UInt64>(samplesPerSlot: 8, slotCount: slots)
        let ledger = LockedLedger()
        let holders = HolderCheck(slots: slots)
        let group = DispatchGroup()
        for w in 0..<writers {
            let writerSeed = seed &* 31 &+ UInt64(w)
            group.enter()
            Thread.detachNewThread {
                var local = SplitMix(seed: writerSeed)
                while let (slot, sequence) = pool.nextFull() {
                    holders.take(slot.index)
                    #expect(slot.storage.baseAddress[0] == UInt16(truncatingIfNeeded: sequence), "slot holds its frame")
                    if local.next() % 4 == 0 { usleep(UInt32(local.next() % 3000)) } // a writer stall
                    holders.give(slot.index)
                    if local.next() % 50 == 0 { ledger.dropped(sequence, .writeFailed) } else { ledger.written(sequence) }
                    pool.release(slot)
                }
                group.leave()
            }
        }
        for sequence in UInt64(0)..<UInt64(frames) {
            ledger.produced(sequence)
            var slot: FramePool<UInt64>.Slot?
            switch policy {
            case "block":
                slot = pool.acquire(waiting: true)
            case "drop-newest":
                slot = pool.tryAcquire()
                if slot == nil { ledger.dropped(sequence, .poolFull) }
            default:
                slot = pool.tryAcquire()
                if slot == nil, let (reclaimed, old) = pool.reclaimOldestFull() {
                    ledger.dropped(old, .replacedByNewer)
                    slot = reclaimed
                }
                if slot == nil { ledger.dropped(sequence, .poolFull) } // every slot is with a writer
            }
            guard let slot else { continue }
            holders.take(slot.index)
            slot.storage.baseAddress[0] = UInt16(truncatingIfNeeded: sequence)
            if random.next() % 8 == 0 { usleep(UInt32(random.next() % 1000)) } // a sensor-side stall
            holders.give(slot.index)
            pool.markFull(slot, payload: sequence)
        }
        pool.close()
        #expect(group.wait(timeout: .now() + 60) == .success)
        let result = ledger.snapshot()
        #expect(result.problems() == [], "policy \(policy), \(slots) slots, \(writers) writers")
        #expect(result.produced.count == frames)
        #expect(result.written.count + result.drops.count == frames)
        if policy == "block" { #expect(result.drops.allSatisfy { $0.reason == .writeFailed }) }
        let stats = pool.statistics
        #expect(stats.highWater <= slots && stats.occupied == 0 && stats.queued == 0)
        #expect(holders.violations == 0)
    }

    @Test func theLedgerNamesWhatIsWrong() {
        var ledger = BurstLedger()
        for n in UInt64(0)..<5 { ledger.recordProduced(n) }
        ledger.recordWritten(0)
        ledger.recordWritten(1)
        ledger.recordDropped(1, reason: .poolFull)
        ledger.recordDropped(2, reason: .replacedByNewer)
        ledger.recordWritten(9)
        #expect(ledger.problems() == [
            "frame 1 is written and also dropped (pool-full)",
            "frame 9 is written but was never produced",
            "2 produced frames are neither written nor dropped: 3, 4",
        ])
        ledger.recordProduced(4)
        #expect(ledger.problems().first == "sequence number 4 was produced twice")
        var good = BurstLedger()
        for n in UInt64(0)..<3 { good.recordProduced(n) }
        good.recordWritten(2)
        good.recordDropped(0, reason: .poolFull)
        #expect(good.outstanding == 1)
        good.recordWritten(1)
        #expect(good.problems() == [] && good.outstanding == 0)
    }
}

/// A flag shared between two threads.
private final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// A ledger behind a lock, for the producer and the writers of a test.
private final class LockedLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var ledger = BurstLedger()
    func produced(_ n: UInt64) { lock.withLock { ledger.recordProduced(n) } }
    func written(_ n: UInt64) { lock.withLock { ledger.recordWritten(n) } }
    func dropped(_ n: UInt64, _ reason: BurstLedger.DropReason) { lock.withLock { ledger.recordDropped(n, reason: reason) } }
    func snapshot() -> BurstLedger { lock.withLock { ledger } }
}

/// Counts a slot being held by two parties at once.
private final class HolderCheck: @unchecked Sendable {
    private let lock = NSLock()
    private var held: [Bool]
    private(set) var violations = 0
    init(slots: Int) { held = Array(repeating: false, count: slots) }
    func take(_ i: Int) { lock.withLock { if held[i] { violations += 1 }; held[i] = true } }
    func give(_ i: Int) { lock.withLock { held[i] = false } }
}

/// A small deterministic generator for the property tests.
private typealias SplitMix = SplitMix64
