import Foundation
import RawAnalysis
import RawCapture
import RawCore
import RawDevelop
import RawImageIO
import RawSources

/// The live viewfinder's pictures: a burst's `BurstFrameViewer` that turns triggers into `LiveFrame`s.
///
/// On the sensor thread (`view`) it copies a binned mosaic of each frame (`LiveBinnedMosaic`: the long edge of the
/// picture at most `longEdge`, the raw clipping counted on the full-resolution samples in the same pass) into buffers
/// it reuses, and leaves them in a one-slot mailbox: when its worker is still busy with an earlier trigger, the newest
/// replaces the one waiting (counted as skipped), so `view` never waits. Once the governor has started shedding work
/// (`level != .normal`), it previews at most `thinnedRate` triggers a second (the rest counted as thinned).
///
/// Its worker thread develops the mosaics with the DNG previews' fast path (as-shot white balance, the standard look),
/// places two sensors' pictures as `arrangement` says, encodes the JPEG, computes the overlays `overlays()` asks for
/// (focus peaking on the mosaics at the named absolute level, zebra on the picture), always the 64-bin histograms
/// and the clipping, and hands the `LiveFrame` to `publish`. Call `stop()` when the burst has ended: it ends the
/// worker and waits for it.
// @unchecked: the mailbox, the statistics and the buffers' ownership are guarded by `condition`; a buffer set is used
// outside the lock only by the side that holds it (the sensor thread while filling `mailbox`, the worker `working`).
public final class LivePreviewer: BurstFrameViewer, @unchecked Sendable {
    /// The most previews a second while the governor sheds work.
    public static let thinnedRate = 5.0
    /// JPEG quality of the previews.
    public static let jpegQuality = 80

    /// What the previewer has done so far.
    public struct Statistics: Sendable, Hashable, Codable {
        /// Triggers `view` was called with; previews published; triggers replaced in the mailbox before the worker
        /// took them; triggers not copied because the governor thinned the previews; previews that failed.
        public var triggersSeen = 0
        public var published = 0
        public var skipped = 0
        public var thinned = 0
        public var failed = 0
        /// The worker's time per preview (develop, overlays, JPEG), in ms: median and 95th percentile of the recent ones.
        public var renderP50Milliseconds = 0.0
        public var renderP95Milliseconds = 0.0
        /// The sensor thread's time per trigger (the binned copies), in ms.
        public var binCopyP50Milliseconds = 0.0
        public var binCopyP95Milliseconds = 0.0
    }

    private enum MailboxState { case empty, filling, ready }

    private let longEdge: Int
    private let arrangement: LivePreviewArrangement
    private let mirrored: [Bool]
    private let overlays: @Sendable () -> LiveOverlays
    private let publish: @Sendable (LiveFrame) -> Void
    private let condition = NSCondition()
    private let finished = DispatchSemaphore(value: 0)
    // Guarded by `condition`.
    private var state = MailboxState.empty
    private var mailbox: [LiveBinnedMosaic] = []
    private var mailboxCount = 0
    private var working: [LiveBinnedMosaic] = []
    private var stopping = false
    private var counts = Statistics()
    private var lastAccepted: UInt64?
    private var shedding = false
    private var renderTimes = TimingRing()
    private var binTimes = TimingRing()

    /// A previewer of pictures at most `longEdge` pixels on their long edge (per sensor), each turned upright by its
    /// frame's orientation and flipped left to right when `mirrored` says so for its sensor (trigger order; as its
    /// developed pictures are), two sensors placed as `arrangement` says; `overlays` is asked before each preview,
    /// `publish` gets each one (on the worker thread).
    public init(longEdge: Int = 1024, arrangement: LivePreviewArrangement = .stacked, mirrored: [Bool] = [],
                overlays: @escaping @Sendable () -> LiveOverlays, publish: @escaping @Sendable (LiveFrame) -> Void) {
        self.longEdge = max(16, longEdge)
        self.arrangement = arrangement
        self.mirrored = mirrored
        self.overlays = overlays
        self.publish = publish
        let thread = Thread { [self] in
            workLoop()
            finished.signal()
        }
        thread.name = "rawburst-live-preview"
        thread.start()
    }

    /// What it has done so far.
    public var statistics: Statistics {
        condition.withLock {
            var s = counts
            (s.renderP50Milliseconds, s.renderP95Milliseconds) = renderTimes.percentiles()
            (s.binCopyP50Milliseconds, s.binCopyP95Milliseconds) = binTimes.percentiles()
            return s
        }
    }

    /// Whether the previews are thinned now (the governor is shedding work): the page says so.
    public var thinned: Bool { condition.withLock { shedding } }

