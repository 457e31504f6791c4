import CImageShims
import Foundation
import RawCore
import RawDevelop
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RawCore

/// Encodes developed images as baseline JPEG through libjpeg-turbo.
///
/// The file is 8-bit YCbCr with 4:2:0 chroma subsampling, the accurate integer DCT and the standard Huffman
/// tables (optimised tables save about 7 % of the size for twice the time). It starts with the EXIF APP1 marker
/// (``ExifBlock``; no JFIF marker), followed by the ICC profile of the image's space and curve (``ICCProfile``)
/// as APP2 `ICC_PROFILE` markers. libjpeg's errors come back as `DevelopError`s; it never ends the process.
///
/// Large images are encoded in bands on all cores and joined into one scan: every MCU row (16 pixel rows) ends
/// with a restart marker, which resets the DC predictions, so a band that starts on a restart boundary encodes
/// on its own exactly as it would inside the whole. Bands are multiples of 128 rows (eight MCU rows, one cycle
/// of the eight restart marker numbers), so the markers inside each band are already numbered as in the whole
/// and the joined file is byte for byte the one a single pass with the same restart interval writes.
public struct JPEGEncoder: Sendable, Hashable {
    /// Quality, 1...100.
    public var quality: Int

    /// Creates an encoder with `quality` (1...100).
    public init(quality: Int = 90) {
        self.quality = quality
    }

    /// Creates an encoder with the JPEG settings of `options`.
    public init(options: EncodeOptions) {
        self.init(quality: options.quality)
    }

    /// Rows per band unit: eight 16-row MCU rows, one cycle of the restart marker numbers RST0...RST7.
    static let bandUnit = 128
    /// Images shorter than this many rows per core are encoded in one pass.
    static let rowsPerBandAtLeast = 512

    /// The JPEG file of `image`; errors name `path` when given.
    public func encode(_ image: DevelopedImage, reportingAs path: String? = nil) throws(DevelopError) -> [UInt8] {
        let bands = min(ProcessInfo.processInfo.activeProcessorCount, image.height / Self.rowsPerBandAtLeast)
        // One band (one core, or fewer than 1024 rows): a plain pass without restart markers.
        return try encode(image, bands: bands >= 2 ? bands : 0, reportingAs: path)
    }

    /// The JPEG file of `image` encoded in `bands` bands at once (restart markers at every MCU row), or in one
    /// pass without restart markers when `bands` is 0.
    func encode(_ image: DevelopedImage, bands: Int, reportingAs path: String? = nil) throws(DevelopError) -> [UInt8] {
        guard EncodeOptions.qualityRange.contains(quality) else {
            throw DevelopError(path: path, "invalid quality: \(quality) is outside 1...100")
        }
        let exif: ExifBlock, icc: ICCProfile
        do {
            exif = try ExifBlock(image: image, format: .jpeg)
            icc = try ICCProfile.profile(for: image)
        } catch { throw error.naming(path) }
        let pixels = image.uint8Samples
        let components = image.channels.count
        // Bands of whole 128-row units; the last one takes what is left.
        let units = (image.height + Self.bandUnit - 1) / Self.bandUnit
        let step = bands > 1 ? (units + bands - 1) / bands * Self.bandUnit : image.height
        let starts = Array(stride(from: 0, to: image.height, by: step))
        let ends = Array(starts.dropFirst()) + [image.height]
        let pieces = PieceBox(count: starts.count)
        let width = image.width
        pixels.withUnsafeBufferPointer { px in
            let base = px.baseAddress!
            ParallelRows.run(rows: starts.count, threads: starts.count, minimumRows: 1) { range in
                for band in range {
                    // Only the first band carries the EXIF and ICC markers; the others' headers are dropped.
                    let first = band == 0
                    pieces.store(band, Self.encodeRows(base + starts[band] * width * components, components: components,
                                                        width: width,
                                                        height: ends[band] - starts[band], quality: quality,
                                                        app1: first ? exif.app1Payload : [], icc: first ? icc.data : [],
                                                        restarts: bands > 0))
                }
            }
        }
        var parts: [[UInt8]] = []
        for band in 0..<starts.count {
            switch pieces.result(band) {
            case .success(let bytes): parts.append(bytes)
            case .failure(let failure):
                let message = failure.message.isEmpty ? "libjpeg gave no reason" : failure.message
                throw DevelopError(path: path, "cannot encode the JPEG: \(message)")
            }
        }
        if parts.count == 1 { return parts[0] }
        guard let joined = JPEGBandJoiner.join(parts, startingAt: starts, height: image.height,
                                               mcuRows: components == 1 ? 8 : 16) else {
            throw DevelopError(path: path, "cannot encode the JPEG: libjpeg's bands could not be joined")
        }
        return joined
    }

    /// One libjpeg pass over `height` rows of `components` (3 or 1) samples per pixel.
    private static func encodeRows(_ rows: UnsafePointer<UInt8>, components: Int, width: Int, height: Int, quality: Int,
                                   app1: [UInt8], icc: [UInt8], restarts: Bool) -> Result<[UInt8], BandFailure> {
        var out: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        var message = [CChar](repeating: 0, count: 256)
        let ok = app1.withUnsafeBufferPointer { app1 in
            icc.withUnsafeBufferPointer { profile in
                rb_jpeg_encode_icc(rows, Int32(components), Int32(width), Int32(height), width * components, Int32(quality),
                                   app1.baseAddress, app1.count, profile.baseAddress, profile.count,
                                   restarts ? 1 : 0, &out, &length, &message, message.count)
            }
        }
        guard ok != 0, let out else {
            return .failure(BandFailure(message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }))
        }
        defer { free(out) }
        return .success(Array(UnsafeBufferPointer(start: out, count: Int(length))))
    }

    /// The domain of `BandFailure`.
    enum BandFailureDomain {}

    /// libjpeg's message for a band it could not encode.
    typealias BandFailure = MessageError<BandFailureDomain>

    /// The bands' results, filled from several threads (each index once).
    private final class PieceBox: Sendable {
        private let results: Mutex<[Result<[UInt8], BandFailure>]>
        init(count: Int) { results = Mutex(Array(repeating: .failure(BandFailure("")), count: count)) }
        func store(_ index: Int, _ result: Result<[UInt8], BandFailure>) { results.withLock { $0[index] = result } }
        func result(_ index: Int) -> Result<[UInt8], BandFailure> { results.withLock { $0[index] } }
    }

    /// Encodes `image` into the existing temporary file `temporaryPath` (errors name `path`).
    public func write(_ image: DevelopedImage, toTemporaryPath temporaryPath: String,
                      reportingAs path: String) throws(DevelopError) {
        let bytes = try encode(image, reportingAs: path)
        try ImageFileWriter.writeBytes(bytes, to: temporaryPath, reportingAs: path)
    }
}
