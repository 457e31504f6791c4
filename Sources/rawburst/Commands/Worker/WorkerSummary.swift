import Foundation
import RawBurst

/// What a worker run did, as `--json` prints it and a person reads it in one line.
struct WorkerSummary: Encodable {
    /// Jobs in this run (its shard).
    let jobs: Int
    /// Jobs run and written now.
    let done: Int
    /// Jobs kept from earlier runs (--resume).
    let kept: Int
    /// Jobs that failed (recorded with their kind).
    let failed: Int
    /// Failures by kind.
    let failuresByKind: [String: Int]
    /// Jobs run whose results line could not be appended.
    let unrecorded: Int
    /// Jobs not run because a results line could not be appended before them.
    let abandoned: Int
    /// Bytes written now.
    let bytes: Int
    /// Wall-clock seconds of the run.
    let seconds: Double
    /// Jobs done or failed per second (kept ones left out: they cost a check, not a run).
    let filesPerSecond: Double
    /// K/N, or nil.
    let shard: String?
    /// The results file, or nil.
    let results: String?

    init(events: [JobSupervisor.Event], seconds: Double, shard: WorkerShard?, results: String?) {
        var done = 0, kept = 0, failed = 0, unrecorded = 0, abandoned = 0, bytes = 0
        var kinds: [String: Int] = [:]
        for event in events {
            let record: JobRecord
            switch event {
            case .kept: kept += 1; continue
            case .abandoned: abandoned += 1; continue
            case .recorded(let r): record = r
            case .unrecorded(let r, _): record = r; unrecorded += 1
            }
            if let error = record.outcome.error {
                failed += 1
                kinds[error.kind.rawValue, default: 0] += 1
            } else {
                done += 1
                bytes += record.outcome.bytes ?? 0
            }
        }
        jobs = events.count
        (self.done, self.kept, self.failed, self.unrecorded, self.bytes) = (done, kept, failed, unrecorded, bytes)
        self.abandoned = abandoned
        failuresByKind = kinds
        self.seconds = (seconds * 1000).rounded() / 1000
        filesPerSecond = seconds > 0 ? ((Double(done + failed) / seconds) * 100).rounded() / 100 : 0
        self.shard = shard?.description
        self.results = results
    }

    private enum Keys: String, CodingKey {
        case jobs, done, kept, failed, failuresByKind, unrecorded, abandoned, bytes, seconds, filesPerSecond, shard, results
    }

    /// Every key, `null` for the shard and results file when there are none.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(jobs, forKey: .jobs)
        try c.encode(done, forKey: .done)
        try c.encode(kept, forKey: .kept)
        try c.encode(failed, forKey: .failed)
        try c.encode(failuresByKind, forKey: .failuresByKind)
        try c.encode(unrecorded, forKey: .unrecorded)
        try c.encode(abandoned, forKey: .abandoned)
        try c.encode(bytes, forKey: .bytes)
        try c.encode(seconds, forKey: .seconds)
        try c.encode(filesPerSecond, forKey: .filesPerSecond)
        try c.encode(shard, forKey: .shard)
        try c.encode(results, forKey: .results)
    }

    /// "worker: 300 jobs: 298 done, 0 kept, 2 failed (timeout 1, memory-limit 1), 1.2 GB in 41.0 s (7.3 files/s)".
    var line: String {
        let kinds = failuresByKind.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "worker: \(jobs) job\(jobs == 1 ? "" : "s")\(shard.map { " (shard \($0))" } ?? ""): \(done) done, \(kept) kept, "
            + "\(failed) failed\(kinds.isEmpty ? "" : " (\(kinds))"), \(formatBytes(bytes)) in \(String(format: "%.1f", seconds)) s "
            + "(\(String(format: "%.1f", filesPerSecond)) files/s)"
            + (unrecorded > 0 ? "; \(unrecorded) not recorded in \(results ?? "the results")" : "")
            + (abandoned > 0 ? ", \(abandoned) not run after that" : "")
    }
}
