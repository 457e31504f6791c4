import Foundation
import RawCore
import RawDevelop

/// The pictures `rawburst analyze --png` writes: histogram plots, a focus-peaking overlay, a zebra overlay and a
/// contact sheet of a burst.
public enum AnalysisPictures {
    /// Peaking colours per strength level 1...3.
    static let peakingColors: [Canvas.Color] = [Canvas.Color(255, 230, 0), Canvas.Color(255, 140, 0), Canvas.Color(255, 30, 30)]

    /// The raw histogram: one curve per CFA colour (white for a monochrome sensor's one plane) over the 12 stops below
    /// the white level (1/8 stop per bin), clipping markers, labels every two stops.
    public static func rawHistogram(_ h: RawHistogram, scale: HistogramPlot.Scale = .log, title: String) -> Canvas {
        let colours: [CFAColor: Canvas.Color] = [.red: .red, .green: .green, .blue: .blue]
        let stops = 12
        let series = h.channels.map {
            HistogramPlot.Series($0.stopsHistogram(whiteLevel: h.whiteLevel, stops: stops), color: colours[$0.color] ?? .white,
                                 clipped: $0.clippedFraction, black: $0.blackFraction)
        }
        let labels = stride(from: stops, through: 0, by: -2).map { stop in
            (Double(stops - stop) / Double(stops), stop == 0 ? "0 EV" : "-\(stop)")
        }
        return HistogramPlot.draw(series, title: title, xLabels: labels, scale: scale)
    }

    /// The developed histogram: R, G, B filled, luma as a line, over the code values; a grey picture's one luma
    /// histogram filled in white.
    public static func imageHistogram(_ h: ImageHistogram, scale: HistogramPlot.Scale = .linear, title: String) -> Canvas {
        let series = h.isGrey ? [
            HistogramPlot.Series(h.luma, color: .white, clipped: h.clippedFractions[0], black: h.blackFractions[0]),
        ] : [
            HistogramPlot.Series(h.red, color: .red, clipped: h.clippedFractions[0], black: h.blackFractions[0]),
            HistogramPlot.Series(h.green, color: .green, clipped: h.clippedFractions[1], black: h.blackFractions[1]),
            HistogramPlot.Series(h.blue, color: .blue, clipped: h.clippedFractions[2], black: h.blackFractions[2]),
            HistogramPlot.Series(h.luma, color: .white, filled: false),
        ]
        let top = h.red.range - 1
        let labels = [0, 0.25, 0.5, 0.75, 1].map { ($0, "\(Int((Double(top) * $0).rounded()))") }
        return HistogramPlot.draw(series, title: title, xLabels: labels, scale: scale)
    }

    /// `preview` (developed in sensor orientation over the whole active area) with the peaking mask's cells coloured by
    /// strength, then turned by `orientation`.
    public static func peakingOverlay(_ peaking: FocusPeaking, on preview: DevelopedImage, orientation: Orientation) throws(DevelopError)
        -> DevelopedImage {
        var canvas = Canvas(preview)
        for y in 0..<canvas.height {
            let gy = min(peaking.height - 1, y * peaking.height / canvas.height)
            for x in 0..<canvas.width {
                let gx = min(peaking.width - 1, x * peaking.width / canvas.width)
                let level = Int(peaking.mask[gy * peaking.width + gx])
                if level > 0 { canvas.set(x, y, peakingColors[min(level, 3) - 1]) }
            }
        }
        return try canvas.image(metadata: preview.metadata).applying(orientation)
    }

    /// `image` with the zebra's marked pixels striped black and white.
    public static func zebraOverlay(_ zebra: Zebra, on image: DevelopedImage) throws(DevelopError) -> DevelopedImage {
        var canvas = Canvas(image)
        for y in 0..<canvas.height {
            for x in 0..<canvas.width where zebra.mask[y * zebra.width + x] != 0 {
                canvas.set(x, y, Zebra.stripes(x: x, y: y) ? .black : .white)
            }
        }
        return try canvas.image(metadata: image.metadata)
    }

    /// One thumbnail of a contact sheet and the lines under it.
    public struct Tile: Sendable {
        /// The frame's thumbnail (8-bit).
        public let thumbnail: DevelopedImage
        /// Text under it.
        public let lines: [String]
        /// Whether to frame the tile (e.g. chosen by `--best`).
        public let highlighted: Bool
        /// Creates a tile.
        public init(thumbnail: DevelopedImage, lines: [String], highlighted: Bool = false) {
            self.thumbnail = thumbnail
            self.lines = lines
            self.highlighted = highlighted
        }
    }

    /// Thumbnails in rows of `columns`, each cell `cell` pixels square plus its text lines.
    public static func contactSheet(_ tiles: [Tile], columns: Int = 4, cell: Int = 256) -> Canvas {
        let columns = max(1, min(columns, tiles.count))
        let lineHeight = 10, maxLines = tiles.map(\.lines.count).max() ?? 0
        let cellHeight = cell + 8 + maxLines * lineHeight
        let rows = (tiles.count + columns - 1) / columns
        let gap = 12
        var canvas = Canvas(width: gap + columns * (cell + gap), height: gap + rows * (cellHeight + gap),
                            background: Canvas.Color(32, 32, 32))
        for (index, tile) in tiles.enumerated() {
            let x0 = gap + (index % columns) * (cell + gap), y0 = gap + (index / columns) * (cellHeight + gap)
            let t = Canvas(tile.thumbnail)
            let ox = x0 + (cell - t.width) / 2, oy = y0 + (cell - t.height) / 2
            if tile.highlighted {
                canvas.fill(x: ox - 3, y: oy - 3, width: t.width + 6, height: t.height + 6, .yellow)
            }
            for y in 0..<min(t.height, cell) {
                for x in 0..<min(t.width, cell) {
                    let i = (y * t.width + x) * 3
                    canvas.set(ox + x, oy + y, Canvas.Color(t.pixels[i], t.pixels[i + 1], t.pixels[i + 2]))
                }
            }
            for (n, line) in tile.lines.enumerated() {
                canvas.text(line, x: x0, y: y0 + cell + 6 + n * lineHeight, .white)
            }
        }
        return canvas
    }
}
