import CShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Encodes developed images as baseline JPEG through libjpeg-turbo.
///
/// The file is 8-bit YCbCr with 4:2:0 chroma subsampling, the accurate integer DCT and optimised Huffman
/// tables. It starts with the EXIF APP1 marker (``ExifBlock``; no JFIF marker), followed by the ICC profile
/// of the image's space and curve (``ICCProfile``) as APP2 `ICC_PROFILE` markers. libjpeg's errors come back
/// as ``DevelopError``s; it never ends the process.
public struct JPEGEncoder: Sendable, Hashable {
    /// Quality, 1...100.
    public var quality: Int

    /// Creates an encoder with `quality` (1...100).
    public init(quality: Int = 90) {
        self.quality = quality
    }

    /// Creates an encoder with the JPEG settings of `options`.
    public init(options: EncodeOptions) {
        self.init(quality: options.quality)
    }

    /// The JPEG file of `image`; errors name `path` when given.
    public func encode(_ image: DevelopedImage, reportingAs path: String? = nil) throws(DevelopError) -> [UInt8] {
        guard EncodeOptions.qualityRange.contains(quality) else {
            throw DevelopError(path: path, "invalid quality: \(quality) is outside 1...100")
        }
        let exif: ExifBlock, icc: ICCProfile
        do {
            exif = try ExifBlock(image: image, format: .jpeg)
            icc = try ICCProfile.profile(for: image)
        } catch { throw error.naming(path) }
        let rgb = image.uint8Samples
        var out: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        var message = [CChar](repeating: 0, count: 256)
        let ok = rgb.withUnsafeBufferPointer { px in
            exif.app1Payload.withUnsafeBufferPointer { app1 in
                icc.data.withUnsafeBufferPointer { profile in
                    rb_jpeg_encode_rgb8_icc(px.baseAddress, Int32(image.width), Int32(image.height), image.width * 3,
                                            Int32(quality), app1.baseAddress, app1.count, profile.baseAddress,
                                            profile.count, &out, &length, &message, message.count)
                }
            }
        }
        guard ok != 0, let out else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw DevelopError(path: path, "cannot encode the JPEG: \(text.isEmpty ? "libjpeg gave no reason" : text)")
        }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// Encodes `image` into the existing temporary file `temporaryPath` (errors name `path`).
    public func write(_ image: DevelopedImage, toTemporaryPath temporaryPath: String,
                      reportingAs path: String) throws(DevelopError) {
        let bytes = try encode(image, reportingAs: path)
        try ImageFileWriter.writeBytes(bytes, to: temporaryPath, reportingAs: path)
    }
}
