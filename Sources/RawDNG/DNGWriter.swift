import Foundation
import LJ92
import RawCore
import RawDevelop
import RawTIFF

/// Writes raw frames as DNG 1.6 files through libtiff.
///
/// Layout: IFD0 holds an 8-bit RGB thumbnail (long edge ≤ 256 px, rendered from the raw) and the
/// camera-wide DNG tags; the raw mosaic is SubIFD 0 (`NewSubFileType` 0: 16-bit or packed samples in strips, or
/// lossless-JPEG tiles, as `Options.compression` says);
/// an optional JPEG preview is SubIFD 1; EXIF and GPS live in their own IFDs. Files are written through
/// `AtomicFile`: nothing appears under the final name until the file is complete and on disk.
public struct DNGWriter: Sendable {
    /// What to write besides the raw data.
    public struct Options: Sendable, Hashable {
        /// Long edge of the IFD0 thumbnail in pixels (1...256).
        public var thumbnailLongEdge: Int = 256
        /// Long edge of the JPEG preview SubIFD (1...1024), or nil for none.
        public var previewLongEdge: Int? = nil
        /// JPEG quality of the preview (1...100).
        public var previewQuality: Int = 85
        /// Replace an existing file at the destination.
        public var overwrite: Bool = false
        /// The `Software` tag.
        public var software: String = "rawburst \(RawBurstVersion.string)"
        /// How the raw mosaic is stored (default uncompressed; `rawburst convert` defaults to lossless JPEG).
        public var compression: DNGCompression = .none
        /// Write the frame as part of a CinemaDNG sequence: raw data in IFD0, no thumbnail or preview, and the
        /// sequence's time code, frame rate and reel name.
        public var cinemaDNG: CinemaDNGFrame? = nil
        /// Write `NewRawImageDigest` (an MD5 of the raw samples, which Adobe's DNG SDK and rawburst's reader check on
        /// reading, so damaged data — a flipped bit, a strip offset pointing elsewhere — is an error, never a silently
        /// different picture). On by default, bursts included: it costs an MD5 over the whole buffer, hashed in
        /// parallel cells — about 40 ms of CPU for 12 MP, as much as the rest of an uncompressed write
        /// (docs/benchmarks.md, issue #17) — so a burst's governor gives it up in its first step.
        public var rawImageDigest: Bool = true
        /// Threads that encode lossless-JPEG tiles (and hash the digest) (1...64; default: the machine's cores).
        public var encodingThreads: Int = min(64, ProcessInfo.processInfo.activeProcessorCount)

        /// The longest edge of an embedded preview the writer takes, in pixels (the options that set it check this).
        public static let maximumPreviewLongEdge = 1024

        /// Default options: thumbnail only, never overwrite.
        public init() {}

        /// Checks the ranges.
        public func validated() throws(InvalidValueError) -> Options {
            try require((1...256).contains(thumbnailLongEdge), "thumbnail size", "\(thumbnailLongEdge) px is outside 1...256")
            if let p = previewLongEdge {
                try require((1...Self.maximumPreviewLongEdge).contains(p), "preview size",
                            "\(p) px is outside 1...\(Self.maximumPreviewLongEdge)")
            }
            try require((1...100).contains(previewQuality), "preview quality", "\(previewQuality) is outside 1...100")
            try require((1...64).contains(encodingThreads), "encoding threads", "\(encodingThreads) is outside 1...64")
            return self
        }
    }

