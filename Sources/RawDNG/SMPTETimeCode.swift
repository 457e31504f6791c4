/// A SMPTE time code (hours:minutes:seconds:frames), as DNG's `TimeCodes` tag stores it: 8 bytes in the SMPTE
/// 12M/331M layout — frames, seconds, minutes and hours in BCD, then four bytes of (unused) binary groups.
public struct SMPTETimeCode: Sendable, Hashable, CustomStringConvertible {
    /// Hours, 0...23.
    public let hours: Int
    /// Minutes, 0...59.
    public let minutes: Int
    /// Seconds, 0...59.
    public let seconds: Int
    /// Frames within the second, 0...(base − 1).
    public let frames: Int

    /// The time code of frame number `index` counted from `start` seconds after midnight, at `base` frames per
    /// second (the nominal rate: 24, 25, 30; at most 30, the most the frames field's two BCD digits and 6 bits
    /// count without SMPTE's frame pairs). Non-drop-frame; wraps after 24 hours.
    public init(frameIndex index: Int, startSeconds start: Int, base: Int) {
        let base = max(1, min(30, base))
        let total = (start * base + max(0, index)) % (86_400 * base)
        frames = total % base
        let secondsOfDay = total / base
        seconds = secondsOfDay % 60
        minutes = (secondsOfDay / 60) % 60
        hours = secondsOfDay / 3600
    }

    /// The 8 bytes of the `TimeCodes` tag.
    public var bytes: [UInt8] {
        func bcd(_ v: Int) -> UInt8 { UInt8((v / 10) << 4 | (v % 10)) }
        return [bcd(frames) & 0x3F, bcd(seconds) & 0x7F, bcd(minutes) & 0x7F, bcd(hours) & 0x3F, 0, 0, 0, 0]
    }

    /// `HH:MM:SS:FF`.
    public var description: String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(two(hours)):\(two(minutes)):\(two(seconds)):\(two(frames))"
    }
}
