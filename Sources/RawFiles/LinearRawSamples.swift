import LJ92
import RawCore
import RawDNG
import RawDevelop
import RawImageIO
import RawTIFF
import Synchronization

/// The samples of a LinearRaw DNG (PhotometricInterpretation 34892, no colour filter array: three samples per pixel,
/// or one on a monochrome sensor), decoded from the file bytes: uncompressed (8 to 16 bits, strips or tiles), lossless
/// JPEG (compression 7, each tile or strip one stream of its samples interleaved as components, or of fewer
/// components as many times as wide) and lossy JPEG (compression 34892, each tile a baseline JPEG decoded to 8-bit RGB
/// by libjpeg-turbo; a monochrome image keeps one of its equal channels). A LinearizationTable is
/// applied. Blocks decode in parallel; a stream that does not fill its block, or damaged data, is an error naming
/// the block.
struct LinearRawSamples: BlockedRawLayout {
    let width: Int
    let height: Int
    let compression: Int
    /// Samples per pixel: 3 (camera RGB) or 1 (monochrome).
    let samplesPerPixel: Int
    /// Bits per sample as stored (8 for lossy JPEG).
    let bits: Int
    let littleEndian: Bool
    /// Block (tile or strip) size and grid.
    let blockWidth: Int
    let blockHeight: Int
    let across: Int
    let isTiled: Bool
    /// Per block: file offset and byte count.
    let blocks: [(offset: Int, count: Int)]
    /// The DNG's LinearizationTable, if any.
    let linearization: [UInt16]?

    /// Compressions decoded: none, lossless JPEG, lossy JPEG.
    static let decodable: Set<Int> = [1, 7, 34892]
    /// Padded pixels allowed beyond four times the image's (small images in standard 256- or 512-pixel tiles).
    static let paddingAllowance = 1 << 22
    /// The largest image read, in pixels: larger than any camera's (3 GB of samples).
    static let largestImage = 512_000_000

