#if canImport(Glibc)
import Glibc
#endif
import RawCore
import RawDNG
import RawTIFF

/// What a converter writes as the raw data of a DNG made from a source file (``RawFileReader/sourceData(path:)``).
public enum DNGSourceData: Sendable {
    /// The frame's samples, encoded as the writer's options say: they are the data as the source stores it (a camera
    /// raw, or a DNG with integer samples coded losslessly and no LinearizationTable).
    case frame
    /// A DNG's stored codes with its LinearizationTable (``RawFileReader/storedCodes(path:)``).
    case storedCodes(DNGStoredCodes)
    /// A DNG's tiles or strips as stored: its raw data cannot be re-encoded exactly (`DNGVerbatimRawData/Reason`).
    case verbatim(DNGVerbatimRawData)
}

extension RawFileReader {
    /// How the raw data of the file at `path` goes into a DNG converted from it: the frame's samples, a DNG's stored codes
    /// and LinearizationTable, or — when a DNG's data cannot be re-encoded exactly (lossy JPEG, floating-point samples,
    /// codes through a LinearizationTable in a layout rawburst does not decode itself) — its tiles or strips copied
    /// verbatim. Call it after the file has been read (``read(path:)``): the structure checks are not repeated.
    public func sourceData(path: String) throws(RawReadError) -> DNGSourceData {
        let head = RawFileAccess.bytes(of: path, count: RAFHeader.length)
        guard let tiff = try TIFFRawFacts.inspect(path: path, head: head), tiff.isDNG, !tiff.isLinearRawDNG || tiff.isMonochromeDNG,
              let raw = tiff.structure.rawDirectory else { return .frame }
        var reason: DNGVerbatimRawData.Reason?
        if tiff.rawDataIsLossy {
            reason = .lossyJPEG
        } else if tiff.rawDataIsFloat {
            reason = .floatingPoint
        } else if raw.contains(TIFFTag.linearizationTable) {
            if let codes = try storedCodes(path: path) { return .storedCodes(codes) }
            reason = .linearizationTable
        }
        guard let reason else { return .frame }
        try tiff.checkComplete(path: path, fileSize: try RawFileAccess.readableFileSize(path))
        var blocks = try Self.blocks(of: raw, path: path, fileSize: tiff.fileSize)
        if tiff.structure.byteOrder == .bigEndian { try Self.makeLittleEndian(&blocks, raw: raw, path: path) }
        do {
            return .verbatim(try DNGVerbatimRawData(raw: raw, main: tiff.structure.mainDirectory, blocks: blocks, reason: reason))
        } catch {
            throw RawReadError(path: path, kind: .invalidValue, detail: error.description)
        }
    }

    /// Turns the blocks of a big-endian file into what a little-endian file (the DNG written) stores: uncompressed 16-,
    /// 24- or 32-bit samples have their bytes swapped; JPEG streams (big-endian whatever the file) and bit streams of
    /// other depths are the same in either. Throws `.unsupported` for data whose bytes depend on the file's byte order
    /// inside a compression (Deflate).
    private static func makeLittleEndian(_ blocks: inout [[UInt8]], raw: TIFFDirectory, path: String) throws(RawReadError) {
        let compression = raw.integerOrDefault(TIFFTag.compression) ?? 1
        guard compression == 1 else {
            if compression == 7 || compression == 34892 { return }
            throw RawReadError(path: path, kind: .unsupported, detail: "a big-endian DNG whose raw data (compression "
                               + "\(compression)) cannot be copied into a little-endian file as it is")
        }
        let bits = raw.integerOrDefault(TIFFTag.bitsPerSample) ?? 1
        guard bits > 8, bits % 8 == 0 else { return }
        let width = bits / 8
        for b in blocks.indices {
            blocks[b].withUnsafeMutableBufferPointer { bytes in
                var i = 0
                while i + width <= bytes.count {
                    var lo = i, hi = i + width - 1
                    while lo < hi { bytes.swapAt(lo, hi); lo += 1; hi -= 1 }
                    i += width
                }
            }
        }
    }

    /// The tiles (or strips) of `raw` read from the file, each as stored.
    private static func blocks(of raw: TIFFDirectory, path: String, fileSize: Int) throws(RawReadError) -> [[UInt8]] {
        let tiled = raw.contains(TIFFTag.tileOffsets)
        guard let offsets = raw.integers(tiled ? TIFFTag.tileOffsets : TIFFTag.stripOffsets),
              let counts = raw.integers(tiled ? TIFFTag.tileByteCounts : TIFFTag.stripByteCounts),
              offsets.count == counts.count,
              zip(offsets, counts).allSatisfy({ $0 >= 0 && $1 >= 0 && $1 <= fileSize && $0 <= fileSize - $1 })
        else {
            throw RawReadError(path: path, kind: .corrupt, detail: "the raw image's tiles or strips do not lie in the file")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw RawReadError(path: path, kind: .notReadable, detail: RawFileAccess.reason(errno)) }
        defer { close(fd) }
        var blocks: [[UInt8]] = []
        blocks.reserveCapacity(offsets.count)
        for (offset, count) in zip(offsets, counts) {
            var failed = false
            let block = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
                while filled < count {
                    let n = pread(fd, buffer.baseAddress! + filled, count - filled, off_t(offset + filled))
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { failed = true; break }
                    filled += n
                }
            }
            if failed {
                throw RawReadError(path: path, kind: .truncated, detail: "the raw data ends before it is complete "
                                   + "(the file changed while it was read)")
            }
            blocks.append(block)
        }
        return blocks
    }
}
