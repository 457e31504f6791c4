import Foundation
import RawCore
import RawFiles
import RawJobs
import RawSimulator
import RawSources

/// A scene rendered straight to RGB (3x3 supersampled, so it is band-limited like an image behind a lens),
/// and the Bayer mosaic a sensor would record of it: the ground truth demosaic tests compare against.
struct GroundTruthScene {
    let width: Int
    let height: Int
    /// Linear RGB, interleaved, 0...1 (the scene's reflectance scaled so its brightest point is ~0.9).
    let rgb: [Float]

    init(scene: any Scene, width: Int, height: Int, supersample: Int = 3) {
        self.width = width
        self.height = height
        var values = [Float](repeating: 0, count: width * height * 3)
        let aspect = Double(height) / Double(width)
        let n = Double(supersample)
        for y in 0..<height {
            for x in 0..<width {
                var sum: (Double, Double, Double) = (0, 0, 0)
                for sy in 0..<supersample {
                    for sx in 0..<supersample {
                        let u = (Double(x) + (Double(sx) + 0.5) / n) / Double(width) * 2 - 1
                        let v = ((Double(y) + (Double(sy) + 0.5) / n) / Double(height) * 2 - 1) * aspect
                        let p = scene.sample(x: u, y: v)
                        sum.0 += Double(max(0, p.red))
                        sum.1 += Double(max(0, p.green))
                        sum.2 += Double(max(0, p.blue))
                    }
                }
                let i = (y * width + x) * 3
                values[i] = Float(sum.0 / (n * n))
                values[i + 1] = Float(sum.1 / (n * n))
                values[i + 2] = Float(sum.2 / (n * n))
            }
        }
        let top = values.max() ?? 1
        rgb = values.map { $0 / max(top, 1e-6) * 0.9 }
    }

    /// The RGGB mosaic of the ground truth as a 14-bit frame (black 512), with no colour calibration: camera RGB
    /// is the ground truth's RGB, white-balanced already (neutral 1, 1, 1).
    func mosaic(cfa: CFALayout = .rggb) throws -> RawImage {
        let black = 512.0, white = 16383.0
        var samples = [UInt16](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let c: Int
                switch cfa.color(row: y, column: x) { case .red: c = 0; case .green: c = 1; default: c = 2 }
                samples[y * width + x] = UInt16((black + Double(rgb[(y * width + x) * 3 + c]) * (white - black)).rounded())
            }
        }
        let frame = try RawFrame(width: width, height: height, storage: PixelStorage(copying: samples), cfa: cfa,
                                 blackLevels: try BlackLevels(uniform: black), whiteLevel: UInt32(white), bitsPerSample: 14)
        return RawImage(frame: frame, metadata: try FrameMetadata(), calibration: nil)
    }

    /// PSNR in dB of `other` (linear RGB, same layout) against the ground truth, both sRGB-encoded, over the
    /// pixels at least `border` from the edge.
    func psnr(_ other: [Float], border: Int = 8) -> Double {
        var sum = 0.0, count = 0.0
        for y in border..<(height - border) {
            for x in border..<(width - border) {
                for c in 0..<3 {
                    let i = (y * width + x) * 3 + c
                    let d = ColorSpaceMath.srgbEncode(Double(rgb[i])) - ColorSpaceMath.srgbEncode(Double(other[i]))
                    sum += d * d
                    count += 1
                }
            }
        }
        return 10 * log10(1 / max(sum / count, 1e-12))
    }
}