    /// The layout of `raw` (a LinearRaw directory of a DNG of `fileSize` bytes); throws `.unsupported` for a layout
    /// this reader does not decode and `.corrupt` for one that cannot describe the image.
    init(_ raw: TIFFDirectory, littleEndian: Bool, fileSize: Int, path: String) throws(RawReadError) {
        func refuse(_ kind: RawReadError.Kind, _ detail: String) -> RawReadError {
            RawReadError(path: path, kind: kind, detail: detail)
        }
        let spp = raw.integerOrDefault(TIFFTag.samplesPerPixel) ?? 1
        guard spp == 3 || spp == 1 else {
            throw refuse(.unsupported, "LinearRaw DNG with \(spp) samples per pixel; rawburst reads 3 (RGB) or 1 (monochrome)")
        }
        samplesPerPixel = spp
        let compression = raw.integerOrDefault(TIFFTag.compression) ?? 1
        guard Self.decodable.contains(compression) else {
            throw refuse(.unsupported, "the LinearRaw DNG's image uses \(TIFFRawFacts.compressionName(compression)), "
                         + "which rawburst cannot decode")
        }
        guard raw.integerOrDefault(TIFFTag.planarConfiguration) == 1 else {
            throw refuse(.unsupported, "LinearRaw DNG with planar (not interleaved) samples")
        }
        guard raw.integerOrDefault(TIFFTag.sampleFormat) == 1 else {
            throw refuse(.unsupported, "LinearRaw DNG with floating-point samples")
        }
        let bitsList = raw.integersOrDefault(TIFFTag.bitsPerSample) ?? [1]
        guard let bits = bitsList.first, bitsList.allSatisfy({ $0 == bits }), (8...16).contains(bits),
              compression != 34892 || bits == 8 else {
            throw refuse(.unsupported, "LinearRaw DNG with \(bitsList.map(String.init).joined(separator: ","))"
                         + " bits per sample")
        }
        guard let width = raw.integer(TIFFTag.imageWidth), let height = raw.integer(TIFFTag.imageLength),
              (1...65535).contains(width), (1...65535).contains(height) else {
            throw refuse(.corrupt, "LinearRaw image size is missing or outside 1...65535")
        }
        // Every 8x8 block of a JPEG costs at least a few bits, every lossless-JPEG sample one bit, every uncompressed one
        // its bits (the TIFF checks hold the last two already): a larger image than that needs blocks that overlap.
        let bitsPerPixel = compression == 34892 ? 1.0 / 64 : Double(spp * (compression == 7 ? 1 : bits))
        guard Double(width) * Double(height) * bitsPerPixel <= 8 * Double(fileSize) else {
            throw refuse(.corrupt, "a \(width)x\(height) image cannot fit in a \(fileSize)-byte file: its blocks overlap")
        }
        let offsets: [Int], counts: [Int]
        if let tw = raw.integer(TIFFTag.tileWidth), let th = raw.integer(TIFFTag.tileLength) {
            guard (1...65535).contains(tw), (1...65535).contains(th) else { throw refuse(.corrupt, "tile size \(tw)x\(th)") }
            (blockWidth, blockHeight, isTiled) = (tw, th, true)
            offsets = raw.integers(TIFFTag.tileOffsets) ?? []
            counts = raw.integers(TIFFTag.tileByteCounts) ?? []
        } else {
            (blockWidth, blockHeight, isTiled) = (width, raw.rowsPerStrip(height: height), false)
            offsets = raw.integers(TIFFTag.stripOffsets) ?? []
            counts = raw.integers(TIFFTag.stripByteCounts) ?? []
        }
        across = (width + blockWidth - 1) / blockWidth
        let down = (height + blockHeight - 1) / blockHeight
        // Decoding holds one block per worker: tiles far larger than the image they pad are not a layout but a claim.
        guard across * blockWidth * down * blockHeight <= 4 * width * height + Self.paddingAllowance else {
            throw refuse(.corrupt, "\(blockWidth)x\(blockHeight) tiles are far larger than the \(width)x\(height) image")
        }
        guard width * height <= Self.largestImage else {
            throw refuse(.unsupported, "a \(width)x\(height) LinearRaw image is larger than rawburst reads "
                         + "(\(Self.largestImage / 1_000_000) megapixels)")
        }
        let kind = isTiled ? "tiles" : "strips"
        guard offsets.count == across * down, counts.count == offsets.count else {
            throw refuse(.corrupt, "image data lists \(offsets.count) \(kind) with \(counts.count) sizes; a \(width)x\(height) "
                         + "image needs \(across * down)")
        }
        var blocks: [(offset: Int, count: Int)] = []
        for (o, c) in zip(offsets, counts) {
            guard o >= 0, c > 0, c <= fileSize, o <= fileSize - c else {
                throw refuse(.truncated, "image data: a block at byte \(o) of \(c) bytes lies outside the \(fileSize)-byte file")
            }
            blocks.append((o, c))
        }
        // Blocks that share bytes would let a small file claim a huge image (the size bound above counts each byte once).
        let ordered = blocks.sorted { $0.offset < $1.offset }
        for (a, b) in zip(ordered, ordered.dropFirst()) where b.offset < a.offset + a.count {
            throw refuse(.corrupt, "image data: \(kind) at bytes \(a.offset) and \(b.offset) overlap")
        }
        if compression == 1 {
            let rowBytes = PackedSamples.rowBytes(width: blockWidth * spp, bits: bits)
            for (index, block) in blocks.enumerated() where block.count < rowBytes * (isTiled ? blockHeight : min(blockHeight, height - index / across * blockHeight)) {
                throw refuse(.truncated, "\(isTiled ? "tile" : "strip") \(index) holds \(block.count) bytes, too few for its samples")
            }
        }
        linearization = try Self.linearizationTable(raw, path: path)
        self.width = width
        self.height = height
        self.compression = compression
        self.bits = bits
        self.littleEndian = littleEndian
        self.blocks = blocks
    }

    /// The directory's LinearizationTable, if any; `.corrupt` when it cannot be one.
    private static func linearizationTable(_ raw: TIFFDirectory, path: String) throws(RawReadError) -> [UInt16]? {
        guard let table = raw.integers(TIFFTag.linearizationTable) else { return nil }
        guard (1...65536).contains(table.count), table.allSatisfy({ (0...65535).contains($0) }) else {
            throw RawReadError(path: path, kind: .corrupt,
                               detail: "LinearizationTable has \(table.count) entries or values outside 0...65535")
        }
        return table.map { UInt16($0) }
    }

