import RawCore
import RawSources

/// Slots lent to a source whose device fills them itself (`SlotBorrowingSource`, a camera): the sensor thread lends
/// `memory.lentSlots` free slots before the first trigger and keeps them in `filling` (`SensorState.lent`) while the
/// device holds them. Each trigger's slot is offered in exchange for the lent slot the frame arrived in, which goes on
/// to the writers; after `finish()` the lent slots go back to the pool unused.
extension BurstRun {
    /// Lends the plan's slots to the borrowing source; a cause to end the burst before it starts when the source cannot
    /// take them (nil when it took them, or there is no borrower).
    func lendSlots(_ s: inout SensorState) -> BurstSession.StopCause? {
        guard let borrower = session.source.borrower, session.memory.lentSlots > 0 else { return nil }
        for _ in 0..<session.memory.lentSlots {
            // The plan keeps these beside the engine's own slots, and nothing else has taken a slot yet.
            guard let slot = pool.tryAcquire() else { break }
            do {
                try borrower.lend(slot.storage)
            } catch {
                pool.abandon(slot)
                recordFailure(.sensor("\(error)"))
                return .sensorFailed("\(error)")
            }
            s.lent[ObjectIdentifier(slot.storage)] = slot
        }
        return nil
    }

    /// After the source's `finish()`: the lent slots back to the pool (filling → free), none of them holding a frame.
    func returnLentSlots(_ s: inout SensorState) {
        guard let borrower = session.source.borrower else { return }
        let returned = borrower.returnBorrowed()
        // Every lent slot must come back: one a source kept might still be written to by its device.
        precondition(returned.count == s.lent.count && Set(returned.map(ObjectIdentifier.init)) == Set(s.lent.keys),
                     "a source returned other slots than it was lent")
        for slot in s.lent.values { pool.abandon(slot) }
        s.lent = [:]
    }

    /// The trigger's frames made by the source: into `buffers` (the slots' storage, or the spares), or — for a
    /// borrowing source offered one slot — in the lent slot the device filled, `slots[0]` lent in its place. Returns
    /// the frames and the slots they are in (in the same order; empty without slots).
    func makeFrames(_ slots: [Slot], buffers: [PixelStorage],
                    _ s: inout SensorState) throws(FrameSourceError) -> (frames: [CapturedFrame], slots: [Slot]) {
        guard let borrower = session.source.borrower, !s.lent.isEmpty, slots.count == 1 else {
            return (try session.source.next(into: buffers), slots)
        }
        let frame = try borrower.nextFrame(replacing: slots[0].storage)
        guard let filled = s.lent.removeValue(forKey: ObjectIdentifier(frame.image.frame.storage)) else {
            preconditionFailure("a borrowing source returned a frame outside the slots it was lent")
        }
        s.lent[ObjectIdentifier(slots[0].storage)] = slots[0]
        return ([frame], [filled])
    }
}
