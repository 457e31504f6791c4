import CHeif
import RawCore
import RawDevelop

/// Encodes developed images as HEIF (HEVC, through libheif's x265 encoder).
///
/// The image is coded as YCbCr 4:2:0 (BT.601 matrix, full range) — or, for a grey picture, as monochrome (libheif's
/// `heif_chroma_monochrome`: luma only, x265's 4:0:0) — at 8 or 10 bits per sample with the given quality (8 bits:
/// HEVC Main Still Picture, or a range-extensions profile for 4:0:0; 10 bits: libheif's x265 "Main 10 Intra", a
/// range-extensions profile). Its colour is described by one `colr` box holding the ICC profile of the image's space and curve
/// (``ICCProfile``, `prof`); matrix, range and the space's H.273 primaries and curve codes (2, unspecified,
/// where H.273 has none) are signalled in the HEVC stream's VUI. libheif writes no `nclx` box next to an ICC
/// profile by default, because some macOS and iOS versions cannot read files with both.
/// The EXIF block (``ExifBlock``) is stored as the image's `Exif` item. The orientation is always "normal"
/// (no `irot`/`imir`): the pixels are upright. libheif is initialised once per process and never
/// de-initialised (that would unregister its encoders under other threads).
public struct HEIFEncoder: Sendable, Hashable {
    /// Quality, 1...100 (libheif maps it onto x265's rate factor).
    public var quality: Int
    /// Bits per sample: 8 or 10.
    public var bitDepth: Int
    /// The x265 speed preset (one of ``presets``). The default, "ultrafast", coded a 12 MP still (q90, 8-bit) in
    /// 2.8 s against 8.1 s for "medium" and 32 s for libheif's own default ("slow"), with the same PSNR against the
    /// source (48.4 and 48.5 dB) and files within 1 % of each other: a single intra frame gains little from the
    /// slower presets' searches.
    public var preset: String = "ultrafast"

