import Foundation

/// The moment a frame was captured: an instant with millisecond precision and, when known, the UTC offset
/// of the camera's clock (EXIF `OffsetTimeOriginal`).
public struct CaptureTime: Sendable, Hashable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z, rounded to the millisecond.
    public let millisecondsSince1970: Int64
    /// Offset of local time from UTC in seconds (east positive), or nil when the camera did not record it.
    public let utcOffsetSeconds: Int?

    /// Creates a capture time; the offset must be a whole minute within ±14 h.
    public init(millisecondsSince1970: Int64, utcOffsetSeconds: Int?) throws(InvalidValueError) {
        if let offset = utcOffsetSeconds {
            try require(abs(offset) <= 14 * 3600 && offset % 60 == 0, "UTC offset",
                        "\(offset) s is not a whole number of minutes within ±14:00")
        }
        // Years 1...9999 keep EXIF's 4-digit year.
        try require(millisecondsSince1970 >= -62_135_596_800_000 && millisecondsSince1970 < 253_402_300_800_000,
                    "capture time", "\(millisecondsSince1970) ms is outside years 1...9999")
        self.millisecondsSince1970 = millisecondsSince1970
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// Creates a capture time from a `Date`, keeping milliseconds.
    public init(date: Date, utcOffsetSeconds: Int?) throws(InvalidValueError) {
        let ms = (date.timeIntervalSince1970 * 1000).rounded()
        try require(ms.isFinite && abs(ms) < 9e15, "capture time", "\(date) is out of range")
        try self.init(millisecondsSince1970: Int64(ms), utcOffsetSeconds: utcOffsetSeconds)
    }

    /// The current time with this machine's UTC offset.
    public static func now() -> CaptureTime {
        let date = Date()
        let offset = TimeZone.current.secondsFromGMT(for: date)
        return try! CaptureTime(date: date, utcOffsetSeconds: offset - offset % 60) // the clock is in range
    }

    /// The instant.
    public var date: Date { Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000) }

    /// The millisecond within the second, 0...999.
    public var milliseconds: Int { Int(((millisecondsSince1970 % 1000) + 1000) % 1000) }

    /// Local date and time fields (UTC when the offset is unknown).
    public var localComponents: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let seconds = Int64((Double(millisecondsSince1970) / 1000).rounded(.down)) + Int64(utcOffsetSeconds ?? 0)
        return CivilTime.components(secondsSince1970: seconds)
    }

    /// EXIF `DateTimeOriginal` form, `YYYY:MM:DD HH:MM:SS`, in local time.
    public var exifDateTime: String {
        let c = localComponents
        return String(format: "%04d:%02d:%02d %02d:%02d:%02d", c.year, c.month, c.day, c.hour, c.minute, c.second)
    }

    /// EXIF `SubSecTimeOriginal` form: three digits of milliseconds.
    public var exifSubSeconds: String { String(format: "%03d", milliseconds) }

    /// EXIF `OffsetTimeOriginal` form, `+HH:MM`, or nil when the offset is unknown.
    public var exifOffset: String? {
        guard let offset = utcOffsetSeconds else { return nil }
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        return sign + String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    /// Parses EXIF text: `YYYY:MM:DD HH:MM:SS`, optional sub-second digits and an optional `±HH:MM` offset.
    /// Without an offset the fields are taken as UTC and the offset stays unknown.
    public init(exifDateTime text: String, subSeconds: String? = nil, offset: String? = nil) throws(InvalidValueError) {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == " " }).compactMap { Int($0) }
        try require(parts.count == 6, "capture time", "\"\(text)\" is not YYYY:MM:DD HH:MM:SS")
        try require((0...9999).contains(parts[0]) && (1...12).contains(parts[1]) && (1...31).contains(parts[2])
                    && (0...23).contains(parts[3])
                    && (0...59).contains(parts[4]) && (0...59).contains(parts[5]), "capture time",
                    "\"\(text)\" has a field out of range")
        let civil = CivilTime.components(secondsSince1970: CivilTime.secondsSince1970(
            year: parts[0], month: parts[1], day: parts[2], hour: 0, minute: 0, second: 0))
        try require(civil.month == parts[1] && civil.day == parts[2], "capture time",
                    "\"\(text)\": \(parts[0]) has no day \(parts[2]) in month \(parts[1])")
        var offsetSeconds: Int?
        if let offset, !offset.isEmpty {
            let sign = offset.hasPrefix("-") ? -1 : 1
            let hm = offset.dropFirst().split(separator: ":").compactMap { Int($0) }
            try require((offset.hasPrefix("+") || offset.hasPrefix("-")) && hm.count == 2
                        && (0...14).contains(hm[0]) && (0...59).contains(hm[1]), "UTC offset",
                        "\"\(offset)\" is not ±HH:MM within ±14:00")
            offsetSeconds = sign * (hm[0] * 3600 + hm[1] * 60)
        }
        var ms: Int64 = 0
        if let sub = subSeconds?.trimmingCharacters(in: .whitespaces), !sub.isEmpty {
            try require(sub.allSatisfy { $0.isASCII && $0.isNumber }, "sub-seconds", "\"\(sub)\" is not digits 0-9")
            ms = Int64((sub + "000").prefix(3))!
        }
        let local = CivilTime.secondsSince1970(year: parts[0], month: parts[1], day: parts[2],
                                               hour: parts[3], minute: parts[4], second: parts[5])
        try self.init(millisecondsSince1970: (local - Int64(offsetSeconds ?? 0)) * 1000 + ms,
                      utcOffsetSeconds: offsetSeconds)
    }

    /// ISO 8601 with milliseconds, e.g. `2026-11-22T14:03:07.125+01:00`; without an offset (local time of an
    /// unknown zone) when the offset is unknown.
    public var description: String {
        let c = localComponents
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03d", c.year, c.month, c.day, c.hour, c.minute,
                      c.second, milliseconds) + (exifOffset ?? "")
    }
}

/// Proleptic Gregorian calendar arithmetic without time zones (days from civil, civil from days).
public enum CivilTime {
    /// Seconds since the epoch for a UTC calendar date and time.
    public static func secondsSince1970(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        return days * 86400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// UTC calendar fields of a number of seconds since the epoch.
    public static func components(secondsSince1970 s: Int64) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        var days = s / 86400
        var rem = s % 86400
        if rem < 0 { rem += 86400; days -= 1 }
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d), Int(rem / 3600), Int(rem % 3600 / 60), Int(rem % 60))
    }
}
