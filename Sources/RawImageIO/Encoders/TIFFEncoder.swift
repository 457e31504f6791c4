import RawCore
import RawDevelop
import CShims
import CTIFF
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Encodes developed images as TIFF through libtiff.
///
/// The file is little-endian, one image, RGB, contiguous samples, upright (Orientation 1), 72 pixels per
/// inch, in strips of about 256 KiB compressed with LZW (code 5, TIFF 6): 16-bit unsigned samples with the
/// horizontal-differencing predictor (2), or 32-bit IEEE float samples (SampleFormat 3) with the
/// floating-point predictor (3). LZW is lossless and read by every TIFF reader (Deflate packs a little tighter
/// but is an Adobe extension exiftool's validator warns about); the float samples are written exactly as they are. IFD0 carries Make, Model, Software, DateTime
/// and the ICC profile (tag 34675); EXIF and GPS are real sub-IFDs (written before the image directory,
/// which then points at them), and their rationals are rewritten as exact fractions after libtiff closes the
/// file (libtiff stores them through `float`). Images above about 3.5 GB of samples are written as BigTIFF.
public struct TIFFEncoder: Sendable, Hashable {
    /// Bits per sample: 16 (unsigned integers) or 32 (IEEE floats).
    public var bitDepth: Int

    /// Creates an encoder writing 16-bit integer or (`bitDepth` 32) float samples.
    public init(bitDepth: Int = 16) {
        self.bitDepth = bitDepth
    }

    /// Creates an encoder with the TIFF settings of `options`.
    public init(options: EncodeOptions) {
        self.init(bitDepth: options.tiffBitDepth)
    }

    /// Target size of one uncompressed strip.
    static let stripBytes = 256 * 1024

    /// Encodes `image` into the temporary file `temporaryPath` (created or replaced; errors name `path`).
    public func write(_ image: DevelopedImage, toTemporaryPath temporaryPath: String,
                      reportingAs path: String) throws(DevelopError) {
        guard bitDepth == 16 || bitDepth == 32 else {
            throw DevelopError(path: path, "invalid TIFF bit depth: \(bitDepth) is not 16 (integer) or 32 (float)")
        }
        let fields: [ExifBlock.Field], icc: ICCProfile
        do {
            fields = ExifBlock.fields(for: image, format: .tiff, software: ExifBlock.software)
            icc = try ICCProfile.profile(for: image)
        } catch { throw error.naming(path) }
        let float = bitDepth == 32
        let bytesPerSample = float ? 4 : 2
        let rowBytes = image.width * 3 * bytesPerSample
        let big = rowBytes * image.height > 3_500_000_000
        let tiff = try TIFFOutput(path: temporaryPath, reportingAs: path, bigTIFF: big)

        // EXIF and GPS directories first; the image directory then points at them.
        try tiff.beginCustomDirectory(gps: false)
        try tiff.set(fields.filter { $0.directory == .exif })
        let exifOffset = try tiff.writeCustomDirectory()
        var gpsOffset: UInt64?
        let gps = fields.filter { $0.directory == .gps }
        if !gps.isEmpty {
            try tiff.beginCustomDirectory(gps: true)
            try tiff.set(gps)
            gpsOffset = try tiff.writeCustomDirectory()
        }

        tiff.beginImageDirectory()
        let rowsPerStrip = max(1, min(image.height, TIFFEncoder.stripBytes / rowBytes))
        try tiff.set(UInt32(TIFFTAG_IMAGEWIDTH), unsigned: UInt64(image.width))
        try tiff.set(UInt32(TIFFTAG_IMAGELENGTH), unsigned: UInt64(image.height))
        try tiff.set(UInt32(TIFFTAG_BITSPERSAMPLE), unsigned: UInt64(bitDepth))
        try tiff.set(UInt32(TIFFTAG_SAMPLESPERPIXEL), unsigned: 3)
        try tiff.set(UInt32(TIFFTAG_SAMPLEFORMAT), short: UInt16(float ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT))
        try tiff.set(UInt32(TIFFTAG_PHOTOMETRIC), unsigned: UInt64(PHOTOMETRIC_RGB))
        try tiff.set(UInt32(TIFFTAG_PLANARCONFIG), unsigned: UInt64(PLANARCONFIG_CONTIG))
        try tiff.set(UInt32(TIFFTAG_COMPRESSION), unsigned: UInt64(COMPRESSION_LZW)) // TIFF 6 (Deflate is not, and exiftool -validate says so)
        try tiff.set(UInt32(TIFFTAG_PREDICTOR), unsigned: UInt64(float ? PREDICTOR_FLOATINGPOINT : PREDICTOR_HORIZONTAL))
        try tiff.set(UInt32(TIFFTAG_ROWSPERSTRIP), unsigned: UInt64(rowsPerStrip))
        try tiff.set(fields.filter { $0.directory == .ifd0 }) // Make, Model, Orientation, resolution, Software, DateTime
        try tiff.set(UInt32(TIFFTAG_ICCPROFILE), bytes: icc.data)
        try tiff.set(UInt32(TIFFTAG_EXIFIFD), unsigned: exifOffset)
        if let gpsOffset { try tiff.set(UInt32(TIFFTAG_GPSIFD), unsigned: gpsOffset) }

        // Strips: each is copied into a scratch buffer first, because libtiff's predictors work in place.
        let strips = (image.height + rowsPerStrip - 1) / rowsPerStrip
        let samplesPerStrip = rowsPerStrip * image.width * 3
        if float {
            try writeStrips(image.floatSamples, tiff: tiff, strips: strips, samplesPerStrip: samplesPerStrip)
        } else {
            try writeStrips(image.uint16Samples, tiff: tiff, strips: strips, samplesPerStrip: samplesPerStrip)
        }
        try tiff.writeDirectory()
        try tiff.close()

        // libtiff stores EXIF and GPS rationals through `float` (ExposureTime 1/250 became 8589935/2147483648):
        // rewrite every rational written as the exact fraction it stands for, in place.
        var directories: [(offset: UInt64?, fields: [ExifBlock.Field])] = [(nil, fields.filter { $0.directory == .ifd0 })]
        directories.append((exifOffset, fields.filter { $0.directory == .exif }))
        if let gpsOffset { directories.append((gpsOffset, gps)) }
        try TIFFEncoder.exactRationals(in: temporaryPath, reportingAs: path, bigTIFF: big, directories: directories)
    }

