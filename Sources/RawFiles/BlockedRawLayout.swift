/// A raw image stored in blocks, tiles or strips, each decoded into a block-sized buffer on its own and then copied
/// into its place: the geometry the lossless-JPEG CFA reader and the LinearRaw reader share.
protocol BlockedRawLayout {
    /// Image size in pixels.
    var width: Int { get }
    var height: Int { get }
    /// Block (tile or strip) size in pixels, and blocks across.
    var blockWidth: Int { get }
    var blockHeight: Int { get }
    var across: Int { get }
    /// Tiles (every block its full size, edge ones padded) or strips (the last one may be short).
    var isTiled: Bool { get }
}

extension BlockedRawLayout {
    /// Rows block `index` holds: a tile its full height (edge tiles padded), a strip its rows.
    func rows(ofBlock index: Int) -> Int {
        isTiled ? blockHeight : min(blockHeight, height - (index / across) * blockHeight)
    }

    /// Copies block `index`'s part of the image (edge blocks are cropped) from `tile` (rows of `blockWidth` pixels of
    /// `samplesPerPixel` interleaved samples) into `destination` (rows of `width` such pixels).
    func copyBlock(_ index: Int, from tile: UnsafePointer<UInt16>, samplesPerPixel: Int,
                   into destination: UnsafeMutablePointer<UInt16>) {
        let x0 = (index % across) * blockWidth, y0 = (index / across) * blockHeight
        let w = min(blockWidth, width - x0), h = min(rows(ofBlock: index), height - y0)
        for r in 0..<h {
            (destination + ((y0 + r) * width + x0) * samplesPerPixel)
                .update(from: tile + r * blockWidth * samplesPerPixel, count: w * samplesPerPixel)
        }
    }
}
