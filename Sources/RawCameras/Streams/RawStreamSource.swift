import RawCore
import RawSources

/// Frames from a headerless raw stream: fixed-size frames back to back on standard input, a FIFO or a file, as
/// `rpicam-raw -o -` (libcamera) or a V4L2 capture writes them.
///
/// The stream keeps its own time (``pacing`` is `.source`): ``nextFrame(into:)`` blocks until a whole frame has
/// arrived (the read is the sensor thread's wait), unpacks it with the ``PixelFormat`` unpackers straight into the
/// slot, and stamps it with `CLOCK_MONOTONIC` when its last byte arrived. Sequence numbers count the frames the
/// camera produced from 0: the stream's frames, and before each the frames its timestamps (`--pts`) show missing.
///
/// - The end of the input at a frame boundary ends the stream (``hasEnded``; the burst ends cleanly).
/// - The end in the middle of a frame loses that frame (`FrameLoss.Reason.incomplete`, "N of M bytes"), then ends.
/// - A whole frame that cannot be decoded (an invalid code in a compressed frame) is lost as `.corrupt` and the stream
///   goes on; ``maximumCorruptInARow`` in a row fail the burst.
/// - A stalled pipe blocks: nothing is lost, the frame is late.
/// - With rpicam's `--metadata` file, the n-th entry describes the n-th frame: exposure, gain (ISO = base ISO ×
///   analogue gain), colour gains (AsShotNeutral 1/r, 1, 1/b) and black levels. With its `--save-pts` file, a gap of
///   more than 1.5 frame intervals between consecutive timestamps counts the frames that would have filled it as
///   lost (`FrameLoss.Reason.camera`) before the next frame. Both files may still be growing (rpicam writes them while
///   it streams): a frame whose entry is not there yet waits for it up to ``followWaitNanoseconds`` once per file;
///   after that frames take what is there.
///
/// Settings are the camera's, not ours: every manual setting is refused by name (set them on the camera, e.g.
/// `rpicam-raw --shutter --gain --awbgains`). Used from one thread at a time (the capture engine's sensor thread).
public final class RawStreamSource: FrameSource {
    /// The stream's layout.
    public let format: RawStreamFormat
    /// What is known of its camera.
    public let camera: StreamCamera
    /// Where the bytes come from.
    public let input: StreamInput
    /// Called (on the sensor thread) with a one-line notice the user should see once, e.g. metadata running out.
    public var onNotice: (@Sendable (String) -> Void)?
    /// The longest a frame waits for its metadata entry or timestamp to appear in a growing file (once per file).
    public var followWaitNanoseconds: UInt64

    private let readBuffer: UnsafeMutableRawBufferPointer
    private var nextSequence: UInt64 = 0
    /// Frames read from the stream so far (the index of a metadata entry and of a timestamp).
    private var framesRead = 0
    private var losses: [FrameLoss] = []
    public private(set) var hasEnded = false

    private let metadataFile: FollowedTextFile?
    private var metadataParser = StreamMetadataParser()
    private var metadata: [StreamFrameMetadata] = []
    private var metadataWaited = false
    private var metadataNoticeGiven = false

    private let timestampFile: FollowedTextFile?
    private var timestamps: StreamTimestamps
    private var timestampsWaited = false

    /// A source reading `format` frames from `input`; `metadataPath` and `timestampsPath` are rpicam-apps'
    /// `--metadata` (JSON or txt) and `--save-pts` files. Throws when a file cannot be opened.
    public init(input: StreamInput, format: RawStreamFormat, camera: StreamCamera = StreamCamera(),
                metadataPath: String? = nil, timestampsPath: String? = nil) throws(FrameSourceError) {
        self.input = input
        self.format = format
        self.camera = camera
        metadataFile = try metadataPath.map { path throws(FrameSourceError) in try FollowedTextFile(path: path) }
        timestampFile = try timestampsPath.map { path throws(FrameSourceError) in try FollowedTextFile(path: path) }
        timestamps = StreamTimestamps(fps: camera.fps)
        let interval = camera.fps.map { 1e9 / $0 } ?? 100_000_000
        followWaitNanoseconds = UInt64(min(500_000_000, max(50_000_000, 2 * interval)))
        readBuffer = .allocate(byteCount: format.frameBytes, alignment: 64)
    }

    deinit { readBuffer.deallocate() }

    public var pacing: FramePacing { .source }
    public var samplesPerFrame: Int { format.width * format.height }
    /// The buffer one frame's bytes are read into before unpacking.
    public var workingMemoryBytes: Int { format.frameBytes }

