import RawCore
import RawDNG
import RawSources

extension BurstGovernor {
    /// How much the burst has given up.
    public enum Level: Int, Sendable, Hashable, Codable, Comparable, CaseIterable {
        case normal = 0, noPreviews, packed, uncompressed, lowerRate

        /// The level's name in the manifest.
        public var name: String {
            switch self {
            case .normal: "normal"
            case .noPreviews: "no-previews"
            case .packed: "packed"
            case .uncompressed: "uncompressed"
            case .lowerRate: "lower-rate"
            }
        }

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// Why the level changed.
    public enum Cause: Sendable, Hashable, CustomStringConvertible {
        /// At the measured growth the pool is full in `secondsToFull`, sooner than a step takes to act.
        case filling(secondsToFull: Double, free: Int, slots: Int)
        /// The next trigger takes the last free slots while the pool is still filling.
        case nearlyFull(free: Int, slots: Int)
        /// The last frame started this late (more than a quarter of the frame interval).
        case late(milliseconds: Double)
        /// A frame was dropped because it could not start on its tick.
        case lateDrop
        /// The thermal state set (or lifted) a floor.
        case thermal(ThermalState)
        /// A lowered rate ran this long with room to spare (no late frame, the pool not filling): rate given back.
        case calm(seconds: Double)

        /// `pool full in 0.8 s at the measured rate (3 of 8 slots free)`, `thermal state fair` ...
        public var description: String {
            switch self {
            case .filling(let seconds, let free, let slots):
                "pool full in \(SettingText.number(seconds)) s at the measured rate (\(free) of \(slots) slots free)"
            case .nearlyFull(let free, let slots): "pool nearly full (\(free) of \(slots) slots free)"
            case .late(let ms): "frames starting late (\(SettingText.number(ms)) ms)"
            case .lateDrop: "a frame could not start on its tick (dropped late)"
            case .thermal(let state): "thermal state \(state.rawValue)"
            case .calm(let seconds): "no pressure for \(SettingText.number(seconds)) s"
            }
        }
    }

    /// One change of level. In the manifest: `level` and `reason` by their names, with `seconds`,
    /// `afterSequenceNumber`, `effect` and, when the rate changed, `fps`.
    public struct Step: Sendable, Hashable, Encodable {
        /// The level from now on.
        public let newLevel: Level
        /// Seconds after the burst started.
        public let seconds: Double
        /// The last sequence number produced before the change: the change applies from the next frame.
        public let afterSequenceNumber: UInt64?
        /// Why.
        public let cause: Cause
        /// What changed for the frames that follow.
        public let effect: String
        /// The frame rate from now on, when it changed.
        public let fps: Double?
        /// The DNGs' compression from now on, when it changed.
        public let compression: DNGCompression?

        /// The new level's name, as the manifest writes it (`no-previews`).
        public var level: String { newLevel.name }
        /// The cause in words, as the manifest writes it.
        public var reason: String { cause.description }

        private enum CodingKeys: String, CodingKey { case level, seconds, afterSequenceNumber, reason, effect, fps, compression }

        /// Writes the names and words of the manifest.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(level, forKey: .level)
            try container.encode(seconds, forKey: .seconds)
            try container.encodeIfPresent(afterSequenceNumber, forKey: .afterSequenceNumber)
            try container.encode(reason, forKey: .reason)
            try container.encode(effect, forKey: .effect)
            try container.encodeIfPresent(fps, forKey: .fps)
            try container.encodeIfPresent(compression, forKey: .compression)
        }
    }

    /// What the writers and the sensor do at a level.
    public struct Work: Sendable, Hashable {
        /// The DNGs' compression.
        public var compression: DNGCompression
        /// Optional work is shed: no JPEG preview and no raw digest, no analysis, development after the burst.
        public var shedsOptionalWork = false
        /// Triggers per second (nil: free-running).
        public var fps: Double?

        /// Full work with `compression` at `fps`.
        public init(compression: DNGCompression, fps: Double?) {
            self.compression = compression
            self.fps = fps
        }

        /// What changed from `a` to `b`, in words, for the manifest.
        static func change(from a: Work, to b: Work, sustainedFPS: Double?) -> String {
            var parts: [String] = []
            if b.shedsOptionalWork != a.shedsOptionalWork {
                parts.append(b.shedsOptionalWork
                    ? "DNGs without JPEG preview or raw digest, no analysis, development after the burst"
                    : "previews, digests, analysis and development again")
            }
            if b.compression != a.compression {
                parts.append("DNGs \(b.compression.rawValue) instead of \(a.compression.rawValue)")
            }
            if let from = a.fps, let to = b.fps, from != to {
                let sustained = sustainedFPS.map { " (writers sustained \(SettingText.number(($0 * 10).rounded() / 10)) fps)" } ?? ""
                parts.append("frame rate \(SettingText.number((from * 100).rounded() / 100)) → "
                             + "\(SettingText.number((to * 100).rounded() / 100)) fps" + (to < from ? sustained : ""))
            }
            return parts.isEmpty ? "full work for every frame" : parts.joined(separator: "; ")
        }
    }

    /// What limits a burst (from its time plan): the cores' time, the disk's bandwidth, or the source itself (one
    /// thread makes a trigger's frames: it cannot take longer than the frame interval).
    public enum Bottleneck: String, Sendable, Hashable, Codable {
        case cpu, disk, sensor
    }

    /// The rungs that give something to a burst limited by `bottleneck`, in order: see the type's documentation.
    /// `shedsWork`: the burst has optional work (previews, digests, analysis, development); `packable`: its samples
    /// have 9–15 bits (packing saves bytes); `realTime`: it has a rate to lower.
    public static func ladder(bottleneck: Bottleneck, compression: DNGCompression, shedsWork: Bool, packable: Bool,
                              realTime: Bool) -> [Level] {
        var rungs: [Level] = []
        switch bottleneck {
        case .cpu:
            if shedsWork { rungs.append(.noPreviews) }
            if compression == .lj92 && packable { rungs.append(.packed) }
            if compression == .lj92 || (compression == .packed && packable) { rungs.append(.uncompressed) }
        case .disk:
            if compression == .none && packable { rungs.append(.packed) }
        case .sensor:
            // Only less work on the other cores (less contention) and a lower rate help a source too slow for the rate.
            if shedsWork { rungs.append(.noPreviews) }
        }
        if realTime { rungs.append(.lowerRate) }
        return rungs
    }
}
