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
    /// The governor's level (set by the sensor thread, read by the writers per frame).
    var level = BurstGovernor.Level.normal
    /// Failed writes since the last good one.
    var consecutiveWriteFailures = 0

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

extension BurstRun {
    /// Records a drop in the ledger and the journal.
    func drop(_ frame: CapturedFrame, _ reason: BurstLedger.DropReason) {
        books.withLock { $0[ledger: frame.sensorName].recordDropped(frame.sequenceNumber, reason: reason) }
        var entry = BurstJournal.Entry(.dropped)
        entry.sequenceNumber = frame.sequenceNumber
        entry.sensor = frame.sensorName
        entry.reason = reason.rawValue
        journalAppend(entry)
    }

    /// Records a durable frame.
    func recordWritten(_ record: BurstSession.FrameRecord, file: String) {
        var committed = BurstJournal.Entry(.committed)
        committed.sequenceNumber = record.sequenceNumber
        committed.sensor = record.sensor
        committed.file = file
        committed.bytes = record.bytes
        journalAppend(committed)
        books.withLock {
            $0[ledger: record.sensor].recordWritten(record.sequenceNumber)
            $0.records.append(record)
            $0.bytesWritten += record.bytes
            $0.consecutiveWriteFailures = 0
        }
    }

    /// Records a failed write; under `block` and `stop`, or after three failures in a row, the burst stops.
    func recordWriteFailure(_ frame: CapturedFrame, message: String) {
        let sensor = session.sensorNames.count > 1 ? frame.sensorName : nil
        let inARow = books.withLock { books -> Int in
            books.failures.append(.write(sequenceNumber: frame.sequenceNumber, sensor: sensor, detail: message))
            books.consecutiveWriteFailures += 1
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

    /// The governor's level now (the writers read it per frame).
    var currentLevel: BurstGovernor.Level { books.withLock { $0.level } }

    /// Appends to the journal, if there is one; a failure is reported as an error.
    func journalAppend(_ entry: BurstJournal.Entry) {
        guard let journal else { return }
        do { try journal.append(entry) } catch { recordFailure(.journal("\(error)")) }
    }

    /// Starts the journal of `session`; a failure is added to `failures` and the burst goes on without one.
    static func openJournal(_ session: BurstSession, failures: inout [BurstSession.Failure]) -> BurstJournal? {
        let configuration = session.configuration
        guard configuration.journal else { return nil }
        do {
            let opened = try BurstJournal(directory: configuration.outputDirectory)
            var start = BurstJournal.Entry(.start)
            start.version = 1
            start.sensor = session.sensorNames.joined(separator: ",")
            start.frames = configuration.frames
            start.overflow = configuration.overflow.rawValue
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
            return BurstSession.Progress(produced: totals.produced, written: totals.written, dropped: totals.dropped,
                                         queued: stats.queued, slots: stats.slotCount, bytes: books.bytesWritten,
                                         seconds: Double(MonotonicClock.nanoseconds() - startedNanoseconds) / 1e9,
                                         level: books.level, paused: isPaused, waitingForTrigger: waiting)
        }
        progress(now)
    }
}
