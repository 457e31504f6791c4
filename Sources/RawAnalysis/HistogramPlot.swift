import Foundation

/// Draws histograms as a picture: red, green and blue as translucent filled curves, luma as a white line, a linear
/// or logarithmic count axis, grid lines with axis labels, and clipping markers (a bar at each end per channel
/// with the clipped percentage) — what a camera's RGB histogram shows.
public enum HistogramPlot {
    /// How counts map to height.
    public enum Scale: String, Sendable, CaseIterable {
        /// Height proportional to the count (the tallest bin fills the plot).
        case linear
        /// Height proportional to log(1 + count).
        case log
    }

    /// One curve to draw.
    public struct Series: Sendable {
        /// The counts drawn.
        public let histogram: Histogram
        /// The curve's colour.
        public let color: Canvas.Color
        /// Filled and translucent, or a line.
        public let filled: Bool
        /// Fraction of the samples clipped at the top (drawn as a marker when above 0).
        public let clipped: Double
        /// Fraction of the samples at black (drawn as a marker when above 0).
        public let black: Double
        /// Creates a series.
        public init(_ histogram: Histogram, color: Canvas.Color, filled: Bool = true, clipped: Double = 0, black: Double = 0) {
            self.histogram = histogram
            self.color = color
            self.filled = filled
            self.clipped = clipped
            self.black = black
        }
    }

    /// Plot size (the picture adds margins for labels).
    public static let plotWidth = 512, plotHeight = 200
    static let left = 44, top = 22, bottom = 30, right = 44

    /// The picture of `series` with `title`, x-axis labels `xLabels` (text at fractions 0...1 of the axis).
    public static func draw(_ series: [Series], title: String, xLabels: [(Double, String)], scale: Scale = .linear) -> Canvas {
        var canvas = Canvas(width: left + plotWidth + right, height: top + plotHeight + bottom, background: Canvas.Color(24, 24, 24))
        canvas.fill(x: left, y: top, width: plotWidth, height: plotHeight, .black)
        for (fraction, _) in xLabels {
            let x = left + Int((fraction * Double(plotWidth - 1)).rounded())
            canvas.line(x, top, x, top + plotHeight - 1, .grey, alpha: 0.35)
        }
        for k in 1..<4 {
            let y = top + k * plotHeight / 4
            canvas.line(left, y, left + plotWidth - 1, y, .grey, alpha: 0.25)
        }
        func height(_ count: Int, _ peak: Double) -> Double {
            guard peak > 0 else { return 0 }
            switch scale {
            case .linear: return Double(count) / peak
            case .log: return Foundation.log(1 + Double(count)) / Foundation.log(1 + peak)
            }
        }
        // One peak for all series, so channels compare; resampled to the plot width (bins summed per column, or a bin
        // stretched over several).
        var columns: [[Int]] = []
        for s in series {
            var c = [Int](repeating: 0, count: plotWidth)
            let bins = s.histogram.bins
            if bins >= plotWidth {
                for (i, n) in s.histogram.counts.enumerated() { c[min(plotWidth - 1, i * plotWidth / bins)] += n }
            } else {
                for x in 0..<plotWidth { c[x] = s.histogram.counts[x * bins / plotWidth] }
            }
            columns.append(c)
        }
        let peak = Double(columns.flatMap { $0 }.max() ?? 0)
        for (s, c) in zip(series, columns) where s.filled {
            for x in 0..<plotWidth {
                let h = Int((height(c[x], peak) * Double(plotHeight - 1)).rounded())
                canvas.fill(x: left + x, y: top + plotHeight - h, width: 1, height: h, s.color, alpha: 0.45)
            }
        }
        for (s, c) in zip(series, columns) where !s.filled {
            var previous: (Int, Int)?
            for x in 0..<plotWidth {
                let y = top + plotHeight - 1 - Int((height(c[x], peak) * Double(plotHeight - 1)).rounded())
                if let (px, py) = previous { canvas.line(px, py, left + x, y, s.color) }
                previous = (left + x, y)
            }
        }
        // Clipping markers: a bar per channel outside each end of the plot, with the percentage.
        var markerY = top
        for s in series where s.clipped > 0 || s.black > 0 {
            if s.clipped > 0 {
                canvas.fill(x: left + plotWidth + 2, y: markerY, width: 6, height: 9, s.color)
                canvas.text(percent(s.clipped), x: left + plotWidth + 10, y: markerY + 1, s.color)
            }
            if s.black > 0 {
                canvas.fill(x: left - 8, y: markerY, width: 6, height: 9, s.color)
                let label = percent(s.black)
                canvas.text(label, x: max(0, left - 10 - Canvas.textWidth(label)), y: markerY + 1, s.color)
            }
            markerY += 12
        }
        canvas.text(title, x: left, y: 6, .white)
        for (fraction, label) in xLabels {
            let x = left + Int((fraction * Double(plotWidth - 1)).rounded()) - Canvas.textWidth(label) / 2
            canvas.text(label, x: min(max(0, x), canvas.width - Canvas.textWidth(label)), y: top + plotHeight + 8, .white)
        }
        canvas.text(scale == .log ? "LOG" : "LIN", x: 4, y: top + plotHeight - 8, .grey)
        return canvas
    }

    /// `0.4%`, `12%`, `<0.1%`.
    static func percent(_ f: Double) -> String {
        let p = f * 100
        if p < 0.1 { return "<0.1%" }
        return p < 10 ? String(format: "%.1f%%", p) : String(format: "%.0f%%", p)
    }
}
