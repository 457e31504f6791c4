import RawDevelop

/// Histograms of a developed image: red, green, blue and luma (Y′ = 0.2126 R′ + 0.7152 G′ + 0.0722 B′ of the
/// encoded values, rounded), over the code values of the image's sample format (0...255 for 8-bit images,
/// 0...65535 otherwise, floats first quantised to 16 bits).
///
/// A grey picture (a monochrome sensor's) has one histogram: its samples are its luma. Red, green and blue are then
/// that same histogram (what the picture shown as R = G = B holds), and ``isGrey`` says there is only luma to show.
public struct ImageHistogram: Sendable {
    /// Red, green, blue, luma.
    public let red: Histogram, green: Histogram, blue: Histogram, luma: Histogram
    /// True for a grey picture: luma is its one histogram, red, green and blue repeat it.
    public let isGrey: Bool
    /// Fraction of pixels with a channel at the top code value, per channel (R, G, B).
    public let clippedFractions: [Double]
    /// Fraction of pixels with a channel at 0, per channel (R, G, B).
    public let blackFractions: [Double]

    /// The histograms of `image` in `bins` bins (default 256).
    public init(_ image: DevelopedImage, bins: Int = 256) {
        var full: [[Int]]
        let range: Int
        isGrey = image.isGrey
        if case .uint8(let s) = image.samples {
            range = 256
            full = isGrey ? Self.countGrey(s, range: range) : Self.count(s, range: range)
        } else {
            range = 65536
            full = isGrey ? Self.countGrey(image.uint16Samples, range: range) : Self.count(image.uint16Samples, range: range)
        }
        let pixels = Double(max(1, image.width * image.height))
        red = Histogram(fullDepth: full[0], bins: bins)
        green = Histogram(fullDepth: full[1], bins: bins)
        blue = Histogram(fullDepth: full[2], bins: bins)
        luma = Histogram(fullDepth: full[3], bins: bins)
        clippedFractions = (0..<3).map { Double(full[$0][range - 1]) / pixels }
        blackFractions = (0..<3).map { Double(full[$0][0]) / pixels }
    }

    /// The grey samples' one histogram, as red, green, blue and luma.
    private static func countGrey<T: FixedWidthInteger>(_ s: [T], range: Int) -> [[Int]] {
        var y = [Int](repeating: 0, count: range)
        s.withUnsafeBufferPointer { p in
            for i in 0..<p.count { y[Int(p[i])] += 1 }
        }
        return [y, y, y, y]
    }

    private static func count<T: FixedWidthInteger>(_ s: [T], range: Int) -> [[Int]] {
        var r = [Int](repeating: 0, count: range), g = r, b = r, y = r
        let n = s.count / 3
        s.withUnsafeBufferPointer { p in
            for i in 0..<n {
                let R = Int(p[3 * i]), G = Int(p[3 * i + 1]), B = Int(p[3 * i + 2])
                r[R] += 1
                g[G] += 1
                b[B] += 1
                y[min(range - 1, (2126 * R + 7152 * G + 722 * B + 5000) / 10000)] += 1
            }
        }
        return [r, g, b, y]
    }
}