    public var capabilities: SourceCapabilities {
        let lens = camera.lens
        return SourceCapabilities(
            name: camera.name, width: format.width, height: format.height, bitsPerSample: format.bitsPerSample,
            cfaPattern: format.cfa.description, maximumFrameRate: camera.fps ?? 1000, isoRange: 1...10_000_000,
            shutterRange: 1e-6...3600,
            lenses: [LensCapabilities(name: lens?.name ?? Self.lensName, focalLength: lens?.focalLength ?? 0,
                                      apertureRange: (lens?.aperture ?? 0)...(lens?.aperture ?? 0),
                                      minimumFocusDistance: 0, horizontalFieldOfView: 0)])
    }

    /// The lens name of a stream whose lens is unknown.
    public static let lensName = "as-mounted"

    /// Accepts only automatic settings: exposure, focus and white balance are what the camera did.
    public func check(_ settings: CaptureSettings) throws(CaptureSettingsError) {
        let refuse = { (setting: String, camera: String) throws(CaptureSettingsError) in
            throw CaptureSettingsError(setting: setting, "a raw stream records what its camera did and cannot set it; "
                                       + "set it on the camera (\(camera))")
        }
        if settings.iso != nil { try refuse("ISO", "rpicam-raw --gain") }
        if settings.shutter != nil { try refuse("shutter", "rpicam-raw --shutter") }
        if settings.aperture != nil { try refuse("aperture", "the lens") }
        if settings.focus != nil || settings.focusZone != nil || settings.focusPoint != .centre || settings.autoFocusLock {
            try refuse("focus", "rpicam-raw --lens-position or --autofocus-mode")
        }
        if settings.exposureCompensation != 0 || settings.metering != .matrix || settings.autoExposureLock {
            try refuse("exposure", "rpicam-raw --ev or --metering")
        }
        if settings.whiteBalance != .auto { try refuse("white balance", "rpicam-raw --awb or --awbgains") }
        if let lens = settings.lens, lens != capabilities.lenses[0].name { try refuse("lens", "the camera") }
    }

    public func configure(_ settings: CaptureSettings) throws(CaptureSettingsError) { try check(settings) }

    public func takeLosses() -> [FrameLoss] {
        defer { losses.removeAll() }
        return losses
    }

    /// Reads the next frame and lets it go (its sequence number is used up). Returns that number.
    public func skipFrame() -> UInt64 {
        let number = nextSequence
        if !hasEnded, (try? input.readFully(into: readBuffer)) == format.frameBytes {
            framesRead += 1
            nextSequence += 1
        } else {
            hasEnded = true
        }
        return number
    }

    /// Ends a wait for the stream's next bytes (a stalled pipe) within 0.2 s; any thread may call it.
    public func interrupt() { input.interrupt() }

    /// The burst has its last frame (a frame count, a duration, a stop): the timestamps of the frames read may still
    /// be on their way (rpicam writes the file as it streams), so they are waited for once more, briefly, and the gaps
    /// before those frames counted (the engine takes these losses after `finish`).
    public func finish() {
        guard framesRead > 0 else { return }
        timestampsWaited = false
        countGap(through: framesRead - 1, atFinish: true)
    }

    /// Frames in a row that cannot be decoded after which the burst fails (the stream is not what `--format` says).
    public static let maximumCorruptInARow = 100
    /// Frames that could not be decoded since the last one that could.
    private var corruptInARow = 0

