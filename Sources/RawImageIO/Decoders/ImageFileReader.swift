import CImageShims
import CPNG
import Foundation
import RawCore
import RawDevelop
import RawTIFF

/// An image file decoded to interleaved 16-bit RGB, whatever its format, channel count and depth.
///
/// `samples` holds `width * height * 3` values, RGB interleaved, top row first, always on the full 0...65535
/// scale: an 8-bit code value `v` is stored as `v * 257` (exactly `v / 255` of full scale), a 16-bit value as it is.
/// `encoding` says what the values mean: `.sRGB` for code values as stored in the file (JPEG, PNG, TIFF are all
/// taken as sRGB-encoded), `.linear` for linear light (only a PNG whose gAMA chunk says gamma 1.0).
public struct DecodedImage: Sendable, Hashable {
    /// The file formats ``ImageFileReader`` reads.
    public enum Format: String, Sendable, Hashable {
        /// PNG (libpng's simplified API).
        case png
        /// JPEG (libjpeg-turbo).
        case jpeg
        /// TIFF (libtiff).
        case tiff
    }

    /// What the sample values mean.
    public enum Encoding: Sendable, Hashable {
        /// sRGB-encoded code values (apply the sRGB decoding curve to get linear light).
        case sRGB
        /// Linear light, 65535 = full scale.
        case linear
    }

    /// The format of the file the image came from.
    public let format: Format
    /// Width in pixels (> 0).
    public let width: Int
    /// Height in pixels (> 0).
    public let height: Int
    /// Channels in the file (1 grey, 2 grey + alpha, 3 RGB, 4 RGBA); `samples` is RGB in every case.
    public let channels: Int
    /// Precision of the file's samples that `samples` preserves: 8 or 16.
    public let bitDepth: Int
    /// Whether `samples` are sRGB-encoded or linear.
    public let encoding: Encoding
    /// RGB interleaved, top row first, scaled to 0...65535 (8-bit `v` is `v * 257`).
    public let samples: [UInt16]

    /// Creates an image; `samples.count` must be `width * height * 3`.
    public init(format: Format, width: Int, height: Int, channels: Int, bitDepth: Int, encoding: Encoding,
                samples: [UInt16]) {
        precondition(width > 0 && height > 0 && samples.count == width * height * 3, "samples must be width*height*3")
        self.format = format
        self.width = width
        self.height = height
        self.channels = channels
        self.bitDepth = bitDepth
        self.encoding = encoding
        self.samples = samples
    }

    /// The RGB samples of pixel (`x`, `y`), both zero-based from the top-left corner.
    public func pixel(x: Int, y: Int) -> (red: UInt16, green: UInt16, blue: UInt16) {
        let i = (y * width + x) * 3
        return (samples[i], samples[i + 1], samples[i + 2])
    }
}

/// An image file could not be read. The description names the file and the problem in one line.
public struct ImageReadError: RawBurstError, Hashable {
    /// The kinds of failure.
    public enum Kind: Sendable, Hashable {
        /// There is no file at the path.
        case missingFile
        /// The file exists but cannot be opened or read (permissions, a directory, an I/O error).
        case unreadable
        /// The file is not a PNG, JPEG or TIFF image.
        case notAnImage
        /// The file starts like an image but its data is truncated or corrupt.
        case corrupt
        /// A valid image this reader does not handle (CMYK JPEG, floating-point TIFF, ...).
        case unsupported
    }

    /// The file.
    public let path: String
    /// What kind of failure.
    public let kind: Kind
    /// What went wrong (one line).
    public let message: String

    /// Creates an error for `path`.
    public init(path: String, kind: Kind, _ message: String) {
        self.path = path
        self.kind = kind
        self.message = message
    }

    /// The file.
    public var subject: String? { path }
}

