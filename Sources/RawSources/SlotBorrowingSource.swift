import RawCore

/// A source whose device writes frames straight into the frame pool's slots (a camera's DMA or network stack filling
/// a buffer the engine owns), so a frame reaches the writer without a copy.
///
/// The engine lends the source slots before the first frame (``lend(_:)``, as many as ``slotsToBorrow(poolSlots:)``
/// asks for); the source queues them for its device. For each frame the engine then offers a free slot to
/// ``nextFrame(replacing:)``: the source returns a frame made in one of the lent slots and queues the offered one in
/// its place, so the same number stays lent. A frame the engine has no slot for is still asked for with
/// ``FrameSource/nextFrame(into:)`` (copied out of a lent slot, which goes straight back to the device). After
/// ``FrameSource/finish()`` (the device stops) ``returnBorrowed()`` makes sure the device writes to no lent slot any
/// more and gives them back.
///
/// Ownership: a lent slot belongs to the source (and its device) from `lend` or `nextFrame(replacing:)` until the
/// source returns a frame in it or hands it back from `returnBorrowed`; the engine keeps it in the pool's `filling`
/// state meanwhile and never reads or writes it.
public protocol SlotBorrowingSource: FrameSource {
    /// How many slots the source wants to keep queued in a pool of `poolSlots` slots (0: it copies into the slot of
    /// each `nextFrame(into:)` instead, e.g. when its frames do not fit a slot).
    func slotsToBorrow(poolSlots: Int) -> Int
    /// The fewest slots it can work with (default 2: a camera's device needs buffers); a burst whose budget cannot
    /// lend it that many is refused. A source that can do without (fewer frames made ahead) says less.
    var slotsRequired: Int { get }
    /// Queues `storage` (a pool slot of at least `samplesPerFrame` samples) for the device.
    func lend(_ storage: PixelStorage) throws(FrameSourceError)
    /// The next frame, made in one of the lent slots (its `image.frame.storage`); `replacement` is lent in its place
    /// once a frame is returned (when this throws, the source has not taken `replacement`).
    func nextFrame(replacing replacement: PixelStorage) throws(FrameSourceError) -> CapturedFrame
    /// After `finish()`: the slots still lent, once the device can no longer write to them.
    func returnBorrowed() -> [PixelStorage]
}

extension SlotBorrowingSource {
    /// Two: a device needs buffers to fill while the engine holds the last frame.
    public var slotsRequired: Int { 2 }
}
