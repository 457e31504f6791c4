import CRawBurst
import RawCore

/// The C structs of rawburst.h filled from the library's values: a frame's layout, its EXIF, GPS and colour. Each is
/// handed a struct ``filling(_:_:size:_:)`` has zeroed (its `struct_size` kept) and sets only what is known.
enum ABIFrameValues {
    /// `layout` from a frame; its `struct_size` is checked by the caller.
    static func fill(_ layout: inout rawburst_layout, from frame: RawFrame) {
        layout.width = UInt32(frame.width)
        layout.height = UInt32(frame.height)
        layout.bits_per_sample = UInt32(frame.bitsPerSample)
        layout.white_level = frame.whiteLevel
        layout.cfa_rows = UInt32(frame.cfa.rows)
        layout.cfa_columns = UInt32(frame.cfa.columns)
        setTuple(&layout.cfa, frame.cfa.pattern.map(\.rawValue))
        let text = Array(frame.cfa.description.utf8.prefix(39)).map { CChar(bitPattern: $0) }
        setTuple(&layout.cfa_text, text)
        layout.black_rows = UInt32(frame.blackLevels.rows)
        layout.black_columns = UInt32(frame.blackLevels.columns)
        setTuple(&layout.black, Array(frame.blackLevels.values.prefix(256)))
        layout.active_top = UInt32(frame.activeArea.top)
        layout.active_left = UInt32(frame.activeArea.left)
        layout.active_bottom = UInt32(frame.activeArea.top + frame.activeArea.height)
        layout.active_right = UInt32(frame.activeArea.left + frame.activeArea.width)
        layout.crop_left = UInt32(frame.defaultCrop.left)
        layout.crop_top = UInt32(frame.defaultCrop.top)
        layout.crop_width = UInt32(frame.defaultCrop.width)
        layout.crop_height = UInt32(frame.defaultCrop.height)
    }

    /// `exif` from metadata, its strings kept in `strings`.
    static func fill(_ exif: inout rawburst_exif, from metadata: FrameMetadata, strings: ABIStrings) {
        exif.make = strings.keep(metadata.make)
        exif.model = strings.keep(metadata.model)
        exif.serial_number = strings.keep(metadata.serialNumber)
        exif.lens = strings.keep(metadata.lens)
        exif.capture_time = strings.keep(metadata.captureTime?.description)
        exif.exposure_time = metadata.exposureTime ?? 0
        exif.f_number = metadata.fNumber ?? 0
        exif.iso = metadata.iso ?? 0
        exif.focal_length = metadata.focalLength ?? 0
        exif.orientation = UInt32(metadata.orientation.rawValue)
    }

    /// `gps` from a fix (`present` 0 for none).
    static func fill(_ gps: inout rawburst_gps, from fix: GPSFix?) {
        guard let fix else { return }
        gps.present = 1
        gps.latitude = fix.latitude
        gps.longitude = fix.longitude
        if let altitude = fix.altitude {
            gps.has_altitude = 1
            gps.altitude = altitude
        }
    }

    /// `color` from a calibration (`channels` 0 for none); a stand-in calibration counts as none.
    static func fill(_ color: inout rawburst_color, from calibration: ColorCalibration?, metadata: FrameMetadata) {
        color.baseline_exposure = metadata.baselineExposure ?? calibration?.baselineExposure ?? 0
        guard let calibration, !calibration.isStandIn else { return }
        color.channels = UInt32(calibration.cameraChannels)
        setTuple(&color.color_matrix, Array(calibration.colorMatrix1.values.prefix(12)))
        color.illuminant = UInt32(calibration.illuminant1.rawValue)
        setTuple(&color.as_shot_neutral, Array((calibration.asShotNeutral ?? []).prefix(4)))
        color.baseline_exposure = calibration.baselineExposure
    }
}
