import RawCore
import RawDevelop
import RawImageIO

/// An 8-bit sRGB picture being drawn: filled rectangles, lines, blended pixels and text in `BitmapFont`.
public struct Canvas: Sendable {
    /// An sRGB colour.
    public struct Color: Sendable, Hashable {
        /// Red, green and blue code values.
        public var r: UInt8, g: UInt8, b: UInt8
        /// Creates a colour.
        public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { (self.r, self.g, self.b) = (r, g, b) }
        /// Named colours of the pictures.
        public static let black = Color(0, 0, 0), white = Color(255, 255, 255), grey = Color(128, 128, 128)
        public static let red = Color(230, 50, 50), green = Color(40, 200, 70), blue = Color(60, 110, 255)
        public static let yellow = Color(255, 220, 0)
    }

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Interleaved RGB, row-major.
    public private(set) var pixels: [UInt8]

    /// A canvas filled with `background`.
    public init(width: Int, height: Int, background: Color = .black) {
        self.width = max(1, width)
        self.height = max(1, height)
        pixels = [UInt8](repeating: 0, count: self.width * self.height * 3)
        fill(x: 0, y: 0, width: self.width, height: self.height, background)
    }

    /// A canvas holding an 8-bit image (its samples as sRGB code values; a grey image as R = G = B).
    public init(_ image: DevelopedImage) {
        width = image.width
        height = image.height
        pixels = image.expandedToRGB().uint8Samples
    }

    /// Sets one pixel (ignored outside), mixing `alpha` (0...1) of `color` over what is there.
    public mutating func set(_ x: Int, _ y: Int, _ color: Color, alpha: Double = 1) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = (y * width + x) * 3
        if alpha >= 1 {
            pixels[i] = color.r; pixels[i + 1] = color.g; pixels[i + 2] = color.b
        } else {
            let a = max(0, alpha)
            pixels[i] = UInt8((Double(pixels[i]) * (1 - a) + Double(color.r) * a).rounded())
            pixels[i + 1] = UInt8((Double(pixels[i + 1]) * (1 - a) + Double(color.g) * a).rounded())
            pixels[i + 2] = UInt8((Double(pixels[i + 2]) * (1 - a) + Double(color.b) * a).rounded())
        }
    }

    /// Fills a rectangle (clipped to the canvas).
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, _ color: Color, alpha: Double = 1) {
        for yy in max(0, y)..<max(max(0, y), min(height, y + h)) {
            for xx in max(0, x)..<max(max(0, x), min(width, x + w)) { set(xx, yy, color, alpha: alpha) }
        }
    }

    /// A straight line from (x0, y0) to (x1, y1).
    public mutating func line(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ color: Color, alpha: Double = 1) {
        let steps = max(abs(x1 - x0), abs(y1 - y0), 1)
        for k in 0...steps {
            let t = Double(k) / Double(steps)
            set(Int((Double(x0) + t * Double(x1 - x0)).rounded()), Int((Double(y0) + t * Double(y1 - y0)).rounded()), color,
                alpha: alpha)
        }
    }

    /// The width of `text` drawn at `scale`.
    public static func textWidth(_ text: String, scale: Int = 1) -> Int {
        max(0, text.count * BitmapFont.advance - 1) * scale
    }

    /// Draws `text` with its top-left corner at (x, y), each font pixel `scale` pixels wide.
    public mutating func text(_ text: String, x: Int, y: Int, _ color: Color = .white, scale: Int = 1) {
        var cx = x
        for character in text {
            let rows = BitmapFont.rows(character)
            for (r, bits) in rows.enumerated() {
                for c in 0..<BitmapFont.width where bits & (0x10 >> UInt8(c)) != 0 {
                    fill(x: cx + c * scale, y: y + r * scale, width: scale, height: scale, color)
                }
            }
            cx += BitmapFont.advance * scale
        }
    }

    /// The picture as an 8-bit sRGB image, ready for `ImageFileWriter` (PNG).
    public func image(metadata: FrameMetadata? = nil) throws(DevelopError) -> DevelopedImage {
        guard let image = DevelopedImage(sRGB8: pixels, width: width, height: height, metadata: metadata ?? .empty) else {
            throw DevelopError("cannot make the picture: \(pixels.count) bytes for \(width)x\(height)")
        }
        return image
    }
}
