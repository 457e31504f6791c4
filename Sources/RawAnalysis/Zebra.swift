import RawDevelop

/// Developed-domain zebra: the pixels whose luma code value Y′ = 0.2126 R′ + 0.7152 G′ + 0.0722 B′ (Rec. 709
/// weights on the encoded values, as a camera's zebra reads them) is at or above `threshold` of full scale.
///
/// The comparison is made in integers (`2126 R′ + 7152 G′ + 722 B′ ≥ ⌈threshold · 10000 · max⌉`, the product first
/// rounded to 6 decimals so that 0.95 means 0.95), so it is exact: a pixel is marked if and only if its luma
/// reaches the threshold. A grey picture's sample is its luma (`10000 Y′`, the same as R′ = G′ = B′ = Y′).
public struct Zebra: Sendable {
    /// Image width.
    public let width: Int
    /// Image height.
    public let height: Int
    /// 1 where the pixel is marked, row-major.
    public let mask: [UInt8]
    /// The threshold, 0...1 of full scale.
    public let threshold: Double

    /// The stripe period of ``stripes(x:y:)`` in pixels.
    public static let stripePeriod = 8

    /// Marks the pixels of `image` (8-bit, or 16-bit for other sample formats) at or above `threshold`.
    public init(_ image: DevelopedImage, threshold: Double = 0.95) {
        width = image.width
        height = image.height
        self.threshold = threshold
        var mask = [UInt8](repeating: 0, count: image.width * image.height)
        if image.isGrey {
            let eight: Bool
            if case .uint8 = image.samples { eight = true } else { eight = false }
            let limit = Self.limit(threshold, maximum: eight ? 255 : 65535)
            func mark<T: FixedWidthInteger>(_ s: [T]) {
                for i in 0..<mask.count { mask[i] = 10000 * Int(s[i]) >= limit ? 1 : 0 }
            }
            if case .uint8(let s) = image.samples { mark(s) } else { mark(image.uint16Samples) }
        } else if case .uint8(let s) = image.samples {
            let limit = Self.limit(threshold, maximum: 255)
            for i in 0..<mask.count {
                let y = 2126 * Int(s[3 * i]) + 7152 * Int(s[3 * i + 1]) + 722 * Int(s[3 * i + 2])
                mask[i] = y >= limit ? 1 : 0
            }
        } else {
            let s = image.uint16Samples
            let limit = Self.limit(threshold, maximum: 65535)
            for i in 0..<mask.count {
                let y = 2126 * Int(s[3 * i]) + 7152 * Int(s[3 * i + 1]) + 722 * Int(s[3 * i + 2])
                mask[i] = y >= limit ? 1 : 0
            }
        }
        self.mask = mask
    }

    /// The smallest marked value of `2126 R′ + 7152 G′ + 722 B′`.
    static func limit(_ threshold: Double, maximum: Int) -> Int {
        Int((((threshold * 10000 * Double(maximum)) * 1e6).rounded() / 1e6).rounded(.up))
    }

    /// Fraction of pixels marked.
    public var markedFraction: Double { Double(mask.reduce(0) { $0 + Int($1) }) / Double(max(1, mask.count)) }

    /// Whether pixel (x, y) of a marked area is a dark stripe: diagonal bands `stripePeriod` pixels apart.
    public static func stripes(x: Int, y: Int) -> Bool { ((x + y) / (stripePeriod / 2)) % 2 == 0 }
}
