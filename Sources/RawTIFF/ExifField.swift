import RawCore

/// One EXIF field: directory, tag number and typed value. The one mapping from a frame's metadata to EXIF and GPS
/// fields, used by the DNG writer's EXIF and GPS IFDs (through ``TagAssignment/init(field:)``) and by the developed
/// pictures' EXIF blocks (RawImageIO's `ExifBlock`, serialised with libexif).
package struct ExifField: Sendable, Hashable {
    /// The directory a field belongs to.
    package enum Directory: Sendable, Hashable {
        /// The primary image directory (TIFF tags).
        case ifd0
        /// The EXIF private directory.
        case exif
        /// The GPS directory.
        case gps

        /// Position in a file: IFD0, then EXIF, then GPS.
        package var order: Int {
            switch self {
            case .ifd0: 0
            case .exif: 1
            case .gps: 2
            }
        }
    }

    /// A value in its EXIF type.
    package enum Value: Sendable, Hashable {
        /// ASCII text (NUL-terminated when written).
        case ascii(String)
        /// BYTE values.
        case bytes([UInt8])
        /// UNDEFINED bytes.
        case undefined([UInt8])
        /// SHORT values.
        case shorts([UInt16])
        /// LONG values.
        case longs([UInt32])
        /// RATIONAL values (written as exact-as-possible fractions).
        case rationals([Double])
        /// SRATIONAL values.
        case signedRationals([Double])
    }

    package let directory: Directory
    package let tag: UInt16
    package let value: Value

    package init(_ directory: Directory, _ tag: UInt16, _ value: Value) {
        self.directory = directory
        self.tag = tag
        self.value = value
    }

    /// The EXIF IFD fields that describe the capture (the DNG writer's EXIF IFD and the developed pictures' EXIF blocks,
    /// without ExifVersion): exposure time, f-number, program, ISO, original time with sub-seconds and UTC offset,
    /// exposure bias, subject distance (0xFFFFFFFF/1 at infinity), metering, focal length (and its 35 mm
    /// equivalent), white balance, body serial number and lens model.
    package static func capture(for m: FrameMetadata) -> [ExifField] {
        var out: [ExifField] = []
        if let t = m.exposureTime { out.append(ExifField(.exif, 0x829A, .rationals([t]))) }
        if let f = m.fNumber { out.append(ExifField(.exif, 0x829D, .rationals([f]))) }
        if let program = m.exposureProgram { out.append(ExifField(.exif, 0x8822, .shorts([program.rawValue]))) }
        if let iso = m.iso { out.append(ExifField(.exif, 0x8827, .shorts([UInt16(min(65535, iso.rounded()))]))) }
        if let time = m.captureTime {
            out.append(ExifField(.exif, 0x9003, .ascii(time.exifDateTime)))
            if let offset = time.exifOffset { out.append(ExifField(.exif, 0x9011, .ascii(offset))) }
            out.append(ExifField(.exif, 0x9291, .ascii(time.exifSubSeconds)))
        }
        if let bias = m.exposureBias, bias.isFinite { out.append(ExifField(.exif, 0x9204, .signedRationals([bias]))) }
        if let distance = m.focusDistance {
            out.append(ExifField(.exif, 0x9206, .rationals([distance == .infinity ? 4_294_967_295 : distance.metresValue])))
        }
        if let pattern = m.meteringPattern { out.append(ExifField(.exif, 0x9207, .shorts([pattern.rawValue]))) }
        if let fl = m.focalLength { out.append(ExifField(.exif, 0x920A, .rationals([fl]))) }
        if let automatic = m.whiteBalanceAutomatic { out.append(ExifField(.exif, 0xA403, .shorts([automatic ? 0 : 1]))) }
        if let equivalent = m.focalLengthIn35mmFilm, equivalent >= 1, equivalent.isFinite {
            out.append(ExifField(.exif, 0xA405, .shorts([UInt16(min(65535, equivalent.rounded()))])))
        }
        if let serial = text(m.serialNumber) { out.append(ExifField(.exif, 0xA431, .ascii(serial))) }
        if let lens = text(m.lens) { out.append(ExifField(.exif, 0xA434, .ascii(lens))) }
        return out
    }

    /// The GPS IFD fields of `fix` (as the DNG writer's GPS IFD): version 2.3, latitude and longitude with
    /// their N/S and E/W references (seconds keep their fraction), altitude with its sea-level reference, and
    /// the UTC time and date stamps.
    package static func gps(for fix: GPSFix) -> [ExifField] {
        let lat = GPSFix.degreesMinutesSeconds(fix.latitude)
        let lon = GPSFix.degreesMinutesSeconds(fix.longitude)
        var out = [
            ExifField(.gps, 0x0000, .bytes([2, 3, 0, 0])),
            ExifField(.gps, 0x0001, .ascii(fix.latitude < 0 ? "S" : "N")),
            ExifField(.gps, 0x0002, .rationals([lat.degrees, lat.minutes, lat.seconds])),
            ExifField(.gps, 0x0003, .ascii(fix.longitude < 0 ? "W" : "E")),
            ExifField(.gps, 0x0004, .rationals([lon.degrees, lon.minutes, lon.seconds])),
        ]
        if let altitude = fix.altitude {
            out.append(ExifField(.gps, 0x0005, .bytes([altitude < 0 ? 1 : 0])))
            out.append(ExifField(.gps, 0x0006, .rationals([abs(altitude)])))
        }
        if let utc = fix.utcComponents {
            out.append(ExifField(.gps, 0x0007, .rationals([Double(utc.hour), Double(utc.minute), utc.second])))
            out.append(ExifField(.gps, 0x001D, .ascii("\(digits(utc.year, 4)):\(digits(utc.month, 2)):\(digits(utc.day, 2))")))
        }
        return out
    }

    /// `value` without NUL characters, or nil when that leaves nothing.
    package static func text(_ value: String?) -> String? {
        guard let value else { return nil }
        let cleaned = String(value.unicodeScalars.filter { $0 != "\0" })
        return cleaned.isEmpty ? nil : cleaned
    }

    /// `value` in decimal with at least `count` digits.
    private static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }
}

extension TagAssignment {
    /// The libtiff assignment of an EXIF field (libtiff knows each EXIF tag's type; rationals go through the
    /// exact-rational patch pass of `TIFFFinisher`).
    package init(field: ExifField) {
        let tag = UInt16(field.tag)
        switch field.value {
        case .ascii(let text): self.init(tag, .text(text))
        case .bytes(let bytes), .undefined(let bytes): self.init(tag, .bytes(bytes))
        case .shorts(let values): self.init(tag, .unsigned(values.map(UInt64.init)))
        case .longs(let values): self.init(tag, .unsigned(values.map(UInt64.init)))
        case .rationals(let values), .signedRationals(let values): self.init(tag, .numbers(values))
        }
    }
}
