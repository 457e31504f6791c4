import Foundation
import RawCapture
import RawDevelop
import RawFiles

/// Develops what a burst left for afterwards: deferred frames from their DNGs and the composite of every pair, several
/// at a time on dedicated threads, within the burst's memory budget (``Plan``).
public enum BurstDevelopmentFinisher {
    /// How many files are developed at once after a burst, and with how many threads each. Every file in flight
    /// holds its decoded mosaic and its DNG's bytes (up to 4 bytes a sample) and one developer's working memory
    /// (``BurstDevelopment/workingBytes(samples:format:longEdge:)``); the budget, less the process's share, holds that many,
    /// up to one per core (a composite holds two frames, so half as many composites run at once).
    public struct Plan: Sendable, Hashable {
        /// Files developed at once.
        public let inFlight: Int
        /// Composites made at once.
        public let compositesInFlight: Int
        /// Threads each file's development uses (the cores shared among the files in flight).
        public let threadsPerFile: Int
        /// Working bytes of one file in flight.
        public let bytesPerFile: Int

        /// The plan for frames of `samplesPerFrame` samples within `memoryBudget` bytes on `cores` cores.
        public init(development: BurstDevelopment, samplesPerFrame: Int, memoryBudget: Int, cores: Int) {
            let cores = max(1, cores)
            bytesPerFile = development.workingBytes(samplesPerFrame: samplesPerFrame) + samplesPerFrame * 4
            let available = max(0, memoryBudget - BurstMemoryPlan.processBytes)
            inFlight = max(1, min(cores, available / max(1, bytesPerFile)))
            compositesInFlight = max(1, min(cores, available / max(1, 2 * bytesPerFile)))
            threadsPerFile = max(1, cores / inFlight)
        }
    }

    /// Works through `report`'s deferred frames and pairs with `development`, as `plan` says (by default: the
    /// burst's memory budget and frame size, every core); `sensors` in trigger order (the first is each pair's first
    /// frame). Every frame's outcome is recorded in the deferrals' order, whatever order they finish in. `progress`
    /// is called after each file (done, total), never concurrently with itself.
    public static func finish(_ report: BurstSession.Report, development: BurstDevelopment, sensors: [String],
                              plan: Plan? = nil, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in })
        -> BurstDevelopmentOutcome {
        let plan = plan ?? Plan(development: development, samplesPerFrame: report.memory.slotBytes / MemoryLayout<UInt16>.stride,
                                memoryBudget: report.memory.budgetBytes, cores: ProcessInfo.processInfo.activeProcessorCount)
        var outcome = BurstDevelopmentOutcome()
        let developer = FileDeveloper(settings: development.settings, format: development.format, options: development.options,
                                      threadsPerFile: plan.threadsPerFile)
        let pairs = development.compositor == nil ? [] : existingPairs(report, sensors: sensors, outcome: &outcome)
        let total = report.deferredDevelopments.count + pairs.count
        let deferrals = report.deferredDevelopments
        let jobs = deferrals.map { ConversionJob(input: $0.dng, output: development.path(forDNG: $0.dng)) }
        let mirrored = Set(deferrals.filter { development.mirroredSensors.contains($0.sensor) }.map(\.dng))
        let results = BatchRunner.run(jobs, parallelism: plan.inFlight,
                                      work: { developer.develop($0, mirrored: mirrored.contains($0.input)) },
                                      progress: { _, done, _ in progress(done, total) })
        for (deferral, result) in zip(deferrals, results) {
            if let error = result.error {
                outcome.failures.append("develop \(deferral.dng): \(error)")
            } else {
                outcome.developed.append(DevelopedRecord(sequenceNumber: deferral.sequenceNumber, sensor: deferral.sensor,
                                                         path: result.output, bytes: result.bytes ?? 0,
                                                         seconds: result.seconds, duringBurst: false))
            }
        }
        if let compositor = development.compositor {
            let compositeJobs = pairs.map { sequence, frames in
                var job = CompositeJob(first: frames[0], second: frames[1], output: development.compositePath(forFirstDNG: frames[0]))
                job.mirrorsFirst = development.mirroredSensors.contains(sensors[0])
                job.mirrorsSecond = development.mirroredSensors.contains(sensors[1])
                return job
            }
            let first = jobs.count
            let results = BatchRunner.run(compositeJobs, parallelism: plan.compositesInFlight,
                                          work: { developer.composite($0, compositor: compositor) },
                                          progress: { _, done, _ in progress(first + done, total) })
            for ((sequence, _), result) in zip(pairs, results) {
                if let error = result.error {
                    outcome.failures.append("composite of pair \(sequence): \(error)")
                } else {
                    outcome.composites.append(CompositeRecord(sequenceNumber: sequence, inputs: result.inputs, path: result.output,
                                                              bytes: result.bytes ?? 0, seconds: result.seconds))
                }
            }
        }
        return outcome
    }

    /// The pairs of a two-sensor burst whose frames were both written (sequence number, paths in `sensors`' order);
    /// every pair that existed without both frames is put in `outcome` with what it lacks.
    private static func existingPairs(_ report: BurstSession.Report, sensors: [String],
                                      outcome: inout BurstDevelopmentOutcome) -> [(UInt64, [String])] {
        var pairs: [(UInt64, [String])] = []
        guard sensors.count == 2 else { return pairs }
        let bySequence = Dictionary(grouping: report.frames, by: \.sequenceNumber)
        // Pairs that existed: a frame written, or dropped for a reason other than the pre-record's window.
        var existed = Set(report.frames.map(\.sequenceNumber))
        for ledger in report.ledgers.values {
            for drop in ledger.drops where drop.reason != .outsidePreRecord { existed.insert(drop.sequenceNumber) }
        }
        for sequence in existed.sorted() {
            let frames = bySequence[sequence] ?? []
            let ordered = sensors.compactMap { s in frames.first { $0.sensor == s } }
            if ordered.count == 2 {
                pairs.append((sequence, ordered.map(\.path)))
            } else {
                let missing = sensors.filter { s in !frames.contains { $0.sensor == s } }
                outcome.pairsWithoutComposite.append("pair \(sequence): the \(missing.joined(separator: " and ")) frame "
                                                     + "was dropped or not written")
            }
        }
        return pairs
    }
}