    /// What was written.
    public struct Report: Sendable, Hashable {
        /// Final path of the file.
        public let path: String
        /// Size of the file in bytes.
        public let bytes: Int
        /// Things the user should know (e.g. a missing colour matrix replaced by a generic one, a directory that
        /// could not be flushed).
        public let warnings: [String]
        /// Whether the file's name is on disk too (`.notDurable` when its directory could not be flushed).
        public var publication: AtomicFile.Publication = .durable
        /// How the raw mosaic was stored: the options' compression, except `.none` when `.packed` was asked for a
        /// frame no depth up to 15 bits packs into rows that end on a byte (16-bit samples, or a width such as 255 at
        /// 10 bits: `packedDepth(for:)`); the file is then exactly what `.none` writes.
        public var compression: DNGCompression = .none
        /// Bits per stored sample (the raw directory's BitsPerSample): 16 uncompressed, the packed depth (the frame's, or
        /// deeper so that rows end on a byte), or the lossless-JPEG precision.
        public var bitsPerSample: Int = 16
        /// The NewRawImageDigest written (16 bytes), or nil when the options leave it out.
        public var rawImageDigest: [UInt8]?
        /// True when the raw data was copied from a source DNG as it was stored (``write(_:verbatim:to:)``):
        /// ``compression`` is then `.none` and ``bitsPerSample`` the source's, and they describe nothing this writer
        /// encoded.
        public var verbatim = false
        /// The file's device and inode (`AtomicFile/identity`), nil when they could not be read.
        public var identity: FileIdentity?
        /// When making the file durable began and ended (`CLOCK_MONOTONIC`, ns): its flush, rename and directory flush,
        /// where the disk itself takes the bytes (a burst measures its disk's bandwidth from these spans).
        public var durableNanoseconds: ClosedRange<UInt64>?
    }

    /// Tile width and height of lossless-JPEG raw data.
    public static let losslessJPEGTileSize = 256

    /// The lossless-JPEG tile size for a frame `width` samples wide: ``losslessJPEGTileSize``, except for a frame
    /// exactly two tiles wide, which gets one tile across. LibRaw (0.20 to 0.22 at least) reads a tile whose JPEG rows
    /// have two components and whose component count times tile width equals the image width as if each JPEG row
    /// spanned the whole image: at 512 samples wide every other row came back zero (dcraw reads the file exactly).
    public static func losslessJPEGTileSize(width: Int) -> Int {
        width == 2 * losslessJPEGTileSize ? width : losslessJPEGTileSize
    }

    /// The DNG version written (1.6.0.0).
    public static let dngVersion: [UInt8] = [1, 6, 0, 0]
    /// The oldest DNG version whose readers can read these files: 1.1.0.0, because `ActiveArea` is a DNG 1.1
    /// tag; nothing else written needs more (newer tags such as ForwardMatrix refine colour but are optional).
    public static let dngBackwardVersion: [UInt8] = [1, 1, 0, 0]

    public let options: Options
    /// What encodes the JPEG preview `options.previewLongEdge` asks for: the codec's owner hands it in (RawImageIO's
    /// `JPEGPreviews`), so that the writer links libtiff and no image library. Nil: no preview can be written.
    public let previewEncoder: (any PreviewEncoding)?

    /// Creates a writer; `previewEncoder` is needed when `options.previewLongEdge` asks for a preview.
    public init(options: Options = Options(), previewEncoder: (any PreviewEncoding)? = nil) {
        self.options = options
        self.previewEncoder = previewEncoder
    }

    /// Writes `image` to `path` atomically and returns what was written.
    @discardableResult
    public func write(_ image: RawImage, to path: String) throws(DNGWriteError) -> Report {
        try write(image, to: path, knownRawImageDigest: nil)
    }

    /// Writes like ``write(_:to:)``; `knownRawImageDigest`, when given, is `NewRawImageDigest` of `image`'s samples
    /// already computed (a reader that checked it), written instead of hashing the samples again.
    @discardableResult
    package func write(_ image: RawImage, to path: String, knownRawImageDigest: [UInt8]?) throws(DNGWriteError) -> Report {
        do {
            return try write(image, to: path, knownRawImageDigest: knownRawImageDigest, beforeCommit: {})
        } catch let error as DNGWriteError {
            throw error
        } catch {
            throw DNGWriteError(path: path, "\(error)")
        }
    }

