import Foundation
import CRawBurst
import RawCore

/// A caller's `rawburst_exif` and `rawburst_gps` as the library's `FrameMetadata`.
enum ABIMetadata {
    static func frameMetadata(_ exif: rawburst_exif, gps: rawburst_gps) throws(ABIFailure) -> FrameMetadata {
        func positive(_ value: Double) -> Double? { value == 0 ? nil : value }
        do {
            let time = try optionalString(exif.capture_time, "exif.capture_time").map { text throws(ABIFailure) in
                try captureTime(iso8601: text)
            }
            let orientation = try Orientation(code: exif.orientation == 0 ? 1 : Int(exif.orientation))
            return try FrameMetadata(make: try optionalString(exif.make, "exif.make"),
                                     model: try optionalString(exif.model, "exif.model"),
                                     serialNumber: try optionalString(exif.serial_number, "exif.serial_number"),
                                     lens: try optionalString(exif.lens, "exif.lens"), captureTime: time,
                                     exposureTime: positive(exif.exposure_time), fNumber: positive(exif.f_number),
                                     iso: positive(exif.iso), focalLength: positive(exif.focal_length),
                                     orientation: orientation, gps: try fix(gps))
        } catch {
            throw ABIFailure(error)
        }
    }

    private static func fix(_ gps: rawburst_gps) throws -> GPSFix? {
        guard gps.present != 0 else { return nil }
        return try GPSFix(latitude: gps.latitude, longitude: gps.longitude, altitude: gps.has_altitude != 0 ? gps.altitude : nil)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS`, optional `.fff` and an optional `Z` or `±HH:MM`.
    static func captureTime(iso8601 text: String) throws(ABIFailure) -> CaptureTime {
        let problem = ABIFailure.argument("exif.capture_time", "\"\(text)\" is not YYYY-MM-DDTHH:MM:SS[.fff][±HH:MM]")
        let characters = Array(text)
        guard characters.count >= 19, characters[10] == "T" || characters[10] == " ",
              characters[4] == "-", characters[7] == "-", characters[13] == ":", characters[16] == ":",
              [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18].allSatisfy({ characters[$0].isASCII && characters[$0].isNumber })
        else { throw problem }
        let date = String(characters[0..<10]).replacingOccurrences(of: "-", with: ":")
        let clock = String(characters[11..<19])
        var rest = characters[19...]
        var fraction: String?
        if rest.first == "." {
            let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty else { throw problem }
            fraction = String(digits)
            rest = rest.dropFirst(1 + digits.count)
        }
        var offset: String?
        if rest.first == "Z" && rest.count == 1 {
            offset = "+00:00"
        } else if !rest.isEmpty {
            offset = String(rest)
        }
        do { return try CaptureTime(exifDateTime: date + " " + clock, subSeconds: fraction, offset: offset) } catch {
            throw .argument("exif.capture_time", "\"\(text)\": \(error.message)")
        }
    }
}
