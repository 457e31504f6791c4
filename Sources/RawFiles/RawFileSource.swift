import RawSources
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RawCore

/// Replays raw files (anything `RawFileReader` reads: DNG, CRW, NEF, KDC, ...) as a sensor, at a chosen
/// frame rate: for tests of the capture engine with real sensor data, and for re-running a burst.
///
/// All files are decoded once, up front, and must share one geometry (size, active area, CFA, bit depth).
/// Each `nextFrame(into:)` copies the next file's mosaic into the caller's buffer, so frames cost one copy
/// and no decode. A replay cannot change how its files were taken: `configure` accepts only settings that
/// are automatic or match the files.
public final class RawFileSource: FrameSource {
    /// The lens name a replay offers: the files' own lens, whatever it was.
    public static let asRecordedLens = "as-recorded"

    /// The replayed files, in order.
    public let paths: [String]
    /// The source's name, given to every frame as its sensor name.
    public let name: String
    /// How frames are paced.
    public let clock: FrameClock
    /// Whether the replay starts again at the first file after the last.
    public let loop: Bool
    public let capabilities: SourceCapabilities

    /// The decoded files, in order (their frames own the decoded pixels).
    private let images: [RawImage]
    private var pacer: FramePacer
    private var nextIndex = 0
    private var sequence: UInt64 = 0
    private var settings = CaptureSettings()

    /// Number of frames delivered so far.
    public var framesDelivered: UInt64 { sequence }
    /// Number of files replayed.
    public var fileCount: Int { images.count }
    /// The settings last accepted by `configure`.
    public var currentSettings: CaptureSettings { settings }

    /// Reads every file in `paths` (at least one) and checks that they share one geometry.
    ///
    /// - Parameters:
    ///   - paths: the raw files, replayed in this order.
    ///   - name: the source (sensor) name given to every frame.
    ///   - clock: `.freeRunning` (as fast as the caller asks) or `.realTime(fps:)` (frame n due at start + n / fps).
    ///   - loop: start again at the first file after the last; without it, the call after the last frame throws.
    /// - Throws: the reader's error for a file that cannot be read, or `.invalidValue` naming the first file
    ///   whose geometry differs from the first file's.
    public init(paths: [String], name: String = "file-replay", clock: FrameClock = .freeRunning,
                loop: Bool = true) throws(RawReadError) {
        guard let firstPath = paths.first else {
            throw RawReadError(path: "(no files)", kind: .notReadable, detail: "a file replay needs at least one raw file")
        }
        let reader = RawFileReader()
        var images: [RawImage] = []
        images.reserveCapacity(paths.count)
        for path in paths {
            let image = try reader.read(path: path)
            if let first = images.first, let difference = Self.geometryDifference(first.frame, image.frame) {
                throw RawReadError(path: path, kind: .invalidValue,
                                   detail: "\(difference) of the first file, \(firstPath) "
                                       + "(all files of a replay must share one geometry)")
            }
            images.append(image)
        }
        self.paths = paths
        self.name = name
        self.clock = clock
        self.loop = loop
        self.images = images
        pacer = FramePacer(clock: clock)
        capabilities = Self.capabilities(of: images, name: name, clock: clock)
    }

    public var samplesPerFrame: Int {
        let frame = images[0].frame
        return frame.width * frame.height
    }

    /// The decoded frames of every file (held for the whole replay) and 8 MiB for metadata and bookkeeping.
    public var workingMemoryBytes: Int {
        images.reduce(8 << 20) { $0 + $1.frame.storage.count * MemoryLayout<UInt16>.stride }
    }

    // MARK: - Settings

    /// Applies `settings` after `check` accepts them.
    public func configure(_ settings: CaptureSettings) throws(CaptureSettingsError) {
        try check(settings)
        self.settings = try settings.validated(for: capabilities)
    }

