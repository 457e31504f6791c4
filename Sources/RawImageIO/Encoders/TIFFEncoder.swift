import RawCore
import RawDevelop
import RawTIFF

/// Encodes developed images as TIFF through libtiff.
///
/// The file is little-endian, one image, RGB (PhotometricInterpretation 2, three samples per pixel, contiguous) or,
/// for a grey picture, grey (PhotometricInterpretation 1 BlackIsZero, one sample per pixel), upright (Orientation 1),
/// 72 pixels per inch, in strips of about 256 KiB: 8- or 16-bit unsigned samples, or 32-bit IEEE float samples
/// (SampleFormat 3), written exactly as they are. By default the strips are uncompressed (`TIFFCompression`: noisy 16-bit data barely
/// compresses, and every codec costs many times the write); Deflate, Zstandard or LZW can be chosen, each with the
/// horizontal-differencing predictor (2) for integers or the floating-point predictor (3) for floats.
/// IFD0 carries Make, Model, Software, DateTime
/// and the ICC profile (tag 34675; a grey profile for a grey picture); EXIF and GPS are real sub-IFDs (written before the image directory,
/// which then points at them), and their rationals are rewritten as exact fractions after libtiff closes the
/// file (libtiff stores them through `float`). Images above about 3.5 GB of samples are written as BigTIFF.
public struct TIFFEncoder: Sendable, Hashable {
    /// Bits per sample: 8 or 16 (unsigned integers) or 32 (IEEE floats).
    public var bitDepth: Int
    /// How the strips are stored (default uncompressed).
    public var compression: TIFFCompression

    /// Creates an encoder writing 8- or 16-bit integer or (`bitDepth` 32) float samples.
    public init(bitDepth: Int = 16, compression: TIFFCompression = .none) {
        self.bitDepth = bitDepth
        self.compression = compression
    }

    /// Creates an encoder with the TIFF settings of `options`.
    public init(options: EncodeOptions) {
        self.init(bitDepth: options.tiffBitDepth, compression: options.tiffCompression)
    }

    /// Target size of one uncompressed strip.
    static let stripBytes = 256 * 1024

    /// Encodes `image` into the temporary file `temporaryPath` (created or replaced; errors name `path`).
    public func write(_ image: DevelopedImage, toTemporaryPath temporaryPath: String,
                      reportingAs path: String) throws(DevelopError) {
        guard [8, 16, 32].contains(bitDepth) else {
            throw DevelopError(path: path, "invalid TIFF bit depth: \(bitDepth) is not 8, 16 (integer) or 32 (float)")
        }
        let fields: [ExifBlock.Field], icc: ICCProfile
        do {
            fields = ExifBlock.fields(for: image, format: .tiff, software: ExifBlock.software)
            icc = try ICCProfile.profile(for: image)
        } catch { throw error.naming(path) }
        let bytesPerSample = bitDepth / 8, samplesPerPixel = image.channels.count
        let rowBytes = image.width * samplesPerPixel * bytesPerSample
        let rowsPerStrip = max(1, min(image.height, TIFFEncoder.stripBytes / rowBytes))
        let ifd0 = fields.filter { $0.directory == .ifd0 }.map(TagAssignment.init(field:))
        let exif = fields.filter { $0.directory == .exif }.map(TagAssignment.init(field:))
        let gps = fields.filter { $0.directory == .gps }.map(TagAssignment.init(field:))
        do {
            let tiff = try TIFFWriteHandle(path: temporaryPath, reportingAs: path,
                                           bigTIFF: rowBytes * image.height > 3_500_000_000)
            // EXIF and GPS directories first; the image directory then points at them.
            try tiff.beginExifDirectory()
            try tiff.set(exif)
            let exifOffset = try tiff.writeCustomDirectory()
            var gpsOffset: UInt64?
            if !gps.isEmpty {
                try tiff.beginGPSDirectory()
                try tiff.set(gps)
                gpsOffset = try tiff.writeCustomDirectory()
            }
            tiff.beginImageDirectory()
            try tiff.set(imageTags(image, rowsPerStrip: rowsPerStrip) + ifd0) // ifd0: Make, Model, Orientation, resolution ...
            try tiff.set([TagAssignment(TIFFTag.interColorProfile, .bytes(icc.data)),
                          TagAssignment(TIFFTag.exifIFD, .unsigned([exifOffset]))])
            if let gpsOffset { try tiff.set(TagAssignment(TIFFTag.gpsIFD, .unsigned([gpsOffset]))) }

            // Strips: uncompressed ones go as they are; compressed ones are copied into a scratch buffer first,
            // because libtiff's predictors work in place.
            let strips = (image.height + rowsPerStrip - 1) / rowsPerStrip
            let samplesPerStrip = rowsPerStrip * image.width * samplesPerPixel
            switch bitDepth {
            case 32: try writeStrips(image.floatSamples, tiff: tiff, strips: strips, samplesPerStrip: samplesPerStrip)
            case 8: try writeStrips(image.uint8Samples, tiff: tiff, strips: strips, samplesPerStrip: samplesPerStrip)
            default: try writeStrips(image.uint16Samples, tiff: tiff, strips: strips, samplesPerStrip: samplesPerStrip)
            }
            try tiff.writeDirectory()
            try tiff.close()

            // libtiff stores rationals through `float` (ExposureTime 1/250 became 8589935/2147483648): rewrite every
            // rational written as the exact fraction it stands for, in place.
            var custom = [TIFFFinisher.Directory(offset: exifOffset, tags: exif)]
            if let gpsOffset { custom.append(TIFFFinisher.Directory(offset: gpsOffset, tags: gps)) }
            try TIFFFinisher(path: temporaryPath).finish(ifd0: ifd0, subIFDs: [], custom: custom)
        } catch {
            throw DevelopError(path: error.path, error.message)
        }
    }

