import CLibRaw
import Foundation
import LJ92
import RawCore
import RawDNG
import RawTIFF

/// Reads any raw file LibRaw can decode into a `RawImage`: the full sensor buffer bit-exactly, its active
/// area, CFA layout, black and white levels, camera metadata and colour calibration.
///
/// Each read uses its own LibRaw handle, so one reader may be used from many threads at once and reads run
/// in parallel. TIFF-based raws (DNG, NEF, RW2, KDC, ...) are first checked against their own TIFF
/// structure, because LibRaw 0.20 zero-fills some truncated files without reporting an error; DNG sources
/// then take the exact values of the tags LibRaw does not expose (crop, scale, forward matrices, EXIF
/// times with sub-seconds and UTC offset, GPS, serial numbers), so that a DNG written by RawDNG reads back
/// the way it was written. Nothing is printed: every problem is a `RawReadError`.
public struct RawFileReader: Sendable {
    /// Whether uncompressed 16-bit CFA DNGs are read from the file bytes directly (the default) instead of through
    /// LibRaw's `unpack`; both give the same frame (a test compares them), the direct read in a fraction of the time.
    public var readsUncompressedDNGDirectly: Bool
    /// Whether lossless-JPEG CFA DNGs are decoded by RawDNG's LJ92 decoder (the default) instead of LibRaw's: the same
    /// frame (a test compares them), decoded in parallel, and corrupt entropy-coded data is an error instead of
    /// silently wrong pixels.
    public var decodesLosslessJPEGDirectly: Bool
    /// Whether a DNG's `NewRawImageDigest` is checked against the samples read (the default): a mismatch is a
    /// `corrupt` error, the way Adobe's DNG SDK reports damaged data that decodes without a structural error
    /// (a flipped bit in lossless-JPEG data). Costs an MD5 of the raw buffer on files that carry the tag.
    public var verifiesRawImageDigest: Bool

    /// Creates a reader.
    public init(readsUncompressedDNGDirectly: Bool = true, decodesLosslessJPEGDirectly: Bool = true,
                verifiesRawImageDigest: Bool = true) {
        self.readsUncompressedDNGDirectly = readsUncompressedDNGDirectly
        self.decodesLosslessJPEGDirectly = decodesLosslessJPEGDirectly
        self.verifiesRawImageDigest = verifiesRawImageDigest
    }

    /// Reads pixels, levels, CFA, metadata and colour calibration. Throws RawReadError with a one-line
    /// description naming the file and the problem.
    public func read(path: String) throws(RawReadError) -> RawImage {
        var digest: [UInt8]?
        return try read(path: path, verifiedDigest: &digest)
    }

    /// Reads like ``read(path:)`` and sets `verifiedDigest` to the file's `NewRawImageDigest` when it was checked
    /// against the samples read (a DNG that carries one, with ``verifiesRawImageDigest``): it is then the digest of
    /// the frame's samples, which a converter writing the same frame need not compute again.
    package func read(path: String, verifiedDigest: inout [UInt8]?) throws(RawReadError) -> RawImage {
        var check: RawDigestCheck?
        let image = try read(path: path, digestCheck: &check)
        verifiedDigest = try check?.wait()
        return image
    }

    /// Reads like ``read(path:)`` but leaves the check of the file's `NewRawImageDigest` running: `digestCheck` is
    /// set to it when the digest applies (a DNG that carries one, with ``verifiesRawImageDigest``), and the caller
    /// must `wait()` for it before it counts anything made from the samples as done (a converter: before its output
    /// takes its final name). Every other error is thrown here, after the check's own when both apply, as
    /// ``read(path:)`` reports them.
    package func read(path: String, digestCheck: inout RawDigestCheck?) throws(RawReadError) -> RawImage {
        var origin: AsShotNeutralOrigin?
        return try read(path: path, digestCheck: &digestCheck, neutralOrigin: &origin)
    }

    /// Reads like ``read(path:digestCheck:)`` and sets `neutralOrigin` to where the image's as-shot neutral comes
    /// from (nil when it has none).
    package func read(path: String, digestCheck: inout RawDigestCheck?,
                      neutralOrigin: inout AsShotNeutralOrigin?) throws(RawReadError) -> RawImage {
        switch try readContent(path: path, digestCheck: &digestCheck, neutralOrigin: &neutralOrigin, linear: false) {
        case .mosaic(let image): return image
        case .linear: throw Self.linearRefused(path)
        }
    }

