import Foundation
import LJ92
import RawCore
import RawDNG
import RawDevelop
import RawTIFF
import Synchronization

/// The raw samples of a lossless-JPEG CFA DNG (compression 7, in tiles or strips: rawburst's, Adobe's, PiDNG's),
/// decoded by RawDNG's LJ92 decoder straight from the file bytes, tiles in parallel, instead of LibRaw's `unpack`.
///
/// Besides speed this is about honesty: LibRaw 0.20 decodes corrupt entropy-coded data to wrong pixels without
/// complaint, while this decoder reports the tile and the problem. The same restrictions as for uncompressed
/// files apply (no linearization table, no masked areas, one sample per pixel, CFA); and each tile's stream
/// must hold exactly its tile's samples, in raster order, however its rows are split into JPEG rows and
/// components. Anything else is left to LibRaw.
struct LosslessJPEGCFASamples: BlockedRawLayout {
    let width: Int
    let height: Int
    /// Block (tile or strip) size and grid.
    let blockWidth: Int
    let blockHeight: Int
    let across: Int
    let isTiled: Bool
    /// Per block: file offset and byte count.
    let blocks: [(offset: Int, count: Int)]

    /// The layout of `tiff`'s raw image when it qualifies, else nil. With `storedCodes`, a raw image with a
    /// linearization table qualifies too: its samples are then the stored codes.
    init?(_ tiff: TIFFRawFacts, storedCodes: Bool = false) {
        // DNG 1.0 coded category 16 with 16 additional bits (dcraw and LibRaw follow that for DNGVersion < 1.1):
        // such old files stay with LibRaw.
        guard tiff.isDNG, !tiff.rawDataIsLossy, let version = tiff.structure.mainDirectory.bytes(50706), version.count == 4,
              version[0] > 1 || (version[0] == 1 && version[1] >= 1),
              let raw = tiff.structure.rawDirectory,
              raw.integerOrDefault(TIFFTag.compression) == 7,
              raw.integer(TIFFTag.photometricInterpretation) == 32803,
              raw.hasPlainSampleLayout,
              let bits = raw.integersOrDefault(TIFFTag.bitsPerSample), bits.count == 1, (2...16).contains(bits[0]),
              storedCodes || !raw.contains(TIFFTag.linearizationTable), !raw.contains(TIFFTag.maskedAreas),
              let width = raw.integer(TIFFTag.imageWidth), let height = raw.integer(TIFFTag.imageLength),
              width > 0, height > 0, width <= 1 << 20, height <= 1 << 20,
              // Every sample costs at least one bit of a lossless-JPEG stream: a larger image than 8 samples per
              // byte of the file needs blocks that overlap.
              width * height <= 8 * tiff.fileSize
        else { return nil }
        let offsets: [Int], counts: [Int]
        if let tw = raw.integer(TIFFTag.tileWidth), let th = raw.integer(TIFFTag.tileLength) {
            guard (1...(1 << 20)).contains(tw), (1...(1 << 20)).contains(th),
                  let o = raw.integers(TIFFTag.tileOffsets), let c = raw.integers(TIFFTag.tileByteCounts)
            else { return nil }
            blockWidth = tw
            blockHeight = th
            isTiled = true
            offsets = o
            counts = c
        } else {
            guard let o = raw.integers(TIFFTag.stripOffsets), let c = raw.integers(TIFFTag.stripByteCounts) else { return nil }
            blockWidth = width
            blockHeight = raw.rowsPerStrip(height: height)
            isTiled = false
            offsets = o
            counts = c
        }
        across = (width + blockWidth - 1) / blockWidth
        let down = (height + blockHeight - 1) / blockHeight
        let area = blockWidth.multipliedReportingOverflow(by: blockHeight)
        guard offsets.count == across * down, counts.count == offsets.count, !area.overflow, area.partialValue <= 1 << 28,
              area.partialValue <= 8 * tiff.fileSize
        else { return nil }
        var blocks: [(offset: Int, count: Int)] = []
        for (o, c) in zip(offsets, counts) {
            guard o >= 0, c > 0, o <= tiff.fileSize - c else { return nil }
            blocks.append((o, c))
        }
        self.width = width
        self.height = height
        self.blocks = blocks
    }

