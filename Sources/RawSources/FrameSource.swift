import RawCore

/// Anything that delivers raw frames: the simulated sensor, replayed raw files, and later real cameras
/// (V4L2 raw Bayer, gphoto2; docs/frame-sources.md says how).
///
/// A source never allocates a frame buffer per frame: the caller (the capture engine's frame pool) owns the
/// buffers and hands one in for each frame; the source fills it and describes what it filled. Sources are
/// used from one thread at a time (the capture engine's sensor thread); `configure` and `nextFrame` are
/// never called concurrently.
public protocol FrameSource: AnyObject {
    /// What the source can do: geometry, bit depth, CFA, rates, exposure ranges, lenses.
    var capabilities: SourceCapabilities { get }
    /// Number of 16-bit samples a buffer passed to `nextFrame` must hold.
    var samplesPerFrame: Int { get }
    /// Checks `settings` as `configure` would, without applying them (so a pair of sources can be checked
    /// before either changes). The default validates against `capabilities`.
    func check(_ settings: CaptureSettings) throws(CaptureSettingsError)
    /// Applies capture settings (validated against the capabilities) to the frames that follow.
    func configure(_ settings: CaptureSettings) throws(CaptureSettingsError)
    /// The settings the next frame will be taken with, automatic ones resolved, when the source can say before
    /// taking it (nil otherwise). Exposure brackets use it to step exactly from the metered exposure.
    var resolvedSettings: AppliedSettings? { get }
    /// Bytes the source itself keeps allocated while it runs (scene planes, decoded files, work buffers),
    /// not counting the frame buffers handed to `nextFrame`. A burst's memory budget counts it.
    var workingMemoryBytes: Int { get }
    /// Fills `storage` (at least `samplesPerFrame` samples) with the next frame and returns its description.
    func nextFrame(into storage: PixelStorage) throws(FrameSourceError) -> CapturedFrame
    /// Lets the next frame go by untaken (on a real-time clock, a frame that could not start on its tick): its
    /// sequence number is used up, as a camera's frame counter goes on past a frame nobody read, and the frame
    /// after it is the next one `nextFrame` delivers. Returns the skipped frame's sequence number.
    func skipFrame() -> UInt64
    /// Makes a frame into `storage` as `nextFrame` would, to time it, without delivering it: no sequence number is
    /// used up. Returns false when the source cannot (a camera: its frames cost our CPU nothing to make).
    func rehearseFrame(into storage: PixelStorage) throws(FrameSourceError) -> Bool
    /// Who keeps the time between frames: the engine (it triggers each frame on its clock) or the source (a
    /// camera or a stream delivers frames on its own clock, and `nextFrame` waits for the next one).
    var pacing: FramePacing { get }
    /// The frames the source lost since the last call (never arrived, or arrived damaged), oldest first; the
    /// engine counts each as produced and dropped with its reason. Called after each `nextFrame`, and after one
    /// that threw.
    func takeLosses() -> [FrameLoss]
    /// The source has no more frames (its stream ended): the error `nextFrame` threw is the end of the burst, not a
    /// failure.
    var hasEnded: Bool { get }
    /// The burst has taken its last frame (the writers may still be busy): a camera stops acquiring, so it neither
    /// loads the machine nor counts frames nobody asked for.
    func finish()
    /// The burst is stopping (Ctrl-C, a stop request): a `nextFrame` waiting for a frame that may never come (a
    /// silent camera, a stalled pipe) should stop waiting and throw within a fraction of a second. The one member any
    /// thread may call, at any time, so implementations keep the request in an atomic.
    func interrupt()