    /// What ``read(path:)`` says of a LinearRaw DNG (before decoding it).
    private static func linearRefused(_ path: String) -> RawReadError {
        RawReadError(path: path, kind: .unsupported, detail: "a LinearRaw DNG (3 samples per pixel, no colour "
                     + "filter array), which this step cannot take: it needs a colour-filter-array raw")
    }

    /// Reads a mosaic like ``read(path:)``, or a LinearRaw DNG (three samples per pixel, no colour filter array) into
    /// a `LinearRawImage` from the file's own tags and bytes.
    public func readContent(path: String) throws(RawReadError) -> RawFileContent {
        var check: RawDigestCheck?
        let content = try readContent(path: path, digestCheck: &check)
        try check?.wait()
        return content
    }

    /// ``readContent(path:)`` with the digest check left running, as ``read(path:digestCheck:)``.
    package func readContent(path: String, digestCheck: inout RawDigestCheck?) throws(RawReadError) -> RawFileContent {
        var origin: AsShotNeutralOrigin?
        return try readContent(path: path, digestCheck: &digestCheck, neutralOrigin: &origin)
    }

    /// ``readContent(path:digestCheck:)`` that also sets `neutralOrigin` (as ``read(path:digestCheck:neutralOrigin:)``);
    /// with `linear` false a LinearRaw DNG is refused before it is decoded.
    package func readContent(path: String, digestCheck: inout RawDigestCheck?, neutralOrigin: inout AsShotNeutralOrigin?,
                             linear: Bool = true) throws(RawReadError) -> RawFileContent {
        digestCheck = nil
        neutralOrigin = nil
        let fileSize = try RawFileAccess.readableFileSize(path)
        let head = RawFileAccess.bytes(of: path, count: RAFHeader.length)
        if let raf = RAFHeader(head) { try raf.checkComplete(path: path, fileSize: fileSize) }
        // Only the directories are read here, not the image data (which goes from the file into the frame once).
        let tiff = try TIFFRawFacts.inspect(path: path, head: head)
        try tiff?.checkDecodable(path: path)
        // Before LibRaw sees the file: LibRaw 0.20 zero-fills strips past the end of a cut file without an error.
        try tiff?.checkComplete(path: path, fileSize: fileSize)
        try tiff?.checkValid(path: path)
        // A monochrome DNG's lossy (DCT) data is LibRaw's to decode (below), as a CFA DNG's is.
        if let tiff, tiff.isLinearRawDNG, !(tiff.isMonochromeDNG && tiff.rawDataIsLossy) {
            // One sample per pixel is a monochrome sensor's image: a one-plane mosaic every step takes.
            guard linear || tiff.isMonochromeDNG else { throw Self.linearRefused(path) }
            let content = try LinearDNGReader.read(tiff, path: path)
            if content.calibration?.asShotNeutral != nil { neutralOrigin = .file }
            return content
        }

        guard let handle = LibRawHandle() else {
            throw RawReadError(path: path, kind: .notReadable, detail: "LibRaw could not allocate a decoder")
        }
        let openStatus = handle.open(path: path)
        if openStatus != LIBRAW_SUCCESS.rawValue {
            throw openError(openStatus, handle: handle, tiff: tiff, head: head, path: path)
        }
        let (samples, earlyCheck) = try directSamples(tiff, handle: handle, path: path)
        if samples == nil {
            let unpackStatus = handle.unpack()
            if unpackStatus != LIBRAW_SUCCESS.rawValue {
                throw decodeError(unpackStatus, handle: handle, path: path)
            }
            if handle.callbackReport.dataErrors > 0 {
                throw decodeError(LIBRAW_DATA_ERROR.rawValue, handle: handle, path: path)
            }
        }

        var frame = try RawFrameParts(libRaw: handle, samples: samples, path: path)
        let check = earlyCheck ?? (verifiesRawImageDigest ? tiff.flatMap { startDigestCheck($0, frame: frame, path: path) } : nil)
        do throws(RawReadError) {
            var metadata = LibRawMetadata.metadata(handle)
            var calibration = LibRawMetadata.calibrationParts(handle)
            if let tiff, tiff.isDNG {
                tiff.applyDNGTags(frame: &frame, metadata: &metadata, calibration: &calibration)
            }
            // A camera raw's crop is LibRaw's visible area, which nothing asks to keep to the pixel: it gets the margin a
            // DNG needs, so that it develops as the DNG converted from it does. A DNG's own crop is kept as written.
            if !(tiff?.isDNG ?? false) { frame.keepCropMargin() }
            let image = RawImage(frame: try frame.frame(path: path), metadata: metadata,
                                 calibration: try calibration.calibration(path: path))
            if image.calibration?.asShotNeutral != nil { neutralOrigin = calibration.neutralOrigin }
            digestCheck = check
            return .mosaic(image)
        } catch {
            // Damaged samples are reported first, as a check made before these steps would have.
            try check?.wait()
            throw error
        }
    }

