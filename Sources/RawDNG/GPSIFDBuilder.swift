import Foundation
import RawCore

/// Builds the GPS sub-IFD of a DNG from a position fix.
enum GPSIFDBuilder {
    /// The GPS tags for `fix`: version 2.3, latitude/longitude with their N/S and E/W references
    /// (seconds keep their fraction), altitude with its sea-level reference, and the UTC date and time stamp.
    static func assignments(for fix: GPSFix) -> [TagAssignment] {
        typealias T = DNGTagNumber
        let lat = GPSFix.degreesMinutesSeconds(fix.latitude)
        let lon = GPSFix.degreesMinutesSeconds(fix.longitude)
        var out: [TagAssignment] = [
            .bytes(T.gpsVersionID, [2, 3, 0, 0]),
            .text(T.gpsLatitudeRef, fix.latitude < 0 ? "S" : "N"),
            .numbers(T.gpsLatitude, [lat.degrees, lat.minutes, lat.seconds]),
            .text(T.gpsLongitudeRef, fix.longitude < 0 ? "W" : "E"),
            .numbers(T.gpsLongitude, [lon.degrees, lon.minutes, lon.seconds]),
        ]
        if let altitude = fix.altitude {
            out.append(.bytes(T.gpsAltitudeRef, [altitude < 0 ? 1 : 0]))
            out.append(.number(T.gpsAltitude, abs(altitude)))
        }
        if let utc = fix.utcComponents {
            out.append(.numbers(T.gpsTimeStamp, [Double(utc.hour), Double(utc.minute), utc.second]))
            out.append(.text(T.gpsDateStamp, String(format: "%04d:%02d:%02d", utc.year, utc.month, utc.day)))
        }
        return out
    }
}
