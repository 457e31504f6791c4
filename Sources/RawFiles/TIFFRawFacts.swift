import RawCore
import RawDNG
import RawTIFF

/// What the TIFF structure of a TIFF-based raw (DNG, NEF, RW2, ORF, KDC, ...) says, beyond what LibRaw
/// reports: where the image data lies (LibRaw 0.20 zero-fills strips past the end of a cut file without an
/// error), which compression a DNG uses (so an undecodable one is named), and for DNGs the exact values of
/// the tags LibRaw does not expose.
struct TIFFRawFacts {
    /// The parsed TIFF directories, read from the file without its image data (`TIFFStructure.read(path:)`): the
    /// samples are read once, into the frame, by whichever decoder takes them.
    let structure: TIFFStructure
    /// True when the DNG's raw data is lossy JPEG: Compression 34892, or Compression 7 with a DCT-coded stream (a
    /// Blackmagic camera's) in any of its tiles or strips (their headers are read to tell).
    var rawDataIsLossy = false

    /// The size of the file the structure was parsed from.
    var fileSize: Int { structure.fileSize }

    /// True for DNG files.
    var isDNG: Bool { structure.isDNG }

    /// Reads the TIFF structure of a file whose first bytes are `head`; nil for files that are not TIFF-based
    /// or whose first directory cannot be read (LibRaw then decides what the file is).
    /// - Throws: `.corrupt` when the structure exceeds the reader's limits on untrusted input (overlapping
    ///   directories or values): such a file is refused, not handed on to LibRaw.
    static func inspect(path: String, head: [UInt8]) throws(RawReadError) -> TIFFRawFacts? {
        // TIFF (42), Panasonic RW2 ("IIU"), Olympus ORF ("IIRO", "IIRS", "MMOR"); a Canon CRW also starts
        // with "II" but is no TIFF, and is not read twice.
        guard head.count >= 8 else { return nil }
        let little = head[0] == 0x49 && head[1] == 0x49, big = head[0] == 0x4D && head[1] == 0x4D
        let magic = little ? Int(head[2]) | Int(head[3]) << 8 : Int(head[2]) << 8 | Int(head[3])
        guard little || big, [42, 0x55, 0x4F52, 0x5352].contains(magic) else { return nil }
        do throws(TIFFStructureError) {
            var facts = TIFFRawFacts(structure: try TIFFStructure.read(path: path))
            facts.rawDataIsLossy = facts.readsAsLossy(path: path)
            return facts
        } catch {
            if case .limitExceeded = error { throw RawReadError(path: path, kind: .corrupt, detail: error.message) }
            return nil
        }
    }

    /// Whether the DNG's raw data is lossy JPEG (``rawDataIsLossy``), reading the header of each of its JPEG streams.
    func readsAsLossy(path: String) -> Bool {
        guard isDNG, let raw = structure.rawDirectory, let code = rawCompression, code == 7 || code == 34892 else { return false }
        if code == 34892 { return true }
        let offsets = raw.integers(TIFFTag.tileOffsets) ?? raw.integers(TIFFTag.stripOffsets) ?? []
        return JPEGProcess.of(streamsAt: offsets, inFileAt: path).contains(.dct)
    }

    /// True when the DNG's raw samples are floating-point numbers (SampleFormat 3).
    var rawDataIsFloat: Bool { isDNG && structure.rawDirectory?.integerOrDefault(TIFFTag.sampleFormat) == 3 }

    /// The compression of the raw image data, if known.
    var rawCompression: Int? { structure.rawDirectory?.integerOrDefault(TIFFTag.compression) }

    /// DNG compressions LibRaw 0.20 decodes: none, lossless JPEG, deflate (floating point) and lossy JPEG.
    static let decodableDNGCompressions: Set<Int> = [1, 7, 8, 34892]

    /// Names of the compressions a DNG may carry that LibRaw 0.20 cannot decode.
    static func compressionName(_ code: Int) -> String {
        switch code {
        case 9: "compression 9, GoPro VC-5"
        case 52546: "compression 52546, JPEG XL"
        default: "compression \(code)"
        }
    }

    /// Throws `.unsupported` for a DNG whose raw data uses a compression LibRaw cannot decode, or whose uncompressed
    /// integer samples have more than 16 bits (DNG allows up to 32; frames here hold 16-bit samples, and LibRaw would
    /// cut the top bits off).
    func checkDecodable(path: String) throws(RawReadError) {
        guard isDNG, let code = rawCompression else { return }
        if code == 1, let raw = structure.rawDirectory, raw.integerOrDefault(TIFFTag.sampleFormat) != 3,
           let bits = raw.integersOrDefault(TIFFTag.bitsPerSample)?.max(), bits > 16 {
            throw RawReadError(path: path, kind: .unsupported,
                               detail: "the DNG's raw image has \(bits) bits per sample; rawburst reads at most 16")
        }
        guard !Self.decodableDNGCompressions.contains(code) else { return }
        throw RawReadError(path: path, kind: .unsupported,
                           detail: "unsupported compression: the DNG's raw image uses \(Self.compressionName(code)), "
                               + "which LibRaw \(RawFileReader.libRawVersion) cannot decode")
    }

