import RawCore

/// The tags of each DNG image directory, as plain values (testable without writing a file).
enum DNGTagTable {
    typealias T = DNGTagNumber

    /// IFD0: the thumbnail image and the camera-wide DNG tags.
    static func mainIFD(image: RawImage, calibration: ColorCalibration, thumbnail: RGB8Image,
                        software: String, uniqueID: [UInt8]) -> [TagAssignment] {
        let m = image.metadata
        var out: [TagAssignment] = [
            .number(T.newSubFileType, 1),
            .number(T.imageWidth, Double(thumbnail.width)),
            .number(T.imageLength, Double(thumbnail.height)),
            .numbers(T.bitsPerSample, [8]),
            .number(T.compression, 1),
            .number(T.photometric, 2),
            .number(T.samplesPerPixel, 3),
            .number(T.planarConfig, 1),
            .number(T.rowsPerStrip, Double(thumbnail.height)),
            .number(T.orientation, Double(m.orientation.rawValue)),
            .text(T.software, software),
            .text(T.dateTime, (m.captureTime ?? CaptureTime.now()).exifDateTime),
            .bytes(T.dngVersion, DNGWriter.dngVersion),
            .bytes(T.dngBackwardVersion, DNGWriter.dngBackwardVersion),
            .text(T.uniqueCameraModel, uniqueCameraModel(m)),
            .bytes(T.rawDataUniqueID, uniqueID),
        ]
        if let make = m.make, !make.isEmpty { out.append(.text(T.make, make)) }
        if let model = m.model, !model.isEmpty { out.append(.text(T.model, model)) }
        if let serial = m.serialNumber, !serial.isEmpty { out.append(.text(T.cameraSerialNumber, serial)) }
        out += colourTags(calibration)
        return out
    }

    /// "Make Model", the name DNG readers use to look up camera profiles.
    static func uniqueCameraModel(_ m: FrameMetadata) -> String {
        let parts = [m.make, m.model].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? "rawburst unknown camera" : parts.joined(separator: " ")
    }

    static func colourTags(_ cal: ColorCalibration) -> [TagAssignment] {
        var out: [TagAssignment] = [
            .numbers(T.colorMatrix1, cal.colorMatrix1.values),
            .number(T.calibrationIlluminant1, Double(cal.illuminant1.rawValue)),
            .number(T.baselineExposure, cal.baselineExposure),
        ]
        if let m2 = cal.colorMatrix2, let i2 = cal.illuminant2 {
            out.append(.numbers(T.colorMatrix2, m2.values))
            out.append(.number(T.calibrationIlluminant2, Double(i2.rawValue)))
        }
        if let f1 = cal.forwardMatrix1 { out.append(.numbers(T.forwardMatrix1, f1.values)) }
        if let f2 = cal.forwardMatrix2 { out.append(.numbers(T.forwardMatrix2, f2.values)) }
        if let neutral = cal.asShotNeutral { out.append(.numbers(T.asShotNeutral, neutral)) }
        return out
    }

    /// SubIFD 0: the raw mosaic, 16-bit samples in strips of `rowsPerStrip` rows.
    static func rawIFD(frame: RawFrame, rowsPerStrip: Int) -> [TagAssignment] {
        let area = frame.activeArea
        let crop = frame.defaultCrop
        return [
            .number(T.newSubFileType, 0),
            .number(T.imageWidth, Double(frame.width)),
            .number(T.imageLength, Double(frame.height)),
            .numbers(T.bitsPerSample, [16]),
            .number(T.compression, 1),
            .number(T.photometric, 32803),
            .number(T.samplesPerPixel, 1),
            .number(T.planarConfig, 1),
            .number(T.rowsPerStrip, Double(rowsPerStrip)),
            .numbers(T.cfaRepeatPatternDim, [Double(frame.cfa.rows), Double(frame.cfa.columns)]),
            .bytes(T.cfaPattern, frame.cfa.pattern.map(\.rawValue)),
            .bytes(T.cfaPlaneColor, frame.cfa.planeColors.map(\.rawValue)),
            .number(T.cfaLayout, 1),
            .numbers(T.blackLevelRepeatDim, [Double(frame.blackLevels.rows), Double(frame.blackLevels.columns)]),
            .numbers(T.blackLevel, frame.blackLevels.values),
            .numbers(T.whiteLevel, [Double(frame.whiteLevel)]),
            .numbers(T.defaultScale, [frame.defaultScale.horizontal, frame.defaultScale.vertical]),
            .numbers(T.defaultCropOrigin, [Double(crop.left), Double(crop.top)]),
            .numbers(T.defaultCropSize, [Double(crop.width), Double(crop.height)]),
            .numbers(T.activeArea, [Double(area.top), Double(area.left), Double(area.bottom), Double(area.right)]),
        ]
    }

    /// SubIFD 1: a baseline JPEG preview (one strip holding the whole JPEG stream).
    static func previewIFD(width: Int, height: Int) -> [TagAssignment] {
        [
            .number(T.newSubFileType, 1),
            .number(T.imageWidth, Double(width)),
            .number(T.imageLength, Double(height)),
            .numbers(T.bitsPerSample, [8]),
            .number(T.compression, 7),
            .number(T.photometric, 6),
            .number(T.samplesPerPixel, 3),
            .number(T.planarConfig, 1),
            .number(T.rowsPerStrip, Double(height)),
            .number(65538, 0), // TIFFTAG_JPEGTABLESMODE: the strip carries its own tables; no JPEGTables tag.
        ]
    }
}
