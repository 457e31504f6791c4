import RawCore
import RawSources

/// What a burst takes frames from: one source, or two sources triggered together (`DualSource`), each
/// frame of a pair going to its own slot and its own file.
///
/// The burst paces the frames itself (`BurstSession.Configuration.clock`), so the sources should be
/// free-running; a source with a real-time clock of its own adds its own waits.
public enum BurstSource {
    /// One sensor.
    case single(any FrameSource)
    /// Two sensors triggered together; both frames of a pair share a sequence number and trigger time.
    case pair(DualSource)

    /// The sensor names frames are tagged with, one per frame of a trigger.
    public var sensorNames: [String] {
        switch self {
        case .single(let source): [source.capabilities.name]
        case .pair(let dual): [dual.sensorNames.a, dual.sensorNames.b]
        }
    }

    /// Frames made per trigger (1 or 2).
    public var framesPerTrigger: Int { sensorNames.count }

    /// The underlying sources, in trigger order.
    public var sources: [any FrameSource] {
        switch self {
        case .single(let source): [source]
        case .pair(let dual): [dual.a, dual.b]
        }
    }

    /// Samples a slot must hold to take a frame of any of the sources.
    public var samplesPerSlot: Int { sources.map(\.samplesPerFrame).max() ?? 0 }

    /// The source whose device fills pool slots itself (one camera alone; a pair's frames come in their own buffers).
    public var borrower: (any SlotBorrowingSource)? {
        guard case .single(let source) = self else { return nil }
        return source as? any SlotBorrowingSource
    }

    /// Bytes the sources keep allocated while running (their `workingMemoryBytes`).
    public var workingMemoryBytes: Int { sources.reduce(0) { $0 + $1.workingMemoryBytes } }

    /// Checks `settings` against every source without changing any; an error of a pair names the sensor.
    public func check(_ settings: CaptureSettings) throws(CaptureSettingsError) {
        for (source, name) in zip(sources, sensorNames) {
            do { try source.check(settings) } catch {
                throw framesPerTrigger == 1 ? error : CaptureSettingsError(setting: "\(name) \(error.setting)", error.reason)
            }
        }
    }

    /// Applies `settings` to every source (a pair checks both before changing either).
    public func configure(_ settings: CaptureSettings) throws(CaptureSettingsError) {
        switch self {
        case .single(let source): try source.configure(settings)
        case .pair(let dual): try dual.configure(a: settings, b: settings)
        }
    }

    /// Applies `settings` to every source from frame (or pair) `sequenceNumber` on, for sources with a settings
    /// latency; the same as `configure(_:)` for the others.
    func configure(_ settings: CaptureSettings, fromFrame sequenceNumber: UInt64) throws(CaptureSettingsError) {
        switch self {
        case .single(let source): try source.configure(settings, fromFrame: sequenceNumber)
        case .pair(let dual): try dual.configure(settings, fromFrame: sequenceNumber)
        }
    }

    /// Frames every source makes ahead of the engine's ticks (0 when any makes its frames when asked).
    var framesAhead: Int {
        switch self {
        case .single(let source): source.framesAhead
        case .pair(let dual): dual.framesAhead
        }
    }

    /// Frames between a settings change and the first frame made with it (the longest of the sources').
    var settingsLatency: Int { sources.map(\.settingsLatency).max() ?? 0 }

    /// Whether the next trigger's frames are made, waiting until `deadline` (`FrameSource.awaitNextFrame`).
    func awaitNext(due: UInt64?, until deadline: UInt64?) -> FrameReadiness {
        switch self {
        case .single(let source): source.awaitNextFrame(due: due, until: deadline)
        case .pair(let dual): dual.awaitNextPair(due: due, until: deadline)
        }
    }

    /// How long the slowest source took to make its recent frames on its own thread (ns), when they do.
    var recentFrameNanoseconds: UInt64? { sources.compactMap(\.recentFrameNanoseconds).max() }

    /// The first source's settings for the next frame with automatic ones resolved, when it can say.
    var resolvedSettings: AppliedSettings? {
        switch self {
        case .single(let source): source.resolvedSettings
        case .pair: nil
        }
    }

    /// The capabilities of the first source (the one a bracketing plan's exposure is metered on).
    var capabilities: SourceCapabilities { sources[0].capabilities }

    /// Lets the next trigger's frames go by untaken (late): one sequence number per frame, in trigger order, used up.
    func skip() -> [UInt64] {
        switch self {
        case .single(let source): return [source.skipFrame()]
        case .pair(let dual):
            let number = dual.skipPair()
            return [number, number]
        }
    }

    /// Frames arrive on the sources' own clock (every source of the burst keeps its own time).
    public var pacedBySource: Bool { sources.allSatisfy { $0.pacing == .source } }

    /// What the sources lost since the last call, with the sensor each belongs to.
    func takeLosses() -> [(loss: FrameLoss, sensor: String)] {
        zip(sources, sensorNames).flatMap { source, name in source.takeLosses().map { ($0, name) } }
    }

    /// Tells every source the burst has taken its last frame.
    func finish() {
        for source in sources { source.finish() }
    }

    /// A source's stream ended.
    var hasEnded: Bool { sources.contains { $0.hasEnded } }

    /// Fills `buffers` (one per frame of a trigger) and returns the frames in the same order.
    func next(into buffers: [PixelStorage]) throws(FrameSourceError) -> [CapturedFrame] {
        switch self {
        case .single(let source): return [try source.nextFrame(into: buffers[0])]
        case .pair(let dual):
            let (a, b) = try dual.nextPair(into: buffers[0], buffers[1])
            return [a, b]
        }
    }
}