    /// Frames the source makes ahead of the engine's ticks, on a thread of its own, and keeps until they are taken
    /// (`RenderAheadSource`); 0 when it makes each frame when asked. With frames ahead, the engine asks
    /// ``awaitNextFrame(due:until:)`` on each tick instead of dropping a frame for its own lateness: a frame made
    /// ahead waits for the engine as a camera's frame waits in its buffer.
    var framesAhead: Int { get }
    /// Frames between a settings change and the first frame made with it: settings given to `configure` before frame
    /// n is delivered apply from frame n + `settingsLatency` (libcamera's delayed controls). 0: from frame n. Each
    /// frame's `settings` say what it was made with.
    var settingsLatency: Int { get }
    /// Applies `settings` from frame `sequenceNumber` on (a bracketing plan gives each frame its own, that far ahead).
    /// A source with no settings latency applies them to the frames that follow.
    func configure(_ settings: CaptureSettings, fromFrame sequenceNumber: UInt64) throws(CaptureSettingsError)
    /// For a source with frames ahead: waits until the next frame is made or `deadline` passes (`CLOCK_MONOTONIC`, ns;
    /// nil: as long as it takes), and says whether it is ready. `due` is when the frame is due on the engine's clock
    /// (its exposure starts then: its timestamp); nil only asks whether it is made (the clock has not started).
    func awaitNextFrame(due: UInt64?, until deadline: UInt64?) -> FrameReadiness
    /// How long the source took to make each of its recent frames (the median, ns) when it makes them on a thread of
    /// its own, so the engine's timing of `nextFrame` (a hand-over) is not its pace; nil otherwise.
    var recentFrameNanoseconds: UInt64? { get }
}

/// Whether a source's next frame was made in time (`FrameSource.awaitNextFrame`).
public enum FrameReadiness: Sendable, Hashable {
    /// Made: `nextFrame` hands it over at once.
    case ready
    /// Not made by the deadline, and why.
    case late(LateFrameCause)
}

/// Why a frame was not made by its deadline.
public enum LateFrameCause: String, Sendable, Hashable {
    /// The source's own making fell behind its clock (the simulated sensor's rendering): counted as `sensor-late`.
    case source
    /// The engine kept the buffers the frame needed past its due time (it took the frames before it late, as a host
    /// that reads a camera's buffers late makes the camera lose frames): counted as the engine's `late`.
    case engine
}

extension FrameSource {
    /// Nil: the source cannot say before taking a frame.
    public var resolvedSettings: AppliedSettings? { nil }

    /// 0: the source keeps nothing beyond the frame buffers it is given.
    public var workingMemoryBytes: Int { 0 }
    /// False: the source cannot make a frame without delivering it.
    public func rehearseFrame(into storage: PixelStorage) throws(FrameSourceError) -> Bool { false }

    /// The engine keeps the time.
    public var pacing: FramePacing { .engine }
    /// Nothing lost: a source on the engine's clock makes every frame it is asked for.
    public func takeLosses() -> [FrameLoss] { [] }
    /// Never ends.
    public var hasEnded: Bool { false }
    /// Nothing to stop.
    public func finish() {}
    /// Does nothing: the source's frames never keep it waiting long.
    public func interrupt() {}
    /// 0: each frame is made when asked.
    public var framesAhead: Int { 0 }
    /// 0: settings apply to the next frame.
    public var settingsLatency: Int { 0 }
    /// `configure(settings)`: without a latency the next frame is the first with them.
    public func configure(_ settings: CaptureSettings, fromFrame sequenceNumber: UInt64) throws(CaptureSettingsError) {
        try configure(settings)
    }
    /// Ready: a source without frames ahead makes its frame when asked.
    public func awaitNextFrame(due: UInt64?, until deadline: UInt64?) -> FrameReadiness { .ready }
    /// Nil: the engine times `nextFrame`.
    public var recentFrameNanoseconds: UInt64? { nil }

    /// Validates `settings` against `capabilities`.
    public func check(_ settings: CaptureSettings) throws(CaptureSettingsError) {
        _ = try settings.validated(for: capabilities)
    }
}

/// Who keeps the time between a source's frames.
public enum FramePacing: Sendable, Hashable {
    /// The engine triggers each frame on its clock (`FrameClock`): the simulator, replayed files.
    case engine
    /// Frames arrive on the source's own clock (a camera, a stream): the engine takes each as it comes, never paces
    /// it or drops it late; what the source could not deliver it reports as `FrameLoss`es.
    case source
}

