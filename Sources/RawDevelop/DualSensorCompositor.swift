import RawCore

/// Puts two developed frames of one moment (two sensors triggered together) into one picture.
///
/// Each frame comes developed, turned upright by its own orientation and mirrored or not (``DevelopSettings/mirror``):
/// the output has the first frame's size, so a first frame turned to portrait makes a portrait composite, and the
/// second is scaled and cropped into its share as it is. The result says which frames were mirrored
/// (``DevelopedImage/mirroring``).
///
/// - Stacked: the output has the first frame's size; each frame fills its share (scaled to cover it and
///   centre-cropped, never stretched), with a border between the two and around them when `border` > 0.
/// - Picture in picture: the first frame whole, the second scaled to `size` of the width (keeping its own
///   aspect) in a corner, inset by a margin of 3 % of the short edge, framed by the border.
///
/// Both frames must be in the same colour space; the result keeps the first frame's metadata (time, place). The
/// composite is RGB: a grey frame (a monochrome sensor's) is placed as R = G = B.
public struct DualSensorCompositor: Sendable {
    /// The layout.
    public let layout: CompositeLayout
    /// Border width in pixels (0 for none).
    public let border: Int
    /// Border colour.
    public let borderColor: BorderColor

    /// Creates a compositor.
    public init(layout: CompositeLayout, border: Int = 0, borderColor: BorderColor = .white) throws(InvalidValueError) {
        try layout.validate()
        try require((0...500).contains(border), "border", "\(border) px is outside 0...500")
        self.layout = layout
        self.border = border
        self.borderColor = borderColor
    }

    /// The composite of `first` and `second`.
    public func compose(_ first: DevelopedImage, _ second: DevelopedImage) throws(DevelopError) -> DevelopedImage {
        guard first.colorSpace == second.colorSpace, first.transfer == second.transfer else {
            throw DevelopError("the two frames of a composite must be developed into the same colour space "
                               + "(\(first.colorSpace.rawValue) and \(second.colorSpace.rawValue))")
        }
        let width = first.width, height = first.height
        let a = Canvas(first), b = Canvas(second)
        var canvas = Canvas(width: width, height: height, fill: borderColor)
        let m = border
        switch layout {
        case .stacked(let direction, let split):
            if direction == .vertical {
                let available = height - 3 * m
                guard available >= 2, width - 2 * m >= 1 else { throw tooSmall(width, height) }
                let firstHeight = max(1, Int((Double(available) * split).rounded()))
                canvas.place(a, x: m, y: m, width: width - 2 * m, height: firstHeight)
                canvas.place(b, x: m, y: 2 * m + firstHeight, width: width - 2 * m, height: available - firstHeight)
            } else {
                let available = width - 3 * m
                guard available >= 2, height - 2 * m >= 1 else { throw tooSmall(width, height) }
                let firstWidth = max(1, Int((Double(available) * split).rounded()))
                canvas.place(a, x: m, y: m, width: firstWidth, height: height - 2 * m)
                canvas.place(b, x: 2 * m + firstWidth, y: m, width: available - firstWidth, height: height - 2 * m)
            }
        case .pictureInPicture(let corner, let size):
            canvas.place(a, x: 0, y: 0, width: width, height: height)
            let insetW = max(1, Int((Double(width) * size).rounded()))
            let insetH = max(1, Int((Double(insetW) * Double(second.height) / Double(second.width)).rounded()))
            let margin = max(1, min(width, height) * 3 / 100)
            guard insetW + 2 * (margin + m) <= width, insetH + 2 * (margin + m) <= height else { throw tooSmall(width, height) }
            let left = corner == .topLeft || corner == .bottomLeft
            let top = corner == .topLeft || corner == .topRight
            let x = left ? margin + m : width - margin - m - insetW
            let y = top ? margin + m : height - margin - m - insetH
            if m > 0 { canvas.fill(x: x - m, y: y - m, width: insetW + 2 * m, height: insetH + 2 * m, color: borderColor) }
            canvas.place(b, x: x, y: y, width: insetW, height: insetH)
        }
        do {
            var picture = try DevelopedImage(width: width, height: height, samples: .uint16(canvas.samples),
                                             colorSpace: first.colorSpace, transfer: first.transfer, metadata: first.metadata)
            picture.mirroring = PictureMirroring(compositeOf: first.mirroring, second.mirroring)
            return picture
        } catch {
            throw DevelopError(error.description)
        }
    }

