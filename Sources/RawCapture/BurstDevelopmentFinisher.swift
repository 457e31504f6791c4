import Foundation
import RawCore
import RawDevelop
import RawSensor

/// Develops what a burst left for afterwards: deferred frames from their DNGs and the composite of every pair.
public enum BurstDevelopmentFinisher {
    /// Works through `report`'s deferred frames and pairs with `development`; `sensors` in trigger order (the first
    /// is each pair's first frame). `progress` is called after each file (done, total).
    public static func finish(_ report: BurstSession.Report, development: BurstDevelopment, sensors: [String],
                              threads: Int? = nil, progress: (Int, Int) -> Void = { _, _ in }) -> BurstDevelopmentOutcome {
        var outcome = BurstDevelopmentOutcome()
        let developer = RawDeveloper(settings: development.settings, threads: threads)
        let writer = ImageFileWriter(format: development.format, options: development.options)
        let reader = RawFileReader()
        var pairs: [(UInt64, [FrameRecordRef])] = []
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
                    pairs.append((sequence, ordered.map { FrameRecordRef(path: $0.path, sensor: $0.sensor) }))
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
            let start = Date()
            let path = development.path(forDNG: deferral.dng)
            do {
                let image = try reader.read(path: deferral.dng)
                let written = try writer.write(try developer.develop(image).image, to: path)
                outcome.developed.append(DevelopedRecord(sequenceNumber: deferral.sequenceNumber, sensor: deferral.sensor,
                                                         path: path, bytes: written.bytes,
                                                         seconds: Date().timeIntervalSince(start), duringBurst: false))
            } catch {
                outcome.failures.append("develop \(deferral.dng): \(error)")
            }
            done += 1
            progress(done, total)
        }
        if let compositor = development.compositor {
            for (sequence, frames) in pairs {
                let start = Date()
                let path = development.compositePath(forFirstDNG: frames[0].path)
                do {
                    let first = try developer.develop(try reader.read(path: frames[0].path)).image
                    let second = try developer.develop(try reader.read(path: frames[1].path)).image
                    let written = try writer.write(try compositor.compose(first, second), to: path)
                    outcome.composites.append(CompositeRecord(sequenceNumber: sequence, inputs: frames.map(\.path), path: path,
                                                              bytes: written.bytes, seconds: Date().timeIntervalSince(start)))
                } catch {
                    outcome.failures.append("composite of pair \(sequence): \(error)")
                }
                done += 1
                progress(done, total)
            }
        }
        return outcome
    }

    private struct FrameRecordRef {
        let path: String
        let sensor: String
    }
}