    public func nextFrame(into storage: PixelStorage) throws(FrameSourceError) -> CapturedFrame {
        guard storage.count >= samplesPerFrame else {
            throw FrameSourceError("buffer of \(storage.count) samples is smaller than a \(format.width)x\(format.height) frame")
        }
        guard !hasEnded else { throw FrameSourceError("the stream has ended") }
        let count: Int
        // A read that fails (EIO, a source that cannot be read) is the burst's failure, not the end of the stream:
        // only a short read is the end.
        count = try input.readFully(into: readBuffer)
        guard count == format.frameBytes else {
            hasEnded = true
            if count > 0 {
                countGap(through: framesRead)
                losses.append(FrameLoss(sequenceNumber: nextSequence, reason: .incomplete,
                                        detail: "\(count) of \(format.frameBytes) bytes"))
                nextSequence += 1
                throw FrameSourceError("\(input.origin) ended in the middle of a frame (\(count) of \(format.frameBytes) bytes)")
            }
            // The timestamps of the last frames may come after them: their gaps are counted now, before the end.
            if framesRead > 0 { countGap(through: framesRead - 1) }
            throw FrameSourceError("\(input.origin) ended after \(framesRead) frames")
        }
        let arrived = MonotonicClock.nanoseconds()
        countGap(through: framesRead)
        let entry = metadataEntry()
        do throws(PixelFormatError) {
            try format.pixelFormat.unpack(UnsafeRawBufferPointer(readBuffer), width: format.width, height: format.height,
                                          rowStride: .bytes(format.rowStride),
                                          into: UnsafeMutableBufferPointer(start: storage.baseAddress, count: samplesPerFrame))
            corruptInARow = 0
        } catch {
            guard case .invalidCode = error else { throw FrameSourceError("frame \(framesRead): \(error.message)") }
            // A frame whose data cannot be decoded is lost, not written: counted, and the stream goes on.
            losses.append(FrameLoss(sequenceNumber: nextSequence, reason: .corrupt, detail: "frame \(framesRead): \(error.message)"))
            nextSequence += 1
            framesRead += 1
            corruptInARow += 1
            guard corruptInARow < Self.maximumCorruptInARow else {
                throw FrameSourceError("\(corruptInARow) frames in a row could not be decoded (the last: frame \(framesRead - 1): "
                                       + "\(error.message)): is the stream \(format.pixelFormat.name)?")
            }
            return try nextFrame(into: storage)
        }
        let number = nextSequence
        nextSequence += 1
        framesRead += 1
        let settings = appliedSettings(entry)
        let image: RawImage
        do { image = try makeImage(storage: storage, entry: entry, settings: settings, sequenceNumber: number) } catch {
            throw FrameSourceError("frame \(framesRead - 1): \(error.message)")
        }
        return CapturedFrame(image: image, settings: settings, sequenceNumber: number, monotonicNanoseconds: arrived,
                             latenessNanoseconds: 0, sensorName: camera.name)
    }

    /// Counts the frames the timestamps show missing before the stream's frames up to `index` (the frame just read)
    /// as lost, for those whose timestamps have arrived and were not examined yet.
    private func countGap(through index: Int, atFinish: Bool = false) {
        guard let file = timestampFile else { return }
        follow(until: { timestamps.count > index }, waited: &timestampsWaited) {
            timestamps.add(lines: file.readLines())
        }
        // A gap whose timestamps arrive late (the file lags the stream) is counted when they do, numbered then.
        for (frame, gap) in timestamps.takeGaps(through: index) {
            switch gap {
            case .missing(let count):
                let late = frame < index || atFinish ? " (found late, before stream frame \(frame))" : ""
                for _ in 0..<count {
                    losses.append(FrameLoss(sequenceNumber: nextSequence, reason: .camera, detail: "a gap in the frame timestamps" + late))
                    nextSequence += 1
                }
            case .discontinuity(let milliseconds):
                onNotice?("\(file.path.oneLine): the timestamps jump by \(SettingText.number(milliseconds / 1000)) s before stream "
                          + "frame \(frame) (a paused or restarted camera?); not counted as lost frames")
            }
        }
    }

    /// The metadata entry of the frame just read, if the file has one.
    private func metadataEntry() -> StreamFrameMetadata? {
        guard let file = metadataFile else { return nil }
        let index = framesRead
        follow(until: { metadata.count > index }, waited: &metadataWaited) {
            metadata += metadataParser.add(text: file.readText())
        }
        if metadata.count <= index, metadataWaited, let last = metadataParser.finish() { metadata.append(last) }
        if metadata.count <= index, !metadataNoticeGiven {
            metadataNoticeGiven = true
            let found = file.isOpen ? "no metadata for frame \(index) (\(metadata.count) entries so far)" : "does not exist (yet)"
            onNotice?("\(file.path.oneLine): \(found); frames without an entry are written without exposure, gain, colour "
                      + "gains or measured black levels")
        }
        return index < metadata.count ? metadata[index] : nil
    }

    /// Calls `read` (which takes a file's new text) until `done()`; waits (polling every 5 ms) up to
    /// `followWaitNanoseconds` the first time it is not done, and after that only reads what is there.
    private func follow(until done: () -> Bool, waited: inout Bool, read: () -> Void) {
        read()
        guard !done(), !waited else { return }
        let deadline = MonotonicClock.nanoseconds() + followWaitNanoseconds
        while !done(), MonotonicClock.nanoseconds() < deadline {
            MonotonicClock.sleep(until: MonotonicClock.nanoseconds() + 5_000_000)
            read()
        }
        if !done() { waited = true }
    }
}
