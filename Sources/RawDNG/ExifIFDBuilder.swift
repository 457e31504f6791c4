import RawCore

/// Builds the EXIF sub-IFD of a DNG from frame metadata.
enum ExifIFDBuilder {
    /// The EXIF tags for `metadata`; ExifVersion is always present (0231).
    static func assignments(for metadata: FrameMetadata) -> [TagAssignment] {
        typealias T = DNGTagNumber
        var out: [TagAssignment] = [.bytes(T.exifVersion, Array("0231".utf8))]
        if let t = metadata.exposureTime { out.append(.number(T.exposureTime, t)) }
        if let f = metadata.fNumber { out.append(.number(T.fNumber, f)) }
        if let iso = metadata.iso { out.append(.numbers(T.isoSpeedRatings, [min(65535, iso.rounded())])) }
        if let time = metadata.captureTime {
            out.append(.text(T.dateTimeOriginal, time.exifDateTime))
            out.append(.text(T.subSecTimeOriginal, time.exifSubSeconds))
            if let offset = time.exifOffset { out.append(.text(T.offsetTimeOriginal, offset)) }
        }
        if let fl = metadata.focalLength { out.append(.number(T.focalLength, fl)) }
        if let lens = metadata.lens, !lens.isEmpty { out.append(.text(T.lensModel, lens)) }
        if let distance = metadata.focusDistance {
            // EXIF: 0xFFFFFFFF/1 means infinity.
            out.append(.number(T.subjectDistance, distance == .infinity ? 4_294_967_295 : distance.metresValue))
        }
        if let program = metadata.exposureProgram { out.append(.unsignedShort(T.exposureProgram, program.rawValue)) }
        if let bias = metadata.exposureBias { out.append(.number(T.exposureBiasValue, bias)) }
        if let pattern = metadata.meteringPattern { out.append(.unsignedShort(T.meteringMode, pattern.rawValue)) }
        if let automatic = metadata.whiteBalanceAutomatic { out.append(.unsignedShort(T.whiteBalance, automatic ? 0 : 1)) }
        if let equivalent = metadata.focalLengthIn35mmFilm, equivalent >= 1 {
            out.append(.unsignedShort(T.focalLengthIn35mmFilm, UInt16(min(65535, equivalent.rounded()))))
        }
        if let serial = metadata.serialNumber, !serial.isEmpty { out.append(.text(T.bodySerialNumber, serial)) }
        return out
    }
}
