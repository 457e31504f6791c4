import Foundation
import RawCore
import RawDNG
import RawTIFF

/// Reads a LinearRaw DNG (PhotometricInterpretation 34892) from the file's own tags and bytes, without LibRaw: three
/// samples per pixel into a ``LinearRawImage``, one (a monochrome sensor) into a ``RawImage`` whose layout is
/// `CFALayout.monochrome` — the samples (``LinearRawSamples``), their levels, active area, default crop and scale,
/// NoiseProfile, and the same metadata and colour calibration tags a CFA DNG's are taken from.
enum LinearDNGReader {
    /// Reads the image `tiff` describes (its raw directory is the LinearRaw one): `.linear` for three samples per
    /// pixel, `.mosaic` (monochrome, no calibration) for one.
    static func read(_ tiff: TIFFRawFacts, path: String) throws(RawReadError) -> RawFileContent {
        guard let raw = tiff.structure.rawDirectory else {
            throw RawReadError(path: path, kind: .unsupported, detail: "DNG without a raw image")
        }
        let layout = try LinearRawSamples(raw, littleEndian: tiff.structure.byteOrder == .littleEndian,
                                          fileSize: tiff.fileSize, path: path)
        let bytes: [UInt8]
        do { bytes = try TIFFStructure.contents(of: path) } catch {
            throw RawReadError(path: path, kind: .notReadable, detail: error.message)
        }
        guard bytes.count == tiff.fileSize else {
            throw RawReadError(path: path, kind: .truncated, detail: "the file changed while it was read")
        }
        let storage = try layout.read(from: bytes, threads: ProcessInfo.processInfo.activeProcessorCount, path: path)
        try checkDigest(tiff, layout: layout, storage: storage, path: path)
        layout.linearize(storage)

        let main = tiff.structure.mainDirectory
        var metadata = try! FrameMetadata(make: main.string(TIFFTag.make), model: main.string(TIFFTag.model)) // no numeric values: cannot fail
        tiff.applyMetadataTags(main: main, exif: tiff.structure.exifDirectory, gps: tiff.structure.gpsDirectory, to: &metadata)
        metadata.noiseProfile = TIFFRawFacts.noiseProfile(main: main, raw: raw, planes: layout.samplesPerPixel)
        if layout.samplesPerPixel == 1 {
            let frame = try monochromeFrame(raw, layout: layout, storage: storage, path: path)
            return .mosaic(RawImage(frame: frame, metadata: metadata, calibration: nil))
        }
        let frame = try self.frame(raw, layout: layout, storage: storage, path: path)
        var calibration = CalibrationParts(baselineExposure: 0, asShotNeutral: nil)
        tiff.applyCalibrationTags(main: main, raw: raw, to: &calibration)
        return .linear(LinearRawImage(frame: frame, metadata: metadata, calibration: try calibration.calibration(path: path)))
    }

    /// Throws `.corrupt` when the DNG's NewRawImageDigest does not match the decoded samples (damaged data that
    /// decodes without a structural error), computed on the stored codes (before the LinearizationTable), as the
    /// SDK hashes them. Lossy-JPEG files are not checked (the digest then covers other bytes).
    private static func checkDigest(_ tiff: TIFFRawFacts, layout: LinearRawSamples, storage: PixelStorage,
                                    path: String) throws(RawReadError) {
        guard let stored = tiff.structure.mainDirectory.bytes(NewRawImageDigest.tag), stored.count == 16,
              layout.compression != 34892 else { return }
        let channels = layout.samplesPerPixel
        let digest = NewRawImageDigest.digest(samples: storage.baseAddress, width: layout.width, height: layout.height,
                                              rowStride: layout.width * channels,
                                              threads: ProcessInfo.processInfo.activeProcessorCount,
                                              sampleBytes: NewRawImageDigest.sampleBytes(storedBits: layout.bits),
                                              samplesPerPixel: channels)
        guard digest == stored else {
            throw RawReadError(path: path, kind: .corrupt, detail: "the raw data does not match the file's NewRawImageDigest: it is damaged")
        }
    }

