/// Turns a camera's wrapping frame ids (GigE Vision's 16-bit GVSP block ids) into a burst's 64-bit sequence numbers,
/// and says how many frames were missed before each one.
///
/// GigE Vision 1.x block ids are 16 bits; 0 is reserved, so after 65535 the next id is 1 (measured with
/// `arv-fake-gv-camera-0.8`: ..., 65534, 65535, 1, 2, ...). A jump larger than one is frames the camera sent (or
/// counted) that never arrived: each is a sequence number used up. The first id seen is sequence number 0, whatever
/// its value. An id equal to the last one, or one that lies behind it (more than half the id space ahead), is taken
/// as out of order: it gets the next sequence number and no frames are counted missing before it. Three such ids in a
/// row, each following the one before, are a camera that started counting again (restarted, its counter reset): the
/// newest becomes the reference, and nothing is counted missing across the restart.
public struct FrameIDExtender: Sendable, Hashable {
    /// Number of distinct raw ids before they wrap (65536 for 16-bit ids).
    public let modulus: UInt64
    /// True when the id 0 is never sent (GVSP 1.x): 65535 is followed by 1.
    public let zeroIsSkipped: Bool
    /// The last raw id seen, nil before the first frame.
    public private(set) var lastID: UInt64?
    /// The sequence number the next frame would get if it followed the last without a gap.
    public private(set) var nextSequenceNumber: UInt64 = 0
    /// Out-of-order ids in a row that each followed the one before, and the last of them.
    private var restartRun = 0
    private var restartID: UInt64 = 0
    /// Out-of-order ids in a row, each the one after the last, that make a restart.
    public static let restartRunLength = 3

    /// An extender for ids in `0..<modulus` (GigE Vision: 65536, zero skipped).
    public init(modulus: UInt64 = 1 << 16, zeroIsSkipped: Bool = true) {
        precondition(modulus >= 4, "an id space needs at least four ids")
        self.modulus = modulus
        self.zeroIsSkipped = zeroIsSkipped
    }

    /// What `next(_:)` found for one frame.
    public struct Step: Sendable, Hashable {
        /// The sequence numbers of the frames that never arrived before this one, in order (empty when none).
        public let missing: Range<UInt64>
        /// The frame's own sequence number.
        public let sequenceNumber: UInt64
        /// True when the id was not after the last one (a repeat or a late frame).
        public let outOfOrder: Bool
    }

    /// Takes the next raw id the camera delivered and returns its sequence number and the frames missed before it.
    public mutating func next(_ rawID: UInt64) -> Step {
        let id = rawID % modulus
        guard let last = lastID else {
            lastID = id
            nextSequenceNumber = 1
            return Step(missing: 0..<0, sequenceNumber: 0, outOfOrder: false)
        }
        let delta = distance(from: last, to: id)
        let base = nextSequenceNumber
        guard delta > 0 && delta <= modulus / 2 else {
            nextSequenceNumber = base + 1  // the last id stays the reference for the frames that follow
            restartRun = restartRun > 0 && distance(from: restartID, to: id) == 1 ? restartRun + 1 : 1
            restartID = id
            if restartRun >= Self.restartRunLength {
                lastID = id
                restartRun = 0
            }
            return Step(missing: base..<base, sequenceNumber: base, outOfOrder: true)
        }
        restartRun = 0
        let number = base + delta - 1
        lastID = id
        nextSequenceNumber = number + 1
        return Step(missing: base..<number, sequenceNumber: number, outOfOrder: false)
    }

    /// Takes `rawID` as the first id of a camera that started counting again (its clock went back: it was restarted):
    /// the next sequence number, nothing counted missing, and the id the reference from here on — however far it lies
    /// from the last one.
    public mutating func restart(_ rawID: UInt64) -> Step {
        let number = nextSequenceNumber
        lastID = rawID % modulus
        nextSequenceNumber = number + 1
        restartRun = 0
        return Step(missing: number..<number, sequenceNumber: number, outOfOrder: false)
    }

    /// How many ids `id` lies after `last`, going forward through the id space (0 for the same id).
    private func distance(from last: UInt64, to id: UInt64) -> UInt64 {
        var delta = (id &+ modulus &- last) % modulus
        if zeroIsSkipped && id < last && delta > 0 { delta -= 1 }  // the wrap passed over the unused id 0
        return delta
    }
}
