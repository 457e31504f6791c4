import Foundation
import RawCore
import RawDNG
import RawSources

extension BurstRun {
    /// New pool slots the writers keep faulted in beyond the high-water mark (`FramePool.slotToWarm`).
    static let slotsWarmedAhead = 2

    /// One writer: takes full slots until the pool is closed and drained, writes each frame's DNG (and
    /// sidecar) straight from its slot, commits it in the journal once durable, and gives the slot back.
    func writeLoop() {
        warmNewSlots()
        while let (slot, pending) = pool.nextFull() {
            write(pending)
            pool.release(slot)
            reportProgress()
            warmNewSlots()
        }
    }

    /// Faults in the pages of the next new pool slots here, at the writers' priority, rather than on the sensor's
    /// thread when it first fills them.
    private func warmNewSlots() {
        while let storage = pool.slotToWarm(ahead: Self.slotsWarmedAhead) { storage.populate() }
    }

    /// Writes one frame from its slot and records it: written (its DNG is under its final name; a sidecar or a
    /// directory flush that failed after that is a failure of the burst, not a drop) or dropped as `write-failed`
    /// (nothing under its final name).
    private func write(_ pending: BurstSession.Pending) {
        let frame = located(pending.frame)
        let taken = Date()
        var options = configuration.dngOptions
        let work = pending.work
        // Shed optional work (the plan's choice or the governor's `no-previews`): no optional preview, and no raw
        // digest (an MD5 of the samples: about as much CPU as the rest of an uncompressed write; docs/benchmarks.md).
        // Each frame's record says whether it has one.
        if work.shedsOptionalWork {
            options.previewLongEdge = nil
            options.rawImageDigest = false
        }
        // The compression the plan and the governor set now.
        options.compression = work.compression
        options.cinemaDNG = configuration.cinemaDNG?.frame(sequenceNumber: frame.sequenceNumber)
        let counter = nextCounter(frame.sensorName)
        let name = configuration.nameTemplate.name(sensor: frame.sensorName, sequenceNumber: frame.sequenceNumber,
                                                   counter: counter, bracket: pending.bracketIndex,
                                                   captureTime: frame.image.metadata.captureTime)
        let path = (configuration.outputDirectory as NSString).appendingPathComponent(name)
        let written: DNGWriter.Report
        var diskSpans: [ClosedRange<UInt64>] = []
        do {
            try beforeWrite?(frame.sequenceNumber)
            simulatedCPU?.spend()
            let stalled = MonotonicClock.nanoseconds()
            try faults?.beforeWrite()
            if faults != nil { diskSpans.append(stalled...MonotonicClock.nanoseconds()) }
            written = try DNGWriter(options: options, previewEncoder: configuration.previewEncoder).write(frame.image, to: path)
            // A simulated disk takes the file's bytes at its bandwidth before the write counts as done.
            faults?.afterWrite(bytes: written.bytes)
            if let durable = written.durableNanoseconds {
                diskSpans.append(durable.lowerBound...max(durable.upperBound, faults == nil ? 0 : MonotonicClock.nanoseconds()))
            }
        } catch {
            recordWriteFailure(frame, message: "\(error)")
            return
        }
        books.withLock { $0.disk.record(bytes: written.bytes, spans: diskSpans) }
        // The DNG is whole under its final name: from here on the frame is written, whatever else fails.
        var outcome = WriteOutcome(publication: written.publication, identity: written.identity)
        if configuration.sidecars {
            let sidecar = FrameSidecar(frame: frame, file: name, bracketIndex: pending.bracketIndex, preset: configuration.presetName)
            let sidecarPath = (configuration.outputDirectory as NSString).appendingPathComponent(FrameSidecar.fileName(forDNG: name))
            do {
                let (publication, identity) = try AtomicFile.publish(sidecar.json(), to: sidecarPath,
                                                                     overwrite: configuration.dngOptions.overwrite)
                outcome.sidecarIdentity = identity
                if case .notDurable(let reason) = publication, outcome.publication.isDurable {
                    outcome.publication = .notDurable(reason: reason)
                }
            } catch {
                outcome.sidecarFailure = "\(error)"
            }
        }
        var record = BurstSession.FrameRecord(
            sequenceNumber: frame.sequenceNumber, sensor: frame.sensorName,
            monotonicNanoseconds: frame.monotonicNanoseconds, latenessNanoseconds: frame.latenessNanoseconds,
            slotLatencyNanoseconds: pending.slotLatency, queueDepth: pending.queueDepth, path: path,
            bytes: written.bytes, encodeSeconds: Date().timeIntervalSince(taken),
            committedNanoseconds: MonotonicClock.nanoseconds(), settings: frame.settings,
            bracketIndex: pending.bracketIndex, captureTime: frame.image.metadata.captureTime)
        record.compression = written.compression
        record.rawImageDigest = options.rawImageDigest
        record.timeCode = options.cinemaDNG?.timeCode.description
        record.camera = frame.camera
        recordWritten(record, file: name, outcome: outcome)
        analyse(frame, work: work)
        develop(frame, dng: path, work: work, level: pending.level)
    }

