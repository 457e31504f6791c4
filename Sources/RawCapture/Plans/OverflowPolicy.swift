/// What a burst does when the sensor has a frame and every slot of the pool is taken.
public enum OverflowPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// The sensor waits for a slot; its next frames start late, and their lateness is reported.
    case block
    /// The new frame is dropped (counted, with its sequence number).
    case dropNewest = "drop-newest"
    /// The oldest frame still waiting for a writer is dropped to make room (pre-record).
    case dropOldest = "drop-oldest"
    /// The burst stops; the frame that found no slot is counted as dropped.
    case stop

    /// The policy named `text` (`block`, `drop-newest`, `drop-oldest`, `stop`), or nil.
    public init?(parsing text: String) {
        self.init(rawValue: text.lowercased())
    }
}