    /// Accepts only settings the files were taken with (see the type's documentation).
    public func check(_ settings: CaptureSettings) throws(CaptureSettingsError) {
        let metadata = images.map(\.metadata)
        let format = SettingText.number
        func recorded(_ values: [Double?], _ describe: (Double) -> String) -> String {
            let known = Set(values.compactMap { $0 }).sorted()
            if known.isEmpty { return "the files do not record it" }
            let text = known.map(describe).joined(separator: ", ")
            return values.contains(where: { $0 == nil }) ? "the files were taken at \(text) or do not record it"
                : "the files were taken at \(text)"
        }
        func matchesAll(_ values: [Double?], _ wanted: Double) -> Bool {
            values.allSatisfy { v in v.map { abs($0 - wanted) <= 1e-6 * max(1, abs(wanted)) } ?? false }
        }

        if let iso = settings.iso {
            let values = metadata.map(\.iso)
            guard matchesAll(values, iso) else {
                throw CaptureSettingsError(setting: "ISO", "a replay cannot change ISO (asked for ISO \(format(iso)); "
                                               + recorded(values) { "ISO \(format($0))" } + ")")
            }
        }
        if let shutter = settings.shutter {
            let values = metadata.map(\.exposureTime)
            guard matchesAll(values, shutter) else {
                throw CaptureSettingsError(setting: "shutter", "a replay cannot change the shutter speed (asked for "
                                               + "\(ShutterSpeed.describe(shutter)); "
                                               + recorded(values) { ShutterSpeed.describe($0) } + ")")
            }
        }
        if let aperture = settings.aperture {
            let values = metadata.map(\.fNumber)
            guard matchesAll(values, aperture) else {
                throw CaptureSettingsError(setting: "aperture", "a replay cannot change the aperture (asked for "
                                               + "f/\(format(aperture)); " + recorded(values) { "f/\(format($0))" } + ")")
            }
        }
        if let focus = settings.focus {
            guard metadata.allSatisfy({ $0.focusDistance == focus }) else {
                throw CaptureSettingsError(setting: "focus", "a replay cannot change the focus (asked for \(focus); "
                                               + "the files keep the focus they were taken with)")
            }
        }
        if let lens = settings.lens, lens != Self.asRecordedLens {
            throw CaptureSettingsError(setting: "lens", "a replay cannot change the lens (asked for '\(lens)'; "
                                           + "the only lens is '\(Self.asRecordedLens)')")
        }
        if settings.exposureCompensation != 0 {
            throw CaptureSettingsError(setting: "exposure compensation", "a replay cannot change the exposure "
                                           + "(asked for \(settings.exposureCompensation) EV; only 0 EV)")
        }
        if settings.whiteBalance != .auto {
            throw CaptureSettingsError(setting: "white balance", "a replay cannot change the white balance (asked "
                                           + "for \(settings.whiteBalance); the files keep their as-shot white balance, "
                                           + "use auto)")
        }
        // Metering mode, focus point and the AE/AF locks have nothing to act on in a replay; the general checks
        // (focus point and spot inside the image, metering zone 0...8) still apply.
        _ = try settings.validated(for: capabilities)
    }

    // MARK: - Frames

    public func nextFrame(into storage: PixelStorage) throws(FrameSourceError) -> CapturedFrame {
        let needed = samplesPerFrame
        guard storage.count >= needed else {
            throw FrameSourceError("frame buffer holds \(storage.count) samples; \(name) needs \(needed) "
                                   + "(\(images[0].frame.width)x\(images[0].frame.height))")
        }
        if nextIndex == images.count {
            guard loop else {
                throw FrameSourceError("replay finished after \(sequence) frame" + (sequence == 1 ? "" : "s"))
            }
            nextIndex = 0
        }
        let source = images[nextIndex]
        let timing = pacer.waitForNextFrame()
        let captureTime = CaptureTime.now()
        Self.copyMosaic(source.frame, into: storage)

        let number = sequence
        let image: RawImage
        do throws(InvalidValueError) {
            let f = source.frame
            let frame = try RawFrame(width: f.width, height: f.height, rowStride: f.width, storage: storage, cfa: f.cfa,
                                     activeArea: f.activeArea, defaultCrop: f.defaultCrop, defaultScale: f.defaultScale,
                                     blackLevels: f.blackLevels, whiteLevel: f.whiteLevel, bitsPerSample: f.bitsPerSample)
            var metadata = source.metadata
            metadata.captureTime = captureTime
            metadata.sequenceNumber = number
            image = RawImage(frame: frame, metadata: metadata, calibration: source.calibration)
        } catch {
            throw FrameSourceError("\(paths[nextIndex]): \(error)")
        }
        nextIndex += 1
        sequence += 1
        return CapturedFrame(image: image, settings: Self.applied(source, settings: settings), sequenceNumber: number,
                             monotonicNanoseconds: timing.monotonicNanoseconds,
                             latenessNanoseconds: timing.latenessNanoseconds, sensorName: name)
    }

