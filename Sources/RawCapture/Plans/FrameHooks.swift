import RawCore

/// Development during a burst, as the engine sees it: a hook a writer calls with a frame still in its slot, after
/// the frame's DNG is durable (`capture --develop`). The engine knows nothing of developing or encoding; RawJobs'
/// `BurstDevelopment` implements this with the developer and the picture encoders.
public protocol BurstFrameDeveloper: Sendable {
    /// Working memory one writer needs to develop one frame of `samplesPerFrame` samples (the memory plan reserves it
    /// per writer, or defers development to after the burst).
    func workingBytes(samplesPerFrame: Int) -> Int
    /// The picture's path beside the frame's DNG.
    func path(forDNG dng: String) -> String
    /// Develops `image` on up to `threads` threads and writes the picture at `path`; returns the bytes written.
    func develop(_ image: RawImage, to path: String, threads: Int) throws -> Int
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
