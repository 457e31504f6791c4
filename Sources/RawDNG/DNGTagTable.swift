import RawCore
import RawTIFF

/// The tags of each DNG image directory, as plain values (testable without writing a file).
enum DNGTagTable {
    typealias T = TIFFTag

    /// IFD0: the thumbnail image and the camera-wide DNG tags.
    static func mainIFD(image: RawImage, calibration: ColorCalibration?, thumbnail: RGB8Image,
                        software: String, uniqueID: [UInt8]) -> [TagAssignment] {
        var out: [TagAssignment] = [
            .number(T.newSubFileType, 1),
            .number(T.imageWidth, Double(thumbnail.width)),
            .number(T.imageLength, Double(thumbnail.height)),
            .numbers(T.bitsPerSample, [8]),
            .number(T.compression, 1),
            .number(T.photometricInterpretation, 2),
            .number(T.samplesPerPixel, 3),
            .number(T.planarConfiguration, 1),
            .number(T.rowsPerStrip, Double(thumbnail.height)),
        ]
        out += cameraTags(metadata: image.metadata, calibration: calibration, software: software, uniqueID: uniqueID)
        return out
    }

    /// The tags that make IFD0 a frame of a CinemaDNG sequence: TimeCodes, FrameRate and ReelName (written after the
    /// raw image's tags and the camera-wide ones; the frame has no thumbnail).
    static func cinemaTags(_ cinema: CinemaDNGFrame) -> [TagAssignment] {
        [
            .bytes(T.timeCodes, cinema.timeCode.bytes),
            .number(T.frameRate, cinema.frameRate),
            .text(T.reelName, cinema.reelName),
        ]
    }