    /// Why a block could not be used: `mismatch` (a stream that does not fill its block exactly, or that uses a
    /// lossless-JPEG feature the decoder does not support) leaves the file to LibRaw; `corrupt` is the file's fault.
    enum Failure: Error {
        case mismatch
        case corrupt(String)
    }

    /// Decodes every block (in parallel) into a frame-sized buffer.
    func read(from bytes: [UInt8], threads: Int) -> Result<PixelStorage, Failure> {
        let failures = FailureBox()
        let storage = PixelStorage(unsafeUninitializedCount: width * height) { destination in
            bytes.withUnsafeBytes { file in
                // Blocks write disjoint parts of `destination`.
                ParallelRows.run(rows: blocks.count, threads: threads, minimumRows: 1) { range in
                    let tile = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: blockWidth * blockHeight)
                    defer { tile.deallocate() }
                    for index in range where !failures.isSet {
                        if let failure = decodeBlock(index, file: file, tile: tile, into: destination) {
                            failures.set(failure)
                        }
                    }
                }
            }
        }
        guard let failure = failures.value else { return .success(storage) }
        // Which failure came first depends on timing: if any block is one LibRaw should decode, it decides.
        if case .corrupt = failure, blocks.indices.contains(where: { isMismatch($0, bytes: bytes) }) {
            return .failure(.mismatch)
        }
        return .failure(failure)
    }

    /// Whether block `index`'s header makes it a block for LibRaw (see `Failure.mismatch`).
    private func isMismatch(_ index: Int, bytes: [UInt8]) -> Bool {
        let block = blocks[index]
        return bytes.withUnsafeBytes { file in
            let stream = UnsafeRawBufferPointer(rebasing: file[block.offset..<(block.offset + block.count)])
            do throws(LJ92Error) {
                let header = try LJ92Decoder(maximumSamples: blockWidth * blockHeight).frame(of: stream)
                return header.sampleCount != blockWidth * rows(ofBlock: index)
            } catch {
                return error.isUnsupported
            }
        }
    }

    private func decodeBlock(_ index: Int, file: UnsafeRawBufferPointer, tile: UnsafeMutableBufferPointer<UInt16>,
                             into destination: UnsafeMutablePointer<UInt16>) -> Failure? {
        let block = blocks[index]
        let stream = UnsafeRawBufferPointer(rebasing: file[block.offset..<(block.offset + block.count)])
        let decoder = LJ92Decoder(maximumSamples: blockWidth * blockHeight)
        do {
            let header = try decoder.frame(of: stream)
            guard header.sampleCount == blockWidth * rows(ofBlock: index) else { return .mismatch }
            _ = try decoder.decode(stream, into: tile)
        } catch {
            if error.isUnsupported { return .mismatch }
            let what = blocks.count > 1 ? "\(blockWidth == width ? "strip" : "tile") \(index) of \(blocks.count)" : "raw data"
            return .corrupt("\(what): \(error.message)")
        }
        copyBlock(index, from: tile.baseAddress!, samplesPerPixel: 1, into: destination)
        return nil
    }
}

/// The first failure of concurrent block decoders.
private final class FailureBox: Sendable {
    private let first = Mutex<LosslessJPEGCFASamples.Failure?>(nil)
    var isSet: Bool { first.withLock { $0 != nil } }
    var value: LosslessJPEGCFASamples.Failure? { first.withLock { $0 } }
    func set(_ failure: LosslessJPEGCFASamples.Failure) { first.withLock { if $0 == nil { $0 = failure } } }
}
