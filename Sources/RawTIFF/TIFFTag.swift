/// Names and numbers of TIFF 6, TIFF/EP, EXIF 2.32, GPS, Interoperability, DNG 1.0–1.7 and CinemaDNG tags.
///
/// Names are spelt as the specification that defines the tag spells them (DNG tags as in the DNG
/// specification: `"CFARepeatPatternDim"`, `"BlackLevelRepeatDim"`, `"AsShotNeutral"`, `"ForwardMatrix1"`).
public enum TIFFTag {
    // MARK: Numbers used by the reader, the validator and the writers (the package's one table of tag numbers)

    public static let newSubFileType: UInt16 = 254
    public static let imageWidth: UInt16 = 256
    public static let imageLength: UInt16 = 257
    public static let bitsPerSample: UInt16 = 258
    public static let compression: UInt16 = 259
    public static let photometricInterpretation: UInt16 = 262
    public static let fillOrder: UInt16 = 266
    public static let imageDescription: UInt16 = 270
    public static let make: UInt16 = 271
    public static let model: UInt16 = 272
    public static let stripOffsets: UInt16 = 273
    public static let orientation: UInt16 = 274
    public static let samplesPerPixel: UInt16 = 277
    public static let rowsPerStrip: UInt16 = 278
    public static let stripByteCounts: UInt16 = 279
    public static let planarConfiguration: UInt16 = 284
    public static let software: UInt16 = 305
    public static let dateTime: UInt16 = 306
    public static let tileWidth: UInt16 = 322
    public static let tileLength: UInt16 = 323
    public static let tileOffsets: UInt16 = 324
    public static let tileByteCounts: UInt16 = 325
    public static let subIFDs: UInt16 = 330
    public static let sampleFormat: UInt16 = 339
    public static let predictor: UInt16 = 317
    public static let jpegTables: UInt16 = 347
    public static let interColorProfile: UInt16 = 34675
    public static let jpegInterchangeFormat: UInt16 = 513
    public static let jpegInterchangeFormatLength: UInt16 = 514
    public static let cfaRepeatPatternDim: UInt16 = 33421
    public static let cfaPattern: UInt16 = 33422
    public static let exposureTime: UInt16 = 33434
    public static let fNumber: UInt16 = 33437
    public static let exifIFD: UInt16 = 34665
    public static let gpsIFD: UInt16 = 34853
    public static let isoSpeedRatings: UInt16 = 34855
    public static let exifVersion: UInt16 = 36864
    public static let dateTimeOriginal: UInt16 = 36867
    public static let focalLength: UInt16 = 37386
    public static let interoperabilityIFD: UInt16 = 40965
    public static let dngVersion: UInt16 = 50706
    public static let dngBackwardVersion: UInt16 = 50707
    public static let uniqueCameraModel: UInt16 = 50708
    public static let cfaPlaneColor: UInt16 = 50710
    public static let cfaLayout: UInt16 = 50711
    public static let linearizationTable: UInt16 = 50712
    public static let blackLevelRepeatDim: UInt16 = 50713
    public static let blackLevel: UInt16 = 50714
    public static let blackLevelDeltaH: UInt16 = 50715
    public static let blackLevelDeltaV: UInt16 = 50716
    public static let whiteLevel: UInt16 = 50717
    public static let defaultScale: UInt16 = 50718
    public static let defaultCropOrigin: UInt16 = 50719
    public static let defaultCropSize: UInt16 = 50720
    public static let colorMatrix1: UInt16 = 50721
    public static let colorMatrix2: UInt16 = 50722
    public static let cameraCalibration1: UInt16 = 50723
    public static let cameraCalibration2: UInt16 = 50724
    public static let asShotNeutral: UInt16 = 50728
    public static let asShotWhiteXY: UInt16 = 50729
    public static let calibrationIlluminant1: UInt16 = 50778
    public static let calibrationIlluminant2: UInt16 = 50779
    public static let activeArea: UInt16 = 50829
    public static let forwardMatrix1: UInt16 = 50964
    public static let forwardMatrix2: UInt16 = 50965
    public static let profileName: UInt16 = 50936
    public static let exposureProgram: UInt16 = 34850
    public static let exposureBiasValue: UInt16 = 37380
    public static let subjectDistance: UInt16 = 37382
    public static let meteringMode: UInt16 = 37383
    public static let imageNumber: UInt16 = 37393
    public static let subSecTimeOriginal: UInt16 = 37521
    public static let offsetTimeOriginal: UInt16 = 36881
    public static let whiteBalance: UInt16 = 41987
    public static let focalLengthIn35mmFilm: UInt16 = 41989
    public static let bodySerialNumber: UInt16 = 42033
    public static let lensModel: UInt16 = 42036
    public static let baselineExposure: UInt16 = 50730
    public static let cameraSerialNumber: UInt16 = 50735
    public static let rawDataUniqueID: UInt16 = 50781
    public static let timeCodes: UInt16 = 51043
    public static let frameRate: UInt16 = 51044
    public static let tStop: UInt16 = 51058
    public static let reelName: UInt16 = 51081
    public static let newRawImageDigest: UInt16 = 51111
    public static let baselineNoise: UInt16 = 50731
    public static let baselineSharpness: UInt16 = 50732
    public static let bayerGreenSplit: UInt16 = 50733
    public static let linearResponseLimit: UInt16 = 50734
    public static let antiAliasStrength: UInt16 = 50738
    public static let shadowScale: UInt16 = 50739
    public static let bestQualityScale: UInt16 = 50780
    public static let maskedAreas: UInt16 = 50830
    public static let subTileBlockSize: UInt16 = 50974
    public static let rowInterleaveFactor: UInt16 = 50975
    public static let opcodeList1: UInt16 = 51008
    public static let opcodeList2: UInt16 = 51009
    public static let opcodeList3: UInt16 = 51022
    public static let noiseProfile: UInt16 = 51041
    public static let columnInterleaveFactor: UInt16 = 52547
    // GPS directory (numbers of their own namespace)
    public static let gpsVersionID: UInt16 = 0
    public static let gpsLatitudeRef: UInt16 = 1
    public static let gpsLatitude: UInt16 = 2
    public static let gpsLongitudeRef: UInt16 = 3
    public static let gpsLongitude: UInt16 = 4
    public static let gpsAltitudeRef: UInt16 = 5
    public static let gpsAltitude: UInt16 = 6
    public static let gpsTimeStamp: UInt16 = 7
    public static let gpsDateStamp: UInt16 = 29