    /// The image directory's own tags: size, RGB or grey samples (8- or 16-bit unsigned or 32-bit float), the
    /// compression and its predictor, strips.
    private func imageTags(_ image: DevelopedImage, rowsPerStrip: Int) -> [TagAssignment] {
        let float = bitDepth == 32
        let photometric = image.isGrey ? TIFFValue.photometricBlackIsZero : TIFFValue.photometricRGB
        var tags = [
            TagAssignment(TIFFTag.imageWidth, .unsigned([UInt64(image.width)])),
            TagAssignment(TIFFTag.imageLength, .unsigned([UInt64(image.height)])),
            TagAssignment(TIFFTag.bitsPerSample, .unsigned([UInt64(bitDepth)])),
            TagAssignment(TIFFTag.samplesPerPixel, .unsigned([UInt64(image.channels.count)])),
            TagAssignment(TIFFTag.sampleFormat, .singleShort(float ? TIFFValue.sampleFormatFloat : TIFFValue.sampleFormatUnsigned)),
            TagAssignment(TIFFTag.photometricInterpretation, .unsigned([UInt64(photometric)])),
            TagAssignment(TIFFTag.planarConfiguration, .unsigned([UInt64(TIFFValue.planarContiguous)])),
            TagAssignment(TIFFTag.compression, .unsigned([UInt64(compression.tagValue)])),
            TagAssignment(TIFFTag.rowsPerStrip, .unsigned([UInt64(rowsPerStrip)])),
        ]
        if compression.usesPredictor {
            let predictor = float ? TIFFValue.predictorFloatingPoint : TIFFValue.predictorHorizontal
            tags.append(TagAssignment(TIFFTag.predictor, .unsigned([UInt64(predictor)])))
        }
        return tags
    }

    private func writeStrips<T: BitwiseCopyable>(_ samples: [T], tiff: TIFFWriteHandle, strips: Int,
                                                 samplesPerStrip: Int) throws(TIFFWriteError) {
        let copies = compression.usesPredictor
        let scratch = UnsafeMutableBufferPointer<T>.allocate(capacity: copies ? samplesPerStrip : 1)
        defer { scratch.deallocate() }
        try samples.withUnsafeBufferPointer { (source) throws(TIFFWriteError) in
            for s in 0..<strips {
                let start = s * samplesPerStrip
                let count = min(samplesPerStrip, source.count - start)
                let bytes = count * MemoryLayout<T>.stride
                if copies {
                    scratch.baseAddress!.update(from: source.baseAddress! + start, count: count)
                    try tiff.writeEncodedStrip(UInt32(s), UnsafeMutableRawPointer(scratch.baseAddress!), bytes: bytes)
                } else {
                    // Native little-endian samples are the file's byte order: the strip goes to the file as it is.
                    try tiff.writeRawStrip(UInt32(s), UnsafeRawBufferPointer(start: source.baseAddress! + start, count: bytes))
                }
            }
        }
    }
}
