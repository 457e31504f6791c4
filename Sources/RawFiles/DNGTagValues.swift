import RawCore
import RawDNG
import RawTIFF

/// The exact values of a DNG's own tags, for the fields LibRaw either does not expose (crop, forward
/// matrices, sub-second capture time and UTC offset, GPS time, serial number, subject distance) or only
/// exposes as `float`. Values that are missing or malformed leave what LibRaw reported in place.
extension TIFFRawFacts {
    /// Replaces LibRaw's values by the DNG's tags where the DNG has them.
    func applyDNGTags(frame: inout RawFrameParts, metadata: inout FrameMetadata, calibration: inout CalibrationParts) {
        guard let raw = structure.rawDirectory else { return }
        let main = structure.mainDirectory
        applyFrameTags(raw, to: &frame)
        applyCalibrationTags(main: main, raw: raw, to: &calibration)
        applyMetadataTags(main: main, exif: structure.exifDirectory, gps: structure.gpsDirectory, to: &metadata)
        metadata.noiseProfile = Self.noiseProfile(main: main, raw: raw, planes: frame.cfa.planeColors.count)
    }

    /// The DNG's NoiseProfile (raw directory, or IFD0 where some writers put it) when it is one for all planes or one
    /// per plane of `planes`; nil when absent or unusable.
    static func noiseProfile(main: TIFFDirectory, raw: TIFFDirectory, planes: Int) -> NoiseProfile? {
        guard let values = raw.numbers(TIFFTag.noiseProfile) ?? main.numbers(TIFFTag.noiseProfile),
              values.count == 2 || values.count == 2 * planes else { return nil }
        return NoiseProfile(tagValues: values)
    }