    /// The x265 presets, fastest first.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower",
                                 "veryslow", "placebo"]

    /// Creates an encoder with `quality` (1...100) and `bitDepth` (8 or 10).
    public init(quality: Int = 90, bitDepth: Int = 8) {
        self.quality = quality
        self.bitDepth = bitDepth
    }

    /// Creates an encoder with the HEIF settings of `options`.
    public init(options: EncodeOptions) {
        self.init(quality: options.quality, bitDepth: options.heifBitDepth)
    }

    /// The HEIF file of `image`; errors name `path` when given.
    public func encode(_ image: DevelopedImage, reportingAs path: String? = nil) throws(DevelopError) -> [UInt8] {
        guard EncodeOptions.qualityRange.contains(quality) else {
            throw DevelopError(path: path, "invalid quality: \(quality) is outside 1...100")
        }
        guard bitDepth == 8 || bitDepth == 10 else {
            throw DevelopError(path: path, "invalid HEIF bit depth: \(bitDepth) is not 8 or 10")
        }
        guard HEIFEncoder.presets.contains(preset) else {
            throw DevelopError(path: path, "invalid x265 preset: \"\(preset)\" is not one of \(HEIFEncoder.presets.joined(separator: ", "))")
        }
        let exif: ExifBlock, icc: ICCProfile
        do {
            exif = try ExifBlock(image: image, format: .heif)
            icc = try ICCProfile.profile(for: image)
            try HEIFLibrary.initialize()
        } catch { throw error.naming(path) }
        func check(_ e: heif_error, _ what: String) throws(DevelopError) { try HEIFEncoder.check(e, what, path: path) }

        guard let context = heif_context_alloc() else { throw DevelopError(path: path, "libheif: out of memory") }
        defer { heif_context_free(context) }
        var encoderHandle: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoderHandle),
                  "libheif has no HEVC encoder")
        guard let encoder = encoderHandle else { throw DevelopError(path: path, "libheif has no HEVC encoder") }
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, Int32(quality)), "cannot set the HEIF quality")
        try check(heif_encoder_set_parameter_string(encoder, "preset", preset), "cannot set the x265 preset")
        _ = heif_encoder_set_logging_level(encoder, 0)

        let picture = try heifPicture(image, path: path)
        defer { heif_image_release(picture) }

        // Colour: the ICC profile, and the nclx description that sets the RGB → YCbCr matrix, the range and
        // the codes written into the HEVC VUI (primaries and curve when H.273 has codes for them).
        let attached = icc.data.withUnsafeBytes { heif_image_set_raw_color_profile(picture, "prof", $0.baseAddress, $0.count) }
        try check(attached, "cannot attach the ICC profile")
        guard let nclx = heif_nclx_color_profile_alloc() else { throw DevelopError(path: path, "libheif: out of memory") }
        defer { heif_nclx_color_profile_free(nclx) }
        let codes = HEIFEncoder.nclxCodes(image.colorSpace, transfer: image.transfer)
        try check(heif_nclx_color_profile_set_color_primaries(nclx, codes.primaries), "cannot set the nclx primaries")
        try check(heif_nclx_color_profile_set_transfer_characteristics(nclx, codes.transfer), "cannot set the nclx curve")
        try check(heif_nclx_color_profile_set_matrix_coefficients(nclx, 6), "cannot set the nclx matrix")
        nclx.pointee.full_range_flag = 1
        try check(heif_image_set_nclx_color_profile(picture, nclx), "cannot attach the nclx colour description")

        guard let options = heif_encoding_options_alloc() else { throw DevelopError(path: path, "libheif: out of memory") }
        defer { heif_encoding_options_free(options) }
        options.pointee.save_alpha_channel = 0
        options.pointee.output_nclx_profile = nclx
        // One colr box, the ICC profile: libheif leaves the nclx box out by default
        // (macOS_compatibility_workaround_no_nclx_profile) because some macOS/iOS versions cannot read files
        // with both; the matrix, range and H.273 codes still travel in the HEVC stream's VUI.
        options.pointee.save_two_colr_boxes_when_ICC_and_nclx_available = 0
        options.pointee.image_orientation = heif_orientation_normal

        var handle: OpaquePointer?
        try check(heif_context_encode_image(context, picture, encoder, options, &handle), "cannot encode the HEIF image")
        guard let handle else { throw DevelopError(path: path, "libheif returned no image handle") }
        defer { heif_image_handle_release(handle) }
        let added = exif.app1Payload.withUnsafeBytes {
            heif_context_add_exif_metadata(context, handle, $0.baseAddress, Int32($0.count))
        }
        try check(added, "cannot add the EXIF block")

        return try HEIFEncoder.bytes(of: context, path: path)
    }

    /// Throws `what` with libheif's message when `e` is an error.
    static func check(_ e: heif_error, _ what: String, path: String?) throws(DevelopError) {
        if e.code != heif_error_Ok { throw DevelopError(path: path, "\(what): \(HEIFLibrary.message(e))") }
    }

    /// A libheif image holding `image`'s pixels, interleaved 8-bit RGB or 10-bit RRGGBB, or one grey (Y) plane of
    /// 8 or 10 bits (release it with `heif_image_release`).
    private func heifPicture(_ image: DevelopedImage, path: String?) throws(DevelopError) -> OpaquePointer {
        func check(_ e: heif_error, _ what: String) throws(DevelopError) { try HEIFEncoder.check(e, what, path: path) }
        let ten = bitDepth == 10, grey = image.isGrey
        let channel = grey ? heif_channel_Y : heif_channel_interleaved
        var imageHandle: OpaquePointer?
        try check(heif_image_create(Int32(image.width), Int32(image.height),
                                    grey ? heif_colorspace_monochrome : heif_colorspace_RGB,
                                    grey ? heif_chroma_monochrome
                                         : ten ? heif_chroma_interleaved_RRGGBB_LE : heif_chroma_interleaved_RGB, &imageHandle),
                  "cannot create the HEIF image")
        guard let picture = imageHandle else { throw DevelopError(path: path, "cannot create the HEIF image") }
        var filled = false
        defer { if !filled { heif_image_release(picture) } }
        try check(heif_image_add_plane(picture, channel, Int32(image.width), Int32(image.height), Int32(bitDepth)),
                  "cannot allocate the HEIF image plane")
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(picture, channel, &stride) else {
            throw DevelopError(path: path, "libheif gave no image plane")
        }
        let rowBytes = image.width * image.channels.count * (ten ? 2 : 1)
        guard Int(stride) >= rowBytes else { throw DevelopError(path: path, "libheif gave a plane stride of \(stride) bytes") }
        if ten {
            let samples = image.samples(bits: 10)
            copyRows(samples, into: plane, stride: Int(stride), rowBytes: rowBytes, rows: image.height)
        } else {
            let samples = image.uint8Samples
            copyRows(samples, into: plane, stride: Int(stride), rowBytes: rowBytes, rows: image.height)
        }
        filled = true
        return picture
    }

    /// The bytes of the HEIF file `context` holds.
    private static func bytes(of context: OpaquePointer, path: String?) throws(DevelopError) -> [UInt8] {
        let sink = ByteSink()
        var writer = heif_writer(writer_api_version: 1, write: { _, data, size, userData in
            let sink = Unmanaged<ByteSink>.fromOpaque(userData!).takeUnretainedValue()
            if let data, size > 0 { sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size)) }
            let ok = UnsafeRawPointer(StaticString("Success").utf8Start).assumingMemoryBound(to: CChar.self)
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: ok)
        })
        let error = withExtendedLifetime(sink) {
            heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque())
        }
        try check(error, "cannot write the HEIF file", path: path)
        return sink.bytes
    }

    /// Encodes `image` into the existing temporary file `temporaryPath` (errors name `path`).
    public func write(_ image: DevelopedImage, toTemporaryPath temporaryPath: String,
                      reportingAs path: String) throws(DevelopError) {
        let bytes = try encode(image, reportingAs: path)
        try ImageFileWriter.writeBytes(bytes, to: temporaryPath, reportingAs: path)
    }

    /// The H.273 colour primaries and transfer characteristics codes of `space` with `transfer`
    /// (2, "unspecified", where H.273 has no code for it).
    static func nclxCodes(_ space: OutputColorSpace, transfer: TransferFunction) -> (primaries: UInt16, transfer: UInt16) {
        let primaries: UInt16 = switch space {
        case .sRGB: 1
        case .displayP3: 12
        case .rec2020: 9
        case .adobeRGB, .proPhoto: 2
        }
        let curve: UInt16
        if transfer == .linear {
            curve = 8
        } else if transfer == .sRGB {
            curve = 13
        } else if transfer == .rec2020 {
            curve = 1
        } else {
            curve = 2
        }
        return (primaries, curve)
    }

    /// Copies `rows` rows of `rowBytes` bytes from the packed `samples` into a plane with `stride`.
    private func copyRows<T>(_ samples: [T], into plane: UnsafeMutablePointer<UInt8>, stride: Int, rowBytes: Int, rows: Int) {
        samples.withUnsafeBytes { source in
            for y in 0..<rows {
                (plane + y * stride).update(from: source.baseAddress!.advanced(by: y * rowBytes)
                    .assumingMemoryBound(to: UInt8.self), count: rowBytes)
            }
        }
    }
}

