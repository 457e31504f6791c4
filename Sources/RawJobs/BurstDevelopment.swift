import Foundation
import RawCapture
import RawCore
import RawDevelop
import RawImageIO

/// Developed pictures written beside a burst's DNGs (`capture --develop heic`), and composites of pairs.
///
/// During the burst a writer develops each frame straight from its slot after the DNG is durable — when the memory
/// plan has room for a developer per writer and the governor is below `no-previews` (developing is the first thing it
/// gives up). Frames it could not develop then are developed after the burst from their DNGs, and so are the
/// composites of two-sensor bursts: one for every pair whose two frames were both written, never silently skipped
/// (a pair with a dropped frame is reported).
public struct BurstDevelopment: BurstFrameDeveloper {
    /// Development settings.
    public var settings: DevelopSettings
    /// Output format.
    public var format: OutputFormat
    /// Encoder options (quality, bit depth, overwrite).
    public var options: EncodeOptions
    /// How pairs are composited (two-sensor bursts), or nil for no composites.
    public var compositor: DualSensorCompositor?
    /// The sensors whose pictures (and share of a composite) are flipped left to right (`capture --mirror`); their
    /// DNGs are not.
    public var mirroredSensors: Set<String>

    /// Creates a development plan (the samples developed are the type the format needs).
    public init(settings: DevelopSettings = DevelopSettings(), format: OutputFormat, options: EncodeOptions = EncodeOptions(),
                compositor: DualSensorCompositor? = nil, mirroredSensors: Set<String> = []) {
        var settings = settings
        settings.sampleFormat = SampleFormat.for(format, options: options)
        self.settings = settings
        self.format = format
        self.options = options
        self.compositor = compositor
        self.mirroredSensors = mirroredSensors
    }

    /// The settings for a frame of `sensor`: ``settings``, mirrored when the sensor is one of ``mirroredSensors``.
    public func settings(forSensor sensor: String) -> DevelopSettings {
        var settings = self.settings
        settings.mirror = settings.mirror || mirroredSensors.contains(sensor)
        return settings
    }

    /// Working memory of one writer developing frames of `samples` pixels: a full-size output holds the 16-bit output
    /// (6 bytes a pixel), the encoder's 8-bit or converted copy (up to 6) and the demosaic's bands; a reduced one
    /// (`longEdge` smaller than the frame) holds float planes of the output's size (12 bytes a pixel) besides those
    /// two — at most `longEdge`² pixels, fewer than the frame's. Plus the encoder's own buffers (64 MiB, which covers
    /// x265's lookahead for HEIF at these sizes). Measured peaks are in docs/benchmarks.md.
    public static func workingBytes(samples: Int, format: OutputFormat, longEdge: Int? = nil) -> Int {
        let reduced = longEdge.map { min(samples, $0 * $0) } ?? samples
        return (reduced < samples ? reduced * 24 : samples * 12) + (64 << 20)
    }

    /// ``workingBytes(samples:format:longEdge:)`` of this development's format and size.
    public func workingBytes(samplesPerFrame: Int) -> Int {
        Self.workingBytes(samples: samplesPerFrame, format: format, longEdge: settings.longEdge)
    }

    /// Develops `image`, a frame of `sensor`, with its settings (``settings(forSensor:)``) on up to `threads` threads
    /// and writes it in the format at `path`.
    public func develop(_ image: RawImage, sensor: String, to path: String, threads: Int) throws -> Int {
        let picture = try RawDeveloper(settings: settings(forSensor: sensor), threads: threads).develop(image).image
        return try ImageFileWriter(format: format, options: options).write(picture, to: path).bytes
    }

    /// The developed file beside a DNG: same name, the format's extension.
    public func path(forDNG dng: String) -> String {
        (dng as NSString).deletingPathExtension + "." + format.fileExtension
    }

    /// The composite of a pair beside its first frame's DNG.
    public func compositePath(forFirstDNG dng: String) -> String {
        (dng as NSString).deletingPathExtension + "-composite." + format.fileExtension
    }
}
