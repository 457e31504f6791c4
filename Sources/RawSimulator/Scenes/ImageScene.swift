import Foundation
import RawCore
import RawDNG
import RawImageIO
import RawSources

/// Any PNG, JPEG or TIFF image, photographed as if it were a flat print at one distance.
///
/// The file's values are linearised (sRGB decoding of 8- and 16-bit code values; 16-bit PNGs arrive linear
/// from libpng) and become reflectances 0...1. The image is scaled, aspect preserved, to the largest size that
/// fits the reference frame (2 × 1.5) and centred; when its aspect is not 4:3, the bands beside it
/// (above and below a wider image, left and right of a taller one) are mid grey (0.18), and continue beyond the
/// frame. Elsewhere beyond the image's edges (everywhere outside a 4:3 image) the edge pixels continue (clamp to
/// edge). Between pixel centres the value is interpolated bilinearly in linear light.
public struct ImageScene: Scene {
    public let name: String
    public let illuminantKelvin: Double
    public let illuminance: Double
    public let subjectDistance: Double

    /// Reflectance of the letterbox bands.
    public static let letterboxReflectance: Float = 0.18

    /// The file's path.
    public let path: String
    /// Image width in pixels.
    public let width: Int
    /// Image height in pixels.
    public let height: Int
    /// Precision of the file's samples (8 or 16).
    public let bitDepth: Int
    /// Where the image lies on the reference plane (x0, y0, x1, y1).
    public let imageRect: (x0: Double, y0: Double, x1: Double, y1: Double)

    private let samples: [UInt16]
    /// Linear reflectance of every 16-bit sample value.
    private let linear: [Float]
    /// Pixels per reference-plane unit.
    private let pixelsPerUnit: Double
    /// Grey bands above and below (the image is wider than 4:3).
    private let bandsAboveAndBelow: Bool
    /// Grey bands left and right (the image is narrower than 4:3).
    private let bandsBeside: Bool
    private let depth: Float
    private let letterbox: ScenePoint

    /// Reads the image at `path`.
    /// - Parameters:
    ///   - path: a PNG, JPEG or TIFF file.
    ///   - depth: distance of the image in metres (default 2; at least 0.01).
    ///   - illuminantKelvin: colour temperature of the light (default 6504 K, D65, the white of sRGB images;
    ///     clamped to 2000...12000).
    ///   - illuminance: light on the print in lux (default 1000).
    /// - Throws: ``SceneError/unreadableImage(path:reason:)`` when the file cannot be read as an image.
    public init(path: String, depth: Double = 2, illuminantKelvin: Double = 6504,
                illuminance: Double = 1000) throws(SceneError) {
        let image: DecodedImage
        do {
            image = try ImageFileReader.read(path: path)
        } catch {
            throw SceneError.unreadableImage(path: path, reason: error.message)
        }
        self.init(image: image, path: path, depth: depth, illuminantKelvin: illuminantKelvin,
                  illuminance: illuminance)
    }

    /// Uses an image already decoded; `path` only names the scene (`image:PATH`).
    public init(image: DecodedImage, path: String, depth: Double = 2, illuminantKelvin: Double = 6504,
                illuminance: Double = 1000) {
        name = "image:" + path
        self.path = path
        self.illuminantKelvin = min(max(illuminantKelvin, 2000), 12000)
        self.illuminance = max(illuminance, 0)
        subjectDistance = max(depth, 0.01)
        width = image.width
        height = image.height
        bitDepth = image.bitDepth
        samples = image.samples
        switch image.encoding {
        case .linear:
            linear = (0...65535).map { Float(Double($0) / 65535) }
        case .sRGB:
            linear = (0...65535).map { Float(ColorSpaceMath.srgbDecode(Double($0) / 65535)) }
        }
        let w = Double(width), h = Double(height)
        bandsAboveAndBelow = width * 3 > height * 4
        bandsBeside = width * 3 < height * 4
        pixelsPerUnit = width * 3 >= height * 4 ? w / 2 : h / 1.5
        let halfWidth = w / pixelsPerUnit / 2, halfHeight = h / pixelsPerUnit / 2
        imageRect = (-halfWidth, -halfHeight, halfWidth, halfHeight)
        self.depth = Float(subjectDistance)
        letterbox = ScenePoint(grey: Self.letterboxReflectance, depth: self.depth)
    }

    public func sample(x: Double, y: Double) -> ScenePoint {
        if bandsAboveAndBelow, y < imageRect.y0 || y >= imageRect.y1 { return letterbox }
        if bandsBeside, x < imageRect.x0 || x >= imageRect.x1 { return letterbox }
        // Continuous pixel coordinates with pixel centres at integers + 0.5.
        let px = (x - imageRect.x0) * pixelsPerUnit - 0.5
        let py = (y - imageRect.y0) * pixelsPerUnit - 0.5
        let maxX = Double(width - 1), maxY = Double(height - 1)
        let cx = px.isNaN ? 0 : min(max(px, 0), maxX)
        let cy = py.isNaN ? 0 : min(max(py, 0), maxY)
        let x0 = Int(cx), y0 = Int(cy)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = Float(cx - Double(x0)), fy = Float(cy - Double(y0))
        let i00 = (y0 * width + x0) * 3, i10 = (y0 * width + x1) * 3
        let i01 = (y1 * width + x0) * 3, i11 = (y1 * width + x1) * 3
        return samples.withUnsafeBufferPointer { s in
            linear.withUnsafeBufferPointer { lut in
                @inline(__always) func channel(_ c: Int) -> Float {
                    // a + (b - a) * f: exact where neighbours are equal.
                    let a = lut[Int(s[i00 + c])], b = lut[Int(s[i10 + c])]
                    let d = lut[Int(s[i01 + c])], e = lut[Int(s[i11 + c])]
                    let top = a + (b - a) * fx, bottom = d + (e - d) * fx
                    return top + (bottom - top) * fy
                }
                return ScenePoint(red: channel(0), green: channel(1), blue: channel(2), depth: depth)
            }
        }
    }
}