/// Reads PNG, JPEG and TIFF files into ``DecodedImage``s. Libraries never print; their messages come back
/// in ``ImageReadError``s.
///
/// - PNG: libpng's simplified API, with the file's colour-space chunks (gAMA, sRGB, iCCP, cHRM, cICP) removed
///   first so that libpng passes the samples through unchanged at 8 or 16 bits (any colour type, palette and
///   tRNS included); they are sRGB-encoded unless gAMA declared 1.0. Alpha is removed by compositing on black.
/// - JPEG: libjpeg-turbo through a setjmp-safe C shim; greyscale and YCbCr come out as RGB; warnings about
///   corrupt or truncated data are errors.
/// - TIFF: libtiff. Stripped, contiguous, unsigned 16-bit RGB or grey files (first directory, top-left
///   orientation) keep their 16 bits (`TIFFReadScanline`); anything else goes through
///   `TIFFReadRGBAImageOriented` at 8 bits (alpha dropped).
public enum ImageFileReader {
    /// Largest number of pixels accepted (about 268 million), so sizes from corrupt headers cannot exhaust memory.
    public static let maximumPixelCount = 1 << 28

    /// Reads the image at `path` (the format is recognised from the file's first bytes, not its name).
    public static func read(path: String) throws(ImageReadError) -> DecodedImage {
        let header = try readHeader(path: path)
        if header.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return try readPNG(path: path)
        }
        if header.starts(with: [0xFF, 0xD8, 0xFF]) {
            return try readJPEG(path: path)
        }
        if header.starts(with: [0x49, 0x49, 0x2A, 0x00]) || header.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            || header.starts(with: [0x49, 0x49, 0x2B, 0x00]) || header.starts(with: [0x4D, 0x4D, 0x00, 0x2B]) {
            return try readTIFF(path: path)
        }
        let what = header.isEmpty ? "an empty file" : "starts with " + header.prefix(4).map { hex($0) }.joined(separator: " ")
        throw ImageReadError(path: path, kind: .notAnImage, "not a PNG, JPEG or TIFF image (\(what))")
    }

    // MARK: - Header

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
    }

    /// The first 8 bytes of the file, with missing/unreadable files reported as such.
    private static func readHeader(path: String) throws(ImageReadError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImageReadError(path: path, kind: .missingFile, "no such file")
        }
        if isDirectory.boolValue {
            throw ImageReadError(path: path, kind: .unreadable, "is a directory, not an image file")
        }
        guard let file = fopen(path, "rb") else {
            throw ImageReadError(path: path, kind: .unreadable, "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 8)
        let count = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, 8, file) }
        if count < 8 && ferror(file) != 0 {
            throw ImageReadError(path: path, kind: .unreadable, "cannot read: \(String(cString: strerror(errno)))")
        }
        return Array(bytes.prefix(count))
    }

    private static func checkSize(_ width: Int, _ height: Int, path: String, format: String) throws(ImageReadError) {
        guard width > 0, height > 0 else {
            throw ImageReadError(path: path, kind: .corrupt, "corrupt \(format): size \(width)x\(height)")
        }
        guard width.multipliedReportingOverflow(by: height).partialValue <= maximumPixelCount,
              width <= maximumPixelCount, height <= maximumPixelCount else {
            throw ImageReadError(path: path, kind: .unsupported,
                                 "\(format) of \(width)x\(height) pixels is larger than \(maximumPixelCount) pixels")
        }
    }

    /// Deflate expands data at most 1032 times and a PNG pixel takes at least one bit: more pixels than
    /// 8 x 1032 per byte of the file cannot be in it, and are refused before the image is allocated.
    static let maximumPNGPixelsPerByte = 8 * 1032

    private static func checkPNGData(_ width: Int, _ height: Int, fileBytes: Int, path: String) throws(ImageReadError) {
        guard width * height <= fileBytes * maximumPNGPixelsPerByte else {
            throw ImageReadError(path: path, kind: .corrupt,
                                 "corrupt PNG: \(width)x\(height) pixels cannot be held in its \(fileBytes) bytes "
                                     + "(at most \(maximumPNGPixelsPerByte) pixels a byte)")
        }
    }

    /// 8-bit interleaved RGB → 16-bit samples (`v * 257`).
    private static func widen(_ bytes: UnsafeBufferPointer<UInt8>, count: Int) -> [UInt16] {
        [UInt16](unsafeUninitializedCapacity: count) { out, initialized in
            for i in 0..<count { out[i] = UInt16(bytes[i]) &* 257 }
            initialized = count
        }
    }

    // MARK: - PNG

    private static func pngMessage(_ image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The first chunk whose declared length runs past the end of the file, described, or nil. libpng allocates a
    /// chunk's declared length before reading it (a 1.4 KB file declaring a 1.9 GB iCCP chunk made it ask for 1.9 GB):
    /// checked first, what libpng allocates for chunks is bounded by the file.
    static func pngChunkPastEnd(_ data: Data) -> String? {
        var offset = 8
        while offset + 8 <= data.count {
            let at = data.startIndex + offset
            let length = Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3])
            let type = String(decoding: data[(at + 4)..<(at + 8)], as: UTF8.self).oneLine
            guard offset + 12 + length <= data.count else {
                return "chunk \(type) at byte \(offset) declares \(length) bytes, more than the \(data.count)-byte file holds"
            }
            if type == "IEND" { return nil }
            offset += 12 + length
        }
        return offset + 8 > data.count && offset < data.count ? "the file ends inside a chunk header at byte \(offset)" : nil
    }

    /// The PNG's bytes without the chunks that would make libpng convert the samples (gAMA, sRGB, iCCP, cHRM,
    /// cICP), and whether a gAMA chunk declared linear data (gamma 1.0).
    ///
    /// libpng's simplified API converts 16-bit data to linear through an 11-bit-indexed gamma table
    /// (errors up to 1 % of full scale); without these chunks it passes 16-bit samples through untouched.
    static func pngWithoutColourChunks(_ data: Data) -> (bytes: [UInt8], linear: Bool) {
        let bytes = [UInt8](data)
        var out = Array(bytes.prefix(8))
        out.reserveCapacity(bytes.count)
        var linear = false
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let end = offset + 12 + length
            guard length >= 0, end <= bytes.count, type != "IDAT" else { break }
            if type == "gAMA", length == 4 {
                let gamma = Int(bytes[offset + 8]) << 24 | Int(bytes[offset + 9]) << 16 | Int(bytes[offset + 10]) << 8
                    | Int(bytes[offset + 11])
                linear = gamma == 100_000
            }
            if !["gAMA", "sRGB", "iCCP", "cHRM", "cICP"].contains(type) {
                out.append(contentsOf: bytes[offset..<end])
            }
            offset = end
        }
        out.append(contentsOf: bytes[min(offset, bytes.count)...])
        return (out, linear)
    }

    private static func readPNG(path: String) throws(ImageReadError) -> DecodedImage {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ImageReadError(path: path, kind: .unreadable, "cannot read: \(error.localizedDescription)")
        }
        if let overrun = pngChunkPastEnd(data) {
            throw ImageReadError(path: path, kind: .corrupt, "corrupt or truncated PNG: \(overrun)")
        }
        let (bytes, linear) = pngWithoutColourChunks(data)
        // libpng reads from this memory between begin and finish: keep it at one address for the whole read.
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        defer { memory.deallocate() }
        bytes.withUnsafeBytes { memory.copyMemory(from: $0) }
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        let begun = png_image_begin_read_from_memory(&image, memory.baseAddress, bytes.count)
        guard begun != 0 else {
            let text = pngMessage(&image)
            png_image_free(&image)
            throw ImageReadError(path: path, kind: .corrupt, "corrupt PNG: \(text)")
        }
        let width = Int(image.width), height = Int(image.height)
        let fileFormat = UInt32(image.format)
        let color = fileFormat & UInt32(PNG_FORMAT_FLAG_COLOR) != 0
        let alpha = fileFormat & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0
        let sixteen = fileFormat & UInt32(PNG_FORMAT_FLAG_LINEAR) != 0
        let channels = (color ? 3 : 1) + (alpha ? 1 : 0)
        do {
            try checkSize(width, height, path: path, format: "PNG")
            try checkPNGData(width, height, fileBytes: bytes.count, path: path)
        } catch {
            png_image_free(&image)
            throw error
        }
        let count = width * height * 3
        let encoding: DecodedImage.Encoding = linear ? .linear : .sRGB
        if sixteen {
            // Untagged 16-bit data counts as linear for libpng, so the samples come through unchanged.
            image.format = png_uint_32(PNG_FORMAT_FLAG_LINEAR | PNG_FORMAT_FLAG_COLOR)
            var samples = [UInt16](repeating: 0, count: count)
            let ok = samples.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
            guard ok != 0 else {
                throw ImageReadError(path: path, kind: .corrupt, "corrupt or truncated PNG: \(pngMessage(&image))")
            }
            return DecodedImage(format: .png, width: width, height: height, channels: channels, bitDepth: 16,
                                encoding: encoding, samples: samples)
        }
        image.format = png_uint_32(PNG_FORMAT_FLAG_COLOR)
        var eight = [UInt8](repeating: 0, count: count) // zero: alpha composites onto black
        let ok = eight.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard ok != 0 else {
            throw ImageReadError(path: path, kind: .corrupt, "corrupt or truncated PNG: \(pngMessage(&image))")
        }
        let samples = eight.withUnsafeBufferPointer { widen($0, count: count) }
        return DecodedImage(format: .png, width: width, height: height, channels: channels, bitDepth: 8,
                            encoding: encoding, samples: samples)
    }

    // MARK: - JPEG

    private static func readJPEG(path: String) throws(ImageReadError) -> DecodedImage {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ImageReadError(path: path, kind: .unreadable, "cannot read: \(error.localizedDescription)")
        }
        let decoded = data.withUnsafeBytes { JPEGMemoryDecoder.decode($0, maximumPixels: maximumPixelCount) }
        let image: JPEGMemoryDecoder.RGB8
        switch decoded {
        case .success(let rgb): image = rgb
        case .failure(.unsupported(let text)): throw ImageReadError(path: path, kind: .unsupported, text)
        case .failure(.corrupt(let text)): throw ImageReadError(path: path, kind: .corrupt, text)
        }
        let w = image.width, h = image.height
        try checkSize(w, h, path: path, format: "JPEG")
        let samples = image.samples.withUnsafeBufferPointer { widen($0, count: w * h * 3) }
        return DecodedImage(format: .jpeg, width: w, height: h, channels: image.components, bitDepth: 8,
                            encoding: .sRGB, samples: samples)
    }

    // MARK: - TIFF

    /// libtiff (through RawTIFF, which owns it), after the same size check as the other formats.
    private static func readTIFF(path: String) throws(ImageReadError) -> DecodedImage {
        let picture: TIFFPicture
        do throws(TIFFPictureError) {
            picture = try TIFFPictureReader.read(path: path) { width, height in
                do throws(ImageReadError) { try checkSize(width, height, path: path, format: "TIFF") } catch {
                    return TIFFPictureError(kind: error.kind == .corrupt ? .corrupt : .unsupported, error.message)
                }
                return nil
            }
        } catch {
            throw ImageReadError(path: path, kind: error.kind == .corrupt ? .corrupt : .unsupported, error.message)
        }
        return DecodedImage(format: .tiff, width: picture.width, height: picture.height, channels: picture.channels,
                            bitDepth: picture.bitDepth, encoding: .sRGB, samples: picture.samples)
    }
}