    /// Writes like ``write(_:to:knownRawImageDigest:)`` and calls `beforeCommit` once the file is complete in its
    /// temporary place, before it takes its final name: an error thrown there removes the temporary file (nothing
    /// appears at `path`) and is rethrown as it is. A converter waits there for the check of its source's samples
    /// (`knownRawImageDigest` is then the digest the source carries, written only if the check passes).
    /// `knownDigestSampleBytes` says how the known digest hashed the samples (1 or 2 bytes each,
    /// ``NewRawImageDigest``): it is written only when this file stores its samples as wide, else computed.
    /// With `codes`, the raw data written is those stored codes and their LinearizationTable instead of the frame's
    /// samples (``write(_:codes:to:)``).
    @discardableResult
    package func write(_ image: RawImage, to path: String, codes: DNGStoredCodes? = nil, knownRawImageDigest: [UInt8]?,
                       knownDigestSampleBytes: Int = 2, beforeCommit: () throws -> Void) throws -> Report {
        try publish(image, to: path, beforeCommit: beforeCommit) { calibration, options, temporaryPath in
            let frame = image.frame
            // The samples stored: the frame's, or the codes its LinearizationTable maps to them.
            let data: RawFrame
            do throws(InvalidValueError) { data = try codes?.dataFrame(like: frame) ?? frame } catch {
                throw DNGWriteError(path: path, error.description)
            }
            let linearization = codes.map { [TagAssignment.numbers(TIFFTag.linearizationTable, $0.table.map(Double.init))] } ?? []
            // Lossless JPEG's precision is worked out once: it also decides how the digest hashes the samples.
            let precision = options.compression == .lj92 ? LJ92TileEncoder.precision(for: data) : 16
            let known = knownRawImageDigest.map { (digest: $0, sampleBytes: knownDigestSampleBytes) }
            // The digest hashes samples stored in 8 bits or fewer one byte each (packed 8-bit samples too).
            let storedBits = options.compression == .packed ? Self.packedDepth(for: data) ?? 16 : precision
            let digest = Self.digest(data, storedBits: storedBits, options: options, known: known)
            let payload = RawPayload.samples(data, precision: precision, linearization: linearization)
            let stored = try writeContents(image, payload: payload, calibration: calibration, options: options,
                                           digest: digest, sequenceTags: options.cinemaDNG.map(DNGTagTable.cinemaTags),
                                           to: temporaryPath, reportingAs: path)
            return (stored, digest)
        }
    }

    /// Checks the options and the frame, makes the file through `contents` (given the calibration to write, the checked
    /// options and the temporary path) and publishes it under `path` once `beforeCommit` has passed (see
    /// ``write(_:to:codes:knownRawImageDigest:knownDigestSampleBytes:beforeCommit:)``).
    func publish(_ image: RawImage, to path: String, beforeCommit: () throws -> Void,
                 contents: (ColorCalibration?, Options, String) throws -> (raw: StoredRaw, digest: [UInt8]?)) throws -> Report {
        let options: Options
        do { options = try self.options.validated() } catch { throw DNGWriteError(path: path, error.description) }
        let frame = image.frame
        let rawBytes = frame.width * frame.height * 2
        guard rawBytes < 0xF000_0000 else {
            throw DNGWriteError(path: path, "a \(frame.width)x\(frame.height) frame is too large for a classic TIFF file")
        }
        var warnings: [String] = []
        let calibration = try resolvedCalibration(image, path: path, warnings: &warnings)

        let file: AtomicFile
        do { file = try AtomicFile(path: path, overwrite: options.overwrite) } catch {
            throw DNGWriteError(path: path, error.message)
        }
        let publication: AtomicFile.Publication
        let stored: (raw: StoredRaw, digest: [UInt8]?)
        do {
            try file.beforeWriting()
            stored = try contents(calibration, options, file.temporaryPath)
        } catch let error as DNGWriteError {
            file.discard()
            throw error
        } catch let error as FileError {
            throw DNGWriteError(path: path, error.message)
        } catch {
            file.discard()
            throw DNGWriteError(path: path, "\(error)")
        }
        do { try beforeCommit() } catch {
            file.discard()
            throw error
        }
        let committing = MonotonicClock.nanoseconds()
        do { publication = try file.commit() } catch { throw DNGWriteError(path: path, error.message) }
        let committed = MonotonicClock.nanoseconds()
        var st = stat()
        let size = stat(path, &st) == 0 ? Int(st.st_size) : 0
        if case .notDurable(let reason) = publication { warnings.append("written, but not durable: \(reason)") }
        var report = Report(path: path, bytes: size, warnings: warnings)
        report.publication = publication
        report.compression = stored.raw.compression
        report.bitsPerSample = stored.raw.bitsPerSample
        report.rawImageDigest = stored.digest
        report.verbatim = stored.raw.verbatim
        report.identity = file.identity
        report.durableNanoseconds = committing...max(committing, committed)
        return report
    }

