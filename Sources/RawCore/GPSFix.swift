/// A satellite position fix for a frame (the EXIF GPS IFD).
public struct GPSFix: Sendable, Hashable, CustomStringConvertible {
    /// Degrees north (positive) or south (negative), -90...90.
    public let latitude: Double
    /// Degrees east (positive) or west (negative), -180...180.
    public let longitude: Double
    /// Metres above (positive) or below (negative) sea level, if known.
    public let altitude: Double?
    /// Milliseconds since 1970 (UTC) of the fix, if known.
    public let timestampMilliseconds: Int64?

    /// Creates a fix, rejecting coordinates outside the globe and non-finite values.
    public init(latitude: Double, longitude: Double, altitude: Double? = nil,
                timestampMilliseconds: Int64? = nil) throws(InvalidValueError) {
        try require(latitude.isFinite && abs(latitude) <= 90, "GPS latitude", "\(latitude)° is outside -90...90")
        try require(longitude.isFinite && abs(longitude) <= 180, "GPS longitude", "\(longitude)° is outside -180...180")
        if let altitude {
            try require(altitude.isFinite && abs(altitude) < 100_000, "GPS altitude",
                        "\(altitude) m is outside ±100 km")
        }
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.timestampMilliseconds = timestampMilliseconds
    }

    /// Splits an absolute angle into whole degrees, whole minutes and seconds (seconds keep the fraction).
    public static func degreesMinutesSeconds(_ angle: Double) -> (degrees: Double, minutes: Double, seconds: Double) {
        let a = abs(angle)
        var d = a.rounded(.down)
        var m = ((a - d) * 60).rounded(.down)
        var s = (a - d - m / 60) * 3600
        if s >= 59.999_999_5 { s = 0; m += 1 }
        if m >= 60 { m = 0; d += 1 }
        return (d, m, max(0, s))
    }

    /// The GPS date and time stamp as UTC fields, if the fix has a timestamp.
    public var utcComponents: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double)? {
        guard let ms = timestampMilliseconds else { return nil }
        let whole = Int64((Double(ms) / 1000).rounded(.down))
        let c = CivilTime.components(secondsSince1970: whole)
        return (c.year, c.month, c.day, c.hour, c.minute, Double(c.second) + Double(ms - whole * 1000) / 1000)
    }

    public var description: String {
        var text = "\(abs(latitude))°\(latitude < 0 ? "S" : "N") \(abs(longitude))°\(longitude < 0 ? "W" : "E")"
        if let altitude { text += " \(altitude) m" }
        return text
    }
}
