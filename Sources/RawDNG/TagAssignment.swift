/// One tag value to be written into a TIFF directory, independent of libtiff's calling conventions.
struct TagAssignment: Sendable, Hashable {
    /// A value in the form the writer hands to libtiff.
    enum Value: Sendable, Hashable {
        /// Numbers (integers or reals); converted to the field's storage type by the C shim.
        case numbers([Double])
        /// Unsigned integers that must stay exact (offsets, 32-bit counts).
        case unsigned([UInt64])
        /// ASCII text.
        case text(String)
        /// BYTE or UNDEFINED data.
        case bytes([UInt8])
    }

    let tag: UInt32
    let value: Value

    init(_ tag: UInt32, _ value: Value) {
        self.tag = tag
        self.value = value
    }

    static func number(_ tag: UInt32, _ v: Double) -> TagAssignment { TagAssignment(tag, .numbers([v])) }
    static func numbers(_ tag: UInt32, _ v: [Double]) -> TagAssignment { TagAssignment(tag, .numbers(v)) }
    static func unsignedShort(_ tag: UInt32, _ v: UInt16) -> TagAssignment { TagAssignment(tag, .unsigned([UInt64(v)])) }
    static func text(_ tag: UInt32, _ v: String) -> TagAssignment { TagAssignment(tag, .text(v)) }
    static func bytes(_ tag: UInt32, _ v: [UInt8]) -> TagAssignment { TagAssignment(tag, .bytes(v)) }
}

/// Tag numbers the DNG writer uses (TIFF 6, TIFF/EP, EXIF 2.32 and DNG 1.6).
enum DNGTagNumber {
    static let newSubFileType: UInt32 = 254
    static let imageWidth: UInt32 = 256
    static let imageLength: UInt32 = 257
    static let bitsPerSample: UInt32 = 258
    static let compression: UInt32 = 259
    static let photometric: UInt32 = 262
    static let make: UInt32 = 271
    static let model: UInt32 = 272
    static let orientation: UInt32 = 274
    static let samplesPerPixel: UInt32 = 277
    static let rowsPerStrip: UInt32 = 278
    static let planarConfig: UInt32 = 284
    static let software: UInt32 = 305
    static let dateTime: UInt32 = 306
    static let tileWidth: UInt32 = 322
    static let tileLength: UInt32 = 323
    static let subIFDs: UInt32 = 330
    static let exifIFD: UInt32 = 34665
    static let gpsIFD: UInt32 = 34853
    static let cfaRepeatPatternDim: UInt32 = 33421
    static let cfaPattern: UInt32 = 33422
    static let dngVersion: UInt32 = 50706
    static let dngBackwardVersion: UInt32 = 50707
    static let uniqueCameraModel: UInt32 = 50708
    static let cfaPlaneColor: UInt32 = 50710
    static let cfaLayout: UInt32 = 50711
    static let blackLevelRepeatDim: UInt32 = 50713
    static let blackLevel: UInt32 = 50714
    static let whiteLevel: UInt32 = 50717
    static let defaultScale: UInt32 = 50718
    static let defaultCropOrigin: UInt32 = 50719
    static let defaultCropSize: UInt32 = 50720
    static let colorMatrix1: UInt32 = 50721
    static let colorMatrix2: UInt32 = 50722
    static let asShotNeutral: UInt32 = 50728
    static let baselineExposure: UInt32 = 50730
    static let cameraSerialNumber: UInt32 = 50735
    static let calibrationIlluminant1: UInt32 = 50778
    static let calibrationIlluminant2: UInt32 = 50779
    static let rawDataUniqueID: UInt32 = 50781
    static let activeArea: UInt32 = 50829
    static let forwardMatrix1: UInt32 = 50964
    static let forwardMatrix2: UInt32 = 50965
    // CinemaDNG
    static let timeCodes: UInt32 = 51043
    static let frameRate: UInt32 = 51044
    static let reelName: UInt32 = 51081
    static let newRawImageDigest: UInt32 = 51111
    // EXIF
    static let exposureTime: UInt32 = 33434
    static let fNumber: UInt32 = 33437
    static let exposureProgram: UInt32 = 34850
    static let isoSpeedRatings: UInt32 = 34855
    static let exposureBiasValue: UInt32 = 37380
    static let meteringMode: UInt32 = 37383
    static let whiteBalance: UInt32 = 41987
    static let focalLengthIn35mmFilm: UInt32 = 41989
    static let exifVersion: UInt32 = 36864
    static let dateTimeOriginal: UInt32 = 36867
    static let offsetTimeOriginal: UInt32 = 36881
    static let subjectDistance: UInt32 = 37382
    static let focalLength: UInt32 = 37386
    static let subSecTimeOriginal: UInt32 = 37521
    static let bodySerialNumber: UInt32 = 42033
    static let lensModel: UInt32 = 42036
    // GPS
    static let gpsVersionID: UInt32 = 0
    static let gpsLatitudeRef: UInt32 = 1
    static let gpsLatitude: UInt32 = 2
    static let gpsLongitudeRef: UInt32 = 3
    static let gpsLongitude: UInt32 = 4
    static let gpsAltitudeRef: UInt32 = 5
    static let gpsAltitude: UInt32 = 6
    static let gpsTimeStamp: UInt32 = 7
    static let gpsDateStamp: UInt32 = 29
}
