import RawCore
import RawDevelop
import RawTIFF

/// Builds the EXIF sub-IFD of a DNG from frame metadata: RawDevelop's EXIF field mapping (the one developed
/// pictures carry) with ExifVersion 0231, as libtiff assignments.
enum ExifIFDBuilder {
    /// The EXIF tags for `metadata`; ExifVersion is always present (0231).
    static func assignments(for metadata: FrameMetadata) -> [TagAssignment] {
        [.bytes(TIFFTag.exifVersion, Array("0231".utf8))] + ExifField.capture(for: metadata).map(TagAssignment.init(field:))
    }
}

/// Builds the GPS sub-IFD of a DNG from a position fix (RawDevelop's GPS field mapping).
enum GPSIFDBuilder {
    /// The GPS tags for `fix`: version 2.3, latitude/longitude with their N/S and E/W references (seconds keep
    /// their fraction), altitude with its sea-level reference, and the UTC date and time stamp.
    static func assignments(for fix: GPSFix) -> [TagAssignment] {
        ExifField.gps(for: fix).map(TagAssignment.init(field:))
    }
}
