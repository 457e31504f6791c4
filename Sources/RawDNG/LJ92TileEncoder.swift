import LJ92
import RawCore
import RawDevelop
import Synchronization

/// Encodes a raw frame as DNG lossless-JPEG tiles (compression 7), in parallel and with bounded memory.
///
/// Each `tileSize` x `tileSize` tile is one LJ92 stream with its own optimal Huffman table. A tile's rows are
/// coded as pixels of two components (`tileSize / 2` wide), so each sample is predicted from the sample two
/// columns to its left: the same CFA colour on a Bayer sensor (a monochrome frame's rows are one component, each
/// sample predicted from its left neighbour). Tiles at the right and bottom edges are
/// padded to full size by repeating the last two columns or rows (keeping the CFA phase); readers crop them.
/// Tiles are encoded one row of tiles at a time by up to `threads` workers, and handed out in tile order, so
/// memory is one row of encoded tiles plus a workspace per worker, whatever the frame size.
///
/// A frame narrower than one tile is coded as one strip holding the whole frame instead: LibRaw and dcraw read a
/// tile wider than the image as if its rows were the image's width, and read only the first of several
/// lossless-JPEG strips.
public final class LJ92TileEncoder: Sendable {
    /// Tile width and height in pixels (DNG TileWidth/TileLength).
    public let tileSize: Int
    /// The predictor (1, the default, is the only one darktable reads).
    public let predictor: LJ92Predictor
    /// Worker threads.
    public let threads: Int
    /// Workspaces of finished encodes, shared by every encoder in the process (a writer makes an encoder per
    /// file), so a burst allocates them once. At most `keptWorkspaces` are kept.
    private static let workspaces = Mutex<[LJ92Workspace]>([])
    private static let keptWorkspaces = 16

    /// Creates an encoder. `tileSize` must be a multiple of 16 (TIFF) and at least 16.
    public init(tileSize: Int = 256, predictor: LJ92Predictor = .left, threads: Int) throws(LJ92Error) {
        guard tileSize >= 16, tileSize % 16 == 0, tileSize <= 65535 else {
            throw LJ92Error("lossless JPEG: tile size \(tileSize) is not a multiple of 16 in 16...65520")
        }
        self.tileSize = tileSize
        self.predictor = predictor
        self.threads = max(1, threads)
    }

    /// How a frame is cut: `tileSize` tiles, or full-width strips of `tileSize` rows for a narrower frame.
    public struct Blocks: Sendable, Hashable {
        /// Block width and (full) height in pixels.
        public let width: Int
        public let height: Int
        /// Blocks across and down.
        public let across: Int
        public let down: Int
        /// One strip of the whole frame (TIFF RowsPerStrip = `height`) rather than tiles.
        public let areStrips: Bool
    }

    /// The blocks of `frame`.
    public func blocks(for frame: RawFrame) -> Blocks {
        if frame.width < tileSize {
            return Blocks(width: frame.width, height: frame.height, across: 1, down: 1, areStrips: true)
        }
        return Blocks(width: tileSize, height: tileSize, across: (frame.width + tileSize - 1) / tileSize,
                      down: (frame.height + tileSize - 1) / tileSize, areStrips: false)
    }

    /// The precision the tiles need: the frame's bits per sample, or more if a sample is larger.
    public static func precision(for frame: RawFrame) -> Int {
        var bits = max(2, frame.bitsPerSample)
        let allBits = Self.orOfSamples(frame)
        while bits < 16 && Int(allBits) >= (1 << bits) { bits += 1 }
        return bits
    }

    /// The OR of all samples: below 2^b exactly when every sample is.
    private static func orOfSamples(_ frame: RawFrame) -> UInt16 {
        var combined: UInt16 = 0
        let base = frame.storage.baseAddress
        for y in 0..<frame.height {
            let row = base + y * frame.rowStride
            var bits: UInt16 = 0
            for x in 0..<frame.width { bits |= row[x] }
            combined |= bits
        }
        return combined
    }

    /// Encodes every tile with `precision` bits and passes each to `sink` in tile order (row-major), with its
    /// index. The bytes are valid only during the call.
    public func encode(_ frame: RawFrame, precision: Int,
                       sink: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
        let encoder = try LJ92Encoder(precision: precision, predictor: predictor)
        let blocks = blocks(for: frame)
        var encoded = [[UInt8]](repeating: [], count: blocks.across)
        for tileRow in 0..<blocks.down {
            encoded.withUnsafeMutableBufferPointer { slots in
                // Each range of tiles is encoded by one worker with one pooled workspace; tiles are disjoint slots.
                ParallelRows.run(rows: blocks.across, threads: threads, minimumRows: 1) { columns in
                    let workspace = Self.takeWorkspace()
                    defer { Self.returnWorkspace(workspace) }
                    for t in columns {
                        slots[t] = encodeTile(frame, blocks: blocks, column: t, row: tileRow, encoder: encoder,
                                              workspace: workspace)
                    }
                }
            }
            for t in 0..<blocks.across {
                try encoded[t].withUnsafeBytes { try sink(tileRow * blocks.across + t, $0) }
            }
        }
    }

    private func encodeTile(_ frame: RawFrame, blocks: Blocks, column: Int, row: Int, encoder: LJ92Encoder,
                            workspace: LJ92Workspace) -> [UInt8] {
        let width = blocks.width
        let height = blocks.height
        workspace.reserve(samples: width * height)
        let x0 = column * width, y0 = row * blocks.height
        // Two components (each colour predicted from its own neighbour) when the row splits evenly; one on a
        // monochrome sensor, where the nearest neighbour is the best prediction.
        let components = !frame.cfa.isMonochrome && width % 2 == 0 ? 2 : 1
        let count: Int
        if x0 + width <= frame.width && y0 + height <= frame.height {
            // Inside the frame: encoded in place.
            count = encoder.encode(frame.storage.baseAddress + y0 * frame.rowStride + x0, rowStride: frame.rowStride,
                                   width: width / components, height: height, components: components, workspace: workspace)
        } else {
            gather(frame, x0: x0, y0: y0, width: width, height: height, into: workspace.tile)
            count = encoder.encode(workspace.tile, rowStride: width, width: width / components, height: height,
                                   components: components, workspace: workspace)
        }
        return Array(UnsafeBufferPointer(start: workspace.output, count: count))
    }

    /// Copies the block at (x0, y0) into `tile`, padding past the frame's edges with the last two columns/rows.
    private func gather(_ frame: RawFrame, x0: Int, y0: Int, width size: Int, height rows: Int,
                        into tile: UnsafeMutablePointer<UInt16>) {
        let width = min(size, frame.width - x0)
        for r in 0..<rows {
            var y = y0 + r
            if y >= frame.height { y = Self.paddedIndex(y, limit: frame.height) }
            let src = frame.storage.baseAddress + y * frame.rowStride + x0
            let dst = tile + r * size
            dst.update(from: src, count: width)
            for x in width..<size {
                dst[x] = src[Self.paddedIndex(x0 + x, limit: frame.width) - x0]
            }
        }
    }

    /// For an index past `limit`, the index of the last row/column of the same parity.
    static func paddedIndex(_ i: Int, limit: Int) -> Int {
        guard limit >= 2 else { return limit - 1 }
        return limit - 2 + ((i - limit) & 1)
    }

    private static func takeWorkspace() -> LJ92Workspace {
        workspaces.withLock { $0.popLast() } ?? LJ92Workspace()
    }

    private static func returnWorkspace(_ used: LJ92Workspace) {
        workspaces.withLock { free in
            if free.count < keptWorkspaces { free.append(used) }
        }
    }
}
