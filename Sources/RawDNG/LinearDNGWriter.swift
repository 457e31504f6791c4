import Foundation
import LJ92
import RawCore
import RawTIFF

/// Writes a linear raw (`LinearRawImage`) as a LinearRaw DNG through libtiff: IFD0 is the image itself
/// (PhotometricInterpretation 34892, SamplesPerPixel 3, interleaved), with the camera-wide DNG tags and an EXIF IFD,
/// no thumbnail or preview (as a CinemaDNG frame). The samples are stored as 16-bit strips or as lossless-JPEG tiles of
/// 256 x 256 pixels, each one stream of three interleaved components (predictor 1; edge tiles padded with their last
/// pixel). `NewRawImageDigest` is written (as the DNG SDK computes it for three planes: a test compares). The file
/// appears under its name only once complete (`AtomicFile`).
public struct LinearDNGWriter: Sendable {
    /// How the samples are stored.
    public enum Storage: String, Sendable, Hashable {
        /// 16-bit little-endian samples in strips (Compression 1).
        case uncompressed
        /// Lossless-JPEG tiles of three components (Compression 7).
        case losslessJPEG = "lj92"
    }

    /// Tile side of lossless-JPEG storage, in pixels.
    public static let tileSize = 256

    /// How the samples are stored.
    public let storage: Storage
    /// Replace an existing file at the destination.
    public let overwrite: Bool
    /// The `Software` tag.
    public let software: String

    /// Creates a writer.
    public init(storage: Storage = .losslessJPEG, overwrite: Bool = false, software: String = "rawburst \(RawBurstVersion.string)") {
        self.storage = storage
        self.overwrite = overwrite
        self.software = software
    }

    /// Writes `image` to `path` atomically and returns the bytes written. An image without a calibration gets the
    /// stand-in (linear sRGB primaries, ProfileName "Uncalibrated: no camera profile").
    @discardableResult
    public func write(_ image: LinearRawImage, to path: String) throws(DNGWriteError) -> Int {
        let file: AtomicFile
        do { file = try AtomicFile(path: path, overwrite: overwrite) } catch { throw DNGWriteError(path: path, error.message) }
        do {
            try file.beforeWriting()
            try writeContents(image, to: file.temporaryPath, reportingAs: path)
        } catch let error as DNGWriteError {
            file.discard()
            throw error
        } catch {
            file.discard()
            throw DNGWriteError(path: path, "\(error)")
        }
        do { _ = try file.commit() } catch { throw DNGWriteError(path: path, error.message) }
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }

    private func writeContents(_ image: LinearRawImage, to temporaryPath: String, reportingAs path: String) throws {
        let frame = image.frame
        let tiff = try TIFFWriteHandle(path: temporaryPath, reportingAs: path)
        let exifTags = ExifIFDBuilder.assignments(for: image.metadata)
        try tiff.beginExifDirectory()
        try tiff.set(exifTags)
        let exifOffset = try tiff.writeCustomDirectory()
        tiff.beginImageDirectory()
        let digest = NewRawImageDigest.digest(of: frame, threads: ParallelRows.defaultThreads)
        let ifd0 = imageTags(frame) + DNGTagTable.cameraTags(metadata: image.metadata, calibration: image.calibration ?? .standIn,
                                                             software: software, uniqueID: digest)
            + [.bytes(NewRawImageDigest.tag, digest)]
        try tiff.set(ifd0)
        try tiff.set(TagAssignment(TIFFTag.exifIFD, .unsigned([exifOffset])))
        switch storage {
        case .uncompressed: try writeStrips(frame, tiff: tiff)
        case .losslessJPEG: try writeTiles(frame, tiff: tiff)
        }
        try tiff.writeDirectory()
        try tiff.close()
        try TIFFFinisher(path: temporaryPath).finish(ifd0: ifd0, subIFDs: [],
                                                     custom: [TIFFFinisher.Directory(offset: exifOffset, tags: exifTags)])
    }

