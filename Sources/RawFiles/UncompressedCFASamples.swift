#if canImport(Glibc)
import Glibc
#endif
import RawCore
import RawDNG
import RawTIFF

/// The raw samples of an uncompressed CFA DNG — 16-bit (rawburst's `none`, and most plain DNG writers) or packed
/// at 1–15 bits per sample (rawburst's `packed`, Magic Lantern's and CHDK's DNGs) — taken straight from the file's
/// strips instead of LibRaw's `unpack`.
///
/// LibRaw copies such a file pixel by pixel through its DNG loader (`adobe_copy_pixel`, about 50 ms on one core
/// for 12 MP here; packed samples one `getbits` call each); the strips are the samples, so reading them into the
/// frame (16-bit) or one unpacking pass over each strip (`PackedSamples.unpack`, rows starting on byte boundaries)
/// gives the same buffer. The reader parses the file's directories without reading its image data, so the samples are
/// read from the file once and the mosaic is never held twice (issue #18). Only the plainest layout
/// qualifies; anything else — compression, more than 16 bits, tiles, a linearization table (LibRaw maps each value
/// through it), masked areas (LibRaw measures black from them during `unpack`), several samples per pixel,
/// big-endian 16-bit samples — is left to LibRaw.
struct UncompressedCFASamples {
    let width: Int
    let height: Int
    /// Bits per sample, 1...16 (16: little-endian 16-bit samples; fewer: packed, most significant bit first).
    let bits: Int
    /// Strips in order: file offset and rows.
    let strips: [(offset: Int, rows: Int)]

    /// The layout of `tiff`'s raw image when it qualifies (see the type's documentation), else nil. With
    /// `storedCodes`, a raw image with a linearization table qualifies too: its samples are then the stored codes.
    init?(_ tiff: TIFFRawFacts, storedCodes: Bool = false) {
        guard tiff.isDNG, let raw = tiff.structure.rawDirectory,
              raw.integerOrDefault(TIFFTag.compression) == 1,
              raw.integer(TIFFTag.photometricInterpretation) == 32803,
              let bitsList = raw.integersOrDefault(TIFFTag.bitsPerSample), bitsList.count == 1, let bits = bitsList.first,
              PackedSamples.depths.contains(bits),
              bits < 16 || tiff.structure.byteOrder == .littleEndian,
              raw.hasPlainSampleLayout,
              storedCodes || !raw.contains(TIFFTag.linearizationTable), !raw.contains(TIFFTag.maskedAreas),
              !raw.contains(TIFFTag.tileWidth),
              let width = raw.integer(TIFFTag.imageWidth), let height = raw.integer(TIFFTag.imageLength),
              width > 0, height > 0, width <= 1 << 20, height <= 1 << 20,
              // The samples must fit in the file: strips that overlap cannot make a small file a large frame.
              PackedSamples.rowBytes(width: width, bits: bits) * height <= tiff.fileSize,
              let offsets = raw.integers(TIFFTag.stripOffsets), let counts = raw.integers(TIFFTag.stripByteCounts)
        else { return nil }
        let rowsPerStrip = raw.rowsPerStrip(height: height)
        let stripCount = (height + rowsPerStrip - 1) / rowsPerStrip
        guard offsets.count == stripCount, counts.count == stripCount else { return nil }
        let rowBytes = PackedSamples.rowBytes(width: width, bits: bits)
        var strips: [(offset: Int, rows: Int)] = []
        strips.reserveCapacity(stripCount)
        for index in 0..<stripCount {
            let rows = min(rowsPerStrip, height - index * rowsPerStrip)
            let offset = offsets[index]
            // Each strip must hold its rows and lie inside the file; otherwise LibRaw decides (and reports).
            guard offset >= 0, counts[index] >= rows * rowBytes, offset <= tiff.fileSize - rows * rowBytes else {
                return nil
            }
            strips.append((offset, rows))
        }
        self.width = width
        self.height = height
        self.bits = bits
        self.strips = strips
    }

    /// The samples, row after row, read from the file at `path` strip by strip into `storage` (`width * height`
    /// samples, written here): 16-bit strips straight into it (little-endian in the file as in memory: rawburst runs
    /// on little-endian CPUs), packed ones through a buffer of one strip and unpacked; the file's bytes are not
    /// otherwise held, so the mosaic is not held twice. `progress` hears of each strip's rows once they are written
    /// (a digest check hashes them meanwhile). False when the file no longer holds them (it shrank since it was
    /// checked); `progress` is then abandoned, and samples left unwritten must never be read.
    func read(path: String, into storage: PixelStorage, progress: RowProgress? = nil) -> Bool {
        precondition(storage.count == width * height, "UncompressedCFASamples: a storage of another size")
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            progress?.abandon()
            return false
        }
        defer { close(fd) }
        let (width, bits, destination) = (width, bits, storage.baseAddress)
        Self.preferHugePages(destination, bytes: storage.count * 2)
        let rowBytes = PackedSamples.rowBytes(width: width, bits: bits)
        let largestStrip = bits == 16 ? 0 : (strips.map(\.rows).max() ?? 0) * rowBytes
        let packed = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, largestStrip))
        defer { packed.deallocate() }
        var row = 0
        for strip in strips {
            let count = strip.rows * rowBytes
            if bits == 16 {
                guard Self.readFully(fd, into: UnsafeMutableRawPointer(destination + row * width), count: count,
                                     at: strip.offset) else {
                    progress?.abandon()
                    return false
                }
            } else {
                guard Self.readFully(fd, into: UnsafeMutableRawPointer(packed), count: count, at: strip.offset) else {
                    progress?.abandon()
                    return false
                }
                for r in 0..<strip.rows {
                    PackedSamples.unpack(packed + r * rowBytes, count: width, bits: bits, into: destination + (row + r) * width)
                }
            }
            row += strip.rows
            progress?.publish(rows: row)
        }
        return true
    }

    /// Asks the kernel to back the 2 MiB-aligned part of the `bytes` at `start` with huge pages (Linux's transparent
    /// huge pages, where the system leaves them to `madvise`): the mosaic is read into fresh memory, and faulting it
    /// in 2 MiB at a time instead of 4 KiB (6,000 faults for 12 MP) took 12-17 ms down to 4-8 ms here. Nothing
    /// changes where huge pages are off or unavailable.
    private static func preferHugePages(_ start: UnsafeMutablePointer<UInt16>, bytes: Int) {
        #if os(Linux)
        let huge = 2 << 20
        let address = Int(bitPattern: start)
        let first = (address + huge - 1) / huge * huge, end = (address + bytes) / huge * huge
        guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(aligned, end - first, MADV_HUGEPAGE)
        #endif
    }

    /// `pread` until `count` bytes are in; false at the end of the file or on an error.
    private static func readFully(_ fd: Int32, into target: UnsafeMutableRawPointer, count: Int, at offset: Int) -> Bool {
        var done = 0
        while done < count {
            let n = pread(fd, target + done, count - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }
}