    /// Rewrites, in the TIFF at `temporaryPath`, the RATIONAL/SRATIONAL values of `fields` found in the
    /// directory at each offset (nil: IFD0) with their exact fractions; the layout does not change.
    static func exactRationals(in temporaryPath: String, reportingAs path: String, bigTIFF: Bool,
                               directories: [(offset: UInt64?, fields: [ExifBlock.Field])]) throws(DevelopError) {
        let fd = open(temporaryPath, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw DevelopError(path: path, "cannot reopen the TIFF file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        func read(_ at: UInt64, _ size: Int) -> UInt64? {
            var bytes = [UInt8](repeating: 0, count: size)
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, size, off_t(at)) }
            guard n == size else { return nil }
            return bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) } // little-endian
        }
        let wordSize = bigTIFF ? 8 : 4
        for directory in directories {
            var offset = directory.offset
            if offset == nil { offset = read(bigTIFF ? 8 : 4, wordSize) } // IFD0: from the header
            guard let start = offset, let count = read(start, bigTIFF ? 8 : 2), count < 4096 else {
                throw DevelopError(path: path, "cannot read back a TIFF directory to finish the file")
            }
            let entrySize: UInt64 = bigTIFF ? 20 : 12
            let first = start + (bigTIFF ? 8 : 2)
            for i in 0..<count {
                let entry = first + i * entrySize
                guard let tag = read(entry, 2), let type = read(entry + 2, 2), type == 5 || type == 10,
                      let n = read(entry + 4, wordSize),
                      let field = directory.fields.first(where: { UInt64($0.tag) == tag }) else { continue }
                let values: [Double]
                switch field.value {
                case .rationals(let v), .signedRationals(let v): values = v
                default: continue
                }
                guard UInt64(values.count) == n else { continue }
                let inline = bigTIFF && n == 1 // 8 bytes fit in a BigTIFF entry's value field
                guard let valueAt = inline ? entry + 12 : read(entry + (bigTIFF ? 12 : 8), wordSize) else { continue }
                let bytes = ExifBlock.rationalBytes(values, signed: type == 10)
                let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(valueAt)) }
                guard written == bytes.count else {
                    throw DevelopError(path: path, "cannot finish the TIFF file: \(String(cString: strerror(errno)))")
                }
            }
        }
    }

    private func writeStrips<T: BitwiseCopyable>(_ samples: [T], tiff: TIFFOutput, strips: Int,
                                                 samplesPerStrip: Int) throws(DevelopError) {
        let scratch = UnsafeMutableBufferPointer<T>.allocate(capacity: samplesPerStrip)
        defer { scratch.deallocate() }
        try samples.withUnsafeBufferPointer { (source) throws(DevelopError) in
            for s in 0..<strips {
                let start = s * samplesPerStrip
                let count = min(samplesPerStrip, source.count - start)
                scratch.baseAddress!.update(from: source.baseAddress! + start, count: count)
                try tiff.writeStrip(UInt32(s), UnsafeRawPointer(scratch.baseAddress!), bytes: count * MemoryLayout<T>.stride)
            }
        }
    }
}

/// Owns one libtiff handle opened for writing and sets fields through the typed C shim.
/// libtiff handles are not thread-safe: one encoder uses it from one thread.
private final class TIFFOutput {
    private let tif: OpaquePointer
    private let path: String
    private var closed = false

    init(path temporaryPath: String, reportingAs path: String, bigTIFF: Bool) throws(DevelopError) {
        rb_tiff_initialize()
        rb_tiff_clear_error()
        errno = 0
        guard let handle = TIFFOpen(temporaryPath, bigTIFF ? "w8l" : "wl") else {
            let code = errno
            let reason = code == 0 ? "" : " (\(String(cString: strerror(code))))"
            throw DevelopError(path: path, "libtiff cannot create the file: \(TIFFOutput.lastError())\(reason)")
        }
        tif = handle
        self.path = path
    }