    /// Throws `.truncated` when image data is missing: strips or tiles past the end of the file, or fewer of
    /// them, or fewer bytes, than the raw image needs.
    ///
    /// Every image directory counts, not only the raw one: a file cut anywhere before its last strip is
    /// incomplete, and for raws other than DNG the directory LibRaw decodes is not always identifiable.
    func checkComplete(path: String, fileSize: Int) throws(RawReadError) {
        try checkSegmentsInsideFile(path: path, fileSize: fileSize)
        if let raw = structure.rawDirectory {
            try Self.checkRawData(raw, isDNG: isDNG, lossy: rawDataIsLossy, path: path, fileSize: fileSize)
        } else if isDNG {
            // A DNG keeps its raw image in a directory of its own; when the file ends before it, say so.
            if let first = structure.findings.first(where: { $0.kind == .pastEndOfFile }) {
                throw RawReadError(path: path, kind: .truncated, detail: "the file was cut short: \(first)")
            }
            throw RawReadError(path: path, kind: .unsupported,
                               detail: "DNG without a raw image (no colour filter array or linear raw directory)")
        }
    }

    /// Compressions whose every sample costs at least one bit: lossless JPEG (DNG) and Nikon's Huffman coding.
    static let atLeastOneBitPerSample: Set<Int> = [7, 34713]

    /// Throws `.truncated` when the raw directory lists fewer strips or tiles than its image needs, or fewer
    /// bytes than its compression can hold the image in. Tools that cut files (exiftool's test images, for
    /// one) leave a consistent file whose one remaining strip points at a few bytes inside it.
    ///
    /// Only DNG's tags are trusted to describe the raw data exactly (a Kodak KDC, for one, gives the size of
    /// the developed image); for other raws only Nikon's Huffman-coded NEF data is checked, by its size.
    ///
    /// Throws `.corrupt` when the strips or tiles list enough bytes but the image needs more than the whole file
    /// has: they overlap (each inside the file), and a reader trusting them would allocate an image far larger
    /// than the file.
    ///
    /// Lossy JPEG (`lossy`: DCT streams under Compression 7, too) can spend less than a bit on a sample: its byte count
    /// is not checked here (its decoder checks each stream).
    static func checkRawData(_ raw: TIFFDirectory, isDNG: Bool, lossy: Bool = false, path: String,
                             fileSize: Int) throws(RawReadError) {
        // Every factor bounded before any arithmetic (a LONG8 holds up to 2^64 - 1); the products below stay
        // under 2^62. Values outside the bounds are the validator's to report, and LibRaw's to refuse.
        guard let width = raw.integer(TIFFTag.imageWidth), let height = raw.integer(TIFFTag.imageLength),
              width > 0, height > 0, width <= 1 << 20, height <= 1 << 20 else { return }
        let samples = max(1, raw.integerOrDefault(TIFFTag.samplesPerPixel) ?? 1)
        let bits = raw.integerOrDefault(TIFFTag.bitsPerSample) ?? 1
        guard samples <= 65535, (1...64).contains(bits) else { return }
        let compression = raw.integerOrDefault(TIFFTag.compression) ?? 1
        let kind: String, expected: Int, counts: [Int]
        if let tileWidth = raw.integer(TIFFTag.tileWidth), let tileLength = raw.integer(TIFFTag.tileLength),
           (1...(1 << 20)).contains(tileWidth), (1...(1 << 20)).contains(tileLength) {
            kind = "tiles"
            expected = ((width + tileWidth - 1) / tileWidth) * ((height + tileLength - 1) / tileLength)
            counts = listed(raw, offsets: TIFFTag.tileOffsets, byteCounts: TIFFTag.tileByteCounts)
        } else {
            let rows = raw.rowsPerStrip(height: height)
            kind = "strips"
            expected = (height + rows - 1) / rows
            counts = listed(raw, offsets: TIFFTag.stripOffsets, byteCounts: TIFFTag.stripByteCounts)
        }
        guard isDNG || compression == 34713 else { return }
        if isDNG && counts.count < expected {
            throw RawReadError(path: path, kind: .truncated,
                               detail: "image data has \(counts.count) of \(expected) \(kind) (the file was cut short)")
        }
        let total = counts.reduce(0) { $0 &+ max(0, $1) }
        let needed: Int
        if compression == 1 && isDNG {
            needed = height * ((width * samples * bits + 7) / 8)
        } else if atLeastOneBitPerSample.contains(compression) && !lossy {
            needed = (width * height * samples + 7) / 8
        } else {
            return
        }
        if total < needed {
            throw RawReadError(path: path, kind: .truncated,
                               detail: "image data is \(total) bytes, too few for a \(width)x\(height) image "
                                   + "(at least \(needed)): the file was cut short")
        }
        if needed > fileSize {
            throw RawReadError(path: path, kind: .corrupt,
                               detail: "a \(width)x\(height) image needs at least \(needed) bytes of image data, more than "
                                   + "the whole file (\(fileSize) bytes): its \(kind) overlap")
        }
    }

    /// The byte counts of the strips or tiles that have both an offset and a byte count.
    private static func listed(_ raw: TIFFDirectory, offsets: UInt16, byteCounts: UInt16) -> [Int] {
        let counts = raw.integers(byteCounts) ?? []
        return Array(counts.prefix(raw.integers(offsets)?.count ?? 0))
    }

    /// Throws `.truncated` when a strip or tile of an image directory lies past the end of the file.
    private func checkSegmentsInsideFile(path: String, fileSize: Int) throws(RawReadError) {
        let cut = structure.dataSegments.filter { $0.kind != .jpegThumbnail && $0.end > fileSize }
        guard let last = cut.max(by: { $0.end < $1.end }) else { return }
        let kind = last.kind == .tile ? "tile" : "strip"
        let position = last.offset >= fileSize ? "starts at byte \(last.offset)" : "ends at byte \(last.end)"
        throw RawReadError(path: path, kind: .truncated,
                           detail: "image data \(position) but the file has only \(fileSize) bytes "
                               + "(\(cut.count) \(kind)\(cut.count == 1 ? "" : "s") of \(last.directory) missing or cut)")
    }
}