    /// The tags that describe the camera and its colour, whatever image IFD0 holds; a monochrome frame's
    /// (`calibration` nil) has no colour tags, and the metadata's BaselineExposure (0 when it has none).
    static func cameraTags(metadata m: FrameMetadata, calibration: ColorCalibration?, software: String,
                           uniqueID: [UInt8]) -> [TagAssignment] {
        var out: [TagAssignment] = [
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
        if let stamp = cameraStamp(m) { out.append(.text(T.imageDescription, stamp)) }
        if let calibration {
            out += colourTags(calibration)
        } else {
            out.append(.number(T.baselineExposure, m.baselineExposure ?? 0))
        }
        return out
    }

    /// A real camera's frame id and clock, as ImageDescription says them (`camera frame id 1234; camera clock
    /// 5678 ns`; either part alone when only one is known), or nil when neither is.
    static func cameraStamp(_ m: FrameMetadata) -> String? {
        let parts = [m.cameraFrameID.map { "camera frame id \($0)" }, m.cameraTimestampNanoseconds.map { "camera clock \($0) ns" }]
            .compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
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
        if let name = cal.profileName { out.append(.text(T.profileName, name)) }
        return out
    }

    /// How the raw mosaic's data is laid out.
    enum RawLayout {
        /// 16-bit samples, uncompressed, in strips of this many rows.
        case strips(rowsPerStrip: Int)
        /// Uncompressed samples packed at `bits` bits (8...15), in strips of this many rows.
        case packedStrips(rowsPerStrip: Int, bits: Int)
        /// Lossless-JPEG tiles of `size` x `size` pixels with `precision`-bit samples.
        case losslessJPEGTiles(size: Int, precision: Int)
        /// Lossless-JPEG strips (one stream each) of `rowsPerStrip` full rows, for frames narrower than a tile.
        case losslessJPEGStrips(rowsPerStrip: Int, precision: Int)
        /// A source DNG's data copied as stored: its coding and level tags (``DNGVerbatimRawData/dataTagNumbers``)
        /// replace the frame's.
        case verbatim([TagAssignment])
    }

    /// SubIFD 0: the raw mosaic — a CFA image, or for a monochrome frame a LinearRaw image of one sample per pixel
    /// (PhotometricInterpretation 34892, no CFA tags) — with its NoiseProfile when `noise` is known.
    static func rawIFD(frame: RawFrame, noise: NoiseProfile?, layout: RawLayout) -> [TagAssignment] {
        let area = frame.activeArea
        let crop = frame.defaultCrop
        var data: [TagAssignment]
        var levels: [TagAssignment] = [
            .numbers(T.blackLevelRepeatDim, [Double(frame.blackLevels.rows), Double(frame.blackLevels.columns)]),
            .numbers(T.blackLevel, frame.blackLevels.values),
            .numbers(T.whiteLevel, [Double(frame.whiteLevel)]),
        ]
        var sampleLayout: [TagAssignment] = [.number(T.samplesPerPixel, 1), .number(T.planarConfiguration, 1)]
        var noise = noise
        switch layout {
        case .strips(let rowsPerStrip):
            data = [.numbers(T.bitsPerSample, [16]), .number(T.compression, 1)]
            data.append(.number(T.rowsPerStrip, Double(rowsPerStrip)))
        case .packedStrips(let rowsPerStrip, let bits):
            data = [.numbers(T.bitsPerSample, [Double(bits)]), .number(T.compression, 1)]
            data.append(.number(T.rowsPerStrip, Double(rowsPerStrip)))
        case .losslessJPEGTiles(let size, let precision):
            data = [.numbers(T.bitsPerSample, [Double(precision)]), .number(T.compression, 7)]
            data.append(.number(T.tileWidth, Double(size)))
            data.append(.number(T.tileLength, Double(size)))
            data.append(.jpegTablesInEachSegment)
        case .losslessJPEGStrips(let rowsPerStrip, let precision):
            data = [.numbers(T.bitsPerSample, [Double(precision)]), .number(T.compression, 7)]
            data.append(.number(T.rowsPerStrip, Double(rowsPerStrip)))
            data.append(.jpegTablesInEachSegment)
        case .verbatim(let tags):
            // The source's coding and levels as stored; JPEG tables stay in each segment unless the source shares them.
            data = tags
            let jpeg = tags.contains { $0.tag == UInt32(T.compression) && $0.value == .numbers([7]) }
            if jpeg, !tags.contains(where: { $0.tag == UInt32(T.jpegTables) }) { data.append(.jpegTablesInEachSegment) }
            levels = []
            sampleLayout = []
            // A NoiseProfile the source's raw directory holds is among its data tags; one from elsewhere is written.
            if tags.contains(where: { $0.tag == UInt32(T.noiseProfile) }) { noise = nil }
        }
        let colour: [TagAssignment] = frame.cfa.isMonochrome ? [.number(T.photometricInterpretation, 34892)] : [
            .number(T.photometricInterpretation, 32803),
            .numbers(T.cfaRepeatPatternDim, [Double(frame.cfa.rows), Double(frame.cfa.columns)]),
            .bytes(T.cfaPattern, frame.cfa.pattern.map(\.rawValue)),
            .bytes(T.cfaPlaneColor, frame.cfa.planeColors.map(\.rawValue)),
            .number(T.cfaLayout, 1),
        ]
        let noiseTags = noise.map { [TagAssignment.numbers(T.noiseProfile, $0.tagValues)] } ?? []
        return [
            .number(T.newSubFileType, 0),
            .number(T.imageWidth, Double(frame.width)),
            .number(T.imageLength, Double(frame.height)),
        ] + data + colour + sampleLayout + levels + [
            .numbers(T.defaultScale, [frame.defaultScale.horizontal, frame.defaultScale.vertical]),
            .numbers(T.defaultCropOrigin, [Double(crop.left), Double(crop.top)]),
            .numbers(T.defaultCropSize, [Double(crop.width), Double(crop.height)]),
            .numbers(T.activeArea, [Double(area.top), Double(area.left), Double(area.bottom), Double(area.right)]),
        ] + noiseTags
    }

    /// SubIFD 1: a baseline JPEG preview (one strip holding the whole JPEG stream).
    static func previewIFD(width: Int, height: Int) -> [TagAssignment] {
        [
            .number(T.newSubFileType, 1),
            .number(T.imageWidth, Double(width)),
            .number(T.imageLength, Double(height)),
            .numbers(T.bitsPerSample, [8]),
            .number(T.compression, 7),
            .number(T.photometricInterpretation, 6),
            .number(T.samplesPerPixel, 3),
            .number(T.planarConfiguration, 1),
            .number(T.rowsPerStrip, Double(height)),
            .jpegTablesInEachSegment,
        ]
    }
}
