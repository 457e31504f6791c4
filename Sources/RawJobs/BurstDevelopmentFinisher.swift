import RawCapture
import RawDevelop
import RawFiles

/// Develops what a burst left for afterwards: deferred frames from their DNGs and the composite of every pair.
public enum BurstDevelopmentFinisher {
    /// Works through `report`'s deferred frames and pairs with `development`; `sensors` in trigger order (the first
    /// is each pair's first frame). `progress` is called after each file (done, total).
    public static func finish(_ report: BurstSession.Report, development: BurstDevelopment, sensors: [String],
                              threads: Int? = nil, progress: (Int, Int) -> Void = { _, _ in }) -> BurstDevelopmentOutcome {
        var outcome = BurstDevelopmentOutcome()
        let developer = FileDeveloper(settings: development.settings, format: development.format, options: development.options,
                                      threadsPerFile: threads)
        var pairs: [(UInt64, [String])] = []
        if let _ = development.compositor, sensors.count == 2 {
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
        }
        let total = report.deferredDevelopments.count + pairs.count
        var done = 0
        for deferral in report.deferredDevelopments {
            let result = developer.develop(ConversionJob(input: deferral.dng, output: development.path(forDNG: deferral.dng)))
            if let error = result.error {
                outcome.failures.append("develop \(deferral.dng): \(error)")
            } else {
                outcome.developed.append(DevelopedRecord(sequenceNumber: deferral.sequenceNumber, sensor: deferral.sensor,
                                                         path: result.output, bytes: result.bytes ?? 0,
                                                         seconds: result.seconds, duringBurst: false))
            }
            done += 1
            progress(done, total)
        }
        if let compositor = development.compositor {
            for (sequence, frames) in pairs {
                let job = CompositeJob(first: frames[0], second: frames[1],
                                       output: development.compositePath(forFirstDNG: frames[0]))
                let result = developer.composite(job, compositor: compositor)
                if let error = result.error {
                    outcome.failures.append("composite of pair \(sequence): \(error)")
                } else {
                    outcome.composites.append(CompositeRecord(sequenceNumber: sequence, inputs: result.inputs, path: result.output,
                                                              bytes: result.bytes ?? 0, seconds: result.seconds))
                }
                done += 1
                progress(done, total)
            }
        }
        return outcome
    }
}
