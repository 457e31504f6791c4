import CRawBurst
import RawCore
import RawDevelop
import RawImageIO
import RawJobs

/// `rawburst_develop`: one raw file developed into a JPEG, HEIF, TIFF or PNG, as `rawburst develop` does it.
enum ABIDevelopment {
    static func develop(input: String, output: String, params: rawburst_develop_params) throws(ABIFailure) -> FileDeveloper.Result {
        try checkStructSize(params.struct_size, of: rawburst_develop_params.self, "rawburst_develop_params")
        guard let format = OutputFormat(pathExtension: output) else {
            throw .argument("output", "\(output): the extension names no format (.jpg .heic .tif .png)")
        }
        var settings = DevelopSettings()
        do {
            if let text = try optionalString(params.white_balance, "white_balance") {
                settings.whiteBalance = try WhiteBalanceChoice(parsing: text)
            }
            guard params.exposure.isFinite else { throw ABIFailure.argument("exposure", "\(params.exposure) is not finite") }
            settings.exposure = params.exposure
            settings.longEdge = params.long_edge == 0 ? nil : Int(params.long_edge)
            var options = EncodeOptions(quality: params.quality == 0 ? 90 : Int(params.quality), overwrite: params.overwrite != 0)
            if params.bits != 0 {
                switch format {
                case .heif: options.heifBitDepth = Int(params.bits)
                case .tiff: options.tiffBitDepth = Int(params.bits)
                case .png: options.pngBitDepth = Int(params.bits)
                case .jpeg:
                    guard params.bits == 8 else { throw ABIFailure.argument("bits", "JPEG is 8 bits per sample, not \(params.bits)") }
                }
            }
            options = try options.validated()
            settings.sampleFormat = SampleFormat.for(format, options: options)
            settings = try settings.validated()
            try ABIFailure.refuseExisting(output, overwrite: options.overwrite)
            return FileDeveloper(settings: settings, format: format, options: options).develop(ConversionJob(input: input, output: output))
        } catch {
            throw ABIFailure(error)
        }
    }

    /// The status of a failed development: reading the raw, or writing the picture.
    static func failure(_ result: FileDeveloper.Result) -> ABIFailure {
        let status: ABIFailure.Status = switch result.failureKind {
        case .exists: .exists
        case .writeFailed, nil: .write
        case .timeout: .internal
        default: .read
        }
        return ABIFailure(status, result.error ?? "development failed")
    }
}

@_cdecl("rawburst_develop")
public func rawburst_develop(_ input: UnsafePointer<CChar>?, _ output: UnsafePointer<CChar>?,
                             _ params: UnsafePointer<rawburst_develop_params>?,
                             _ result: UnsafeMutablePointer<rawburst_develop_result>?) -> Int32 {
    ABIResult.run {
        let source = try requiredString(input, "input")
        let target = try requiredString(output, "output")
        guard let params else { throw ABIFailure.argument("params", "is NULL") }
        if let result { try checkStructSize(result.pointee.struct_size, of: rawburst_develop_result.self, "rawburst_develop_result") }
        let developed = try ABIDevelopment.develop(input: source, output: target, params: params.pointee)
        guard developed.succeeded else { throw ABIDevelopment.failure(developed) }
        if let result {
            result.pointee.width = UInt32(developed.width ?? 0)
            result.pointee.height = UInt32(developed.height ?? 0)
            result.pointee.bytes = UInt64(developed.bytes ?? 0)
        }
        return ABIResult.ok
    }
}