// MARK: - Reading back (for checks and tests)

extension HEIFEncoder {
    /// A HEIF file's primary image decoded by libheif, with its ICC profile and EXIF item.
    package struct Decoded: Sendable {
        /// Width in pixels.
        package let width: Int
        /// Height in pixels.
        package let height: Int
        /// Bits per luma sample of the coded image (8 or 10).
        package let bitDepth: Int
        /// RGB interleaved, top row first, on the 0...(2^bitDepth - 1) scale.
        package let samples: [UInt16]
        /// The raw ICC profile (`prof`), empty when there is none.
        package let iccProfile: [UInt8]
        /// The first `Exif` item as stored (4-byte TIFF header offset, then the block), empty when none.
        package let exif: [UInt8]
    }

    /// Decodes the primary image of the HEIF file `data` to RGB.
    package static func decode(_ data: [UInt8]) throws(DevelopError) -> Decoded {
        try HEIFLibrary.initialize()
        func check(_ e: heif_error, _ what: String) throws(DevelopError) {
            if e.code != heif_error_Ok { throw DevelopError("\(what): \(HEIFLibrary.message(e))") }
        }
        guard let context = heif_context_alloc() else { throw DevelopError("libheif: out of memory") }
        defer { heif_context_free(context) }
        // libheif copies the input (heif_context_read_from_memory), so `data` need not outlive this call.
        let read = data.withUnsafeBytes { heif_context_read_from_memory(context, $0.baseAddress, $0.count, nil) }
        try check(read, "libheif cannot read the file")
        var handleOut: OpaquePointer?
        try check(heif_context_get_primary_image_handle(context, &handleOut), "no primary image")
        guard let handle = handleOut else { throw DevelopError("no primary image") }
        defer { heif_image_handle_release(handle) }
        let bits = Int(heif_image_handle_get_luma_bits_per_pixel(handle))
        let wide = bits > 8
        var imageOut: OpaquePointer?
        try check(heif_decode_image(handle, &imageOut, heif_colorspace_RGB,
                                    wide ? heif_chroma_interleaved_RRGGBB_LE : heif_chroma_interleaved_RGB, nil),
                  "libheif cannot decode the image")
        guard let image = imageOut else { throw DevelopError("libheif decoded no image") }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw DevelopError("libheif gave no image plane")
        }
        let count = width * height * 3
        let samples = [UInt16](unsafeUninitializedCapacity: count) { out, n in
            for y in 0..<height {
                let row = plane + y * Int(stride)
                if wide {
                    let values = UnsafeRawPointer(row)
                    for i in 0..<(width * 3) {
                        out[y * width * 3 + i] = UInt16(littleEndian: values.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self))
                    }
                } else {
                    for i in 0..<(width * 3) { out[y * width * 3 + i] = UInt16(row[i]) }
                }
            }
            n = count
        }
        var icc = [UInt8](repeating: 0, count: heif_image_handle_get_raw_color_profile_size(handle))
        if !icc.isEmpty {
            let got = icc.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
            try check(got, "cannot read the ICC profile")
        }
        var exif: [UInt8] = []
        if heif_image_handle_get_number_of_metadata_blocks(handle, "Exif") > 0 {
            var id: heif_item_id = 0
            _ = heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &id, 1)
            exif = [UInt8](repeating: 0, count: heif_image_handle_get_metadata_size(handle, id))
            let got = exif.withUnsafeMutableBytes { heif_image_handle_get_metadata(handle, id, $0.baseAddress) }
            try check(got, "cannot read the EXIF item")
        }
        return Decoded(width: width, height: height, bitDepth: bits, samples: samples, iccProfile: icc, exif: exif)
    }
}

/// Collects what libheif's writer callback hands over.
private final class ByteSink {
    var bytes: [UInt8] = []
}

/// libheif's process-wide state.
enum HEIFLibrary {
    /// Runs `heif_init` once (thread-safe: a global's lazy initialiser); nil on success, else libheif's message.
    private static let initialization: String? = {
        let e = heif_init(nil)
        return e.code == heif_error_Ok ? nil : message(e)
    }()

    /// Initialises libheif on first use; never de-initialises it.
    static func initialize() throws(DevelopError) {
        if let failure = initialization { throw DevelopError("libheif cannot start: \(failure)") }
    }

    /// The message of a libheif error.
    static func message(_ e: heif_error) -> String {
        let text = e.message.map { String(cString: $0) } ?? ""
        return text.isEmpty ? "libheif error \(e.code.rawValue)/\(e.subcode.rawValue)" : text
    }
}