    deinit {
        if !closed { TIFFClose(tif) }
    }

    static func lastError() -> String {
        let text = String(cString: rb_tiff_last_error())
        return text.isEmpty ? "libtiff gave no reason" : text
    }

    private func fail(_ what: String, errno code: Int32 = 0) -> DevelopError {
        if code != 0 { return DevelopError(path: path, "\(what): \(String(cString: strerror(code)))") }
        return DevelopError(path: path, "\(what): \(TIFFOutput.lastError())")
    }

    func set(_ tag: UInt32, unsigned value: UInt64) throws(DevelopError) {
        rb_tiff_clear_error()
        var v = value
        if rb_tiff_set_unsigned(tif, tag, 1, &v) == 0 { throw fail("cannot set TIFF tag \(tag)") }
    }

    /// Sets a tag libtiff takes as one 16-bit value whatever its declared count (SampleFormat).
    func set(_ tag: UInt32, short value: UInt16) throws(DevelopError) {
        rb_tiff_clear_error()
        if rb_tiff_set_uint16_value(tif, tag, value) == 0 { throw fail("cannot set TIFF tag \(tag)") }
    }

    func set(_ tag: UInt32, bytes: [UInt8]) throws(DevelopError) {
        rb_tiff_clear_error()
        let ok = bytes.withUnsafeBufferPointer { rb_tiff_set_bytes(tif, tag, UInt32($0.count), $0.baseAddress) }
        if ok == 0 { throw fail("cannot set TIFF tag \(tag)") }
    }

    /// Sets EXIF fields in the current directory.
    func set(_ fields: [ExifBlock.Field]) throws(DevelopError) {
        for field in fields {
            rb_tiff_clear_error()
            let tag = UInt32(field.tag)
            let ok: Int32
            switch field.value {
            case .ascii(let text):
                ok = rb_tiff_set_string(tif, tag, text)
            case .bytes(let b), .undefined(let b):
                ok = b.withUnsafeBufferPointer { rb_tiff_set_bytes(tif, tag, UInt32($0.count), $0.baseAddress) }
            case .shorts(let values):
                let wide = values.map { UInt64($0) }
                ok = wide.withUnsafeBufferPointer { rb_tiff_set_unsigned(tif, tag, UInt32($0.count), $0.baseAddress) }
            case .longs(let values):
                let wide = values.map { UInt64($0) }
                ok = wide.withUnsafeBufferPointer { rb_tiff_set_unsigned(tif, tag, UInt32($0.count), $0.baseAddress) }
            case .rationals(let values), .signedRationals(let values):
                ok = values.withUnsafeBufferPointer { rb_tiff_set_numbers(tif, tag, UInt32($0.count), $0.baseAddress) }
            }
            if ok == 0 { throw fail("cannot set tag 0x\(String(field.tag, radix: 16))") }
        }
    }

    /// Starts an EXIF (or GPS) directory; set its fields, then ``writeCustomDirectory()``.
    func beginCustomDirectory(gps: Bool) throws(DevelopError) {
        rb_tiff_clear_error()
        let status = gps ? TIFFCreateGPSDirectory(tif) : TIFFCreateEXIFDirectory(tif)
        if status != 0 { throw fail(gps ? "cannot create the GPS directory" : "cannot create the EXIF directory") }
    }

    /// Writes the current custom directory, unlinked, and returns its file offset.
    func writeCustomDirectory() throws(DevelopError) -> UInt64 {
        var offset: UInt64 = 0
        rb_tiff_clear_error()
        errno = 0
        if TIFFWriteCustomDirectory(tif, &offset) == 0 { throw fail("cannot write a TIFF directory", errno: errno) }
        TIFFFreeDirectory(tif)
        return offset
    }

    /// Starts the image directory with the standard TIFF fields.
    func beginImageDirectory() {
        TIFFCreateDirectory(tif)
    }

    /// Compresses and writes strip `index`.
    func writeStrip(_ index: UInt32, _ data: UnsafeRawPointer, bytes: Int) throws(DevelopError) {
        rb_tiff_clear_error()
        errno = 0
        if TIFFWriteEncodedStrip(tif, index, UnsafeMutableRawPointer(mutating: data), tmsize_t(bytes)) < 0 {
            throw fail("cannot write strip \(index)", errno: errno)
        }
    }

    /// Writes the image directory.
    func writeDirectory() throws(DevelopError) {
        rb_tiff_clear_error()
        errno = 0
        if TIFFWriteDirectory(tif) == 0 { throw fail("cannot write the TIFF directory", errno: errno) }
    }

    /// Flushes and closes the file.
    func close() throws(DevelopError) {
        guard !closed else { return }
        closed = true
        rb_tiff_clear_error()
        TIFFClose(tif)
        let error = String(cString: rb_tiff_last_error())
        if !error.isEmpty { throw DevelopError(path: path, "cannot finish the TIFF file: \(error)") }
    }
}