    /// The samples of an uncompressed DNG (16-bit or packed) read from its strips, with the check of its digest
    /// already hashing them as they arrive (when it applies), or of a lossless-JPEG DNG decoded by our decoder; nil
    /// samples when LibRaw's `unpack` must decode the file (LibRaw has only identified it so far).
    private func directSamples(_ tiff: TIFFRawFacts?, handle: LibRawHandle,
                               path: String) throws(RawReadError) -> (PixelStorage?, RawDigestCheck?) {
        guard let tiff, handle.data.pointee.idata.filters != 0 else { return (nil, nil) }
        let width = Int(handle.data.pointee.sizes.raw_width), height = Int(handle.data.pointee.sizes.raw_height)
        if readsUncompressedDNGDirectly, let layout = UncompressedCFASamples(tiff), width == layout.width,
           height == layout.height {
            // The strips go straight from the file into the frame, and another core hashes them as they arrive.
            let storage = PixelStorage(unsafeUninitializedCount: width * height)
            var progress: RowProgress?, check: RawDigestCheck?
            if verifiesRawImageDigest, let stored = storedDigest(tiff, width: width, height: height) {
                progress = RowProgress()
                check = RawDigestCheck(stored: stored.digest, storage: storage, width: width, height: height,
                                       threads: ProcessInfo.processInfo.activeProcessorCount, path: path,
                                       sampleBytes: stored.sampleBytes, progress: progress)
            }
            guard layout.read(path: path, into: storage, progress: progress) else {
                throw RawReadError(path: path, kind: .truncated, detail: "the raw data ends before it is complete "
                                   + "(the file changed while it was read)")
            }
            return (storage, check)
        }
        guard decodesLosslessJPEGDirectly, let layout = LosslessJPEGCFASamples(tiff), width == layout.width,
              height == layout.height else { return (nil, nil) }
        // Lossless JPEG: our decoder, in parallel, from the file's bytes (let go before LibRaw would allocate); a
        // stream that does not fill its tile exactly goes to LibRaw.
        let bytes: [UInt8]
        do { bytes = try TIFFStructure.contents(of: path) } catch {
            if case .unreadable(_, let reason) = error { throw RawReadError(path: path, kind: .notReadable, detail: reason) }
            throw RawReadError(path: path, kind: .notReadable, detail: error.message)
        }
        guard bytes.count == tiff.fileSize else {
            throw RawReadError(path: path, kind: .truncated, detail: "the file changed while it was read")
        }
        switch layout.read(from: bytes, threads: ProcessInfo.processInfo.activeProcessorCount) {
        case .success(let storage): return (storage, nil)
        case .failure(.corrupt(let detail)): throw RawReadError(path: path, kind: .corrupt, detail: detail)
        case .failure(.mismatch): return (nil, nil)
        }
    }