    // MARK: Names

    /// The name of `tag`, e.g. `"ImageWidth"` or `"AsShotNeutral"`; `"Tag0x1234"` for tags not listed.
    /// Tag numbers below 32 are named as GPS tags (TIFF defines none there); use
    /// ``name(for:inDirectory:)`` to name the entries of an Interoperability directory.
    public static func name(for tag: UInt16) -> String {
        names[tag] ?? unknownName(tag)
    }

    /// The name of `tag` in the directory at `path` (`"IFD0.GPS"` gives GPS names, `"...Interop"` the
    /// Interoperability names, other paths ``name(for:)``).
    public static func name(for tag: UInt16, inDirectory path: String) -> String {
        if path.hasSuffix("Interop"), let name = interopNames[tag] { return name }
        if path.hasSuffix("GPS") { return gpsNames[tag] ?? unknownName(tag) }
        return name(for: tag)
    }

    /// `"Tag0x"` followed by four upper-case hexadecimal digits.
    static func unknownName(_ tag: UInt16) -> String {
        let digits = Array("0123456789ABCDEF")
        var text = "Tag0x"
        for shift in stride(from: 12, through: 0, by: -4) { text.append(digits[Int((tag >> UInt16(shift)) & 0xF)]) }
        return text
    }

    private static let gpsNames: [UInt16: String] = {
        let list = ["GPSVersionID", "GPSLatitudeRef", "GPSLatitude", "GPSLongitudeRef", "GPSLongitude", "GPSAltitudeRef",
                    "GPSAltitude", "GPSTimeStamp", "GPSSatellites", "GPSStatus", "GPSMeasureMode", "GPSDOP", "GPSSpeedRef",
                    "GPSSpeed", "GPSTrackRef", "GPSTrack", "GPSImgDirectionRef", "GPSImgDirection", "GPSMapDatum",
                    "GPSDestLatitudeRef", "GPSDestLatitude", "GPSDestLongitudeRef", "GPSDestLongitude", "GPSDestBearingRef",
                    "GPSDestBearing", "GPSDestDistanceRef", "GPSDestDistance", "GPSProcessingMethod", "GPSAreaInformation",
                    "GPSDateStamp", "GPSDifferential", "GPSHPositioningError"]
        return Dictionary(uniqueKeysWithValues: list.enumerated().map { (UInt16($0.offset), $0.element) })
    }()

