import Foundation
import RawBurst

extension CaptureCommand {
    /// The written frames for the manifest, by sequence number, the frames of a pair in trigger order, each with its
    /// analysis (`--analyze`).
    static func frameReports(_ report: BurstSession.Report, sensorNames: [String]) -> [CaptureReport.Frame] {
        let order = Dictionary(uniqueKeysWithValues: sensorNames.enumerated().map { ($1, $0) })
        let analyses = Dictionary(report.analyses.compactMap { record in
            (record.analysis as? FrameAnalysis).map { ("\(record.sensor)#\(record.sequenceNumber)", $0) }
        }, uniquingKeysWith: { first, _ in first })
        return report.frames
            .sorted { ($0.sequenceNumber, order[$0.sensor] ?? 0) < ($1.sequenceNumber, order[$1.sensor] ?? 0) }
            .map { CaptureReport.Frame($0, analysis: analyses["\($0.sensor)#\($0.sequenceNumber)"]) }
    }

    /// Drops the user has to hear about (and exit status 3 stands for): not failed writes (those are errors), not the
    /// pre-record's window, and not frames dropped late — or lost by a camera or stream — before a pre-record's
    /// trigger that the window would not have kept anyway (also `rawburst live`'s frames shown before Record, which
    /// waits for its trigger with or without a pre-record).
    static func dropsToTell(_ report: BurstSession.Report, preRecordFrames: Int,
                            waitsForTrigger: Bool = false) -> [(sensor: String, drop: BurstLedger.Drop)] {
        report.drops.filter { item in
            switch item.drop.reason {
            case .writeFailed, .outsidePreRecord: return false
            case .late, .sensorLate, .camera, .missingPackets, .timeout, .sizeMismatch, .incomplete, .corrupt:
                guard preRecordFrames > 0 || waitsForTrigger else { return true }
                guard let trigger = report.triggeredAtSequenceNumber else { return false }
                return item.drop.sequenceNumber + UInt64(preRecordFrames) >= trigger
            default: return true
            }
        }
    }

    /// Writes the manifest atomically; says on standard error when it could not be written or is not durable.
    /// Returns whether it was written, and whether it is durable.
    func writeManifest(_ summary: CaptureReport, to path: String) -> (written: Bool, durable: Bool) {
        do {
            let publication = try AtomicFile.write(Array((Terminal.jsonText(summary) ?? "{}").utf8) + [10], to: path,
                                                   overwrite: overwrite)
            if case .notDurable(let reason) = publication {
                Terminal.error("rawburst capture: \(path): written, but not durable: \(reason)")
            }
            return (true, publication.isDurable)
        } catch {
            Terminal.error("rawburst capture: \(error)")
            return (false, false)
        }
    }

    /// The summary's lines about developed pictures and composites.
    func printDevelopment(_ d: CaptureDevelopmentReport, report: BurstSession.Report) {
        let during = d.developed.filter(\.duringBurst).count
        print("  developed \(d.developed.count) \(d.format) picture\(d.developed.count == 1 ? "" : "s") "
              + "(\(during) during the burst, \(d.developed.count - during) after it"
              + (d.developed.count > during ? ", \(d.afterBurstInFlight) at a time in \(SettingText.number(d.afterBurstSeconds)) s)" : ")")
              + (d.duringBurst ? "" : "; the memory budget had no room for developing during the burst"))
        if let layout = d.composite {
            print("  \(d.composites.count) composite\(d.composites.count == 1 ? "" : "s") (\(layout))")
            let shown = d.developed.count + d.composites.count <= 12
            if shown { for c in d.composites { print("  \(c.path)") } }
        }
        if d.developed.count <= 12 { for f in d.developed { print("  \(f.path)") } }
        for line in d.pairsWithoutComposite { print("  no composite for \(line)") }
        // The burst's own development failures come first and were printed with its errors.
        let printed = report.failures.filter(\.isDevelopment).count
        for line in d.failures.dropFirst(printed) { Terminal.error("error: \(line)") }
    }
}