    /// Rows per strip of uncompressed storage (about 1 MiB each).
    private static func rowsPerStrip(_ frame: LinearRawFrame) -> Int {
        max(1, min(frame.height, (1 << 20) / (frame.width * LinearRawFrame.channels * 2)))
    }

    /// The tags of the image: size, layout, levels, crop and scale.
    func imageTags(_ frame: LinearRawFrame) -> [TagAssignment] {
        typealias T = TIFFTag
        var layout: [TagAssignment]
        switch storage {
        case .uncompressed:
            layout = [.numbers(T.bitsPerSample, [16]), .number(T.compression, 1),
                      .number(T.rowsPerStrip, Double(Self.rowsPerStrip(frame)))]
        case .losslessJPEG:
            layout = [.numbers(T.bitsPerSample, [16]), .number(T.compression, 7),
                      .number(T.tileWidth, Double(Self.tileSize)), .number(T.tileLength, Double(Self.tileSize)),
                      .jpegTablesInEachSegment]
        }
        let area = frame.activeArea, crop = frame.defaultCrop
        return [
            .number(T.newSubFileType, 0),
            .number(T.imageWidth, Double(frame.width)),
            .number(T.imageLength, Double(frame.height)),
        ] + layout + [
            .number(T.photometricInterpretation, 34892),
            .number(T.samplesPerPixel, Double(LinearRawFrame.channels)),
            .number(T.planarConfiguration, 1),
            .numbers(T.blackLevelRepeatDim, [1, 1]),
            .numbers(T.blackLevel, frame.blackLevels),
            .numbers(T.whiteLevel, frame.whiteLevels.map { Double($0) }),
            .numbers(T.defaultScale, [frame.defaultScale.horizontal, frame.defaultScale.vertical]),
            .numbers(T.defaultCropOrigin, [Double(crop.left), Double(crop.top)]),
            .numbers(T.defaultCropSize, [Double(crop.width), Double(crop.height)]),
            .numbers(T.activeArea, [Double(area.top), Double(area.left), Double(area.bottom), Double(area.right)]),
        ]
    }

    /// 16-bit little-endian strips, straight from the frame's storage (rawburst runs on little-endian CPUs).
    private func writeStrips(_ frame: LinearRawFrame, tiff: TIFFWriteHandle) throws {
        let rows = Self.rowsPerStrip(frame), rowSamples = frame.width * LinearRawFrame.channels
        for s in 0..<((frame.height + rows - 1) / rows) {
            let first = s * rows, count = min(rows, frame.height - first)
            let start = UnsafeRawPointer(frame.storage.baseAddress + first * rowSamples)
            try tiff.writeRawStrip(UInt32(s), UnsafeRawBufferPointer(start: start, count: count * rowSamples * 2))
        }
    }

    /// Lossless-JPEG tiles of three components, row by row of tiles; pixels past the frame repeat its last column or row.
    private func writeTiles(_ frame: LinearRawFrame, tiff: TIFFWriteHandle) throws {
        let size = Self.tileSize, channels = LinearRawFrame.channels
        let encoder = try LJ92Encoder(precision: 16)
        let across = (frame.width + size - 1) / size, down = (frame.height + size - 1) / size
        var tile = [UInt16](repeating: 0, count: size * size * channels)
        for ty in 0..<down {
            for tx in 0..<across {
                tile.withUnsafeMutableBufferPointer { t in
                    for r in 0..<size {
                        let source = frame.row(min(ty * size + r, frame.height - 1))
                        for x in 0..<size {
                            let column = min(tx * size + x, frame.width - 1)
                            for c in 0..<channels { t[(r * size + x) * channels + c] = source[column * channels + c] }
                        }
                    }
                }
                let bytes = try tile.withUnsafeBufferPointer { try encoder.encode($0, width: size, height: size, components: channels) }
                try bytes.withUnsafeBytes { try tiff.writeRawTile(UInt32(ty * across + tx), $0) }
            }
        }
    }
}