    /// Crop, scale, black and white levels of the raw directory; an absent DefaultScale, BlackLevel (with
    /// BlackLevelRepeatDim) or WhiteLevel has the DNG specification's default (1x1, 0, 2^BitsPerSample − 1: a
    /// LinearizationTable's values are what LibRaw's white level measures, so it is kept then).
    private func applyFrameTags(_ raw: TIFFDirectory, to frame: inout RawFrameParts) {
        if let origin = raw.numbers(TIFFTag.defaultCropOrigin), let size = raw.numbers(TIFFTag.defaultCropSize),
           origin.count == 2, size.count == 2,
           (origin + size).allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= Self.largestCoordinate }),
           let crop = try? PixelRect(top: Int(origin[1].rounded()), left: Int(origin[0].rounded()),
                                     height: Int(size[1].rounded()), width: Int(size[0].rounded())),
           crop.top + crop.height <= frame.activeArea.height, crop.left + crop.width <= frame.activeArea.width {
            frame.defaultCrop = crop
        }
        if let scale = raw.numbersOrDefault(TIFFTag.defaultScale), scale.count == 2,
           scale.allSatisfy({ $0.isFinite && $0 > 0 }) {
            frame.defaultScale = (scale[0], scale[1])
        }
        let defaultWhite = raw.contains(TIFFTag.linearizationTable) ? nil
            : raw.integerOrDefault(TIFFTag.bitsPerSample).map { TIFFDefaults.whiteLevel(bitsPerSample: $0) }
        if let white = raw.integers(TIFFTag.whiteLevel)?.first ?? defaultWhite, (1...65535).contains(white) {
            frame.whiteLevel = UInt32(white)
        }
        // Exact (possibly fractional) black levels, when the DNG has no per-row or per-column deltas.
        if raw[TIFFTag.blackLevelDeltaH] == nil, raw[TIFFTag.blackLevelDeltaV] == nil,
           let values = raw.numbersOrDefault(TIFFTag.blackLevel) {
            // Each side at most 16 (as BlackLevels allows) before any arithmetic: a LONG8 holds up to 2^64 - 1.
            let dim = raw.integersOrDefault(TIFFTag.blackLevelRepeatDim) ?? [1, 1]
            if dim.count == 2, (1...16).contains(dim[0]), (1...16).contains(dim[1]), values.count == dim[0] * dim[1],
               let exact = Self.blackLevels(rows: dim[0], columns: dim[1], values: values, cfa: frame.cfa) {
                frame.blackLevels = exact
            }
        }
    }

    /// Largest crop coordinate taken from a file (TIFF sizes are 32-bit), so that rounding to `Int` cannot trap.
    static let largestCoordinate = Double(UInt32.max)

    /// The DNG's black level pattern widened to a whole number of CFA repeats, as `RawFrame` keeps it.
    private static func blackLevels(rows: Int, columns: Int, values: [Double], cfa: CFALayout) -> BlackLevels? {
        let spanRows = PeriodFinder.lcm(rows, cfa.rows), spanColumns = PeriodFinder.lcm(columns, cfa.columns)
        guard spanRows <= 16, spanColumns <= 16 else { return nil }
        var widened: [Double] = []
        for r in 0..<spanRows {
            for c in 0..<spanColumns { widened.append(values[(r % rows) * columns + c % columns]) }
        }
        return try? BlackLevels(rows: spanRows, columns: spanColumns, values: widened)
    }

    /// Colour matrices, illuminants, white balance and baseline exposure.
    func applyCalibrationTags(main: TIFFDirectory, raw: TIFFDirectory, to parts: inout CalibrationParts) {
        // Camera profile tags live in IFD0; some writers repeat them in the raw directory.
        func numbers(_ tag: UInt16) -> [Double]? { main.numbers(tag) ?? raw.numbers(tag) }
        let planes = raw.integersOrDefault(TIFFTag.cfaPlaneColor)?.count ?? 3
        func matrix(_ tag: UInt16, rows: Int, columns: Int) -> ColorMatrix? {
            guard let values = numbers(tag), values.count == rows * columns else { return nil }
            return try? ColorMatrix(rows: rows, columns: columns, values: values)
        }
        func light(_ tag: UInt16) -> LightSource? {
            (main.integer(tag) ?? raw.integer(tag)).map { (try? LightSource(code: $0)) ?? .unknown }
        }
        if let cm1 = matrix(TIFFTag.colorMatrix1, rows: planes, columns: 3) {
            parts.colorMatrix1 = cm1
            parts.illuminant1 = light(TIFFTag.calibrationIlluminant1) ?? .unknown
            parts.colorMatrix2 = matrix(TIFFTag.colorMatrix2, rows: planes, columns: 3)
            parts.illuminant2 = parts.colorMatrix2 == nil ? nil : light(TIFFTag.calibrationIlluminant2) ?? .unknown
            parts.forwardMatrix1 = matrix(TIFFTag.forwardMatrix1, rows: 3, columns: planes)
            parts.forwardMatrix2 = matrix(TIFFTag.forwardMatrix2, rows: 3, columns: planes)
            // Only the stand-in's name is kept: a reader of the matrices alone (no hue/saturation maps, no look
            // table) would otherwise pass a profile's name on without the rest of that profile.
            let name = main.string(TIFFTag.profileName) ?? raw.string(TIFFTag.profileName)
            parts.profileName = name == ColorCalibration.uncalibratedProfileName ? name : nil
        }
        if let neutral = numbers(TIFFTag.asShotNeutral), neutral.count == planes {
            (parts.asShotNeutral, parts.neutralOrigin) = (neutral, .file)
        }
        if let baseline = numbers(TIFFTag.baselineExposure)?.first {
            parts.baselineExposure = baseline
        }
    }

    /// Time, exposure, lens, serial number, orientation and GPS.
    func applyMetadataTags(main: TIFFDirectory, exif: TIFFDirectory?, gps: TIFFDirectory?,
                                   to m: inout FrameMetadata) {
        if let code = main.integerOrDefault(TIFFTag.orientation), (1...8).contains(code), let orientation = Orientation(rawValue: UInt16(code)) {
            m.orientation = orientation
        }
        if let serial = main.string(TIFFTag.cameraSerialNumber) ?? exif?.string(TIFFTag.bodySerialNumber),
           !serial.isEmpty {
            m.serialNumber = serial
        }
        if let exif {
            if let lens = exif.string(TIFFTag.lensModel), !lens.isEmpty { m.lens = lens }
            if let text = exif.string(TIFFTag.dateTimeOriginal),
               let time = try? CaptureTime(exifDateTime: text, subSeconds: exif.string(TIFFTag.subSecTimeOriginal),
                                           offset: exif.string(TIFFTag.offsetTimeOriginal)) {
                m.captureTime = time
            }
            if let value = exif.numbers(TIFFTag.exposureTime)?.first { try? m.setExposureTime(value) }
            if let value = exif.numbers(TIFFTag.fNumber)?.first { try? m.setFNumber(value) }
            if let value = exif.integers(TIFFTag.isoSpeedRatings)?.first { try? m.setISO(Double(value)) }
            if let value = exif.numbers(TIFFTag.focalLength)?.first { try? m.setFocalLength(value) }
            if let value = exif.numbers(TIFFTag.subjectDistance)?.first {
                // EXIF: 0xFFFFFFFF/1 means infinity, 0 means unknown.
                if value >= 4_294_967_295 {
                    m.focusDistance = .infinity
                } else if value > 0, let distance = try? FocusDistance.finite(value) {
                    m.focusDistance = distance
                }
            }
            if let number = exif.integers(TIFFTag.imageNumber)?.first, number >= 0 {
                m.sequenceNumber = UInt64(number)
            }
        }
        if let gps, let fix = Self.gpsFix(gps) { m.gps = fix }
    }

    /// The fix of a GPS directory, with its UTC time when both date and time stamps are present.
    static func gpsFix(_ gps: TIFFDirectory) -> GPSFix? {
        func angle(_ tag: UInt16, _ refTag: UInt16, negative: Character) -> Double? {
            guard let dms = gps.numbers(tag), dms.count == 3 else { return nil }
            let value = dms[0] + dms[1] / 60 + dms[2] / 3600
            return gps.string(refTag)?.first == negative ? -value : value
        }
        guard let latitude = angle(TIFFTag.gpsLatitude, TIFFTag.gpsLatitudeRef, negative: "S"),
              let longitude = angle(TIFFTag.gpsLongitude, TIFFTag.gpsLongitudeRef, negative: "W") else { return nil }
        var altitude: Double?
        if let value = gps.numbers(TIFFTag.gpsAltitude)?.first {
            altitude = gps.bytes(TIFFTag.gpsAltitudeRef)?.first == 1 ? -value : value
        }
        var timestamp: Int64?
        if let date = gps.string(TIFFTag.gpsDateStamp), let time = gps.numbers(TIFFTag.gpsTimeStamp), time.count == 3 {
            let fields = date.split(separator: ":").compactMap { Int($0) }
            if fields.count == 3, (1...9999).contains(fields[0]), (1...12).contains(fields[1]), (1...31).contains(fields[2]) {
                let seconds = CivilTime.secondsSince1970(year: fields[0], month: fields[1], day: fields[2],
                                                         hour: 0, minute: 0, second: 0)
                let dayMilliseconds = ((time[0] * 60 + time[1]) * 60 + time[2]) * 1000
                if dayMilliseconds.isFinite, dayMilliseconds >= 0, dayMilliseconds < 86_400_000 {
                    timestamp = seconds * 1000 + Int64(dayMilliseconds.rounded())
                }
            }
        }
        return try? GPSFix(latitude: latitude, longitude: longitude, altitude: altitude,
                           timestampMilliseconds: timestamp)
    }
}
