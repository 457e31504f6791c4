import Foundation
import RawCore

/// A quick rendering of a raw frame to 8-bit sRGB for DNG thumbnails and previews.
///
/// Each output pixel averages a few colour-filter periods around the centre of the sensor area it
/// covers (so cost grows with the output size, not the frame size), subtracts black, applies the
/// as-shot white balance and the camera → sRGB matrix derived from the colour calibration, then the
/// sRGB transfer curve. The default crop and non-square pixels (DefaultScale) are honoured; orientation
/// is left to the reader, as DNG requires.
public enum PreviewRenderer {
    /// Renders `image` so that its long edge is at most `longEdge` pixels (never enlarged).
    public static func render(_ image: RawImage, longEdge: Int) -> RGB8Image {
        let frame = image.frame
        let crop = frame.defaultCrop
        let top = frame.activeArea.top + crop.top
        let left = frame.activeArea.left + crop.left
        let displayWidth = Double(crop.width) * frame.defaultScale.horizontal
        let displayHeight = Double(crop.height) * frame.defaultScale.vertical
        let factor = max(1, max(displayWidth, displayHeight) / Double(max(1, longEdge)))
        let outW = max(1, Int((displayWidth / factor).rounded()))
        let outH = max(1, Int((displayHeight / factor).rounded()))

        let period = (rows: frame.cfa.rows, columns: frame.cfa.columns)
        // Channel (0 R, 1 G, 2 B, -1 other) and black level of each CFA position, relative to the active area.
        var channel = [Int](repeating: -1, count: period.rows * period.columns)
        var black = [Double](repeating: 0, count: period.rows * period.columns)
        for r in 0..<period.rows {
            for c in 0..<period.columns {
                switch frame.cfa.color(row: r, column: c) {
                case .red: channel[r * period.columns + c] = 0
                case .green: channel[r * period.columns + c] = 1
                case .blue: channel[r * period.columns + c] = 2
                default: break
                }
                black[r * period.columns + c] = frame.blackLevels.level(row: r, column: c)
            }
        }
        let color = ColorTransform(calibration: image.calibration)
        let white = Double(frame.whiteLevel)
        let encode = SRGBEncodeTable.shared

        // Sample window: up to 2 periods each way (at least the whole period), centred in each cell.
        let cellH = Double(crop.height) / Double(outH)
        let cellW = Double(crop.width) / Double(outW)
        let winH = max(period.rows, min(2 * period.rows, Int(cellH.rounded(.down)) / period.rows * period.rows))
        let winW = max(period.columns, min(2 * period.columns, Int(cellW.rounded(.down)) / period.columns * period.columns))

        var pixels = [UInt8](repeating: 0, count: outW * outH * 3)
        let base = frame.storage.baseAddress
        let stride = frame.rowStride
        pixels.withUnsafeMutableBufferPointer { out in
            for oy in 0..<outH {
                let centreY = Int((Double(oy) + 0.5) * cellH)
                let y0 = min(max(0, centreY - winH / 2) / period.rows * period.rows, max(0, crop.height - winH))
                for ox in 0..<outW {
                    let centreX = Int((Double(ox) + 0.5) * cellW)
                    let x0 = min(max(0, centreX - winW / 2) / period.columns * period.columns, max(0, crop.width - winW))
                    var sum = (0.0, 0.0, 0.0)
                    var blackSum = (0.0, 0.0, 0.0)
                    var count = (0, 0, 0)
                    for dy in 0..<min(winH, crop.height) {
                        let y = y0 + dy
                        let rowPtr = base + (top + y) * stride + left
                        let pr = ((crop.top + y) % period.rows) * period.columns
                        for dx in 0..<min(winW, crop.width) {
                            let x = x0 + dx
                            let p = pr + (crop.left + x) % period.columns
                            let v = Double(rowPtr[x])
                            switch channel[p] {
                            case 0: sum.0 += v; blackSum.0 += black[p]; count.0 += 1
                            case 1: sum.1 += v; blackSum.1 += black[p]; count.1 += 1
                            case 2: sum.2 += v; blackSum.2 += black[p]; count.2 += 1
                            default: break
                            }
                        }
                    }
                    func normalised(_ s: Double, _ b: Double, _ n: Int) -> Double {
                        guard n > 0 else { return 0 }
                        let bl = b / Double(n)
                        return max(0, (s / Double(n) - bl) / max(1, white - bl))
                    }
                    let rgb = color.apply(normalised(sum.0, blackSum.0, count.0),
                                          normalised(sum.1, blackSum.1, count.1),
                                          normalised(sum.2, blackSum.2, count.2))
                    let o = (oy * outW + ox) * 3
                    out[o] = encode[rgb.0]
                    out[o + 1] = encode[rgb.1]
                    out[o + 2] = encode[rgb.2]
                }
            }
        }
        return try! RGB8Image(width: outW, height: outH, pixels: pixels) // sizes computed above
    }
}

/// White balance, camera → linear sRGB and baseline exposure, as one 3x3 matrix.
struct ColorTransform {
    let m: [Double]

    /// Builds the transform; without a usable calibration, camera RGB is taken as sRGB.
    init(calibration: ColorCalibration?) {
        var result = [1.0, 0, 0, 0, 1, 0, 0, 0, 1]
        if let cal = calibration, cal.cameraChannels == 3 {
            // The calibration closest to daylight.
            var matrix = cal.colorMatrix1
            if let m2 = cal.colorMatrix2, let t2 = cal.illuminant2?.temperature,
               abs(t2 - 6504) < abs((cal.illuminant1.temperature ?? 0) - 6504) {
                matrix = m2
            }
            let srgbToXYZ = try! ColorMatrix([0.4124564, 0.3575761, 0.1804375],
                                             [0.2126729, 0.7151522, 0.0721750],
                                             [0.0193339, 0.1191920, 0.9503041])
            if let camFromSRGB = try? matrix.multiplied(by: srgbToXYZ) {
                var v = camFromSRGB.values
                for r in 0..<3 {
                    let s = v[r * 3] + v[r * 3 + 1] + v[r * 3 + 2]
                    if abs(s) > 1e-9 { for c in 0..<3 { v[r * 3 + c] /= s } }
                }
                if let normalised = try? ColorMatrix(rows: 3, columns: 3, values: v),
                   let inverse = try? normalised.inverted() {
                    result = inverse.values
                }
            }
            let neutral = cal.asShotNeutral ?? [1, 1, 1]
            let gain = pow2(cal.baselineExposure)
            for r in 0..<3 {
                for c in 0..<3 { result[r * 3 + c] *= gain * neutral[1] / neutral[c] }
            }
        }
        m = result
    }

    func apply(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        (m[0] * r + m[1] * g + m[2] * b, m[3] * r + m[4] * g + m[5] * b, m[6] * r + m[7] * g + m[8] * b)
    }
}

private func pow2(_ x: Double) -> Double { x == 0 ? 1 : Foundation.pow(2.0, x) }

/// Linear 0...1 → 8-bit sRGB through a 4096-entry table.
struct SRGBEncodeTable: Sendable {
    static let shared = SRGBEncodeTable()
    private let table: [UInt8]

    init() {
        table = (0..<4096).map { i in
            let x = Double(i) / 4095
            let y = x <= 0.0031308 ? 12.92 * x : 1.055 * Foundation.pow(x, 1 / 2.4) - 0.055
            return UInt8(max(0, min(255, (y * 255).rounded())))
        }
    }

    subscript(_ linear: Double) -> UInt8 {
        let i = Int(max(0, min(1, linear)) * 4095 + 0.5)
        return table[i]
    }
}