    /// The DNG's NewRawImageDigest when it applies to a frame of `width` x `height` samples (no linearization table,
    /// whose codes LibRaw replaces; integer samples coded losslessly, as the frame holds them, not lossy JPEG — its
    /// digest is of other bytes, and decoders differ — nor floating point; a raw image as large as the frame), with the
    /// bytes per sample it hashes (1 when the raw image is stored in 8 bits or fewer).
    private func storedDigest(_ tiff: TIFFRawFacts, width: Int, height: Int) -> (digest: [UInt8], sampleBytes: Int)? {
        guard tiff.isDNG, !tiff.rawDataIsLossy, !tiff.rawDataIsFloat,
              let stored = tiff.structure.mainDirectory.bytes(NewRawImageDigest.tag), stored.count == 16,
              let raw = tiff.structure.rawDirectory, !raw.contains(TIFFTag.linearizationTable),
              raw.integer(TIFFTag.imageWidth) == width, raw.integer(TIFFTag.imageLength) == height,
              width > 0, height > 0
        else { return nil }
        let bits = raw.integerOrDefault(TIFFTag.bitsPerSample) ?? 1
        return (stored, NewRawImageDigest.sampleBytes(storedBits: bits))
    }

    /// Starts comparing the DNG's NewRawImageDigest with the samples, when the digest applies to them (see
    /// `storedDigest`). Nil when it does not apply.
    private func startDigestCheck(_ tiff: TIFFRawFacts, frame: RawFrameParts, path: String) -> RawDigestCheck? {
        guard frame.storage.count >= frame.width * frame.height,
              let stored = storedDigest(tiff, width: frame.width, height: frame.height) else { return nil }
        return RawDigestCheck(stored: stored.digest, storage: frame.storage, width: frame.width, height: frame.height,
                              threads: ProcessInfo.processInfo.activeProcessorCount, path: path,
                              sampleBytes: stored.sampleBytes)
    }

    /// The error for a failed `libraw_open_file`.
    private func openError(_ status: Int32, handle: LibRawHandle, tiff: TIFFRawFacts?, head: [UInt8],
                           path: String) -> RawReadError {
        if status == LIBRAW_FILE_UNSUPPORTED.rawValue {
            if let tiff, tiff.isDNG {
                let compression = tiff.rawCompression.map { " (compression \($0))" } ?? ""
                return RawReadError(path: path, kind: .unsupported,
                                    detail: "DNG that LibRaw \(Self.libRawVersion) cannot decode\(compression)")
            }
            if let ciff = CIFFHeader(head), !ciff.hasDirectory(path: path) {
                return RawReadError(path: path, kind: .truncated,
                                    detail: "the CRW directory at the end of the file is missing (the file is cut short)")
            }
            return RawReadError(path: path, kind: .notARaw, detail: "not a raw file LibRaw recognises")
        }
        if status == LIBRAW_IO_ERROR.rawValue {
            // LibRaw ran out of file while identifying it: a cut raw header, or a short file of something else.
            guard RawFileAccess.hasRawSignature(head) else {
                return RawReadError(path: path, kind: .notARaw, detail: "not a raw file LibRaw recognises")
            }
            return RawReadError(path: path, kind: .truncated, detail: "file ends inside its header")
        }
        return decodeError(status, handle: handle, path: path)
    }

    /// The error for a LibRaw failure while identifying or decoding.
    private func decodeError(_ status: Int32, handle: LibRawHandle, path: String) -> RawReadError {
        let report = handle.callbackReport
        let message = LibRawHandle.message(for: status)
        if report.dataErrors > 0 && report.firstDataErrorOffset == -1 {
            return RawReadError(path: path, kind: .truncated, detail: "image data ends before it is complete (LibRaw: \(message))")
        }
        switch status {
        case LIBRAW_FILE_UNSUPPORTED.rawValue, LIBRAW_NOT_IMPLEMENTED.rawValue,
             LIBRAW_REQUEST_FOR_NONEXISTENT_IMAGE.rawValue, LIBRAW_TOO_BIG.rawValue:
            return RawReadError(path: path, kind: .unsupported, detail: "LibRaw: \(message)")
        case LIBRAW_DATA_ERROR.rawValue where report.dataErrors > 0 && report.firstDataErrorOffset >= 0:
            return RawReadError(path: path, kind: .corrupt,
                                detail: "LibRaw: \(message) (bad data near byte \(report.firstDataErrorOffset))")
        default:
            return RawReadError(path: path, kind: .corrupt, detail: "LibRaw: \(message)")
        }
    }

    /// The LibRaw version this module was built against, e.g. "0.20".
    static let libRawVersion = "\(LIBRAW_MAJOR_VERSION).\(LIBRAW_MINOR_VERSION)"
}
