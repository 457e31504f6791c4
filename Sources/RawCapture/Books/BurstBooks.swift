import Foundation
import RawCore
import RawSources
import Synchronization

/// Everything the sensor thread and the writers of one run write down together: the ledgers, the frames
/// written, developed and analysed, the failures, file counters and the governor's level. It exists only inside
/// `BurstRun.books`, a `Mutex`, so nothing reads or writes it without holding the lock.
struct BurstBooks: Sendable {
    /// One ledger per sensor.
    var ledgers: [String: BurstLedger]
    /// The frames written, in the order they became durable.
    var records: [BurstSession.FrameRecord] = []
    /// Pictures developed during the burst, and frames left for after it.
    var developed: [DevelopedRecord] = []
    var deferredDevelopments: [DevelopDeferral] = []
    /// Analyses of written frames, and how many the governor skipped.
    var analyses: [BurstSession.AnalysisRecord] = []
    var skippedAnalyses = 0
    /// Write, develop, journal and sensor failures, in order.
    var failures: [BurstSession.Failure] = []
    /// The last file counter per sensor.
    var counters: [String: Int] = [:]
    var bytesWritten = 0
    /// The governor's level (set by the sensor thread, for the progress line).
    var level = BurstGovernor.Level.normal
    /// Frames the writers have finished with, written or failed (the governor's measure of their pace).
    var finished = 0
    /// Frames dropped late: produced on the clock but never made.
    var lateDropped = 0
    /// Frames dropped by reason, all sensors (counted as they are dropped, for the progress line).
    var droppedByReason: [BurstLedger.DropReason: Int] = [:]
    /// `droppedByReason` when the recording began (at the trigger, once the frames beyond the pre-record are let go):
    /// what was dropped while frames were only shown. Empty for a burst that starts recording; nil until the trigger.
    var droppedBeforeRecording: [BurstLedger.DropReason: Int]?
    /// Failed writes since the last good one.
    var consecutiveWriteFailures = 0
    /// The first drop that counts against the prediction (any but a failed write or the pre-record's window): its
    /// sequence number, reason and when (`CLOCK_MONOTONIC`, ns).
    var firstDrop: BurstSession.TimedDrop?
    /// When the disk was taking the burst's files (each write's durable span and any simulated wait), and their bytes:
    /// the burst's measure of its disk (`CalibrationCheck`). At most `DiskActivity.maximumSpans` spans are kept.
    var disk = DiskActivity()

    /// Books with an empty ledger for each sensor.
    init(sensorNames: [String]) {
        ledgers = [:]
        for name in sensorNames { ledgers[name] = BurstLedger() }
    }

    /// The ledger of `sensor` (made on first use).
    subscript(ledger sensor: String) -> BurstLedger {
        get { ledgers[sensor, default: BurstLedger()] }
        set { ledgers[sensor] = newValue }
    }
}

/// What became of a frame's files once its DNG has its final name.
struct WriteOutcome: Sendable {
    /// Whether the DNG's directory entry is on disk.
    var publication: AtomicFile.Publication
    /// Why its sidecar could not be written, nil when it was (or none was asked for).
    var sidecarFailure: String?
    /// The DNG's and its sidecar's device and inode, as they were written (nil when unknown or no sidecar).
    var identity: FileIdentity?
    var sidecarIdentity: FileIdentity?
}

extension BurstRun {
    /// Records a drop in the ledger and the journal.
    func drop(_ frame: CapturedFrame, _ reason: BurstLedger.DropReason, flush: Bool = true) {
        drop(frame.sequenceNumber, sensor: frame.sensorName, reason, flush: flush)
    }

    /// Records the drop of frame `sequenceNumber` of `sensor` in the ledger and the journal. The sensor thread passes
    /// `flush: false`: its lines go out with the next flushed one (a writer's commit, or the end), because a flush
    /// on the sensor thread (an fdatasync, tens of milliseconds on a busy disk) would make the next frames late.
    func drop(_ sequenceNumber: UInt64, sensor: String, _ reason: BurstLedger.DropReason, flush: Bool = true) {
        books.withLock {
            $0[ledger: sensor].recordDropped(sequenceNumber, reason: reason)
            $0.droppedByReason[reason, default: 0] += 1
            if reason.isLate { $0.lateDropped += 1 }
            if $0.firstDrop == nil && reason != .writeFailed && reason != .outsidePreRecord {
                $0.firstDrop = BurstSession.TimedDrop(sequenceNumber: sequenceNumber, reason: reason,
                                                      nanoseconds: MonotonicClock.nanoseconds())
            }
        }
        var entry = BurstJournal.Entry(.dropped)
        entry.sequenceNumber = sequenceNumber
        entry.sensor = sensor
        entry.reason = reason.rawValue
        journalAppend(entry, flush: flush)
    }

    /// Records that the sensor made `frame` (a journal line that is not flushed on its own: the next flushed line
    /// takes it to disk). After a crash, a frame produced but neither committed nor dropped was lost in flight.
    func recordProduced(_ frame: CapturedFrame) {
        recordProduced(frame.sequenceNumber, sensor: frame.sensorName)
    }

