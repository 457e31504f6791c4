import RawCore

/// Float planes of one size: three (camera or output RGB), or one (a monochrome sensor's light); the working image
/// between demosaic, resize and finish.
final class PlanarImage: Sendable {
    let width: Int
    let height: Int
    let planes: [PlaneBuffer]

    /// `planes` (3 or 1) zero-filled planes.
    init(width: Int, height: Int, planes count: Int = 3) {
        self.width = width
        self.height = height
        planes = (0..<count).map { _ in PlaneBuffer(count: width * height) }
    }

    /// An image over existing planes (at least `width * height` floats each).
    init(width: Int, height: Int, planes: [PlaneBuffer]) {
        self.width = width
        self.height = height
        self.planes = planes
    }

    /// Pointer to the first pixel of `row` in channel `channel`.
    @inline(__always)
    func row(_ channel: Int, _ row: Int) -> UnsafeMutablePointer<Float> {
        planes[channel].base + row * width
    }

    /// Pointer to the first pixel of `row` in channel `channel`, or in the one plane of a one-plane image.
    @inline(__always)
    func rowOrOnly(_ channel: Int, _ row: Int) -> UnsafeMutablePointer<Float> {
        planes[planes.count == 1 ? 0 : channel].base + row * width
    }
}

/// Mirrors a coordinate into `low..<high` about the edge pixels (−1 → 1, high → high − 2): each position keeps its
/// colour-filter colour, so a mosaic can be extended past the active area's edges.
@inline(__always)
func mirrored(_ p: Int, _ low: Int, _ high: Int) -> Int {
    var q = p
    if q < low { q = 2 * low - q }
    if q >= high { q = 2 * (high - 1) - q }
    return min(max(q, low), high - 1)
}

/// Demosaics any colour filter pattern (X-Trans and other non-Bayer layouts) by averaging, for every missing
/// colour, the samples of that colour among the 3x3 neighbours (5x5 where the 3x3 has none). Slower and softer
/// than the Bayer kernels; used only where they do not apply.
enum NeighbourhoodDemosaic {
    static func demosaic(frame: RawFrame, rect: PixelRect, gains: [Double], ceilings: [Float], threads: Int) -> PlanarImage {
        let out = PlanarImage(width: rect.width, height: rect.height)
        let area = frame.activeArea
        let margin = 2
        let w = rect.width + 2 * margin, h = rect.height + 2 * margin
        let mosaic = PlaneBuffer(count: w * h)
        var colour = [Int8](repeating: -1, count: w * h)
        let white = Double(frame.whiteLevel)
        // Margins are mirrored by position (not colour-exact for every pattern, so their colour is looked up
        // at the source pixel).
        for y in 0..<h {
            let sy = mirrored(rect.top + y - margin, area.top, area.bottom)
            for x in 0..<w {
                let sx = mirrored(rect.left + x - margin, area.left, area.right)
                let c: Int
                switch frame.color(row: sy, column: sx) { case .red: c = 0; case .green: c = 1; case .blue: c = 2; default: c = -1 }
                guard c >= 0 else { continue }
                let black = frame.blackLevel(row: sy, column: sx)
                let v = Float((Double(frame[sy, sx]) - black) * gains[c] / max(1, white - black))
                mosaic.base[y * w + x] = min(max(v, 0), ceilings[c])
                colour[y * w + x] = Int8(c)
            }
        }
        colour.withUnsafeBufferPointer { cp in
            let colours = cp.baseAddress!
            ParallelRows.run(rows: rect.height, threads: threads) { rows in
                for y in rows {
                    for x in 0..<rect.width {
                        let centre = (y + margin) * w + x + margin
                        for c in 0..<3 {
                            var value: Float
                            if colours[centre] == Int8(c) {
                                value = mosaic.base[centre]
                            } else {
                                var sum: Float = 0, count: Float = 0
                                for radius in 1...2 where count == 0 {
                                    for dy in -radius...radius {
                                        for dx in -radius...radius {
                                            let k = centre + dy * w + dx
                                            if colours[k] == Int8(c) { sum += mosaic.base[k]; count += 1 }
                                        }
                                    }
                                }
                                value = count > 0 ? sum / count : 0
                            }
                            out.row(c, y)[x] = value
                        }
                    }
                }
            }
        }
        return out
    }
}
