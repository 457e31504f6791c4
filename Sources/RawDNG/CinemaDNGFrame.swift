import RawCore

/// What makes a DNG a frame of a CinemaDNG sequence: the clip's reel name and frame rate, which every frame of
/// the sequence carries unchanged, and the frame's own time code.
///
/// A CinemaDNG frame stores its raw mosaic in IFD0 (no thumbnail or preview) with the `TimeCodes`, `FrameRate` and
/// `ReelName` tags; the frames of a clip go into one folder, named so that the last run of at least four digits
/// is the frame number (a missing number is a missing frame).
public struct CinemaDNGFrame: Sendable, Hashable {
    /// The clip's reel name (`ReelName`): 1...64 printable ASCII characters.
    public let reelName: String
    /// Frames per second (`FrameRate`), 1...30: the 8-byte time code's frames field holds at most 39, and SMPTE's
    /// frame-pair counting above 30 fps is not implemented.
    public let frameRate: Double
    /// This frame's time code (`TimeCodes`).
    public let timeCode: SMPTETimeCode

    /// Checks the reel name and the rate.
    public init(reelName: String, frameRate: Double, timeCode: SMPTETimeCode) throws(InvalidValueError) {
        try Self.checkReelName(reelName)
        guard frameRate.isFinite, frameRate >= 1, frameRate <= Self.maximumFrameRate else {
            throw InvalidValueError("CinemaDNG frame rate", "\(frameRate) fps is outside 1...30 (time codes count at most 30 frames a second here)")
        }
        self.reelName = reelName
        self.frameRate = frameRate
        self.timeCode = timeCode
    }

    /// The highest frame rate a clip may have.
    public static let maximumFrameRate: Double = 30

    /// Throws unless `name` is 1...64 printable ASCII characters that are safe in a file name (letters, digits,
    /// `-` and `_`).
    public static func checkReelName(_ name: String) throws(InvalidValueError) {
        guard (1...64).contains(name.count),
              name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") })
        else {
            throw InvalidValueError("reel name '\(name)'", "must be 1...64 letters, digits, '-' or '_'")
        }
    }
}
