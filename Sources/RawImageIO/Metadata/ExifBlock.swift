import CExif
import RawCore
import RawDevelop
import RawTIFF

/// The EXIF metadata of a developed image: the TIFF-structured block that JPEG (APP1), HEIF (`Exif` item)
/// and PNG (`eXIf` chunk) files carry, serialised with libexif in Intel byte order.
///
/// IFD0 holds ImageDescription when the picture was mirrored (`PictureMirroring/note`: "mirrored left to right"),
/// Make, Model, Orientation (always 1: the pixels are upright), X/YResolution 72 per inch,
/// Software and DateTime (the capture time, or now when unknown), plus YCbCrPositioning for the
/// YCbCr-coded formats (JPEG, HEIF). The EXIF IFD holds ExifVersion 0232, FlashpixVersion 0100,
/// ColorSpace, except in TIFF ComponentsConfiguration (Y Cb Cr for JPEG/HEIF, R G B for PNG) and
/// PixelX/YDimension, and the capture fields the metadata has (times with sub-seconds and UTC offset,
/// exposure, lens, serial, …).
/// The GPS IFD (version 2.3) is written when the metadata has a fix. The field mapping is the same one the
/// DNG writer uses for its EXIF and GPS IFDs; the TIFF encoder writes these same `fields` through libtiff.
public struct ExifBlock: Sendable, Hashable {
    /// One EXIF field (RawTIFF's ``ExifField``, shared with the DNG writer).
    package typealias Field = ExifField

    /// The `Software` text written by default.
    public static let software = "rawburst \(RawBurstVersion.string)"

    /// The fields, ordered by directory and tag.
    package let fields: [Field]
    /// `Exif\0\0` followed by the TIFF structure: the payload of a JPEG APP1 marker and of a HEIF `Exif` item.
    public let app1Payload: [UInt8]

    /// The TIFF structure without the `Exif\0\0` prefix (what a PNG `eXIf` chunk holds).
    public var tiffData: [UInt8] { Array(app1Payload.dropFirst(6)) }

    /// Builds the block for `image` as it will be stored in `format`.
    public init(image: DevelopedImage, format: OutputFormat, software: String = ExifBlock.software) throws(DevelopError) {
        let fields = ExifBlock.fields(for: image, format: format, software: software)
        self.fields = fields
        app1Payload = try ExifBlock.serialize(fields)
    }

    // MARK: - Field mapping

    /// The fields for `image` stored in `format`, ordered by directory and tag.
    package static func fields(for image: DevelopedImage, format: OutputFormat, software: String) -> [Field] {
        let m = image.metadata
        let ycbcr = format == .jpeg || format == .heif
        // ComponentsConfiguration and PixelX/YDimension describe compressed data: EXIF (and exiftool's
        // validator) do not allow them in a TIFF, whose own tags give the layout and size.
        let tiff = format == .tiff
        var out: [Field] = []
        // IFD0
        if let note = image.mirroring.note { out.append(Field(.ifd0, 0x010E, .ascii(note))) }
        if let make = text(m.make) { out.append(Field(.ifd0, 0x010F, .ascii(make))) }
        if let model = text(m.model) { out.append(Field(.ifd0, 0x0110, .ascii(model))) }
        out.append(Field(.ifd0, 0x0112, .shorts([1])))
        out.append(Field(.ifd0, 0x011A, .rationals([72])))
        out.append(Field(.ifd0, 0x011B, .rationals([72])))
        out.append(Field(.ifd0, 0x0128, .shorts([2])))
        if let software = text(software) { out.append(Field(.ifd0, 0x0131, .ascii(software))) }
        let modified: CaptureTime
        if let time = m.captureTime { modified = time } else { modified = CaptureTime.now() }
        out.append(Field(.ifd0, 0x0132, .ascii(modified.exifDateTime)))
        if ycbcr { out.append(Field(.ifd0, 0x0213, .shorts([1]))) }

        // EXIF IFD: the capture fields plus those describing this image.
        out += captureFields(for: m)
        out.append(Field(.exif, 0x9000, .undefined(Array("0232".utf8))))
        // ComponentsConfiguration: Y Cb Cr (JPEG, HEIF), R G B (PNG), or Y alone for a grey picture.
        let components: [UInt8] = image.isGrey ? [1, 0, 0, 0] : ycbcr ? [1, 2, 3, 0] : [4, 5, 6, 0]
        if !tiff { out.append(Field(.exif, 0x9101, .undefined(components))) }
        out.append(Field(.exif, 0xA000, .undefined(Array("0100".utf8))))
        out.append(Field(.exif, 0xA001, .shorts([image.colorSpace.exifColorSpace])))
        if !tiff {
            out.append(Field(.exif, 0xA002, .longs([UInt32(image.width)])))
            out.append(Field(.exif, 0xA003, .longs([UInt32(image.height)])))
        }
        if let fix = m.gps { out += gpsFields(for: fix) }
        return out.sorted { ($0.directory.order, $0.tag) < ($1.directory.order, $1.tag) }
    }

    /// The capture fields of `m` (``ExifField/capture(for:)``).
    package static func captureFields(for m: FrameMetadata) -> [Field] { ExifField.capture(for: m) }

    /// The GPS fields of `fix` (``ExifField/gps(for:)``).
    package static func gpsFields(for fix: GPSFix) -> [Field] { ExifField.gps(for: fix) }