    /// What the raw directory stores: samples the writer encodes (with the LinearizationTable of stored codes), or a
    /// source's data copied as it is.
    enum RawPayload {
        case samples(RawFrame, precision: Int, linearization: [TagAssignment])
        case verbatim(DNGVerbatimRawData)
    }

    /// Writes the whole DNG into `temporaryPath` (errors name `path`, the file the user asked for): with
    /// `sequenceTags` (a CinemaDNG frame's) the raw image is IFD0, otherwise IFD0 is a thumbnail with the raw image
    /// and the preview in SubIFDs.
    func writeContents(_ image: RawImage, payload: RawPayload, calibration: ColorCalibration?, options: Options,
                       digest: [UInt8]?, sequenceTags: [TagAssignment]?,
                       to temporaryPath: String, reportingAs path: String) throws -> StoredRaw {
        let frame = image.frame
        let tiff = try TIFFWriteHandle(path: temporaryPath, reportingAs: path)
        let exifTags = ExifIFDBuilder.assignments(for: image.metadata)
        let exifOffset = try writeCustom(tiff, exifTags, gps: false)
        var gps: (tags: [TagAssignment], offset: UInt64)?
        if let fix = image.metadata.gps {
            let tags = GPSIFDBuilder.assignments(for: fix)
            gps = (tags, try writeCustom(tiff, tags, gps: true))
        }
        tiff.beginImageDirectory()
        let uniqueID = RawDataFingerprint.uniqueID(of: image)
        let digestTags = digest.map { [TagAssignment.bytes(TIFFTag.newRawImageDigest, $0)] } ?? []
        if let sequenceTags {
            // CinemaDNG: IFD0 is the raw image; no thumbnail, no preview.
            var ifd0: [TagAssignment] = []
            let stored = try writeRaw(payload, options: options, tiff: tiff) { layout, extra in
                ifd0 = DNGTagTable.rawIFD(frame: frame, noise: image.metadata.noiseProfile, layout: layout) + extra
                    + DNGTagTable.cameraTags(metadata: image.metadata, calibration: calibration, software: options.software,
                                             uniqueID: uniqueID)
                    + sequenceTags + digestTags
                var tags = ifd0
                tags.append(TagAssignment(TIFFTag.exifIFD, .unsigned([exifOffset])))
                if let gps { tags.append(TagAssignment(TIFFTag.gpsIFD, .unsigned([gps.offset]))) }
                return tags
            }
            try tiff.close()
            try TIFFFinisher(path: temporaryPath).finish(ifd0: ifd0, subIFDs: [], custom: customDirectories(exifTags, exifOffset, gps),
                                                         ifd0Integers: stored.exactIntegers)
            return stored
        }
        // The preview is rendered while the thumbnail, IFD0 and the raw data are written.
        var previewJob: PreviewJob?
        if let edge = options.previewLongEdge {
            guard let previewEncoder else {
                throw DNGWriteError(path: path, "a \(edge) px JPEG preview was asked for without a preview encoder (JPEGPreviews)")
            }
            previewJob = PreviewJob(image, longEdge: edge, quality: options.previewQuality, encoder: previewEncoder)
        }
        // Whatever throws below, the render thread has finished reading the frame before the write returns.
        defer { previewJob?.wait() }

        // IFD0: thumbnail + camera-wide tags.
        var thumbnail = PreviewRenderer.render(image, longEdge: options.thumbnailLongEdge)
        // dcraw reads the largest image of the file as the raw one, the first of equals: a thumbnail as large as a
        // tiny frame would be taken for it, so it is rendered at half that size.
        if thumbnail.width * thumbnail.height >= frame.width * frame.height, max(thumbnail.width, thumbnail.height) > 1 {
            thumbnail = PreviewRenderer.render(image, longEdge: max(thumbnail.width, thumbnail.height) / 2)
        }
        let mainTags = DNGTagTable.mainIFD(image: image, calibration: calibration, thumbnail: thumbnail,
                                           software: options.software, uniqueID: uniqueID) + digestTags
        try tiff.set(mainTags)
        try tiff.set(TagAssignment(TIFFTag.subIFDs, .unsigned([UInt64](repeating: 0, count: previewJob == nil ? 1 : 2))))
        try tiff.set(TagAssignment(TIFFTag.exifIFD, .unsigned([exifOffset])))
        if let gps { try tiff.set(TagAssignment(TIFFTag.gpsIFD, .unsigned([gps.offset]))) }
        try thumbnail.pixels.withUnsafeBytes { try tiff.writeRawStrip(0, $0) }
        try tiff.writeDirectory()

        // SubIFD 0: the raw mosaic.
        var rawTags: [TagAssignment] = []
        let stored = try writeRaw(payload, options: options, tiff: tiff) { layout, extra in
            rawTags = DNGTagTable.rawIFD(frame: frame, noise: image.metadata.noiseProfile, layout: layout) + extra
            return rawTags
        }

        // SubIFD 1: the JPEG preview.
        if let previewJob {
            let preview: (image: RGB8Image, jpeg: [UInt8])
            switch previewJob.wait() {
            case .success(let done): preview = done
            case .failure(let error): throw DNGWriteError(path: path, "cannot encode the preview: \(error.message)")
            }
            try tiff.set(DNGTagTable.previewIFD(width: preview.image.width, height: preview.image.height))
            try preview.jpeg.withUnsafeBytes { try tiff.writeRawStrip(0, $0) }
            try tiff.writeDirectory()
        }
        try tiff.close()
        try TIFFFinisher(path: temporaryPath).finish(ifd0: mainTags, subIFDs: [rawTags], custom: customDirectories(exifTags, exifOffset, gps),
                                                     subIFDIntegers: [stored.exactIntegers])
        return stored
    }

