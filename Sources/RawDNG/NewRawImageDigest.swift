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
/// in parallel. A raw image stored with 8 bits per sample or fewer (8-bit lossless JPEG) is hashed one byte per
/// sample, as the SDK holds such an image in bytes (`sampleBytes` 1).
public enum NewRawImageDigest {
    /// The tag number (IFD0, BYTE[16]).
    public static let tag: UInt16 = 51111
    static let cell = 256

    /// The digest of `frame`'s samples, stored `sampleBytes` (1 or 2) bytes each.
    public static func digest(of frame: RawFrame, threads: Int, sampleBytes: Int = 2) -> [UInt8] {
        digest(samples: frame.storage.baseAddress, width: frame.width, height: frame.height, rowStride: frame.rowStride,
               threads: threads, sampleBytes: sampleBytes)
    }

    /// The bytes per sample the SDK hashes for a raw image stored with `bitsPerSample` bits: 1 up to 8 bits, else 2.
    public static func sampleBytes(storedBits bitsPerSample: Int) -> Int {
        bitsPerSample <= 8 ? 1 : 2
    }

    /// The digest of `height` rows of `width` samples, `rowStride` samples apart, stored `sampleBytes` (1 or 2) bytes
    /// each.
    public static func digest(samples: UnsafePointer<UInt16>, width: Int, height: Int, rowStride: Int,
                              threads: Int, sampleBytes: Int = 2) -> [UInt8] {
        let cells = Cells(width: width, height: height, sampleBytes: sampleBytes)
        let digests = UnsafeMutablePointer<UInt8>.allocate(capacity: cells.count * 16)
        defer { digests.deallocate() }
        digests.initialize(repeating: 0, count: cells.count * 16)
        ParallelRows.run(rows: cells.count, threads: threads, minimumRows: 1) { range in
            for index in range { cells.hash(index, samples: samples, rowStride: rowStride, into: digests) }
        }
        return cells.combine(digests)
    }

    /// The digest of ``digest(samples:width:height:rowStride:threads:)``, computed while the rows are being
    /// written: before each band of cells it calls `rowsWritten(n)`, which returns once the first `n` rows are there
    /// (true), or false when they never will be (the digest is then abandoned: nil). A reader's strips are hashed
    /// as they arrive, by another core, while they are still in its cache.
    package static func digest(samples: UnsafePointer<UInt16>, width: Int, height: Int, rowStride: Int, threads: Int,
                               sampleBytes: Int = 2, rowsWritten: (Int) -> Bool) -> [UInt8]? {
        let cells = Cells(width: width, height: height, sampleBytes: sampleBytes)
        let digests = UnsafeMutablePointer<UInt8>.allocate(capacity: cells.count * 16)
        defer { digests.deallocate() }
        digests.initialize(repeating: 0, count: cells.count * 16)
        for band in 0..<cells.down {
            guard rowsWritten(min(height, (band + 1) * cells.cellHeight)) else { return nil }
            ParallelRows.run(rows: cells.across, threads: threads, minimumRows: 1) { range in
                for column in range {
                    cells.hash(band * cells.across + column, samples: samples, rowStride: rowStride, into: digests)
                }
            }
        }
        return cells.combine(digests)
    }

    /// The grid of cells the digest hashes one by one.
    private struct Cells {
        let width: Int
        let height: Int
        let cellWidth: Int
        let cellHeight: Int
        /// Cells across and down.
        let across: Int
        let down: Int
        /// Bytes hashed per sample: 2 (little-endian), or 1 (the low byte) for an image stored in bytes.
        let sampleBytes: Int
        var count: Int { across * down }

        init(width: Int, height: Int, sampleBytes: Int) {
            precondition(width > 0 && height > 0, "NewRawImageDigest: an empty image")
            self.sampleBytes = sampleBytes == 1 ? 1 : 2
            self.width = width
            self.height = height
            cellHeight = min(cell, height)
            cellWidth = min(cell, width)
            across = (width + cellWidth - 1) / cellWidth
            down = (height + cellHeight - 1) / cellHeight
        }

        /// Hashes cell `index` (row-major) into its 16 bytes of `digests`. Samples are stored in native
        /// (little-endian) order, which is the digest's order.
        func hash(_ index: Int, samples: UnsafePointer<UInt16>, rowStride: Int, into digests: UnsafeMutablePointer<UInt8>) {
            let x0 = (index % across) * cellWidth, y0 = (index / across) * cellHeight
            let w = min(cellWidth, width - x0), h = min(cellHeight, height - y0)
            let hasher = MD5Hasher()
            if sampleBytes == 1 {
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: w) { bytes in
                    for r in 0..<h {
                        let row = samples + (y0 + r) * rowStride + x0
                        for c in 0..<w { bytes[c] = UInt8(truncatingIfNeeded: row[c]) }
                        hasher.add(UnsafeRawBufferPointer(bytes))
                    }
                }
            } else {
                for r in 0..<h {
                    let row = samples + (y0 + r) * rowStride + x0
                    hasher.add(UnsafeRawBufferPointer(start: row, count: w * 2))
                }
            }
            (digests + index * 16).update(from: hasher.finish(), count: 16)
        }

        /// The MD5 of the cells' digests in row-major order.
        func combine(_ digests: UnsafeMutablePointer<UInt8>) -> [UInt8] {
            let whole = MD5Hasher()
            whole.add(UnsafeRawBufferPointer(start: digests, count: count * 16))
            return whole.finish()
        }
    }
}