    /// Records that `sensor` made (or, late, let go by) frame `sequenceNumber`.
    func recordProduced(_ sequenceNumber: UInt64, sensor: String) {
        books.withLock { $0[ledger: sensor].recordProduced(sequenceNumber) }
        var entry = BurstJournal.Entry(.produced)
        entry.sequenceNumber = sequenceNumber
        entry.sensor = sensor
        journalAppend(entry, flush: false)
    }

    /// Records a frame whose DNG is under its final name: committed in the journal (with its sidecar's and its
    /// directory's outcome) and written in the ledger. A sidecar that could not be written and a directory that
    /// could not be flushed are failures of the burst, but the frame is written: its DNG is whole.
    func recordWritten(_ record: BurstSession.FrameRecord, file: String, outcome: WriteOutcome) {
        var committed = BurstJournal.Entry(.committed)
        committed.sequenceNumber = record.sequenceNumber
        committed.sensor = record.sensor
        committed.file = file
        committed.bytes = record.bytes
        if outcome.sidecarFailure != nil { committed.sidecar = false }
        committed.identity = outcome.identity
        if let sidecar = outcome.sidecarIdentity, sidecar.device == outcome.identity?.device { committed.sidecarInode = sidecar.inode }
        if !outcome.publication.isDurable { committed.durable = false }
        journalAppend(committed)
        let sensor = session.sensorNames.count > 1 ? record.sensor : nil
        books.withLock {
            $0[ledger: record.sensor].recordWritten(record.sequenceNumber)
            $0.records.append(record)
            $0.bytesWritten += record.bytes
            $0.finished += 1
            $0.consecutiveWriteFailures = 0
            if case .notDurable(let reason) = outcome.publication {
                $0.failures.append(.notDurable(sequenceNumber: record.sequenceNumber, sensor: sensor, detail: reason))
            }
            if let detail = outcome.sidecarFailure {
                $0.failures.append(.sidecar(sequenceNumber: record.sequenceNumber, sensor: sensor, detail: detail))
            }
        }
    }

    /// Records a failed write; under `block` and `stop`, or after three failures in a row, the burst stops.
    func recordWriteFailure(_ frame: CapturedFrame, message: String) {
        let sensor = session.sensorNames.count > 1 ? frame.sensorName : nil
        let inARow = books.withLock { books -> Int in
            books.failures.append(.write(sequenceNumber: frame.sequenceNumber, sensor: sensor, detail: message))
            books.consecutiveWriteFailures += 1
            books.finished += 1
            return books.consecutiveWriteFailures
        }
        drop(frame, .writeFailed)
        if configuration.overflow == .block || configuration.overflow == .stop || inARow >= 3 {
            session.control.stop(because: .writesFailing(message))
        }
    }

    /// Adds a failure to the burst's report.
    func recordFailure(_ failure: BurstSession.Failure) { books.withLock { $0.failures.append(failure) } }

    /// The next file counter of `sensor` (1, 2, ...).
    func nextCounter(_ sensor: String) -> Int {
        books.withLock {
            $0.counters[sensor, default: 0] += 1
            return $0.counters[sensor]!
        }
    }

    /// Appends to the journal (flushed unless `flush` is false), if there is one; a failure is reported as an error.
    func journalAppend(_ entry: BurstJournal.Entry, flush: Bool = true) {
        guard let journal else { return }
        do { try journal.append(entry, flush: flush) } catch { recordFailure(.journal("\(error)")) }
    }

    /// Starts the journal of `session`; a failure is added to `failures` and the burst goes on without one.
    static func openJournal(_ session: BurstSession, failures: inout [BurstSession.Failure]) -> BurstJournal? {
        let configuration = session.configuration
        guard configuration.journal else { return nil }
        do {
            let opened = try BurstJournal(directory: configuration.outputDirectory)
            var start = BurstJournal.Entry(.start)
            start.version = 2
            start.sensor = session.sensorNames.joined(separator: ",")
            start.frames = configuration.frames
            start.overflow = configuration.overflow.rawValue
            start.name = configuration.nameTemplate.text
            start.sidecars = configuration.sidecars
            start.identity = opened.identity
            try opened.append(start)
            return opened
        } catch {
            failures.append(.journal("\(error)"))
            return nil
        }
    }

    /// Tells the progress callback the counts now.
    func reportProgress() {
        guard let progress else { return }
        let stats = pool.statistics
        let (isPaused, waiting) = session.control.status
        let now = books.withLock { books in
            let totals = BurstLedger.totals(books.ledgers.values)
            var recording: [BurstLedger.DropReason: Int] = [:]
            if let before = books.droppedBeforeRecording {
                for (reason, count) in books.droppedByReason where count > before[reason, default: 0] {
                    recording[reason] = count - before[reason, default: 0]
                }
            }
            return BurstSession.Progress(produced: totals.produced, made: totals.produced - books.lateDropped,
                                         written: totals.written, dropped: totals.dropped,
                                         queued: stats.queued, slots: stats.slotCount, bytes: books.bytesWritten,
                                         seconds: Double(MonotonicClock.nanoseconds() - startedNanoseconds) / 1e9,
                                         level: books.level, paused: isPaused, waitingForTrigger: waiting,
                                         droppedByReason: books.droppedByReason, recordingDroppedByReason: recording)
        }
        progress(now)
    }
}