    private static let interopNames: [UInt16: String] = [
        1: "InteroperabilityIndex", 2: "InteroperabilityVersion", 4096: "RelatedImageFileFormat",
        4097: "RelatedImageWidth", 4098: "RelatedImageLength",
    ]

    private static let names: [UInt16: String] = {
        var table = gpsNames
        for (tag, name) in tiffNames + exifNames + dngNames { table[tag] = name }
        return table
    }()

    /// TIFF 6.0 baseline and extensions, TIFF/EP, XMP, IPTC, ICC.
    private static let tiffNames: [(UInt16, String)] = [
        (254, "NewSubFileType"), (255, "SubfileType"), (256, "ImageWidth"), (257, "ImageLength"), (258, "BitsPerSample"),
        (259, "Compression"), (262, "PhotometricInterpretation"), (263, "Threshholding"), (264, "CellWidth"),
        (265, "CellLength"), (266, "FillOrder"), (269, "DocumentName"), (270, "ImageDescription"), (271, "Make"),
        (272, "Model"), (273, "StripOffsets"), (274, "Orientation"), (277, "SamplesPerPixel"), (278, "RowsPerStrip"),
        (279, "StripByteCounts"), (280, "MinSampleValue"), (281, "MaxSampleValue"), (282, "XResolution"),
        (283, "YResolution"), (284, "PlanarConfiguration"), (285, "PageName"), (286, "XPosition"), (287, "YPosition"),
        (288, "FreeOffsets"), (289, "FreeByteCounts"), (290, "GrayResponseUnit"), (291, "GrayResponseCurve"),
        (292, "T4Options"), (293, "T6Options"), (296, "ResolutionUnit"), (297, "PageNumber"), (301, "TransferFunction"),
        (305, "Software"), (306, "DateTime"), (315, "Artist"), (316, "HostComputer"), (317, "Predictor"),
        (318, "WhitePoint"), (319, "PrimaryChromaticities"), (320, "ColorMap"), (321, "HalftoneHints"),
        (322, "TileWidth"), (323, "TileLength"), (324, "TileOffsets"), (325, "TileByteCounts"), (330, "SubIFDs"),
        (332, "InkSet"), (333, "InkNames"), (334, "NumberOfInks"), (336, "DotRange"), (337, "TargetPrinter"),
        (338, "ExtraSamples"), (339, "SampleFormat"), (340, "SMinSampleValue"), (341, "SMaxSampleValue"),
        (342, "TransferRange"), (343, "ClipPath"), (347, "JPEGTables"), (512, "JPEGProc"),
        (513, "JPEGInterchangeFormat"), (514, "JPEGInterchangeFormatLength"), (515, "JPEGRestartInterval"),
        (517, "JPEGLosslessPredictors"), (518, "JPEGPointTransforms"), (519, "JPEGQTables"), (520, "JPEGDCTables"),
        (521, "JPEGACTables"), (529, "YCbCrCoefficients"), (530, "YCbCrSubSampling"), (531, "YCbCrPositioning"),
        (532, "ReferenceBlackWhite"), (700, "XMP"), (18246, "Rating"), (18249, "RatingPercent"),
        (33421, "CFARepeatPatternDim"), (33422, "CFAPattern"), (33423, "BatteryLevel"), (33432, "Copyright"),
        (33723, "IPTC"), (34377, "ImageResources"), (34665, "ExifIFD"), (34675, "InterColorProfile"),
        (34853, "GPSInfo"), (37387, "FlashEnergy"), (37388, "SpatialFrequencyResponse"), (37389, "Noise"),
        (37390, "FocalPlaneXResolution"), (37391, "FocalPlaneYResolution"), (37392, "FocalPlaneResolutionUnit"),
        (37393, "ImageNumber"), (37394, "SecurityClassification"), (37395, "ImageHistory"), (37397, "ExposureIndex"),
        (37398, "TIFFEPStandardID"), (37399, "SensingMethod"), (50341, "PrintIM"),
    ]

