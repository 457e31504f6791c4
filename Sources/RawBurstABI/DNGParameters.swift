import CRawBurst
import RawCore
import RawDNG

/// A `rawburst_dng_params` checked and turned into the library's values: the frame's levels and layout, its
/// metadata and colour calibration, and the writer's options.
struct DNGParameters {
    let cfa: CFALayout
    let bitsPerSample: Int
    let whiteLevel: UInt32
    let blackLevels: BlackLevels
    let cropInset: Int
    let metadata: FrameMetadata
    let calibration: ColorCalibration?
    let options: DNGWriter.Options

    /// Checks every field of `params` (names the field of the first problem).
    init(_ params: rawburst_dng_params) throws(ABIFailure) {
        try checkStructSize(params.struct_size, of: rawburst_dng_params.self, "rawburst_dng_params")
        try checkStructSize(params.exif.struct_size, of: rawburst_exif.self, "rawburst_dng_params.exif")
        try checkStructSize(params.gps.struct_size, of: rawburst_gps.self, "rawburst_dng_params.gps")
        let cfaText = try requiredString(params.cfa, "cfa")
        do { cfa = try CFALayout(cfaText) } catch { throw .invalid(error) }
        guard cfa.isMonochrome || cfa.pattern.allSatisfy({ [.red, .green, .blue].contains($0) }) else {
            throw .argument("cfa", "\"\(cfaText)\": DNGs from buffers are RGB CFAs or monochrome")
        }
        (bitsPerSample, whiteLevel) = try Self.levels(bits: params.bits_per_sample, white: params.white_level)
        blackLevels = try Self.blackLevels(params, cfa: cfa)
        guard blackLevels.maximum < Double(whiteLevel), blackLevels.values.allSatisfy({ $0 >= 0 && $0.isFinite }) else {
            throw .argument("black", "levels \(blackLevels.values) must be finite, at least 0 and below white_level \(whiteLevel)")
        }
        let period = max(cfa.rows, cfa.columns)
        cropInset = Int(params.crop) / period * period
        var metadata = try ABIMetadata.frameMetadata(params.exif, gps: params.gps)
        metadata.noiseProfile = try Self.noiseProfile(params, cfa: cfa)
        guard params.baseline_exposure.isFinite, abs(params.baseline_exposure) <= 16 else {
            throw .argument("baseline_exposure", "\(params.baseline_exposure) EV is outside ±16")
        }
        if cfa.isMonochrome { metadata.baselineExposure = params.baseline_exposure }
        self.metadata = metadata
        calibration = cfa.isMonochrome ? nil : try ABIColor.calibration(params)
        options = try Self.writerOptions(compression: params.compression, overwrite: params.overwrite, preview: params.preview)
    }

    /// Bits and white level: either may be left 0 and follow from the other.
    private static func levels(bits: UInt32, white: UInt32) throws(ABIFailure) -> (Int, UInt32) {
        guard bits == 0 || (8...16).contains(bits) else { throw .argument("bits_per_sample", "\(bits) is outside 8...16") }
        if white == 0 {
            guard bits != 0 else { throw .argument("white_level", "give white_level or bits_per_sample (both are 0)") }
            return (Int(bits), UInt32((1 << bits) - 1))
        }
        let needed = max(8, UInt32.bitWidth - white.leadingZeroBitCount)
        guard white <= 65535 else { throw .argument("white_level", "\(white) does not fit 16 bits") }
        if bits == 0 { return (needed, white) }
        guard needed <= bits else {
            throw .argument("white_level", "\(white) does not fit \(bits) bits (at most \((1 << bits) - 1))")
        }
        return (Int(bits), white)
    }

    private static func blackLevels(_ params: rawburst_dng_params, cfa: CFALayout) throws(ABIFailure) -> BlackLevels {
        let values = tupleValues(params.black, count: 36, as: Double.self)
        let repeatCount = cfa.rows * cfa.columns
        let count = Int(params.black_count)
        guard count == 0 || count == 1 || count == repeatCount else {
            throw .argument("black_count", "\(count) is not 0, 1 or \(repeatCount) (the CFA's repeat)")
        }
        do {
            if count == repeatCount && count > 1 {
                return try BlackLevels(rows: cfa.rows, columns: cfa.columns, values: Array(values.prefix(count)))
            }
            return try BlackLevels(uniform: count == 0 ? 0 : values[0])
        } catch { throw .invalid(error) }
    }

    private static func noiseProfile(_ params: rawburst_dng_params, cfa: CFALayout) throws(ABIFailure) -> NoiseProfile? {
        let count = Int(params.noise_planes)
        guard count > 0 else { return nil }
        let planeCount = cfa.planeColors.count
        guard count == 1 || count == planeCount, count <= 4 else {
            throw .argument("noise_planes", "\(count) is not 0, 1 or \(planeCount) (one per CFA colour)")
        }
        let scales = tupleValues(params.noise_scale, count: count, as: Double.self)
        let offsets = tupleValues(params.noise_offset, count: count, as: Double.self)
        do {
            return try NoiseProfile(planes: (0..<count).map { i throws(InvalidValueError) in
                try NoiseProfile.Plane(scale: scales[i], offset: offsets[i])
            })
        } catch { throw .invalid(error) }
    }

    /// The writer's options from the C fields every DNG-writing call has: a `rawburst_compression`, overwrite, and the
    /// preview's long edge (0: none).
    static func writerOptions(compression: UInt32, overwrite: UInt32, preview: UInt32) throws(ABIFailure) -> DNGWriter.Options {
        var options = DNGWriter.Options()
        switch compression {
        case UInt32(RAWBURST_COMPRESSION_NONE.rawValue): options.compression = .none
        case UInt32(RAWBURST_COMPRESSION_PACKED.rawValue): options.compression = .packed
        case UInt32(RAWBURST_COMPRESSION_LJ92.rawValue): options.compression = .lj92
        default: throw .argument("compression", "\(compression) is not 0 (none), 1 (packed) or 2 (lj92)")
        }
        options.overwrite = overwrite != 0
        if preview != 0 {
            let range = 64...DNGWriter.Options.maximumPreviewLongEdge
            guard range.contains(Int(preview)) else {
                throw .argument("preview", "\(preview) px is outside \(range.lowerBound)...\(range.upperBound) (0: none)")
            }
            options.previewLongEdge = Int(preview)
        }
        return options
    }
}
