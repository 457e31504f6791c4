import CImageShims
import Foundation
import RawCore
import RawDevelop

/// Encodes an 8-bit RGB image as a baseline JPEG through libjpeg-turbo (errors come back as values): the
/// previews DNGs embed.
package enum JPEGPreviewEncoder {
    /// The JPEG bytes of `image`; an error's message is libjpeg's.
    package static func encode(_ image: RGB8Image, quality: Int) throws(DevelopError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        var message = [CChar](repeating: 0, count: 256)
        let ok = image.pixels.withUnsafeBufferPointer { px in
            rb_jpeg_encode_rgb8(px.baseAddress, Int32(image.width), Int32(image.height), image.width * 3,
                                Int32(quality), nil, 0, &out, &length, &message, message.count)
        }
        guard ok != 0, let out else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw DevelopError(text)
        }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }
}

/// The JPEG previews DNGs embed (baseline, 4:2:0, no markers), for `DNGWriter(options:previewEncoder:)`.
public struct JPEGPreviews: PreviewEncoding {
    /// An encoder of previews.
    public init() {}

    /// The JPEG bytes of `image`; an error's message is libjpeg's.
    public func encode(_ image: RGB8Image, quality: Int) throws(DevelopError) -> [UInt8] {
        try JPEGPreviewEncoder.encode(image, quality: quality)
    }
}