    /// Decodes every block (in parallel) into interleaved samples, `width * height * samplesPerPixel` of them, as
    /// stored (the LinearizationTable is applied by ``linearize(_:)``).
    func read(from bytes: [UInt8], threads: Int, path: String) throws(RawReadError) -> PixelStorage {
        let failure = Mutex<String?>(nil)
        let spp = samplesPerPixel
        let storage = PixelStorage(unsafeUninitializedCount: width * height * spp) { destination in
            bytes.withUnsafeBytes { file in
                ParallelRows.run(rows: blocks.count, threads: threads, minimumRows: 1) { range in
                    let tile = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: blockWidth * blockHeight * spp)
                    defer { tile.deallocate() }
                    for index in range where failure.withLock({ $0 == nil }) {
                        if let problem = decodeBlock(index, file: file, tile: tile, into: destination) {
                            failure.withLock { if $0 == nil { $0 = problem } }
                        }
                    }
                }
            }
        }
        if let problem = failure.withLock({ $0 }) {
            throw RawReadError(path: path, kind: .corrupt, detail: problem)
        }
        return storage
    }

    /// Applies the LinearizationTable, if any, to samples ``read(from:threads:path:)`` decoded.
    func linearize(_ storage: PixelStorage) {
        if let table = linearization { Self.linearize(storage, table: table) }
    }

    /// Decodes block `index` into `tile` and copies its part of the image; a description of the problem, or nil.
    private func decodeBlock(_ index: Int, file: UnsafeRawBufferPointer, tile: UnsafeMutableBufferPointer<UInt16>,
                             into destination: UnsafeMutablePointer<UInt16>) -> String? {
        let block = blocks[index]
        let stream = UnsafeRawBufferPointer(rebasing: file[block.offset..<(block.offset + block.count)])
        let rows = rows(ofBlock: index)
        let what = blocks.count > 1 ? "\(isTiled ? "tile" : "strip") \(index) of \(blocks.count)" : "image data"
        let spp = samplesPerPixel
        switch compression {
        case 1:
            unpack(stream, rows: rows, into: tile.baseAddress!)
        case 7:
            let decoder = LJ92Decoder(maximumSamples: blockWidth * blockHeight * spp)
            do {
                let frame = try decoder.frame(of: stream)
                guard frame.sampleCount == blockWidth * rows * spp else {
                    return "\(what): a lossless-JPEG stream of \(frame.width)x\(frame.height)x\(frame.components) samples "
                        + "does not fill a \(blockWidth)x\(rows) block of \(spp) sample\(spp == 1 ? "" : "s") per pixel"
                }
                _ = try decoder.decode(stream, into: tile)
            } catch {
                return "\(what): \(error.message)"
            }
        default:
            switch JPEGMemoryDecoder.decode(stream, maximumPixels: blockWidth * blockHeight) {
            case .failure(.corrupt(let text)), .failure(.unsupported(let text)):
                return "\(what): \(text)"
            case .success(let rgb):
                guard rgb.width >= min(blockWidth, width - (index % across) * blockWidth),
                      rgb.height >= min(rows, height - (index / across) * blockHeight), rgb.width <= blockWidth,
                      rgb.height <= blockHeight else {
                    return "\(what): a \(rgb.width)x\(rgb.height) JPEG does not fill its \(blockWidth)x\(rows) block"
                }
                rgb.samples.withUnsafeBufferPointer { bytes in
                    let source = bytes.baseAddress!, target = tile.baseAddress!
                    for y in 0..<rgb.height {
                        let src = source + y * rgb.width * 3, dst = target + y * blockWidth * spp
                        if spp == 3 {
                            for i in 0..<(rgb.width * 3) { dst[i] = UInt16(src[i]) }
                        } else {
                            // A grey JPEG comes out of the decoder as three equal channels.
                            for i in 0..<rgb.width { dst[i] = UInt16(src[3 * i]) }
                        }
                    }
                }
            }
        }
        copyBlock(index, from: tile.baseAddress!, samplesPerPixel: spp, into: destination)
        return nil
    }

    /// Uncompressed samples of `rows` block rows: 16-bit in the file's byte order, fewer bits packed (most
    /// significant bit first), 8-bit bytes.
    private func unpack(_ stream: UnsafeRawBufferPointer, rows: Int, into tile: UnsafeMutablePointer<UInt16>) {
        let perRow = blockWidth * samplesPerPixel
        let rowBytes = PackedSamples.rowBytes(width: perRow, bits: bits)
        let source = stream.bindMemory(to: UInt8.self).baseAddress!
        for r in 0..<rows {
            let src = source + r * rowBytes, dst = tile + r * perRow
            if bits == 16 {
                for i in 0..<perRow {
                    let a = UInt16(src[2 * i]), b = UInt16(src[2 * i + 1])
                    dst[i] = littleEndian ? a | b << 8 : a << 8 | b
                }
            } else {
                PackedSamples.unpack(src, count: perRow, bits: bits, into: dst)
            }
        }
    }

    /// Maps every sample through `table` (values past its end take its last entry, as DNG specifies).
    private static func linearize(_ storage: PixelStorage, table: [UInt16]) {
        let last = table.count - 1
        table.withUnsafeBufferPointer { t in
            let p = storage.baseAddress
            for i in 0..<storage.count { p[i] = t[min(Int(p[i]), last)] }
        }
    }
}
