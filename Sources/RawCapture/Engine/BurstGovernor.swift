import RawCore
import RawSources

/// The burst's pressure governor: when the writers fall behind (the pool's queue stays deep) or the device
/// gets hot, it gives up work in a declared order before the overflow policy has to drop a frame.
///
/// The order (docs/capture.md, "The governor"):
/// 1. `no-previews`: DNGs are written without the optional JPEG preview and the raw digest, and frames are no
///    longer analysed;
/// 2. `cheaper-compression`: lossless-JPEG DNGs give way to uncompressed ones (a burst already uncompressed has
///    nothing to give up here and says so);
/// 3. `lower-rate`: the frame rate is halved (with a real-time clock; a free-running burst has no rate to lower);
/// then the overflow policy decides, frame by frame.
///
/// Queue pressure raises the level one step at a time and never lowers it during a burst: the first step as soon
/// as the queue is deep (a small pool fills within a few frames, so waiting would drop frames before anything is
/// given up), each later one at most once per `settleFrames` frames so the effect of a step is seen before the next. The thermal state sets a floor:
/// `fair` → `no-previews`, `serious` → `lower-rate`; it is lifted when the state cools. `critical` stops the
/// burst (handled by the session). Every change is recorded as a `Step` for the manifest.
public struct BurstGovernor: Sendable {
    /// How much the burst has given up.
    public enum Level: Int, Sendable, Hashable, Codable, Comparable, CaseIterable {
        case normal = 0, noPreviews, cheaperCompression, lowerRate

        /// The level's name in the manifest.
        public var name: String {
            switch self {
            case .normal: "normal"
            case .noPreviews: "no-previews"
            case .cheaperCompression: "cheaper-compression"
            case .lowerRate: "lower-rate"
            }
        }

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// Why the level changed.
    public enum Cause: Sendable, Hashable, CustomStringConvertible {
        /// The queue stayed `depth` deep in a pool of `slots` slots: the writers are behind.
        case queue(depth: Int, slots: Int)
        /// The thermal state set (or lifted) a floor.
        case thermal(ThermalState)

        /// `queue 6 of 8 slots (writers behind)`, `thermal state fair`.
        public var description: String {
            switch self {
            case .queue(let depth, let slots): "queue \(depth) of \(slots) slots (writers behind)"
            case .thermal(let state): "thermal state \(state.rawValue)"
            }
        }
    }

    /// One change of level. In the manifest: `level` and `reason` by their names, with `seconds`,
    /// `afterSequenceNumber` and `effect`.
    public struct Step: Sendable, Hashable, Encodable {
        /// The level from now on.
        public let newLevel: Level
        /// Seconds after the burst started.
        public let seconds: Double
        /// The last sequence number produced before the change.
        public let afterSequenceNumber: UInt64?
        /// Why: the queue's depth or the thermal state.
        public let cause: Cause
        /// What changed for the frames that follow.
        public let effect: String

        /// The new level's name, as the manifest writes it (`no-previews`).
        public var level: String { newLevel.name }
        /// The cause in words, as the manifest writes it.
        public var reason: String { cause.description }

        private enum CodingKeys: String, CodingKey { case level, seconds, afterSequenceNumber, reason, effect }

        /// Writes the names and words of the manifest.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(level, forKey: .level)
            try container.encode(seconds, forKey: .seconds)
            try container.encodeIfPresent(afterSequenceNumber, forKey: .afterSequenceNumber)
            try container.encode(reason, forKey: .reason)
            try container.encode(effect, forKey: .effect)
        }
    }

    /// Slots in the pool and writer threads (the queue the writers cannot be working on is slots − writers).
    public let slots: Int
    public let writers: Int
    /// Frames between two pressure steps.
    public let settleFrames: Int
    /// The level now.
    public private(set) var level: Level = .normal
    /// Every change so far.
    public private(set) var steps: [Step] = []

    private var pressureLevel: Level = .normal
    /// Frames observed since the last pressure step; starts settled, so the first step needs no wait.
    private var framesSinceStep: Int

    /// A governor for a pool of `slots` slots drained by `writers` writers.
    public init(slots: Int, writers: Int) {
        self.slots = slots
        self.writers = writers
        settleFrames = max(10, slots)
        framesSinceStep = settleFrames
    }

    /// Queue depth at which the writers count as falling behind: three quarters of the slots no writer can
    /// be busy with, and at least 2.
    public var pressureDepth: Int { max(2, (slots - min(writers, slots - 1)) * 3 / 4) }

    /// Looks at the queue and the thermal state before a frame; returns the new level when it changed.
    /// `effect` describes, for the manifest, what a level means for this burst.
    public mutating func observe(queued: Int, thermal: ThermalState, seconds: Double, lastSequenceNumber: UInt64?,
                                 effect: (Level) -> String) -> Level? {
        framesSinceStep += 1
        var cause: Cause?
        if queued >= pressureDepth && framesSinceStep >= settleFrames && pressureLevel < .lowerRate {
            pressureLevel = Level(rawValue: pressureLevel.rawValue + 1)!
            framesSinceStep = 0
            cause = .queue(depth: queued, slots: slots)
        }
        let floor: Level = thermal >= .serious ? .lowerRate : thermal == .fair ? .noPreviews : .normal
        let next = max(pressureLevel, floor)
        guard next != level else { return nil }
        let why: Cause = if let cause, floor <= pressureLevel { cause } else { .thermal(thermal) }
        level = next
        steps.append(Step(newLevel: next, seconds: (seconds * 1000).rounded() / 1000,
                          afterSequenceNumber: lastSequenceNumber, cause: why, effect: effect(next)))
        return next
    }
}

extension BurstGovernor.Level {
    /// What this level does in a burst configured as `configuration`, for the manifest.
    func effect(in configuration: BurstSession.Configuration) -> String {
        switch self {
        case .normal: return "full work for every frame"
        case .noPreviews:
            let analysis = configuration.analysis == nil ? "" : "; frames are no longer analysed"
            let digest = configuration.dngOptions.rawImageDigest ? "; DNGs are written without NewRawImageDigest" : ""
            return (configuration.dngOptions.previewLongEdge == nil
                ? "no previews to skip (DNGs carry only their thumbnail)"
                : "DNGs are written without their JPEG preview") + digest + analysis
        case .cheaperCompression:
            let previews = configuration.dngOptions.previewLongEdge == nil ? "" : "; previews skipped"
            switch configuration.dngOptions.compression {
            case .lj92: return "DNGs are written uncompressed from now on instead of lossless JPEG" + previews
            case .packed: return "DNGs are written with 16-bit samples from now on instead of packed ones" + previews
            case .none: return "no cheaper compression: DNGs are already uncompressed" + previews
            }
        case .lowerRate:
            if case .realTime(let fps) = configuration.clock {
                return "frame rate halved: \(SettingText.number(fps)) → \(SettingText.number(fps / 2)) fps"
            }
            return "no rate to lower (free-running)"
        }
    }
}

extension FrameClock {
    /// Half the rate of a real-time clock (a free-running one stays as it is): the governor's `lower-rate`.
    var halved: FrameClock {
        if case .realTime(let fps) = self { return .realTime(fps: fps / 2) }
        return self
    }
}
