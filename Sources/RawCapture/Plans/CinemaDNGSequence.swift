import RawCore
import RawDNG

/// A burst written as a CinemaDNG clip: every frame carries the reel name and frame rate, and a time code
/// counted from the burst's start time of day by the frame's sequence number (so a dropped frame leaves a gap in
/// the time codes, as in the file numbers).
public struct CinemaDNGSequence: Sendable, Hashable {
    /// The clip's reel name.
    public let reelName: String
    /// Frames per second.
    public let frameRate: Double
    /// Seconds after local midnight of the first frame's time code.
    public let startSeconds: Int

    /// Checks the reel name and rate.
    public init(reelName: String, frameRate: Double, startSeconds: Int) throws(InvalidValueError) {
        _ = try CinemaDNGFrame(reelName: reelName, frameRate: frameRate,
                               timeCode: SMPTETimeCode(frameIndex: 0, startSeconds: 0, base: 1))
        self.reelName = reelName
        self.frameRate = frameRate
        self.startSeconds = max(0, startSeconds) % 86_400
    }

    /// The nominal time-code rate: the frame rate rounded (29.97 counts as 30, non-drop-frame).
    public var timeCodeBase: Int { max(1, Int(frameRate.rounded())) }

    /// The CinemaDNG tags of frame `sequenceNumber`.
    public func frame(sequenceNumber: UInt64) -> CinemaDNGFrame {
        let code = SMPTETimeCode(frameIndex: Int(min(sequenceNumber, UInt64(Int32.max))), startSeconds: startSeconds,
                                 base: timeCodeBase)
        // The reel name and rate were checked in init.
        return try! CinemaDNGFrame(reelName: reelName, frameRate: frameRate, timeCode: code)
    }
}