    /// NewRawImageDigest of the samples `data` stored `storedBits` wide (nil when the options leave it out): `known`
    /// when it hashed the samples as wide, else computed.
    private static func digest(_ data: RawFrame, storedBits: Int, options: Options,
                               known: (digest: [UInt8], sampleBytes: Int)?) -> [UInt8]? {
        guard options.rawImageDigest else { return nil }
        let sampleBytes = NewRawImageDigest.sampleBytes(storedBits: storedBits)
        if let known, known.digest.count == 16, known.sampleBytes == sampleBytes { return known.digest }
        return NewRawImageDigest.digest(of: data, threads: options.encodingThreads, sampleBytes: sampleBytes)
    }

    private func customDirectories(_ exifTags: [TagAssignment], _ exifOffset: UInt64,
                                   _ gps: (tags: [TagAssignment], offset: UInt64)?) -> [TIFFFinisher.Directory] {
        var custom = [TIFFFinisher.Directory(offset: exifOffset, tags: exifTags)]
        if let gps { custom.append(TIFFFinisher.Directory(offset: gps.offset, tags: gps.tags)) }
        return custom
    }

    /// How the raw mosaic was stored.
    struct StoredRaw {
        let compression: DNGCompression
        let bitsPerSample: Int
        var verbatim = false
        /// Integer tags of the raw directory libtiff was given a stand-in for, with their exact values (TIFFFinisher).
        var exactIntegers: [UInt16: UInt32] = [:]
    }

