import Foundation
import RawBurst

/// `analyze` as a worker: each job analyses one raw and writes the analysis (what `analyze --json` reports for that
/// file) as a JSON file at its output; its digest is that file's SHA-256.
extension AnalyzeCommand: WorkerModeCommand {
    var workerSlots: Int { 1 }
    var folderPlanOutput: (directory: String, extension: String)? { nil }
    var replacesOutputs: Bool { overwrite }

    func checkWorkerMode() throws {
        if png != nil { throw BadValue("--png writes pictures of a whole batch; the worker mode writes each job's analysis as JSON") }
        if best != nil { throw BadValue("--best ranks a whole batch; the worker mode analyses one file per job") }
    }

    func checkJob(output: String) throws {}

    func outputSettings(output: String) -> String {
        "histogram=\(histogram) peaking=\(peaking) zebra=\(zebra) sharpness=\(sharpness) bins=\(bins) "
            + "peaking-threshold=\(peakingThreshold) zebra-threshold=\(zebraThreshold) spot=\(spot.x),\(spot.y)"
    }

    func runJob(_ request: SandboxRequest, threads: Int) -> JobOutcome {
        let start = Date()
        let report = AnalysisBatch(options: batchOptions()).run([request.input])
        guard let result = report.files.first, result.ok else {
            let failed = report.files.first
            return .failure(failed?.errorKind ?? .writeFailed, failed?.error ?? "\(request.input): not analysed",
                            seconds: Date().timeIntervalSince(start))
        }
        do throws(FileError) { try AtomicFile.writeJSON(result, to: request.output) } catch {
            return .failure(.writeFailed, error.description, seconds: Date().timeIntervalSince(start))
        }
        return .success(action: "analyzed", output: request.output, seconds: Date().timeIntervalSince(start), warnings: [])
    }
}
