import Foundation

/// The edge magnitude that noise alone gives, as a function of brightness, measured on the frame itself.
///
/// On a flat patch the two Sobel derivatives of noise are zero-mean and about equally spread, so the squared
/// magnitude follows an exponential law whose median grows with the noise variance. Sensor noise has a part that
/// grows with the light (shot noise) and a constant part (read noise), so the median squared magnitude at
/// brightness `B` is modelled as `slope · B + offset`. Both are fitted from the frame: its cells are binned by
/// brightness (half-stop bins), each bin's median squared magnitude is taken (flat cells outnumber edge cells in most
/// bins, and a median ignores the rest), and a line is fitted to the bins with weights favouring the quiet ones;
/// bins far above the line (mostly edges) are dropped and the line fitted again.
///
/// A higher ISO raises both terms, so the model follows the noise the sensor's gain gives without being told the ISO.
public struct EdgeNoise: Sendable, Hashable, Codable {
    /// Growth of the median squared magnitude with brightness (shot noise).
    public let slope: Double
    /// The median squared magnitude in the dark (read noise).
    public let offset: Double

    /// The model with known terms.
    public init(slope: Double, offset: Double) {
        self.slope = max(0, slope)
        self.offset = max(0, offset)
    }

    /// The median squared magnitude noise gives at brightness `b`.
    public func medianSquare(atBrightness b: Float) -> Float { Float(slope) * b + Float(offset) }

    /// Cells sampled at most (evenly spread over the field).
    static let sampleLimit = 1 << 16
    /// Brightness bins: half stops from 2⁻¹² of white up to white.
    static let binsPerStop = 2.0, lowestStop = -12.0
    /// Cells at or above this brightness are left out: clipping flattens their noise.
    static let clippingBrightness: Float = 0.97

    /// Fits the model to `field`.
    public init(_ field: GradientField) {
        let bins = Self.binnedSquares(field)
        var points: [(b: Double, m: Double, n: Double)] = bins.compactMap { bin in
            guard bin.squares.count >= 32 else { return nil }
            let sorted = bin.squares.sorted()
            return (bin.brightnessSum / Double(bin.squares.count), Double(sorted[sorted.count / 2]), Double(sorted.count))
        }
        var fit = Self.line(points)
        for _ in 0..<4 {
            let kept = points.filter { $0.m <= 2 * (fit.slope * $0.b + fit.offset) + 1e-30 }
            if kept.count == points.count || kept.isEmpty { break }
            points = kept
            fit = Self.line(points)
        }
        self.init(slope: fit.slope, offset: fit.offset)
    }

    /// One brightness bin's sampled squared magnitudes and the sum of their brightness.
    struct Bin {
        var squares: [Float] = []
        var brightnessSum = 0.0
    }

    /// The sampled cells' squared magnitudes, binned by brightness.
    static func binnedSquares(_ field: GradientField) -> [Bin] {
        let count = field.magnitudes.count
        let step = max(1, count / sampleLimit)
        let binCount = Int(-lowestStop * binsPerStop) + 1
        var bins = [Bin](repeating: Bin(), count: binCount)
        field.magnitudes.withUnsafeBufferPointer { m in
            field.brightness.withUnsafeBufferPointer { l in
                var i = step / 2
                while i < count {
                    let b = l[i]
                    if b < clippingBrightness {
                        let stops = b > 0 ? log2(Double(b)) : lowestStop
                        let index = min(binCount - 1, max(0, Int(((stops - lowestStop) * binsPerStop).rounded(.down))))
                        bins[index].squares.append(m[i] * m[i])
                        bins[index].brightnessSum += Double(b)
                    }
                    i += step
                }
            }
        }
        return bins
    }

    /// The weighted least-squares line `m = slope · b + offset` with both terms at least 0; each bin weighs by its
    /// count over its median squared (relative error, so quiet bins are not swamped by noisy ones).
    static func line(_ points: [(b: Double, m: Double, n: Double)]) -> (slope: Double, offset: Double) {
        guard !points.isEmpty else { return (0, 0) }
        let tiny = 1e-30
        let w = points.map { $0.n / ($0.m * $0.m + tiny) }
        var sw = 0.0, sb = 0.0, sm = 0.0, sbb = 0.0, sbm = 0.0
        for (p, wi) in zip(points, w) {
            sw += wi; sb += wi * p.b; sm += wi * p.m; sbb += wi * p.b * p.b; sbm += wi * p.b * p.m
        }
        let determinant = sw * sbb - sb * sb
        if points.count >= 2, determinant > tiny * sw * sw {
            let slope = (sw * sbm - sb * sm) / determinant
            let offset = (sm - slope * sb) / sw
            if slope >= 0 && offset >= 0 { return (slope, offset) }
        }
        // A constraint is active: the better of a flat line and a line through the origin.
        let flat = sm / sw
        let through = sbb > tiny ? sbm / sbb : 0
        func error(_ slope: Double, _ offset: Double) -> Double {
            zip(points, w).reduce(0) { $0 + $1.1 * pow($1.0.m - slope * $1.0.b - offset, 2) }
        }
        return error(0, flat) <= error(through, 0) ? (0, flat) : (through, 0)
    }
}