    /// Writes the raw directory as the current directory, its tags first: `tags` gets the layout and the payload's own
    /// tags (the LinearizationTable of stored codes) and returns every tag of the directory.
    private func writeRaw(_ payload: RawPayload, options: Options, tiff: TIFFWriteHandle,
                          tags: (DNGTagTable.RawLayout, [TagAssignment]) -> [TagAssignment]) throws -> StoredRaw {
        switch payload {
        case .samples(let data, let precision, let linearization):
            return try writeRaw(data, options: options, precision: precision, tiff: tiff) { tags($0, linearization) }
        case .verbatim(let verbatim):
            return try writeVerbatim(verbatim, tiff: tiff) { tags($0, []) }
        }
    }

    /// Writes the raw mosaic as the current directory: uncompressed 16-bit or packed strips, or lossless-JPEG tiles;
    /// `tags` gets the layout and returns every tag of the directory, which are set before the data. `precision` is
    /// lossless JPEG's (``LJ92TileEncoder/precision(for:)``).
    private func writeRaw(_ frame: RawFrame, options: Options, precision: Int, tiff: TIFFWriteHandle,
                          tags: (DNGTagTable.RawLayout) -> [TagAssignment]) throws -> StoredRaw {
        let stored: StoredRaw
        switch options.compression {
        case .none:
            stored = try writeUnpacked(frame, tiff: tiff, tags: tags)
        case .packed:
            guard let bits = Self.packedDepth(for: frame) else {
                stored = try writeUnpacked(frame, tiff: tiff, tags: tags)
                break
            }
            let rowsPerStrip = max(1, min(frame.height, (1 << 20) / PackedSamples.rowBytes(width: frame.width, bits: bits)))
            try tiff.set(tags(.packedStrips(rowsPerStrip: rowsPerStrip, bits: bits)))
            try writePackedStrips(tiff, frame: frame, rowsPerStrip: rowsPerStrip, bits: bits)
            stored = StoredRaw(compression: .packed, bitsPerSample: bits)
        case .lj92:
            let encoder = try LJ92TileEncoder(tileSize: Self.losslessJPEGTileSize(width: frame.width),
                                              threads: options.encodingThreads)
            let blocks = encoder.blocks(for: frame)
            if blocks.areStrips {
                guard frame.height <= 65535 else {
                    throw DNGWriteError(path: tiff.path, "a frame narrower than \(encoder.tileSize) px and taller than 65535 rows cannot be stored as lossless JPEG; use no compression")
                }
                try tiff.set(tags(.losslessJPEGStrips(rowsPerStrip: blocks.height, precision: precision)))
                try encoder.encode(frame, precision: precision) { index, bytes in try tiff.writeRawStrip(UInt32(index), bytes) }
            } else {
                try tiff.set(tags(.losslessJPEGTiles(size: encoder.tileSize, precision: precision)))
                try encoder.encode(frame, precision: precision) { index, bytes in try tiff.writeRawTile(UInt32(index), bytes) }
            }
            stored = StoredRaw(compression: .lj92, bitsPerSample: precision)
        }
        try tiff.writeDirectory()
        return stored
    }

    /// Sets the tags of 16-bit strips and writes them.
    private func writeUnpacked(_ frame: RawFrame, tiff: TIFFWriteHandle,
                               tags: (DNGTagTable.RawLayout) -> [TagAssignment]) throws -> StoredRaw {
        let rowsPerStrip = max(1, min(frame.height, (1 << 20) / (frame.width * 2)))
        try tiff.set(tags(.strips(rowsPerStrip: rowsPerStrip)))
        try writeStrips(tiff, frame: frame, rowsPerStrip: rowsPerStrip)
        return StoredRaw(compression: .none, bitsPerSample: 16)
    }

    private func writeCustom(_ tiff: TIFFWriteHandle, _ tags: [TagAssignment], gps: Bool) throws(DNGWriteError) -> UInt64 {
        if gps { try tiff.beginGPSDirectory() } else { try tiff.beginExifDirectory() }
        try tiff.set(tags)
        return try tiff.writeCustomDirectory()
    }
}