    /// `value` without NUL characters, or nil when that leaves nothing.
    private static func text(_ value: String?) -> String? { ExifField.text(value) }

    /// The closest fraction to `value` (≥ 0) within 32 bits: the package's one continued-fraction routine
    /// (RawTIFF's `ExactRational`, which the TIFF writers' exact-rational pass uses too).
    package static func fraction(_ value: Double) -> (numerator: UInt64, denominator: UInt64) {
        let f = ExactRational.make(value, signed: false)
        return (UInt64(f.numerator), UInt64(f.denominator))
    }

    // MARK: - libexif

    /// The EXIF type code and little-endian bytes of `value`.
    private static func encoded(_ value: Field.Value) -> (format: ExifFormat, components: Int, bytes: [UInt8]) {
        var bytes: [UInt8] = []
        func put16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func put32(_ v: UInt32) { bytes += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }
        switch value {
        case .ascii(let text):
            bytes = Array(text.utf8) + [0]
            return (EXIF_FORMAT_ASCII, bytes.count, bytes)
        case .bytes(let b):
            return (EXIF_FORMAT_BYTE, b.count, b)
        case .undefined(let b):
            return (EXIF_FORMAT_UNDEFINED, b.count, b)
        case .shorts(let values):
            values.forEach(put16)
            return (EXIF_FORMAT_SHORT, values.count, bytes)
        case .longs(let values):
            values.forEach(put32)
            return (EXIF_FORMAT_LONG, values.count, bytes)
        case .rationals(let values):
            return (EXIF_FORMAT_RATIONAL, values.count, rationalBytes(values, signed: false))
        case .signedRationals(let values):
            return (EXIF_FORMAT_SRATIONAL, values.count, rationalBytes(values, signed: true))
        }
    }

    /// `values` as little-endian RATIONAL (or SRATIONAL) pairs of the closest fractions.
    package static func rationalBytes(_ values: [Double], signed: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 8)
        func put32(_ v: UInt32) { bytes += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }
        for v in values {
            let f = ExactRational.make(v, signed: signed)
            put32(UInt32(truncatingIfNeeded: f.numerator))
            put32(UInt32(truncatingIfNeeded: f.denominator))
        }
        return bytes
    }

    /// Serialises `fields` with libexif: `Exif\0\0` + an Intel-order TIFF structure with IFD0 and, when they
    /// have fields, the EXIF and GPS IFDs.
    private static func serialize(_ fields: [Field]) throws(DevelopError) -> [UInt8] {
        let data = try ExifDataHandle()
        for field in fields {
            let content: UnsafeMutablePointer<ExifContent>?
            switch field.directory {
            case .ifd0: content = data.data.pointee.ifd.0
            case .exif: content = data.data.pointee.ifd.2
            case .gps: content = data.data.pointee.ifd.3
            }
            guard let content else { throw DevelopError("libexif has no directory for tag \(field.tag)") }
            let (format, components, bytes) = encoded(field.value)
            try data.add(tag: field.tag, format: format, components: components, bytes: bytes, to: content)
        }
        return try data.save()
    }
}

/// Owns a libexif `ExifData` and its allocator. Used by one thread at a time.
private final class ExifDataHandle {
    let memory: OpaquePointer
    let data: UnsafeMutablePointer<ExifData>

    init() throws(DevelopError) {
        guard let memory = exif_mem_new_default() else { throw DevelopError("libexif: out of memory") }
        guard let data = exif_data_new_mem(memory) else {
            exif_mem_unref(memory)
            throw DevelopError("libexif: out of memory")
        }
        self.memory = memory
        self.data = data
        // Nothing is added or "fixed" behind our back: every field written is one the encoder chose.
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        exif_data_set_byte_order(data, EXIF_BYTE_ORDER_INTEL)
    }

    deinit {
        exif_data_unref(data)
        exif_mem_unref(memory)
    }

    /// Adds one entry with already encoded (Intel order) value bytes.
    func add(tag: UInt16, format: ExifFormat, components: Int, bytes: [UInt8],
             to content: UnsafeMutablePointer<ExifContent>) throws(DevelopError) {
        guard let entry = exif_entry_new_mem(memory) else { throw DevelopError("libexif: out of memory") }
        defer { exif_entry_unref(entry) }
        guard !bytes.isEmpty, let storage = exif_mem_alloc(memory, ExifLong(bytes.count)) else {
            throw DevelopError("libexif: cannot store tag 0x\(String(tag, radix: 16)) (\(bytes.count) bytes)")
        }
        bytes.withUnsafeBytes { storage.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        entry.pointee.tag = ExifTag(rawValue: UInt32(tag))
        entry.pointee.format = format
        entry.pointee.components = UInt(components)
        entry.pointee.size = UInt32(bytes.count)
        entry.pointee.data = storage.assumingMemoryBound(to: UInt8.self)
        exif_content_add_entry(content, entry)
        guard entry.pointee.parent == content else {
            throw DevelopError("libexif refused tag 0x\(String(tag, radix: 16))")
        }
    }

    /// The serialised block.
    func save() throws(DevelopError) -> [UInt8] {
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        exif_data_save_data(data, &buffer, &size)
        guard let buffer, size > 6 else { throw DevelopError("libexif cannot serialise the EXIF block") }
        defer { exif_mem_free(memory, buffer) }
        guard size <= 65533 else {
            throw DevelopError("the EXIF block is \(size) bytes, more than the 65533 a JPEG APP1 marker holds")
        }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }
}