    /// Develops a written frame from its slot when the plan has room for it and the governor allows, or leaves it
    /// for after the burst (with the reason). A failed development is an error of the burst, not of the frame.
    private func develop(_ frame: CapturedFrame, dng: String, work: BurstGovernor.Work, level: BurstGovernor.Level) {
        guard let development = configuration.development else { return }
        let cause: DevelopDeferral.Cause?
        if !session.memory.developsDuringBurst {
            cause = .noRoomInBudget
        } else if configuration.timePlan.map({ !$0.developsDuringBurst }) ?? false {
            cause = .noTimeInPlan
        } else if work.shedsOptionalWork {
            cause = .governor(level)
        } else {
            cause = nil
        }
        if let cause {
            let deferral = DevelopDeferral(sequenceNumber: frame.sequenceNumber, sensor: frame.sensorName, dng: dng, cause: cause)
            books.withLock { $0.deferredDevelopments.append(deferral) }
            return
        }
        let start = Date()
        let path = development.path(forDNG: dng)
        do {
            let threads = max(1, ProcessInfo.processInfo.activeProcessorCount / max(1, configuration.writers))
            let bytes = try development.develop(frame.image, sensor: frame.sensorName, to: path, threads: threads)
            let record = DevelopedRecord(sequenceNumber: frame.sequenceNumber, sensor: frame.sensorName, path: path,
                                         bytes: bytes, seconds: Date().timeIntervalSince(start), duringBurst: true)
            books.withLock { $0.developed.append(record) }
        } catch {
            let failure = BurstSession.Failure.develop(sequenceNumber: frame.sequenceNumber, sensor: frame.sensorName, detail: "\(error)")
            recordFailure(failure)
        }
    }

    /// Analyses a written frame straight from its slot, on this writer's thread (one core: the others write and
    /// capture), unless the governor has degraded the burst; then it only counts the skip.
    private func analyse(_ frame: CapturedFrame, work: BurstGovernor.Work) {
        guard let analyzer = configuration.analysis else { return }
        guard !work.shedsOptionalWork else {
            books.withLock { $0.skippedAnalyses += 1 }
            return
        }
        let start = Date()
        let analysis = analyzer.analyse(frame.image.frame)
        let record = BurstSession.AnalysisRecord(sequenceNumber: frame.sequenceNumber, sensor: frame.sensorName,
                                                 analysis: analysis, seconds: Date().timeIntervalSince(start))
        books.withLock { $0.analyses.append(record) }
    }

    /// `frame` with the burst's position, when it has none of its own (the image's storage is shared, not copied).
    private func located(_ frame: CapturedFrame) -> CapturedFrame {
        guard let gps = configuration.gps, frame.image.metadata.gps == nil else { return frame }
        var image = frame.image
        image.metadata.gps = (try? GPSFix(latitude: gps.latitude, longitude: gps.longitude, altitude: gps.altitude,
                                          timestampMilliseconds: image.metadata.captureTime?.millisecondsSince1970)) ?? gps
        return frame.replacingImage(image)
    }
}
