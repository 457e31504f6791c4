import CImageShims
import RawCore
import RawDevelop
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Encodes developed images as PNG through libpng (a setjmp-safe C shim).
///
/// The file is RGB (colour type 2) or, for a grey picture, greyscale (colour type 0), 8 or 16 bits per sample, not
/// interlaced, zlib level 6 with libpng's adaptive filters. Its colour is described by one `iCCP` chunk holding the
/// same ICC profile the other formats embed (a grey profile for a grey picture, as PNG requires), for every
/// space including sRGB: no `sRGB`, `gAMA` or `cHRM` chunk is written, because an `sRGB` chunk cannot describe
/// the linear variant, and gAMA/cHRM would only approximate the profile's curve. The EXIF block goes into
/// an `eXIf` chunk (TIFF data without the `Exif\0\0` prefix), before the image data.
public struct PNGEncoder: Sendable, Hashable {
    /// Bits per sample: 8 or 16.
    public var bitDepth: Int
    /// zlib compression level used (0...9).
    public static let compressionLevel = 6

    /// Creates an encoder writing `bitDepth` (8 or 16) bits per sample.
    public init(bitDepth: Int = 16) {
        self.bitDepth = bitDepth
    }

    /// Creates an encoder with the PNG settings of `options`.
    public init(options: EncodeOptions) {
        self.init(bitDepth: options.pngBitDepth)
    }

    /// The PNG file of `image`; errors name `path` when given.
    public func encode(_ image: DevelopedImage, reportingAs path: String? = nil) throws(DevelopError) -> [UInt8] {
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else {
            throw DevelopError(path: path, "cannot encode the PNG: \(String(cString: strerror(errno)))")
        }
        var failure: DevelopError?
        do { try encode(image, into: stream, reportingAs: path) } catch { failure = error }
        let closed = fclose(stream) == 0
        defer { free(buffer) }
        if let failure { throw failure }
        guard closed, let buffer else { throw DevelopError(path: path, "cannot encode the PNG: out of memory") }
        return Array(UnsafeRawBufferPointer(start: buffer, count: size))
    }

    /// Encodes `image` into the existing temporary file `temporaryPath` (errors name `path`).
    public func write(_ image: DevelopedImage, toTemporaryPath temporaryPath: String,
                      reportingAs path: String) throws(DevelopError) {
        guard let file = fopen(temporaryPath, "wb") else {
            throw DevelopError(path: path, "cannot open the temporary file: \(String(cString: strerror(errno)))")
        }
        var failure: DevelopError?
        do { try encode(image, into: file, reportingAs: path) } catch { failure = error }
        errno = 0
        let closed = fclose(file) == 0
        if let failure { throw failure }
        if !closed { throw DevelopError(path: path, "cannot write: \(String(cString: strerror(errno)))") }
    }

    private func encode(_ image: DevelopedImage, into stream: UnsafeMutablePointer<FILE>,
                        reportingAs path: String?) throws(DevelopError) {
        guard bitDepth == 8 || bitDepth == 16 else {
            throw DevelopError(path: path, "invalid PNG bit depth: \(bitDepth) is not 8 or 16")
        }
        let exif: ExifBlock, icc: ICCProfile
        do {
            exif = try ExifBlock(image: image, format: .png)
            icc = try ICCProfile.profile(for: image)
        } catch { throw error.naming(path) }
        let tiff = exif.tiffData
        let name = String(icc.description.unicodeScalars.filter { $0.isASCII && $0.value >= 32 }.prefix(79))
        var message = [CChar](repeating: 0, count: 256)
        var systemError: Int32 = 0
        func run(_ pixels: UnsafeRawPointer?, rowBytes: Int) -> Int32 {
            tiff.withUnsafeBufferPointer { exifBytes in
                icc.data.withUnsafeBufferPointer { profile in
                    rb_png_encode(stream, pixels, Int32(image.channels.count), UInt32(image.width), UInt32(image.height),
                                  rowBytes, Int32(bitDepth), profile.baseAddress, profile.count, name,
                                  exifBytes.baseAddress, exifBytes.count, Int32(PNGEncoder.compressionLevel),
                                  &systemError, &message, message.count)
                }
            }
        }
        let ok: Int32
        let samplesPerRow = image.width * image.channels.count
        if bitDepth == 8 {
            let samples = image.uint8Samples
            ok = samples.withUnsafeBytes { run($0.baseAddress, rowBytes: samplesPerRow) }
        } else {
            let samples = image.uint16Samples
            ok = samples.withUnsafeBytes { run($0.baseAddress, rowBytes: samplesPerRow * 2) }
        }
        guard ok != 0 else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            if systemError != 0 { throw DevelopError(path: path, "cannot write: \(String(cString: strerror(systemError)))") }
            throw DevelopError(path: path, "cannot encode the PNG: \(text.isEmpty ? "libpng gave no reason" : text)")
        }
    }
}