    private func tooSmall(_ w: Int, _ h: Int) -> DevelopError {
        DevelopError("a \(w)x\(h) frame is too small for a \(layout) composite with a \(border) px border")
    }
}

/// 16-bit interleaved RGB being assembled.
struct Canvas {
    let width: Int
    let height: Int
    var samples: [UInt16]

    init(width: Int, height: Int, fill color: BorderColor) {
        self.width = width
        self.height = height
        let c = [color.red, color.green, color.blue].map { UInt16(($0 * 65535).rounded()) }
        samples = [UInt16](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            samples[3 * i] = c[0]
            samples[3 * i + 1] = c[1]
            samples[3 * i + 2] = c[2]
        }
    }

    /// The image's samples as 16-bit RGB (a grey image expanded to R = G = B).
    init(_ image: DevelopedImage) {
        width = image.width
        height = image.height
        samples = image.expandedToRGB().uint16Samples
    }

    mutating func fill(x: Int, y: Int, width w: Int, height h: Int, color: BorderColor) {
        let c = [color.red, color.green, color.blue].map { UInt16(($0 * 65535).rounded()) }
        for row in max(0, y)..<min(height, y + h) {
            for column in max(0, x)..<min(width, x + w) {
                let i = (row * width + column) * 3
                samples[i] = c[0]
                samples[i + 1] = c[1]
                samples[i + 2] = c[2]
            }
        }
    }

    /// Draws `source` scaled to cover `w` x `h` (centre-cropped) at (`x`, `y`), averaging the source pixels each
    /// target pixel covers.
    mutating func place(_ source: Canvas, x: Int, y: Int, width w: Int, height h: Int) {
        let scale = min(Double(source.width) / Double(w), Double(source.height) / Double(h))
        let cropW = Double(w) * scale, cropH = Double(h) * scale
        let x0 = (Double(source.width) - cropW) / 2, y0 = (Double(source.height) - cropH) / 2
        let columns = Resampler.taps(from: max(1, Int(cropW.rounded())), to: w)
        let rows = Resampler.taps(from: max(1, Int(cropH.rounded())), to: h)
        let left = Int(x0.rounded()), top = Int(y0.rounded())
        source.samples.withUnsafeBufferPointer { src in
            samples.withUnsafeMutableBufferPointer { dst in
                for (ty, rowTap) in rows.enumerated() {
                    for (tx, columnTap) in columns.enumerated() {
                        var sum: (Float, Float, Float) = (0, 0, 0)
                        for (ky, wy) in rowTap.weights.enumerated() {
                            let sy = min(source.height - 1, top + rowTap.first + ky)
                            for (kx, wx) in columnTap.weights.enumerated() {
                                let sx = min(source.width - 1, left + columnTap.first + kx)
                                let i = (sy * source.width + sx) * 3, weight = wy * wx
                                sum.0 += weight * Float(src[i])
                                sum.1 += weight * Float(src[i + 1])
                                sum.2 += weight * Float(src[i + 2])
                            }
                        }
                        let o = ((y + ty) * width + x + tx) * 3
                        dst[o] = UInt16(min(65535, max(0, sum.0 + 0.5)))
                        dst[o + 1] = UInt16(min(65535, max(0, sum.1 + 0.5)))
                        dst[o + 2] = UInt16(min(65535, max(0, sum.2 + 0.5)))
                    }
                }
            }
        }
    }
}