    /// EXIF 2.32 (the EXIF IFD).
    private static let exifNames: [(UInt16, String)] = [
        (33434, "ExposureTime"), (33437, "FNumber"), (34850, "ExposureProgram"), (34852, "SpectralSensitivity"),
        (34855, "ISOSpeedRatings"), (34856, "OECF"), (34858, "TimeZoneOffset"), (34859, "SelfTimerMode"),
        (34864, "SensitivityType"), (34865, "StandardOutputSensitivity"), (34866, "RecommendedExposureIndex"),
        (34867, "ISOSpeed"), (34868, "ISOSpeedLatitudeyyy"), (34869, "ISOSpeedLatitudezzz"), (36864, "ExifVersion"),
        (36867, "DateTimeOriginal"), (36868, "DateTimeDigitized"), (36880, "OffsetTime"), (36881, "OffsetTimeOriginal"),
        (36882, "OffsetTimeDigitized"), (37121, "ComponentsConfiguration"), (37122, "CompressedBitsPerPixel"),
        (37377, "ShutterSpeedValue"), (37378, "ApertureValue"), (37379, "BrightnessValue"), (37380, "ExposureBiasValue"),
        (37381, "MaxApertureValue"), (37382, "SubjectDistance"), (37383, "MeteringMode"), (37384, "LightSource"),
        (37385, "Flash"), (37386, "FocalLength"), (37396, "SubjectArea"), (37500, "MakerNote"), (37510, "UserComment"),
        (37520, "SubSecTime"), (37521, "SubSecTimeOriginal"), (37522, "SubSecTimeDigitized"), (37888, "Temperature"),
        (37889, "Humidity"), (37890, "Pressure"), (37891, "WaterDepth"), (37892, "Acceleration"),
        (37893, "CameraElevationAngle"), (40960, "FlashpixVersion"), (40961, "ColorSpace"), (40962, "PixelXDimension"),
        (40963, "PixelYDimension"), (40964, "RelatedSoundFile"), (40965, "InteroperabilityIFD"), (41483, "FlashEnergy"),
        (41484, "SpatialFrequencyResponse"), (41486, "FocalPlaneXResolution"), (41487, "FocalPlaneYResolution"),
        (41488, "FocalPlaneResolutionUnit"), (41492, "SubjectLocation"), (41493, "ExposureIndex"),
        (41495, "SensingMethod"), (41728, "FileSource"), (41729, "SceneType"), (41730, "ExifCFAPattern"),
        (41985, "CustomRendered"), (41986, "ExposureMode"), (41987, "WhiteBalance"), (41988, "DigitalZoomRatio"),
        (41989, "FocalLengthIn35mmFilm"), (41990, "SceneCaptureType"), (41991, "GainControl"), (41992, "Contrast"),
        (41993, "Saturation"), (41994, "Sharpness"), (41995, "DeviceSettingDescription"),
        (41996, "SubjectDistanceRange"), (42016, "ImageUniqueID"), (42032, "CameraOwnerName"),
        (42033, "BodySerialNumber"), (42034, "LensSpecification"), (42035, "LensMake"), (42036, "LensModel"),
        (42037, "LensSerialNumber"), (42080, "CompositeImage"), (42081, "SourceImageNumberOfCompositeImage"),
        (42082, "SourceExposureTimesOfCompositeImage"), (42240, "Gamma"),
    ]

