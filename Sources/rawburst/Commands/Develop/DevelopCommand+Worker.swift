import Foundation
import RawBurst

/// `develop` as a worker: each job develops one raw into the picture its output names; its digest is the picture's
/// SHA-256.
extension DevelopCommand: WorkerModeCommand {
    var workerSlots: Int { jobs }
    var folderPlanOutput: (directory: String, extension: String)? {
        guard let output = outputOptions.output else { return nil }
        return (output, (try? choices(output: output))?.format.fileExtension ?? "jpg")
    }
    var replacesOutputs: Bool { outputOptions.overwrite }

    func checkWorkerMode() throws {
        if compositeOptions.composite != nil { throw BadValue("--composite pairs files; the worker mode develops one file per job") }
        try outputOptions.checkWorkerMode(manifest: worker.manifest)
    }

    func checkJob(output: String) throws {
        do { _ = try choices(output: output) } catch { throw BadValue(error.description) }
    }

    func outputSettings(output: String) -> String {
        guard let chosen = try? choices(output: output) else { return "" }
        let s = chosen.settings, o = chosen.options
        return "format=\(chosen.format.rawValue) quality=\(o.quality) bits=\(o.heifBitDepth),\(o.tiffBitDepth),\(o.pngBitDepth) "
            + "tiff-compression=\(o.tiffCompression.rawValue) wb=\(s.whiteBalance) demosaic=\(s.demosaic.rawValue) "
            + "space=\(s.colorSpace.rawValue) look=\(s.look.name) tone=\(s.tone.rawValue) exposure=\(s.exposure) "
            + "baseline-exposure=\(s.applyBaselineExposure) highlights=\(s.highlights.rawValue) crop=\(s.crop) "
            + "size=\(s.longEdge.map(String.init) ?? "full") rotate=\(s.applyOrientation) linear=\(s.linearOutput)"
    }

    func runJob(_ request: SandboxRequest, threads: Int) -> JobOutcome {
        let chosen: Choices
        do { chosen = try choices(output: request.output) } catch {
            return .failure(.invalidValue, "\(request.output): \(error.description)", seconds: 0)
        }
        var options = chosen.options
        options.overwrite = request.overwrite
        let developer = FileDeveloper(settings: chosen.settings, format: chosen.format, options: options, threadsPerFile: threads)
        let result = developer.develop(ConversionJob(input: request.input, output: request.output))
        guard result.succeeded else {
            return .failure(result.failureKind ?? .writeFailed, result.error ?? "\(request.input): not developed", seconds: result.seconds)
        }
        return .success(action: "developed", output: request.output, seconds: result.seconds, warnings: result.warnings)
    }
}
