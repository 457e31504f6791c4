import RawCore
import RawDevelop
import RawImageIO

/// DNG's `NewRawImageDigest` (tag 51111): an MD5 of the raw image's samples that lets a reader tell decoded
/// data from damaged data (Adobe's DNG SDK checks it on every read; without it, corrupt lossless-JPEG data
/// goes unnoticed).
///
/// The image (the whole raw buffer, masked border included) is cut into cells of min(256, height) rows by
/// min(256, width) columns, from the top left, the last ones clipped to the image. Each cell's 16-bit samples,
/// row after row, little-endian, get an MD5; the digest is the MD5 of those cell digests in row-major order.
/// This is what the DNG SDK computes (a test compares the two on every layout rawburst writes). Cells are hashed
/// in parallel.
public enum NewRawImageDigest {
    /// The tag number (IFD0, BYTE[16]).
    public static let tag: UInt16 = 51111
    static let cell = 256

    /// The digest of `frame`'s samples.
    public static func digest(of frame: RawFrame, threads: Int) -> [UInt8] {
        digest(samples: frame.storage.baseAddress, width: frame.width, height: frame.height, rowStride: frame.rowStride,
               threads: threads)
    }

    /// The digest of `height` rows of `width` samples, `rowStride` samples apart.
    public static func digest(samples: UnsafePointer<UInt16>, width: Int, height: Int, rowStride: Int,
                              threads: Int) -> [UInt8] {
        precondition(width > 0 && height > 0, "NewRawImageDigest: an empty image")
        let cellHeight = min(cell, height), cellWidth = min(cell, width)
        let across = (width + cellWidth - 1) / cellWidth
        let down = (height + cellHeight - 1) / cellHeight
        let count = across * down
        let digests = UnsafeMutablePointer<UInt8>.allocate(capacity: count * 16)
        defer { digests.deallocate() }
        digests.initialize(repeating: 0, count: count * 16)
        // Samples are stored in native (little-endian) order, which is the digest's order.
        ParallelRows.run(rows: count, threads: threads, minimumRows: 1) { cells in
            for index in cells {
                let x0 = (index % across) * cellWidth, y0 = (index / across) * cellHeight
                let w = min(cellWidth, width - x0), h = min(cellHeight, height - y0)
                let hasher = MD5Hasher()
                for r in 0..<h {
                    let row = samples + (y0 + r) * rowStride + x0
                    hasher.add(UnsafeRawBufferPointer(start: row, count: w * 2))
                }
                (digests + index * 16).update(from: hasher.finish(), count: 16)
            }
        }
        let whole = MD5Hasher()
        whole.add(UnsafeRawBufferPointer(start: digests, count: count * 16))
        return whole.finish()
    }
}