    /// The file due next is passed over (its frame was late): its sequence number is used up and the replay moves on.
    public func skipFrame() -> UInt64 {
        if nextIndex == images.count && loop { nextIndex = 0 }
        if nextIndex < images.count { nextIndex += 1 }
        defer { sequence += 1 }
        return sequence
    }

    /// Copies the next file's mosaic into `storage` as `nextFrame` would, without moving on.
    public func rehearseFrame(into storage: PixelStorage) throws(FrameSourceError) -> Bool {
        guard storage.count >= samplesPerFrame, !images.isEmpty else { return false }
        Self.copyMosaic(images[nextIndex == images.count ? 0 : nextIndex].frame, into: storage)
        return true
    }

    /// Copies the whole buffer of `frame` (masked areas included) into `storage`, rows `frame.width` apart.
    private static func copyMosaic(_ frame: RawFrame, into storage: PixelStorage) {
        let src = frame.storage.baseAddress
        let dst = storage.baseAddress
        let rowBytes = frame.width * MemoryLayout<UInt16>.stride
        if frame.rowStride == frame.width {
            memcpy(dst, src, rowBytes * frame.height)
            return
        }
        for row in 0..<frame.height {
            memcpy(dst + row * frame.width, src + row * frame.rowStride, rowBytes)
        }
    }

    // MARK: - Descriptions

    /// What differs between the geometry of `first` and `other` ("size 1968x1182 differs from 2376x1728"), or nil.
    private static func geometryDifference(_ first: RawFrame, _ other: RawFrame) -> String? {
        func differs(_ what: String, _ mine: String, _ theirs: String) -> String {
            "\(what) \(mine) differs from \(theirs)"
        }
        if first.width != other.width || first.height != other.height {
            return differs("size", "\(other.width)x\(other.height)", "\(first.width)x\(first.height)")
        }
        if first.activeArea != other.activeArea {
            return differs("active area", "\(other.activeArea)", "\(first.activeArea)")
        }
        if first.cfa != other.cfa { return differs("CFA pattern", "\(other.cfa)", "\(first.cfa)") }
        if first.bitsPerSample != other.bitsPerSample {
            return differs("bit depth", "\(other.bitsPerSample)", "\(first.bitsPerSample)")
        }
        return nil
    }

    /// Capabilities of a replay of `images`: the first file's geometry, the files' own exposure values.
    private static func capabilities(of images: [RawImage], name: String, clock: FrameClock) -> SourceCapabilities {
        let frame = images[0].frame
        let metadata = images.map(\.metadata)
        func range(_ values: [Double?], unknown: Double) -> ClosedRange<Double> {
            let known = values.compactMap { $0 }
            guard let low = known.min(), let high = known.max() else { return unknown...unknown }
            return low...high
        }
        let rate: Double
        switch clock {
        case .freeRunning: rate = 1000
        case .realTime(let fps): rate = fps
        }
        let first = metadata[0]
        let aperture = first.fNumber ?? 0
        let lens = LensCapabilities(name: asRecordedLens, focalLength: first.focalLength ?? 0,
                                    apertureRange: range(metadata.map(\.fNumber), unknown: aperture),
                                    minimumFocusDistance: 0, horizontalFieldOfView: 0)
        return SourceCapabilities(name: name, width: frame.width, height: frame.height,
                                  bitsPerSample: frame.bitsPerSample, cfaPattern: frame.cfa.description,
                                  maximumFrameRate: rate, isoRange: range(metadata.map(\.iso), unknown: 0),
                                  shutterRange: range(metadata.map(\.exposureTime), unknown: 0), lenses: [lens])
    }

    /// The settings a replayed file was taken with (0 for values the file does not record).
    private static func applied(_ image: RawImage, settings: CaptureSettings) -> AppliedSettings {
        let m = image.metadata
        return AppliedSettings(iso: m.iso ?? 0, shutter: m.exposureTime ?? 0, aperture: m.fNumber ?? 0,
                               focus: m.focusDistance ?? .infinity, exposureCompensation: 0,
                               lens: m.lens ?? asRecordedLens, focalLength: m.focalLength ?? 0,
                               whiteBalance: settings.whiteBalance,
                               asShotNeutral: image.calibration?.asShotNeutral ?? [], automatic: [],
                               meteredEV100: nil)
    }
}
