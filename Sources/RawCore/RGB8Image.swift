/// An 8-bit interleaved RGB image (thumbnails, previews, pictures for people).
public struct RGB8Image: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `width * height * 3` bytes, row by row, R G B.
    public var pixels: [UInt8]

    /// Creates an image; `pixels` must hold exactly `width * height * 3` bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(InvalidValueError) {
        try require(width > 0 && height > 0, "image size", "\(width)x\(height) is empty")
        try require(pixels.count == width * height * 3, "image pixels",
                    "\(pixels.count) bytes for \(width)x\(height) RGB (needs \(width * height * 3))")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at `x`, `y`.
    public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}
