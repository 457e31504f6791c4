import CLibRaw
import Glibc
import RawCore

/// Camera, exposure, time, place and colour calibration as LibRaw reports them after `unpack`.
enum LibRawMetadata {
    /// The frame metadata; values LibRaw leaves at zero or out of range are left unknown (nil).
    static func metadata(_ handle: LibRawHandle) -> FrameMetadata {
        let d = handle.data
        var m = try! FrameMetadata() // no numeric values: cannot fail
        m.make = CTuple.string(d.pointee.idata.make)
        m.model = CTuple.string(d.pointee.idata.model)
        m.serialNumber = CTuple.string(d.pointee.shootinginfo.BodySerial)
        m.lens = CTuple.string(d.pointee.lens.Lens) ?? CTuple.string(d.pointee.lens.makernotes.Lens)
        try? m.setExposureTime(positive(d.pointee.other.shutter))
        try? m.setFNumber(positive(d.pointee.other.aperture))
        try? m.setISO(positive(d.pointee.other.iso_speed))
        try? m.setFocalLength(positive(d.pointee.other.focal_len))
        m.orientation = Orientation(libRawFlip: Int(d.pointee.sizes.flip))
        m.captureTime = captureTime(timestamp: d.pointee.other.timestamp)
        m.gps = gps(d.pointee.other.parsed_gps)
        return m
    }

    /// A value that is a finite number greater than zero, else nil.
    static func positive(_ value: Float) -> Double? {
        value.isFinite && value > 0 ? Double(value) : nil
    }

    /// LibRaw builds `timestamp` with `mktime` from the camera's local date and time fields; `localtime_r`
    /// recovers those fields, which are then local time with an unknown UTC offset.
    static func captureTime(timestamp: time_t) -> CaptureTime? {
        guard timestamp != 0 else { return nil }
        var t = timestamp
        var fields = tm()
        guard localtime_r(&t, &fields) != nil else { return nil }
        let text = "\(fields.tm_year + 1900):\(fields.tm_mon + 1):\(fields.tm_mday) "
            + "\(fields.tm_hour):\(fields.tm_min):\(fields.tm_sec)"
        return try? CaptureTime(exifDateTime: text)
    }

