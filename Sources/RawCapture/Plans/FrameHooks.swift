import RawCore
import RawSources

/// Development during a burst, as the engine sees it: a hook a writer calls with a frame still in its slot, after
/// the frame's DNG is durable (`capture --develop`). The engine knows nothing of developing or encoding; RawJobs'
/// `BurstDevelopment` implements this with the developer and the picture encoders.
public protocol BurstFrameDeveloper: Sendable {
    /// Working memory one writer needs to develop one frame of `samplesPerFrame` samples (the memory plan reserves it
    /// per writer, or defers development to after the burst).
    func workingBytes(samplesPerFrame: Int) -> Int
    /// The picture's path beside the frame's DNG.
    func path(forDNG dng: String) -> String
    /// Develops `image`, a frame of the sensor named `sensor`, on up to `threads` threads and writes the picture at
    /// `path`; returns the bytes written.
    func develop(_ image: RawImage, sensor: String, to path: String, threads: Int) throws -> Int
}

/// Analysis during a burst, as the engine sees it: a hook a writer calls with a frame still in its slot, after the
/// frame's DNG is durable (`capture --analyze`), on one core. RawJobs' `BurstAnalysis` implements it with RawAnalysis;
/// the report keeps each result as the hook made it.
public protocol BurstFrameAnalyzer: Sendable {
    /// Working memory one writer needs to analyse one frame of `samplesPerFrame` samples (the memory plan reserves it
    /// per writer before the pool gets its slots).
    func workingBytes(samplesPerFrame: Int) -> Int
    /// The analysis of one frame.
    func analyse(_ frame: RawFrame) -> any Sendable
}

/// A viewfinder's tap on a burst (`capture --live`, `rawburst live`): the sensor thread calls it with each trigger's
/// frames, one per sensor, right after the source made them and before any writer can take them (frames that found no
/// slot are passed too, from the spares). The frames' pixels are valid only during the call, so an implementation
/// copies what it needs (a small binned copy) and hands the rest of its work to its own thread; it never blocks and
/// never waits for a client. RawLive's `LivePreviewer` implements it.
public protocol BurstFrameViewer: Sendable {
    /// Sees one trigger's frames; `level` is the governor's level when they were made (a viewer previews less often
    /// once the governor has started shedding work, before the burst loses anything).
    func view(_ frames: [CapturedFrame], level: BurstGovernor.Level)
}

/// Settings changed while a burst runs (the viewfinder's controls): the sensor thread asks before every trigger and
/// configures the source with what it gets, so a change reaches the sensor with the next frame and is recorded in the
/// frames it applies to (their `AppliedSettings`: manifest and EXIF). RawLive's `LiveControls` implements it.
public protocol BurstSettingsFeed: Sendable {
    /// Settings asked for since the last call, or nil when nothing changed (called on the sensor thread).
    func pendingSettings() -> CaptureSettings?
    /// What became of `settings`: `nil` applied from the next frame, or the source's reason for refusing them (the
    /// source keeps its previous settings).
    func settingsApplied(_ settings: CaptureSettings, refusal: CaptureSettingsError?)
}