/// A frame a source produced (its sequence number used up) but could not deliver.
public struct FrameLoss: Sendable, Hashable {
    /// Why it was lost: one of the reasons a source gives (``FrameDropReason/isSourceLoss``).
    public typealias Reason = FrameDropReason

    /// Its sequence number.
    public let sequenceNumber: UInt64
    /// Why.
    public let reason: Reason
    /// What the source saw, in words (for the journal and the terminal), when it says more than the reason.
    public let detail: String?

    /// A loss; `reason` is one a source gives (camera, missing packets, timeout, size mismatch, incomplete, corrupt).
    public init(sequenceNumber: UInt64, reason: Reason, detail: String? = nil) {
        self.sequenceNumber = sequenceNumber
        self.reason = reason
        self.detail = detail
    }
}

/// How a source paces its frames.
public enum FrameClock: Sendable, Hashable {
    /// As fast as frames can be made; timestamps are still taken from the clock (tests, offline work).
    case freeRunning
    /// Start-to-start scheduling at `fps`: frame n is due at start + n / fps; lateness is measured.
    case realTime(fps: Double)
}

/// One frame as a source delivered it.
public struct CapturedFrame: Sendable {
    /// The raw frame over the caller's storage.
    public let image: RawImage
    /// Settings actually used (automatic ones resolved to values).
    public let settings: AppliedSettings
    /// Sequence number, from 0 for the first frame a source delivers; never reused.
    public let sequenceNumber: UInt64
    /// Monotonic clock time (`CLOCK_MONOTONIC`, nanoseconds) when the exposure started.
    public let monotonicNanoseconds: UInt64
    /// How late the frame started against its schedule, in nanoseconds (0 when free-running or on time).
    public let latenessNanoseconds: UInt64
    /// Name of the sensor that made it (e.g. "phone-wide"), for multi-sensor captures.
    public let sensorName: String
    /// The camera's own account of the frame (its frame id and timestamp), for a real camera; nil otherwise.
    public var camera: CameraStamp?

    /// Creates a frame description.
    public init(image: RawImage, settings: AppliedSettings, sequenceNumber: UInt64, monotonicNanoseconds: UInt64,
                latenessNanoseconds: UInt64, sensorName: String) {
        self.image = image
        self.settings = settings
        self.sequenceNumber = sequenceNumber
        self.monotonicNanoseconds = monotonicNanoseconds
        self.latenessNanoseconds = latenessNanoseconds
        self.sensorName = sensorName
    }

    /// This frame with `image` in place of its own (the same pixels with other metadata: a position, an
    /// orientation), everything else kept.
    public func replacingImage(_ image: RawImage) -> CapturedFrame {
        var frame = CapturedFrame(image: image, settings: settings, sequenceNumber: sequenceNumber,
                                  monotonicNanoseconds: monotonicNanoseconds, latenessNanoseconds: latenessNanoseconds,
                                  sensorName: sensorName)
        frame.camera = camera
        return frame
    }
}

/// What a camera says about a frame it sent: its own frame id and timestamp (the camera's clock, not ours: GigE
/// Vision cameras count nanoseconds or ticks from their own start).
public struct CameraStamp: Sendable, Hashable, Codable {
    /// The frame id the camera gave it (GigE Vision's 16-bit block id, as sent).
    public let frameID: UInt64
    /// The camera's timestamp of the frame, in nanoseconds of its clock (0 when it has none).
    public let timestampNanoseconds: UInt64

    /// A stamp.
    public init(frameID: UInt64, timestampNanoseconds: UInt64) {
        self.frameID = frameID
        self.timestampNanoseconds = timestampNanoseconds
    }
}

/// The domain of `FrameSourceError`.
public enum FrameSourceErrorDomain {}

/// A source could not deliver a frame, in one line.
public typealias FrameSourceError = MessageError<FrameSourceErrorDomain>
