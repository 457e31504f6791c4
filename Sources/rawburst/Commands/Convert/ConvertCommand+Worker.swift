import Foundation
import RawBurst

/// `convert` as a worker: each job converts one raw to a DNG; its digest is the DNG's NewRawImageDigest.
extension ConvertCommand: WorkerModeCommand {
    var workerSlots: Int { jobs }
    var folderPlanOutput: (directory: String, extension: String)? { outputOptions.output.map { ($0, "dng") } }
    var replacesOutputs: Bool { outputOptions.overwrite }

    func checkWorkerMode() throws {
        try outputOptions.checkWorkerMode(manifest: worker.manifest)
    }

    func checkJob(output: String) throws {}

    func outputSettings(output: String) -> String { "compression=\(compression.rawValue) preview=\(preview)" }

    func runJob(_ request: SandboxRequest, threads: Int) -> JobOutcome {
        var options = writerOptions(threads: threads)
        options.overwrite = request.overwrite
        let result = RawConverter(writerOptions: options).convert(ConversionJob(input: request.input, output: request.output))
        guard result.succeeded else {
            return .failure(result.failureKind ?? .writeFailed, result.error ?? "\(request.input): not converted", seconds: result.seconds)
        }
        let digest = result.rawImageDigest.map { (OutputDigestKind.newRawImageDigest, $0.map { String(format: "%02x", $0) }.joined()) }
        return .success(action: result.action.rawValue, output: request.output, seconds: result.seconds, digest: digest,
                        warnings: result.warnings)
    }
}