    /// The geometry every LinearRaw frame takes from its tags: ActiveArea, DefaultCrop and DefaultScale (values that
    /// cannot be read are left to the frame's defaults).
    private static func framing(_ raw: TIFFDirectory) -> (area: PixelRect?, crop: PixelRect?, scale: (horizontal: Double, vertical: Double)) {
        var area: PixelRect?
        if let a = raw.integers(TIFFTag.activeArea), a.count == 4 {
            area = try? PixelRect(top: a[0], left: a[1], height: a[2] - a[0], width: a[3] - a[1])
        }
        var crop: PixelRect?
        if let origin = raw.numbers(TIFFTag.defaultCropOrigin), let size = raw.numbers(TIFFTag.defaultCropSize),
           origin.count == 2, size.count == 2,
           (origin + size).allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= TIFFRawFacts.largestCoordinate }) {
            crop = try? PixelRect(top: Int(origin[1].rounded()), left: Int(origin[0].rounded()),
                                  height: Int(size[1].rounded()), width: Int(size[0].rounded()))
        }
        var scale = (horizontal: 1.0, vertical: 1.0)
        if let s = raw.numbers(TIFFTag.defaultScale), s.count == 2, s.allSatisfy({ $0.isFinite && $0 > 0 }) {
            scale = (s[0], s[1])
        }
        return (area, crop, scale)
    }

    /// The white level `raw` gives (its first value), or the largest linearized or stored value.
    private static func whiteLevels(_ raw: TIFFDirectory, layout: LinearRawSamples) -> [Int] {
        let defaultWhite = layout.linearization.map { Int($0.max() ?? 0) } ?? (1 << layout.bits) - 1
        return raw.integers(TIFFTag.whiteLevel) ?? [defaultWhite]
    }

    /// A monochrome frame: the samples, the BlackLevel pattern (BlackLevelRepeatDim, up to 16x16; per-row and
    /// per-column deltas, which rawburst's levels cannot hold, are added as their means), WhiteLevel, the framing,
    /// and the fewest bits per sample that hold the white level and every sample.
    private static func monochromeFrame(_ raw: TIFFDirectory, layout: LinearRawSamples, storage: PixelStorage,
                                        path: String) throws(RawReadError) -> RawFrame {
        let white = whiteLevels(raw, layout: layout).first ?? 0
        guard (1...65535).contains(white) else {
            throw RawReadError(path: path, kind: .invalidValue, detail: "WhiteLevel \(white) is outside 1...65535")
        }
        let values = raw.numbers(TIFFTag.blackLevel) ?? [0]
        let dim = raw.integers(TIFFTag.blackLevelRepeatDim) ?? [1, 1]
        func mean(_ tag: UInt16) -> Double {
            guard let deltas = raw.numbers(tag), !deltas.isEmpty else { return 0 }
            return deltas.reduce(0, +) / Double(deltas.count)
        }
        let shift = mean(TIFFTag.blackLevelDeltaH) + mean(TIFFTag.blackLevelDeltaV)
        var largest: UInt16 = 0
        for i in 0..<storage.count { largest = max(largest, storage.baseAddress[i]) }
        var bits = 8
        while bits < 16 && (1 << bits) - 1 < max(white, Int(largest)) { bits += 1 }
        let (area, crop, scale) = framing(raw)
        do {
            let levels = dim.count == 2 && (1...16).contains(dim[0]) && (1...16).contains(dim[1]) && values.count == dim[0] * dim[1]
                ? try BlackLevels(rows: dim[0], columns: dim[1], values: values.map { $0 + shift })
                : try BlackLevels(uniform: values.reduce(0, +) / Double(max(1, values.count)) + shift)
            return try RawFrame(width: layout.width, height: layout.height, storage: storage, cfa: .monochrome,
                                activeArea: area, defaultCrop: crop, defaultScale: scale, blackLevels: levels,
                                whiteLevel: UInt32(white), bitsPerSample: bits)
        } catch {
            throw RawReadError(path: path, kind: .invalidValue, detail: error.description)
        }
    }

    /// The frame: samples, per-channel levels (a BlackLevel pattern larger than one pixel is averaged per channel;
    /// WhiteLevel defaults to the largest linearized or stored value), ActiveArea, DefaultCrop and DefaultScale.
    private static func frame(_ raw: TIFFDirectory, layout: LinearRawSamples, storage: PixelStorage,
                              path: String) throws(RawReadError) -> LinearRawFrame {
        let whites = whiteLevels(raw, layout: layout)
        let white3 = whites.count == 3 ? whites : Array(repeating: whites.first ?? 0, count: 3)
        guard white3.allSatisfy({ (1...65535).contains($0) }) else {
            throw RawReadError(path: path, kind: .invalidValue, detail: "WhiteLevel \(whites) is outside 1...65535")
        }
        var blacks = [0.0, 0.0, 0.0]
        if let values = raw.numbers(TIFFTag.blackLevel), !values.isEmpty {
            let dim = raw.integers(TIFFTag.blackLevelRepeatDim) ?? [1, 1]
            let cells = dim.count == 2 ? dim[0] * dim[1] : 1
            if values.count == cells * 3 {
                for c in 0..<3 { blacks[c] = stride(from: c, to: values.count, by: 3).map { values[$0] }.reduce(0, +) / Double(cells) }
            } else {
                blacks = Array(repeating: values.reduce(0, +) / Double(values.count), count: 3)
            }
        }
        let (area, crop, scale) = framing(raw)
        do {
            return try LinearRawFrame(width: layout.width, height: layout.height, storage: storage, activeArea: area,
                                      defaultCrop: crop, defaultScale: scale, blackLevels: blacks,
                                      whiteLevels: white3.map { UInt32($0) })
        } catch {
            throw RawReadError(path: path, kind: .invalidValue, detail: error.description)
        }
    }
}

extension TIFFRawFacts {
    /// True for a DNG whose raw image is LinearRaw (PhotometricInterpretation 34892).
    var isLinearRawDNG: Bool {
        isDNG && structure.rawDirectory?.integer(TIFFTag.photometricInterpretation) == 34892
    }

    /// True for a LinearRaw DNG of one sample per pixel: a monochrome sensor's image.
    var isMonochromeDNG: Bool {
        isLinearRawDNG && (structure.rawDirectory?.integer(TIFFTag.samplesPerPixel) ?? 1) == 1
    }
}
