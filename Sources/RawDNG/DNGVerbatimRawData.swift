import RawCore
import RawTIFF

/// A source DNG's raw image data exactly as stored — its tiles or strips byte for byte, and the tags that say how to
/// decode them and what the decoded values mean — for a DNG written around it (``DNGWriter/write(_:verbatim:to:)``)
/// when the data cannot be re-encoded exactly: lossy JPEG (a Blackmagic camera's DCT-coded tiles), floating-point
/// samples, or codes through a LinearizationTable that rawburst does not decode itself. Every reader then decodes
/// the written DNG's raw data exactly as it decodes the source's.
public struct DNGVerbatimRawData: Sendable {
    /// Why the data is copied instead of re-encoded.
    public enum Reason: String, Sendable, Hashable, CaseIterable, Codable {
        /// Lossy JPEG: DCT-coded streams (Compression 7 with a JPEG process other than lossless, or Compression
        /// 34892). Decoders differ in their inverse DCT by a code here and there, so no re-encoding of one decoder's
        /// values is the source's data, and lossless coding of decoded values makes the file several times larger.
        case lossyJPEG = "lossy-jpeg"
        /// Floating-point samples (SampleFormat 3): rawburst's frames hold 16-bit integers.
        case floatingPoint = "floating-point"
        /// Codes mapped by a LinearizationTable in a layout rawburst does not decode itself: only LibRaw's linear
        /// values are known, not the codes the file stores.
        case linearizationTable = "linearization-table"
    }

    /// Why the data is copied.
    public let reason: Reason
    /// The tiles or strips, in order, each as stored — but for a big-endian source's uncompressed 16-, 24- or 32-bit
    /// samples, which are given little-endian, as the DNG written stores them (the same samples).
    public let blocks: [[UInt8]]
    /// Tiles (TileOffsets) or strips (StripOffsets).
    public let isTiled: Bool
    /// The source's NewRawImageDigest, written unchanged (it is about the same data), or nil when it has none.
    public let rawImageDigest: [UInt8]?
    /// True when the source keeps its raw image in IFD0 (a CinemaDNG frame: no thumbnail, no preview); the DNG written
    /// then does too, with the source's TimeCodes, FrameRate, TStop and ReelName.
    public let inMainDirectory: Bool
    /// The source raw directory's tags that describe its data and its levels, as stored (``dataTagNumbers``).
    let dataTags: [TagAssignment]
    /// The source IFD0's CinemaDNG tags (``sequenceTagNumbers``), when the raw image is in IFD0.
    let sequenceTags: [TagAssignment]
    /// The raw image's width (ImageWidth).
    public let width: Int
    /// The raw image's height (ImageLength).
    public let height: Int

    /// The raw-directory tags copied with the data: its coding (BitsPerSample, Compression, SampleFormat, Predictor,
    /// JPEGTables, FillOrder, the tile or strip geometry, SamplesPerPixel, PlanarConfiguration) and what turns the
    /// decoded values into linear ones (LinearizationTable, the black and white levels with their deltas and
    /// MaskedAreas, BayerGreenSplit, NoiseProfile, the opcode lists, which work on the raw image's coordinates).
    public static let dataTagNumbers: [UInt16] = [
        TIFFTag.bitsPerSample, TIFFTag.compression, TIFFTag.sampleFormat, TIFFTag.predictor, TIFFTag.jpegTables,
        TIFFTag.fillOrder, TIFFTag.tileWidth, TIFFTag.tileLength, TIFFTag.rowsPerStrip, TIFFTag.samplesPerPixel,
        TIFFTag.planarConfiguration, TIFFTag.linearizationTable, TIFFTag.blackLevelRepeatDim, TIFFTag.blackLevel,
        TIFFTag.blackLevelDeltaH, TIFFTag.blackLevelDeltaV, TIFFTag.whiteLevel, TIFFTag.maskedAreas,
        TIFFTag.bayerGreenSplit, TIFFTag.noiseProfile, TIFFTag.opcodeList1, TIFFTag.opcodeList2, TIFFTag.opcodeList3,
    ]

    /// The CinemaDNG tags of IFD0 copied when the raw image is in IFD0.
    public static let sequenceTagNumbers: [UInt16] = [TIFFTag.timeCodes, TIFFTag.frameRate, TIFFTag.tStop, TIFFTag.reelName]

    /// The data of `raw`, a source DNG's raw directory, read as `blocks` (its tiles or strips in order); `main` is the
    /// source's IFD0 (its NewRawImageDigest and CinemaDNG tags). Throws when the blocks do not match the directory, or
    /// a tag cannot be carried (an ASCII or unreadable value where a number belongs).
    package init(raw: TIFFDirectory, main: TIFFDirectory, blocks: [[UInt8]], reason: Reason) throws(InvalidValueError) {
        guard let width = raw.integer(TIFFTag.imageWidth), let height = raw.integer(TIFFTag.imageLength),
              width > 0, height > 0 else {
            throw InvalidValueError("raw data", "the raw image directory has no size")
        }
        let isTiled = raw.contains(TIFFTag.tileOffsets)
        let listed = raw.integers(isTiled ? TIFFTag.tileOffsets : TIFFTag.stripOffsets)?.count ?? -1
        try require(listed == blocks.count, "raw data", "\(blocks.count) blocks read, the directory lists \(listed)")
        self.width = width
        self.height = height
        self.reason = reason
        self.blocks = blocks
        self.isTiled = isTiled
        rawImageDigest = main.bytes(TIFFTag.newRawImageDigest).flatMap { $0.count == 16 ? $0 : nil }
        inMainDirectory = raw.path == main.path
        dataTags = try Self.assignments(Self.dataTagNumbers, of: raw)
        sequenceTags = inMainDirectory ? try Self.assignments(Self.sequenceTagNumbers, of: main) : []
    }

    /// The values of the `tags` `directory` has, as the writer sets them.
    private static func assignments(_ tags: [UInt16], of directory: TIFFDirectory) throws(InvalidValueError) -> [TagAssignment] {
        var out: [TagAssignment] = []
        for tag in tags {
            guard let entry = directory[tag] else { continue }
            let name = TIFFTag.name(for: tag)
            switch entry.type {
            case _ where tag == TIFFTag.sampleFormat:
                // libtiff takes SampleFormat as one 16-bit value, whatever its count (one per sample).
                guard let format = entry.integers?.first, (0...0xFFFF).contains(format) else { throw unreadable(name) }
                out.append(TagAssignment(tag, .singleShort(UInt16(format))))
            case .ascii:
                out.append(.text(tag, try value(entry.string, name)))
            case .byte, .undefined, .sbyte:
                out.append(.bytes(tag, try value(entry.isComplete ? entry.bytes : nil, name)))
            default:
                out.append(.numbers(tag, try value(entry.numbers, name)))
            }
        }
        return out
    }

    private static func value<V>(_ value: V?, _ name: String) throws(InvalidValueError) -> V {
        guard let value else { throw unreadable(name) }
        return value
    }

    private static func unreadable(_ name: String) -> InvalidValueError {
        InvalidValueError("raw data", "the source's \(name) cannot be read to be carried over")
    }
}