    /// DNG 1.0–1.7 and CinemaDNG.
    private static let dngNames: [(UInt16, String)] = [
        (50706, "DNGVersion"), (50707, "DNGBackwardVersion"), (50708, "UniqueCameraModel"),
        (50709, "LocalizedCameraModel"), (50710, "CFAPlaneColor"), (50711, "CFALayout"), (50712, "LinearizationTable"),
        (50713, "BlackLevelRepeatDim"), (50714, "BlackLevel"), (50715, "BlackLevelDeltaH"), (50716, "BlackLevelDeltaV"),
        (50717, "WhiteLevel"), (50718, "DefaultScale"), (50719, "DefaultCropOrigin"), (50720, "DefaultCropSize"),
        (50721, "ColorMatrix1"), (50722, "ColorMatrix2"), (50723, "CameraCalibration1"), (50724, "CameraCalibration2"),
        (50725, "ReductionMatrix1"), (50726, "ReductionMatrix2"), (50727, "AnalogBalance"), (50728, "AsShotNeutral"),
        (50729, "AsShotWhiteXY"), (50730, "BaselineExposure"), (50731, "BaselineNoise"), (50732, "BaselineSharpness"),
        (50733, "BayerGreenSplit"), (50734, "LinearResponseLimit"), (50735, "CameraSerialNumber"), (50736, "LensInfo"),
        (50737, "ChromaBlurRadius"), (50738, "AntiAliasStrength"), (50739, "ShadowScale"), (50740, "DNGPrivateData"),
        (50741, "MakerNoteSafety"), (50778, "CalibrationIlluminant1"), (50779, "CalibrationIlluminant2"),
        (50780, "BestQualityScale"), (50781, "RawDataUniqueID"), (50827, "OriginalRawFileName"),
        (50828, "OriginalRawFileData"), (50829, "ActiveArea"), (50830, "MaskedAreas"), (50831, "AsShotICCProfile"),
        (50832, "AsShotPreProfileMatrix"), (50833, "CurrentICCProfile"), (50834, "CurrentPreProfileMatrix"),
        (50879, "ColorimetricReference"), (50931, "CameraCalibrationSignature"), (50932, "ProfileCalibrationSignature"),
        (50933, "ExtraCameraProfiles"), (50934, "AsShotProfileName"), (50935, "NoiseReductionApplied"),
        (50936, "ProfileName"), (50937, "ProfileHueSatMapDims"), (50938, "ProfileHueSatMapData1"),
        (50939, "ProfileHueSatMapData2"), (50940, "ProfileToneCurve"), (50941, "ProfileEmbedPolicy"),
        (50942, "ProfileCopyright"), (50964, "ForwardMatrix1"), (50965, "ForwardMatrix2"),
        (50966, "PreviewApplicationName"), (50967, "PreviewApplicationVersion"), (50968, "PreviewSettingsName"),
        (50969, "PreviewSettingsDigest"), (50970, "PreviewColorSpace"), (50971, "PreviewDateTime"),
        (50972, "RawImageDigest"), (50973, "OriginalRawFileDigest"), (50974, "SubTileBlockSize"),
        (50975, "RowInterleaveFactor"), (50981, "ProfileLookTableDims"), (50982, "ProfileLookTableData"),
        (51008, "OpcodeList1"), (51009, "OpcodeList2"), (51022, "OpcodeList3"), (51041, "NoiseProfile"),
        (51043, "TimeCodes"), (51044, "FrameRate"), (51058, "TStop"), (51081, "ReelName"),
        (51089, "OriginalDefaultFinalSize"), (51090, "OriginalBestQualityFinalSize"), (51091, "OriginalDefaultCropSize"),
        (51105, "CameraLabel"), (51107, "ProfileHueSatMapEncoding"), (51108, "ProfileLookTableEncoding"),
        (51109, "BaselineExposureOffset"), (51110, "DefaultBlackRender"), (51111, "NewRawImageDigest"),
        (51112, "RawToPreviewGain"), (51125, "DefaultUserCrop"), (51177, "DepthFormat"), (51178, "DepthNear"),
        (51179, "DepthFar"), (51180, "DepthUnits"), (51181, "DepthMeasureType"), (51182, "EnhanceParams"),
        (52525, "ProfileGainTableMap"), (52526, "SemanticName"), (52528, "SemanticInstanceID"),
        (52529, "CalibrationIlluminant3"), (52530, "CameraCalibration3"), (52531, "ColorMatrix3"),
        (52532, "ForwardMatrix3"), (52533, "IlluminantData1"), (52534, "IlluminantData2"), (52535, "IlluminantData3"),
        (52536, "MaskSubArea"), (52537, "ProfileHueSatMapData3"), (52538, "ReductionMatrix3"), (52543, "RGBTables"),
        (52544, "ProfileGainTableMap2"), (52547, "ColumnInterleaveFactor"), (52548, "ImageSequenceInfo"),
        (52550, "ImageStats"), (52551, "ProfileDynamicRange"), (52552, "ProfileGroupName"), (52553, "JXLDistance"),
        (52554, "JXLEffort"), (52555, "JXLDecodeSpeed"),
    ]
}