    /// The GPS fix LibRaw parsed, if any (LibRaw keeps no GPS date, so the fix has no timestamp).
    static func gps(_ info: libraw_gps_info_t) -> GPSFix? {
        guard info.gpsparsed != 0 else { return nil }
        let lat = CTuple.floats(info.latitude), lon = CTuple.floats(info.longitude)
        let latitude = (lat[0] + lat[1] / 60 + lat[2] / 3600) * (UInt8(bitPattern: info.latref) == UInt8(ascii: "S") ? -1 : 1)
        let longitude = (lon[0] + lon[1] / 60 + lon[2] / 3600) * (UInt8(bitPattern: info.longref) == UInt8(ascii: "W") ? -1 : 1)
        var altitude: Double?
        if info.altitude.isFinite, info.altitude != 0 {
            altitude = Double(info.altitude) * (info.altref == 1 ? -1 : 1)
        }
        return try? GPSFix(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    /// The colour calibration: the DNG's own matrices for DNG sources, else LibRaw's built-in (D65) matrix;
    /// no first matrix when none is known. The as-shot neutral is always set when anything gives one: the camera's
    /// multipliers, else LibRaw's pre-multipliers, else the D65 neutral of the matrix (``AsShotNeutralOrigin``).
    static func calibrationParts(_ handle: LibRawHandle) -> CalibrationParts {
        let d = handle.data
        let colours = Int(d.pointee.idata.colors)
        guard (3...4).contains(colours) else { return CalibrationParts(baselineExposure: 0, asShotNeutral: nil) }
        let baseline = d.pointee.color.dng_levels.baseline_exposure
        let baselineExposure = baseline.isFinite && abs(baseline) <= 16 ? Double(baseline) : 0

        var parts = CalibrationParts(baselineExposure: baselineExposure, asShotNeutral: nil)
        if d.pointee.idata.dng_version != 0 {
            let first = d.pointee.color.dng_color.0, second = d.pointee.color.dng_color.1
            parts.colorMatrix1 = matrix(CTuple.floats(first.colormatrix), rows: colours, columns: 3, stride: 3)
            parts.illuminant1 = lightSource(first.illuminant)
            parts.colorMatrix2 = matrix(CTuple.floats(second.colormatrix), rows: colours, columns: 3, stride: 3)
            parts.illuminant2 = parts.colorMatrix2 == nil ? nil : lightSource(second.illuminant)
            parts.forwardMatrix1 = matrix(CTuple.floats(first.forwardmatrix), rows: 3, columns: colours, stride: 4)
            parts.forwardMatrix2 = matrix(CTuple.floats(second.forwardmatrix), rows: 3, columns: colours, stride: 4)
            if parts.colorMatrix1 == nil, let m = parts.colorMatrix2 {
                (parts.colorMatrix1, parts.illuminant1) = (m, parts.illuminant2 ?? .unknown)
                (parts.colorMatrix2, parts.illuminant2) = (nil, nil)
                (parts.forwardMatrix1, parts.forwardMatrix2) = (parts.forwardMatrix2, nil)
            }
        }
        if parts.colorMatrix1 == nil {
            parts.colorMatrix1 = matrix(CTuple.floats(d.pointee.color.cam_xyz), rows: colours, columns: 3, stride: 3)
            parts.illuminant1 = .d65
        }
        if let neutral = asShotNeutral(cameraMultipliers: Array(CTuple.floats(d.pointee.color.cam_mul).prefix(colours))) {
            (parts.asShotNeutral, parts.neutralOrigin) = (neutral, .cameraMultipliers)
        } else if let neutral = asShotNeutral(cameraMultipliers: Array(CTuple.floats(d.pointee.color.pre_mul).prefix(colours))) {
            (parts.asShotNeutral, parts.neutralOrigin) = (neutral, .preMultipliers)
        } else if let m = parts.colorMatrix1, let neutral = d65Neutral(m) {
            (parts.asShotNeutral, parts.neutralOrigin) = (neutral, .colorMatrix)
        }
        return parts
    }

    /// AsShotNeutral from LibRaw's camera multipliers: 1/multiplier, scaled so that green is 1.
    static func asShotNeutral(cameraMultipliers mul: [Double]) -> [Double]? {
        guard mul.count >= 3, mul.allSatisfy({ $0.isFinite && $0 > 0 }) else { return nil }
        let neutral = mul.map { mul[1] / $0 }
        return neutral.allSatisfy { $0 > 0 && $0 <= 16 } ? neutral : nil
    }

    /// The camera's response to D65 white through `matrix` (XYZ → camera), scaled so that green is 1; nil when it is
    /// not positive or not in (0, 16].
    static func d65Neutral(_ matrix: ColorMatrix) -> [Double]? {
        guard matrix.columns == 3, matrix.rows >= 3 else { return nil }
        let white = ColorSpaceMath.d65White, v = matrix.values
        let response = (0..<matrix.rows).map { r in v[r * 3] * white.X + v[r * 3 + 1] * white.Y + v[r * 3 + 2] * white.Z }
        guard response[1] > 0 else { return nil }
        let neutral = response.map { $0 / response[1] }
        return neutral.allSatisfy { $0.isFinite && $0 > 0 && $0 <= 16 } ? neutral : nil
    }

    /// A `rows` x `columns` matrix from a row-major C array whose rows are `stride` wide; nil when all zero.
    static func matrix(_ values: [Double], rows: Int, columns: Int, stride: Int) -> ColorMatrix? {
        var picked: [Double] = []
        for r in 0..<rows {
            for c in 0..<columns where r * stride + c < values.count { picked.append(values[r * stride + c]) }
        }
        return try? ColorMatrix(rows: rows, columns: columns, values: picked)
    }

    /// An EXIF light source code; LibRaw's "unset" (65535) and unknown codes become `.unknown`.
    static func lightSource(_ code: UInt16) -> LightSource {
        (try? LightSource(code: Int(code))) ?? .unknown
    }
}
