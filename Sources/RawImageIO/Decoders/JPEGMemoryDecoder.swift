import CImageShims
import Glibc

/// Decodes a baseline or progressive JPEG held in memory to 8-bit interleaved RGB through libjpeg-turbo (greyscale
/// and YCbCr converted to RGB), with libjpeg's errors caught: a JPEG file, or a DNG's lossy-JPEG tile.
public enum JPEGMemoryDecoder {
    /// Why a JPEG could not be decoded.
    public enum Failure: Error, Sendable, Hashable {
        /// Corrupt or truncated data (libjpeg's message).
        case corrupt(String)
        /// A valid JPEG that cannot become RGB (CMYK, for one), or one larger than allowed.
        case unsupported(String)
    }

    /// An image decoded to RGB.
    public struct RGB8: Sendable {
        /// Size in pixels.
        public let width: Int
        public let height: Int
        /// Colour components in the stream (1 grey, 3 YCbCr or RGB).
        public let components: Int
        /// `width * height * 3` bytes, R, G, B per pixel, top row first.
        public let samples: [UInt8]
    }

    /// Decodes `bytes`, refusing images of more than `maximumPixels` pixels.
    public static func decode(_ bytes: UnsafeRawBufferPointer, maximumPixels: Int) -> Result<RGB8, Failure> {
        var out: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0, components: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let ok = rb_jpeg_decode_rgb8(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, UInt64(max(0, maximumPixels)),
                                     &out, &width, &height, &components, &message, message.count)
        guard ok == 1, let out else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            if ok == -2 { return .failure(.unsupported("JPEG of \(text)")) }
            return .failure(ok == -1 ? .unsupported("unsupported JPEG: \(text)") : .corrupt("corrupt or truncated JPEG: \(text)"))
        }
        defer { free(out) }
        let w = Int(width), h = Int(height)
        let samples = Array(UnsafeBufferPointer(start: out, count: w * h * 3))
        return .success(RGB8(width: w, height: h, components: Int(components), samples: samples))
    }
}
