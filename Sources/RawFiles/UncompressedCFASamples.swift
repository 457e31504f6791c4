import RawCore
import RawDNG
import RawTIFF

/// The raw samples of an uncompressed CFA DNG — 16-bit (rawburst's `none`, and most plain DNG writers) or packed
/// at 1–15 bits per sample (rawburst's `packed`, Magic Lantern's and CHDK's DNGs) — taken straight from the file's
/// bytes instead of LibRaw's `unpack`.
///
/// LibRaw copies such a file pixel by pixel through its DNG loader (`adobe_copy_pixel`, about 50 ms on one core
/// for 12 MP here; packed samples one `getbits` call each) and the reader then copies LibRaw's buffer again; the
/// samples are already in the file bytes the reader holds for its TIFF checks, so one copy (16-bit) or one unpacking
/// pass (`PackedSamples.unpack`, rows starting on byte boundaries) gives the same buffer. Only the plainest layout
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

    /// The layout of `tiff`'s raw image when it qualifies (see the type's documentation), else nil.
    init?(_ tiff: TIFFRawFacts) {
        guard tiff.isDNG, let raw = tiff.structure.rawDirectory,
              raw.integer(TIFFTag.compression) == 1,
              raw.integer(TIFFTag.photometricInterpretation) == 32803,
              let bitsList = raw.integers(TIFFTag.bitsPerSample), bitsList.count == 1, let bits = bitsList.first,
              PackedSamples.depths.contains(bits),
              bits < 16 || tiff.structure.byteOrder == .littleEndian,
              (raw.integer(TIFFTag.samplesPerPixel) ?? 1) == 1,
              (raw.integer(TIFFTag.planarConfiguration) ?? 1) == 1,
              (raw.integer(TIFFTag.sampleFormat) ?? 1) == 1,
              !raw.contains(TIFFTag.linearizationTable), !raw.contains(Self.maskedAreas),
              !raw.contains(TIFFTag.tileWidth),
              let width = raw.integer(TIFFTag.imageWidth), let height = raw.integer(TIFFTag.imageLength),
              width > 0, height > 0, width <= 1 << 20, height <= 1 << 20,
              // The samples must fit in the file: strips that overlap cannot make a small file a large frame.
              PackedSamples.rowBytes(width: width, bits: bits) * height <= tiff.bytes.count,
              let offsets = raw.integers(TIFFTag.stripOffsets), let counts = raw.integers(TIFFTag.stripByteCounts)
        else { return nil }
        let rowsPerStrip = min(max(1, raw.integer(TIFFTag.rowsPerStrip) ?? height), height)
        let stripCount = (height + rowsPerStrip - 1) / rowsPerStrip
        guard offsets.count == stripCount, counts.count == stripCount else { return nil }
        let rowBytes = PackedSamples.rowBytes(width: width, bits: bits)
        var strips: [(offset: Int, rows: Int)] = []
        strips.reserveCapacity(stripCount)
        for index in 0..<stripCount {
            let rows = min(rowsPerStrip, height - index * rowsPerStrip)
            let offset = offsets[index]
            // Each strip must hold its rows and lie inside the file; otherwise LibRaw decides (and reports).
            guard offset >= 0, counts[index] >= rows * rowBytes, offset <= tiff.bytes.count - rows * rowBytes else {
                return nil
            }
            strips.append((offset, rows))
        }
        self.width = width
        self.height = height
        self.bits = bits
        self.strips = strips
    }

    /// DNG MaskedAreas.
    static let maskedAreas: UInt16 = 50830

    /// The samples, row after row (16-bit ones are little-endian in the file as in memory: rawburst runs on
    /// little-endian CPUs).
    func read(from bytes: [UInt8]) -> PixelStorage {
        let (width, bits) = (width, bits)
        let rowBytes = PackedSamples.rowBytes(width: width, bits: bits)
        return PixelStorage(unsafeUninitializedCount: width * height) { destination in
            bytes.withUnsafeBytes { file in
                let base = file.baseAddress!.assumingMemoryBound(to: UInt8.self)
                var row = 0
                for strip in strips {
                    if bits == 16 {
                        UnsafeMutableRawPointer(destination + row * width)
                            .copyMemory(from: base + strip.offset, byteCount: strip.rows * rowBytes)
                    } else {
                        for r in 0..<strip.rows {
                            PackedSamples.unpack(base + strip.offset + r * rowBytes, count: width, bits: bits,
                                                 into: destination + (row + r) * width)
                        }
                    }
                    row += strip.rows
                }
            }
        }
    }
}
