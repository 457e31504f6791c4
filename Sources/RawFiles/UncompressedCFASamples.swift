import RawCore
import RawDNG
import RawTIFF

/// The raw samples of an uncompressed 16-bit CFA DNG (rawburst's own DNGs, and most plain DNG writers),
/// taken straight from the file's bytes instead of LibRaw's `unpack`.
///
/// LibRaw copies such a file pixel by pixel through its DNG loader (`adobe_copy_pixel`, about 50 ms on one core
/// for 12 MP here) and the reader then copies LibRaw's buffer again; the samples are already in the file bytes
/// the reader holds for its TIFF checks, so one copy gives the same buffer. Only the plainest layout qualifies;
/// anything else — compression, packed bit depths, tiles, a linearization table (LibRaw maps each value through
/// it), masked areas (LibRaw measures black from them during `unpack`), several samples per pixel, big-endian
/// samples — is left to LibRaw.
struct UncompressedCFASamples {
    let width: Int
    let height: Int
    /// Strips in order: file offset and rows.
    let strips: [(offset: Int, rows: Int)]

    /// The layout of `tiff`'s raw image when it qualifies (see the type's documentation), else nil.
    init?(_ tiff: TIFFRawFacts) {
        guard tiff.isDNG, tiff.structure.byteOrder == .littleEndian, let raw = tiff.structure.rawDirectory,
              raw.integer(TIFFTag.compression) == 1,
              raw.integer(TIFFTag.photometricInterpretation) == 32803,
              raw.integers(TIFFTag.bitsPerSample) == [16],
              (raw.integer(TIFFTag.samplesPerPixel) ?? 1) == 1,
              (raw.integer(TIFFTag.planarConfiguration) ?? 1) == 1,
              (raw.integer(TIFFTag.sampleFormat) ?? 1) == 1,
              !raw.contains(TIFFTag.linearizationTable), !raw.contains(Self.maskedAreas),
              !raw.contains(TIFFTag.tileWidth),
              let width = raw.integer(TIFFTag.imageWidth), let height = raw.integer(TIFFTag.imageLength),
              width > 0, height > 0, width <= 1 << 20, height <= 1 << 20,
              // The samples must fit in the file: strips that overlap cannot make a small file a large frame.
              width * height * 2 <= tiff.bytes.count,
              let offsets = raw.integers(TIFFTag.stripOffsets), let counts = raw.integers(TIFFTag.stripByteCounts)
        else { return nil }
        let rowsPerStrip = min(max(1, raw.integer(TIFFTag.rowsPerStrip) ?? height), height)
        let stripCount = (height + rowsPerStrip - 1) / rowsPerStrip
        guard offsets.count == stripCount, counts.count == stripCount else { return nil }
        let rowBytes = width * 2
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
        self.strips = strips
    }

    /// DNG MaskedAreas.
    static let maskedAreas: UInt16 = 50830

    /// The samples, row after row (little-endian in the file as in memory: rawburst runs on little-endian CPUs).
    func read(from bytes: [UInt8]) -> PixelStorage {
        let rowBytes = width * 2
        return PixelStorage(unsafeUninitializedCount: width * height) { destination in
            bytes.withUnsafeBytes { file in
                var row = 0
                for strip in strips {
                    UnsafeMutableRawPointer(destination + row * width)
                        .copyMemory(from: file.baseAddress! + strip.offset, byteCount: strip.rows * rowBytes)
                    row += strip.rows
                }
            }
        }
    }
}
