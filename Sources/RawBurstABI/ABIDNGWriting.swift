import CRawBurst
import RawCore
import RawDNG
import RawImageIO

/// `rawburst_write_dng`: a caller's buffer, read in place, written as a DNG.
enum ABIDNGWriting {
    /// Keeps a caller's buffer "owned" for `PixelStorage` without owning it: the caller frees it after the call.
    private final class CallerBuffer {}

    static func write(path: String, samples: UnsafePointer<UInt16>, width: Int, height: Int, rowStride: Int,
                      params: rawburst_dng_params) throws(ABIFailure) -> DNGWriter.Report {
        let parameters = try DNGParameters(params)
        try checkGeometry(width: width, height: height, rowStride: rowStride, cfa: parameters.cfa)
        try checkSamples(samples, width: width, height: height, rowStride: rowStride, bits: parameters.bitsPerSample)
        let inset = parameters.cropInset
        guard 2 * inset < width && 2 * inset < height else {
            throw .argument("crop", "\(inset) px on every side leaves nothing of a \(width)x\(height) frame")
        }
        try ABIFailure.refuseExisting(path, overwrite: parameters.options.overwrite)
        let count = rowStride * (height - 1) + width // checked by checkGeometry
        let storage = PixelStorage(adopting: UnsafeMutablePointer(mutating: samples), count: count, owner: CallerBuffer())
        let image: RawImage
        do {
            let crop = try PixelRect(top: inset, left: inset, height: height - 2 * inset, width: width - 2 * inset)
            let frame = try RawFrame(width: width, height: height, rowStride: rowStride, storage: storage, cfa: parameters.cfa,
                                     defaultCrop: crop, blackLevels: parameters.blackLevels,
                                     whiteLevel: parameters.whiteLevel, bitsPerSample: parameters.bitsPerSample)
            image = RawImage(frame: frame, metadata: parameters.metadata, calibration: parameters.calibration)
        } catch { throw .invalid(error) }
        do {
            let options = parameters.options
            return try DNGWriter(options: options, previewEncoder: options.previewLongEdge == nil ? nil : JPEGPreviews()).write(image, to: path)
        } catch {
            throw ABIFailure(.write, "\(error)")
        }
    }

    /// Width and height whole repeats of the CFA, the stride at least the width.
    private static func checkGeometry(width: Int, height: Int, rowStride: Int, cfa: CFALayout) throws(ABIFailure) {
        guard width > 0, height > 0, width <= 65535, height <= 65535 else {
            throw .argument("width, height", "\(width)x\(height) is outside 1...65535 on a side")
        }
        guard rowStride >= width else { throw .argument("row_stride", "\(rowStride) samples is less than the width \(width)") }
        guard spannedSamples(rows: height, rowStride: rowStride, width: width) != nil else {
            throw .argument("row_stride", "\(rowStride) samples a row over \(height) rows does not fit this machine's memory")
        }
        guard width % cfa.columns == 0, height % cfa.rows == 0 else {
            throw .argument("width, height", "\(width)x\(height) is not whole \(cfa.columns)x\(cfa.rows) repeats of the CFA \(cfa)")
        }
    }

    /// Every sample within the bits: a larger one would be cut by packing or lossless JPEG.
    private static func checkSamples(_ samples: UnsafePointer<UInt16>, width: Int, height: Int, rowStride: Int,
                                     bits: Int) throws(ABIFailure) {
        guard bits < 16 else { return }
        let limit = UInt16((1 << bits) - 1)
        for row in 0..<height {
            let line = samples + row * rowStride
            var largest: UInt16 = 0
            for column in 0..<width { largest = max(largest, line[column]) }
            if largest > limit {
                let column = (0..<width).first { line[$0] > limit } ?? 0
                throw .argument("samples", "row \(row), column \(column) holds \(line[column]), more than \(bits) bits hold (\(limit))")
            }
        }
    }
}

@_cdecl("rawburst_write_dng")
public func rawburst_write_dng(_ path: UnsafePointer<CChar>?, _ samples: UnsafePointer<UInt16>?, _ width: UInt32,
                               _ height: UInt32, _ rowStride: Int, _ params: UnsafePointer<rawburst_dng_params>?,
                               _ result: UnsafeMutablePointer<rawburst_dng_result>?) -> Int32 {
    ABIResult.run {
        let target = try requiredString(path, "path")
        guard let samples else { throw ABIFailure.argument("samples", "is NULL") }
        guard let params else { throw ABIFailure.argument("params", "is NULL") }
        if let result { try checkStructSize(result.pointee.struct_size, of: rawburst_dng_result.self, "rawburst_dng_result") }
        let report = try ABIDNGWriting.write(path: target, samples: samples, width: Int(width), height: Int(height),
                                             rowStride: rowStride, params: params.pointee)
        if let result {
            result.pointee.bytes = UInt64(report.bytes)
            result.pointee.compression = switch report.compression {
            case .none: UInt32(RAWBURST_COMPRESSION_NONE.rawValue)
            case .packed: UInt32(RAWBURST_COMPRESSION_PACKED.rawValue)
            case .lj92: UInt32(RAWBURST_COMPRESSION_LJ92.rawValue)
            }
            result.pointee.bits_per_sample = UInt32(report.bitsPerSample)
            setTuple(&result.pointee.digest, report.rawImageDigest ?? [])
        }
        return ABIResult.ok
    }
}
