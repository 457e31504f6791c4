import RawCore
import RawDevelop
import RawDigest

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

    /// The digest of a linear raw's samples: cells of 256 x 256 pixels, each hashed plane by plane (all red samples
    /// of the cell row by row, then green, then blue), as the DNG SDK hashes a three-plane image.
    public static func digest(of frame: LinearRawFrame, threads: Int) -> [UInt8] {
        digest(samples: frame.storage.baseAddress, width: frame.width, height: frame.height,
               rowStride: frame.width * LinearRawFrame.channels, threads: threads, samplesPerPixel: LinearRawFrame.channels)
    }

    /// The bytes per sample the SDK hashes for a raw image stored with `bitsPerSample` bits: 1 up to 8 bits, else 2.
    public static func sampleBytes(storedBits bitsPerSample: Int) -> Int {
        bitsPerSample <= 8 ? 1 : 2
    }

    /// The digest of `height` rows of `width` pixels of `samplesPerPixel` interleaved samples, rows `rowStride`
    /// samples apart, stored `sampleBytes` (1 or 2) bytes each (several samples per pixel: each cell hashed plane by
    /// plane).
    public static func digest(samples: UnsafePointer<UInt16>, width: Int, height: Int, rowStride: Int,
                              threads: Int, sampleBytes: Int = 2, samplesPerPixel: Int = 1) -> [UInt8] {
        let cells = Cells(width: width, height: height, sampleBytes: sampleBytes, samplesPerPixel: samplesPerPixel)
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
        let cells = Cells(width: width, height: height, sampleBytes: sampleBytes, samplesPerPixel: 1)
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
        /// Interleaved samples per pixel.
        let samplesPerPixel: Int
        var count: Int { across * down }

        init(width: Int, height: Int, sampleBytes: Int, samplesPerPixel: Int) {
            precondition(width > 0 && height > 0, "NewRawImageDigest: an empty image")
            self.sampleBytes = sampleBytes == 1 ? 1 : 2
            self.samplesPerPixel = max(1, samplesPerPixel)
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
            let n = samplesPerPixel
            guard n > 1 || sampleBytes == 1 else {
                for r in 0..<h { hasher.add(UnsafeRawBufferPointer(start: samples + (y0 + r) * rowStride + x0, count: w * 2)) }
                (digests + index * 16).update(from: hasher.finish(), count: 16)
                return
            }
            // Bytes, or interleaved pixels: each plane's samples of the cell row by row (the first sample of every
            // pixel, then the second, ...), gathered into a row of `sampleBytes`-byte values.
            withUnsafeTemporaryAllocation(byteCount: w * 2, alignment: 2) { buffer in
                let start = buffer.baseAddress!
                for p in 0..<n {
                    for r in 0..<h {
                        let row = samples + (y0 + r) * rowStride + x0 * n + p
                        if sampleBytes == 1 {
                            for x in 0..<w { start.storeBytes(of: UInt8(truncatingIfNeeded: row[x * n]), toByteOffset: x, as: UInt8.self) }
                            hasher.add(UnsafeRawBufferPointer(start: start, count: w))
                        } else {
                            for x in 0..<w { start.storeBytes(of: row[x * n], toByteOffset: 2 * x, as: UInt16.self) }
                            hasher.add(UnsafeRawBufferPointer(start: start, count: w * 2))
                        }
                    }
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