    /// Copies a binned mosaic of each frame and leaves them for the worker (sensor thread; never waits for the worker).
    public func view(_ frames: [CapturedFrame], level: BurstGovernor.Level) {
        guard !frames.isEmpty else { return }
        let began = MonotonicClock.nanoseconds()
        let target: [LiveBinnedMosaic]? = condition.withLock {
            counts.triggersSeen += 1
            shedding = level != .normal
            if shedding, let last = lastAccepted, Double(began &- last) < 1e9 / Self.thinnedRate {
                counts.thinned += 1
                return nil
            }
            guard !stopping else { return nil }
            if state == .ready { counts.skipped += 1 }
            state = .filling
            lastAccepted = began
            // Only the first triggers (or a second sensor) add buffers; later ones reuse them.
            while mailbox.count < frames.count { mailbox.append(LiveBinnedMosaic()) }
            return mailbox
        }
        guard let target else { return }
        for (frame, mosaic) in zip(frames, target) { mosaic.fill(from: frame, longEdge: longEdge) }
        let took = MonotonicClock.nanoseconds() - began
        condition.withLock {
            mailboxCount = frames.count
            state = .ready
            binTimes.record(took)
            condition.broadcast()
        }
    }

    /// Ends the worker (a trigger still waiting is not previewed) and waits for it; later `view` calls do nothing.
    public func stop() {
        let wait: Bool = condition.withLock {
            defer { stopping = true; condition.broadcast() }
            return !stopping
        }
        guard wait else { return }
        finished.wait()
    }

    /// The worker: takes the newest mosaics from the mailbox, previews them, publishes.
    private func workLoop() {
        while true {
            let count: Int? = condition.withLock {
                while state != .ready && !stopping { condition.wait() }
                guard !stopping else { return nil }
                swap(&mailbox, &working)
                state = .empty
                return mailboxCount
            }
            guard let count else { return }
            let began = MonotonicClock.nanoseconds()
            let frame = try? render(Array(working.prefix(count)), overlays: overlays())
            let took = MonotonicClock.nanoseconds() - began
            condition.withLock {
                renderTimes.record(took)
                if frame == nil { counts.failed += 1 } else { counts.published += 1 }
            }
            if let frame { publish(frame) }
        }
    }

    /// The preview of one trigger's mosaics.
    private func render(_ mosaics: [LiveBinnedMosaic], overlays wanted: LiveOverlays) throws -> LiveFrame {
        let images = try mosaics.map { try $0.image() }
        // Each picture turned as its frame says, a mirror image of that for a mirrored sensor.
        let turns = images.enumerated().map { index, image in
            index < mirrored.count && mirrored[index] ? image.metadata.orientation.mirroredLeftToRight : image.metadata.orientation
        }
        let pictures = zip(images, turns).map { LivePreviewRendering.develop($0, turn: $1, longEdge: longEdge) }
        let (picture, panes) = LivePreviewRendering.compose(pictures, arrangement)
        let jpeg = try JPEGEncoder(quality: Self.jpegQuality).encode(picture)
        let rendered = MonotonicClock.nanoseconds()
        var peaking: LiveMask?
        if wanted.peaking {
            let level = PeakingThreshold(parsing: wanted.peakingLevel) ?? .standard
            peaking = LivePreviewRendering.peaking(images, panes: panes, turns: turns, width: picture.width,
                                                   height: picture.height, level: level)
        }
        let zebra = wanted.zebra ? LivePreviewRendering.zebra(picture, level: wanted.zebraLevel) : nil
        let histogram = LivePreviewRendering.histogram(picture, clipped: Self.clipping(mosaics),
                                                       monochrome: mosaics.allSatisfy(\.isMonochrome))
        let sensors = mosaics.compactMap(\.source).map { frame in
            let white = LivePreviewRendering.whiteBalance(frame)
            return LiveFrame.Sensor(name: frame.sensorName, sequenceNumber: frame.sequenceNumber, settings: frame.settings,
                                    kelvin: white?.kelvin, tint: white?.tint)
        }
        let first = mosaics[0].source
        var frame = LiveFrame(sequenceNumber: first?.sequenceNumber ?? 0, captureMonotonicNanoseconds: first?.monotonicNanoseconds ?? 0,
                              renderedMonotonicNanoseconds: rendered, jpeg: jpeg, width: picture.width, height: picture.height,
                              panes: panes, peaking: peaking, zebra: zebra, histogram: histogram, sensors: sensors)
        frame.orientations = turns
        return frame
    }

    /// The raw clipping per colour over all sensors' samples.
    private static func clipping(_ mosaics: [LiveBinnedMosaic]) -> [Double] {
        guard mosaics.count > 1 else { return mosaics.first?.clippedFractions ?? [0, 0, 0] }
        let each = mosaics.map(\.clippedFractions)
        return (0..<3).map { c in each.map { $0[c] }.max() ?? 0 }
    }
}
