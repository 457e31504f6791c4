import Foundation
import RawCore
import RawDNG
import RawSensor

/// One burst: a sensor thread pulling frames from a `FrameSource` into a `FramePool`, and writer threads
/// encoding full slots to DNG files, with a declared overflow policy and every frame accounted for in a
/// `BurstLedger`.
///
/// The calling thread is the sensor thread (`run()` blocks until the burst ends); the writers are dedicated
/// threads, so blocking file I/O never runs on Swift's cooperative pool. When the pool is full, the policy
/// decides: `block` waits for a writer, `drop-newest` and `stop` let the source make the frame into a spare
/// buffer (so its clock and sequence numbers go on as a real sensor's would) and count it as dropped,
/// `drop-oldest` takes back the oldest frame no writer has started.
public final class BurstSession: @unchecked Sendable {
    /// What to capture and how.
    public struct Configuration: Sendable {
        /// Number of frames the sensor produces (1...1 000 000).
        public var frames: Int
        /// What happens when every slot is taken.
        public var overflow: OverflowPolicy
        /// Writer threads (1...64).
        public var writers: Int
        /// Bytes for the pool's slots and the spare buffer (the rest of the burst's memory is not yet counted).
        public var memoryBudget: Int
        /// The folder the DNGs go to (must exist).
        public var outputDirectory: String
        /// DNG writer options (overwrite, preview).
        public var dngOptions: DNGWriter.Options
        /// How files are named (default `%s-%4q`, e.g. `phone-wide-0042.dng`).
        public var nameTemplate: FilenameTemplate
        /// Keep a journal (`journal.jsonl`) in the output folder, for `BurstRecovery` after a crash.
        public var journal = true
        /// Write a JSON sidecar beside each DNG (`FrameSidecar`), before the frame is committed.
        public var sidecars = false
        /// The lighting preset's name, for the sidecars.
        public var presetName: String?
        /// A bracketing plan and the settings it varies (frame i is taken with the plan's step i); nil to keep
        /// the source's settings.
        public var plan: (plan: BracketPlan, base: CaptureSettings)?

        /// A configuration with `writers` defaulting to the number of cores.
        public init(frames: Int, overflow: OverflowPolicy = .block, writers: Int? = nil, memoryBudget: Int = 512 << 20,
                    outputDirectory: String, dngOptions: DNGWriter.Options = DNGWriter.Options(),
                    nameTemplate: FilenameTemplate = .standard) {
            self.frames = frames
            self.overflow = overflow
            self.writers = writers ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
            self.memoryBudget = memoryBudget
            self.outputDirectory = outputDirectory
            self.dngOptions = dngOptions
            self.nameTemplate = nameTemplate
        }
    }

    /// What became of one written frame.
    public struct FrameRecord: Sendable, Hashable {
        /// Its sequence number.
        public let sequenceNumber: UInt64
        /// The sensor it came from.
        public let sensor: String
        /// When its exposure started (`CLOCK_MONOTONIC`, ns) and how late against the schedule (ns).
        public let monotonicNanoseconds: UInt64
        public let latenessNanoseconds: UInt64
        /// Full slots waiting for a writer when it was queued (itself included).
        public let queueDepth: Int
        /// The DNG and its size.
        public let path: String
        public let bytes: Int
        /// Time from taking the slot to the file being durable, in seconds.
        public let encodeSeconds: Double
        /// The settings the frame was taken with.
        public let settings: AppliedSettings
        /// Its position in the bracketing plan's sequence (0 without a plan).
        public let bracketIndex: Int
    }

    /// The outcome of a burst.
    public struct Report: Sendable {
        /// Every frame accounted for.
        public let ledger: BurstLedger
        /// The frames written, in the order they became durable.
        public let frames: [FrameRecord]
        /// Write errors, one line each, with the frame's sequence number.
        public let errors: [String]
        /// The pool's slots, high-water mark and reclaims.
        public let pool: FramePool<Pending>.Statistics
        /// Wall-clock duration of the burst in seconds.
        public let seconds: Double
        /// True when the burst ended early under the `stop` policy or on a sensor error.
        public let stoppedEarly: Bool
        /// The invariant check: empty when every produced frame is written or dropped, exactly once.
        public var problems: [String] { ledger.problems() }
    }

    /// A full slot's frame on its way to a writer.
    public struct Pending: Sendable {
        let frame: CapturedFrame
        let queueDepth: Int
        let bracketIndex: Int
    }

    /// The source.
    public let source: any FrameSource
    /// The configuration.
    public let configuration: Configuration
    /// The pool (sized from the budget at init).
    public let pool: FramePool<Pending>

    /// Called by a writer before it writes a frame (tests use it to simulate a slow or stalling disk).
    public var beforeWrite: (@Sendable (UInt64) -> Void)?
    /// Called after each frame is written or dropped, with the counts so far (for a live status line).
    public var onProgress: (@Sendable (Progress) -> Void)?

    /// Counts for a status line.
    public struct Progress: Sendable {
        /// Frames produced, written and dropped so far.
        public let produced: Int
        public let written: Int
        public let dropped: Int
        /// Full slots waiting for a writer.
        public let queued: Int
        /// Bytes written so far.
        public let bytes: Int
    }

    private let spare: PixelStorage
    private let lock = NSLock()
    private var ledger = BurstLedger()
    private var records: [FrameRecord] = []
    private var errors: [String] = []
    private var counters: [String: Int] = [:]
    private var journal: BurstJournal?
    private var bytesWritten = 0

    /// Checks that `configuration` can run with frames of `samplesPerFrame` samples, allocating nothing.
    public static func check(_ configuration: Configuration, samplesPerFrame: Int) throws(FramePoolError) {
        guard (1...1_000_000).contains(configuration.frames) else {
            throw FramePoolError("frames must be within 1...1000000, not \(configuration.frames)")
        }
        guard (1...64).contains(configuration.writers) else {
            throw FramePoolError("writers must be within 1...64, not \(configuration.writers)")
        }
        _ = try FramePool<Pending>.slotCount(samplesPerSlot: samplesPerFrame, budgetBytes: configuration.memoryBudget,
                                              reservedBytes: samplesPerFrame * MemoryLayout<UInt16>.stride)
    }

    /// Sizes the pool from the budget: one spare frame for frames that find no slot, the rest slots.
    public init(source: any FrameSource, configuration: Configuration) throws(FramePoolError) {
        try Self.check(configuration, samplesPerFrame: source.samplesPerFrame)
        let samples = source.samplesPerFrame
        self.source = source
        self.configuration = configuration
        pool = try FramePool(samplesPerSlot: samples, budgetBytes: configuration.memoryBudget,
                             reservedBytes: samples * MemoryLayout<UInt16>.stride)
        spare = PixelStorage(lazilyZeroedCount: samples)
    }

    /// Runs the burst on the calling thread (the sensor thread) and returns when every frame is written or
    /// dropped.
    public func run() -> Report {
        let started = Date()
        if configuration.journal {
            do {
                let opened = try BurstJournal(directory: configuration.outputDirectory)
                var start = BurstJournal.Entry(event: "start")
                start.version = 1
                start.sensor = source.capabilities.name
                start.frames = configuration.frames
                start.overflow = configuration.overflow.rawValue
                try opened.append(start)
                journal = opened
            } catch {
                lock.withLock { errors.append("journal: \(error)") }
            }
        }
        let writerGroup = DispatchGroup()
        for _ in 0..<configuration.writers {
            writerGroup.enter()
            let thread = Thread { [self] in
                writeLoop()
                writerGroup.leave()
            }
            thread.name = "rawburst-writer"
            thread.start()
        }
        var stoppedEarly = false
        let metered = meteredExposure()
        for index in 0..<configuration.frames {
            var bracketIndex = 0
            if let (plan, base) = configuration.plan {
                let step = plan.step(index, base: base)
                bracketIndex = step.bracketIndex
                if index == 0 || plan.stepsPerRun > 1 {
                    var settings = step.settings
                    // A plan that does not set the focus keeps what autofocus found first (for the first frame,
                    // or for the metering below), as a camera locks focus for a bracket.
                    if (index > 0 || metered != nil) && !plan.variesFocus { settings.autoFocusLock = true }
                    // An exposure bracket steps exactly from the metered exposure: shutter × 2^EV (the ISO
                    // takes over where the shutter range ends), as a camera's auto exposure bracketing does.
                    if let metered, plan.variesExposureCompensation {
                        (settings.iso, settings.shutter) = Self.bracketed(metered, ev: settings.exposureCompensation,
                                                                          isoFixed: base.iso != nil,
                                                                          shutterFixed: base.shutter != nil,
                                                                          capabilities: source.capabilities)
                    }
                    do {
                        try source.configure(settings)
                    } catch {
                        lock.withLock { errors.append("sensor: step \(step.bracketIndex + 1) of the plan: \(error)") }
                        stoppedEarly = true
                        break
                    }
                }
            }
            var slot: FramePool<Pending>.Slot?
            switch configuration.overflow {
            case .block:
                slot = pool.acquire(waiting: true)
            case .dropNewest, .stop:
                slot = pool.tryAcquire()
            case .dropOldest:
                slot = pool.tryAcquire()
                if slot == nil, let (reclaimed, dropped) = pool.reclaimOldestFull() {
                    drop(dropped.frame.sequenceNumber, .replacedByNewer)
                    slot = reclaimed
                }
            }
            let storage = slot?.storage ?? spare
            let frame: CapturedFrame
            do {
                frame = try source.nextFrame(into: storage)
            } catch {
                if let slot { pool.abandon(slot) }
                lock.withLock { errors.append("sensor: \(error)") }
                stoppedEarly = true
                break
            }
            record { $0.recordProduced(frame.sequenceNumber) }
            guard let slot else {
                // No slot: the frame was made into the spare buffer and is dropped.
                let stop = configuration.overflow == .stop
                drop(frame.sequenceNumber, stop ? .burstStopped : .poolFull)
                reportProgress()
                if stop {
                    stoppedEarly = true
                    break
                }
                continue
            }
            pool.markFull(slot, payload: Pending(frame: frame, queueDepth: pool.statistics.queued + 1,
                                                 bracketIndex: bracketIndex))
        }
        pool.close()
        writerGroup.wait()
        let counts = lock.withLock { (ledger.produced.count, ledger.written.count, ledger.drops.count) }
        var end = BurstJournal.Entry(event: "end")
        (end.produced, end.written, end.dropped) = counts
        journalAppend(end)
        let (finalLedger, finalRecords, finalErrors) = lock.withLock { (ledger, records, errors) }
        return Report(ledger: finalLedger, frames: finalRecords, errors: finalErrors, pool: pool.statistics,
                      seconds: Date().timeIntervalSince(started), stoppedEarly: stoppedEarly)
    }

    /// One writer: takes full slots until the pool is closed and drained.
    private func writeLoop() {
        let writer = DNGWriter(options: configuration.dngOptions)
        while let (slot, pending) = pool.nextFull() {
            let frame = pending.frame
            let taken = Date()
            beforeWrite?(frame.sequenceNumber)
            let counter = lock.withLock { () -> Int in
                counters[frame.sensorName, default: 0] += 1
                return counters[frame.sensorName]!
            }
            let name = configuration.nameTemplate.name(sensor: frame.sensorName, sequenceNumber: frame.sequenceNumber,
                                                       counter: counter, bracket: pending.bracketIndex,
                                                       captureTime: frame.image.metadata.captureTime)
            let path = (configuration.outputDirectory as NSString).appendingPathComponent(name)
            do {
                let written = try writer.write(frame.image, to: path)
                if configuration.sidecars {
                    let sidecarName = FrameSidecar.fileName(forDNG: name)
                    let sidecar = FrameSidecar(frame: frame, file: name, bracketIndex: pending.bracketIndex,
                                               preset: configuration.presetName)
                    do {
                        try AtomicFile.write(sidecar.json(),
                                             to: (configuration.outputDirectory as NSString).appendingPathComponent(sidecarName),
                                             overwrite: configuration.dngOptions.overwrite)
                    } catch {
                        lock.withLock { errors.append("frame \(frame.sequenceNumber): sidecar: \(error)") }
                    }
                }
                let entry = FrameRecord(sequenceNumber: frame.sequenceNumber, sensor: frame.sensorName,
                                        monotonicNanoseconds: frame.monotonicNanoseconds,
                                        latenessNanoseconds: frame.latenessNanoseconds, queueDepth: pending.queueDepth,
                                        path: path, bytes: written.bytes, encodeSeconds: Date().timeIntervalSince(taken),
                                        settings: frame.settings, bracketIndex: pending.bracketIndex)
                // The file is durable under its final name: now it is committed.
                var committed = BurstJournal.Entry(event: "committed")
                committed.sequenceNumber = frame.sequenceNumber
                committed.file = name
                committed.bytes = written.bytes
                journalAppend(committed)
                lock.withLock {
                    ledger.recordWritten(frame.sequenceNumber)
                    records.append(entry)
                    bytesWritten += written.bytes
                }
            } catch {
                lock.withLock { errors.append("frame \(frame.sequenceNumber): \(error)") }
                drop(frame.sequenceNumber, .writeFailed)
            }
            pool.release(slot)
            reportProgress()
        }
    }

    /// Tells `onProgress` the counts now.
    private func reportProgress() {
        guard let onProgress else { return }
        let queued = pool.statistics.queued
        let progress = lock.withLock {
            Progress(produced: ledger.produced.count, written: ledger.written.count, dropped: ledger.drops.count,
                     queued: queued, bytes: bytesWritten)
        }
        onProgress(progress)
    }

    /// For a plan with an `ev:` axis over automatic exposure: the ISO and shutter auto exposure finds for the
    /// plan's base settings at 0 EV (nil when the source cannot say, or the exposure is not automatic).
    private func meteredExposure() -> (iso: Double, shutter: Double)? {
        guard let (plan, base) = configuration.plan, plan.variesExposureCompensation,
              base.iso == nil || base.shutter == nil else { return nil }
        var probe = base
        probe.exposureCompensation = 0
        guard (try? source.configure(probe)) != nil, let resolved = source.resolvedSettings else { return nil }
        return (resolved.iso, resolved.shutter)
    }

    /// The exposure `ev` stops from `metered`, within the source's ranges: a set ISO stays and the shutter
    /// moves; a set shutter stays and the ISO moves; with both automatic, the shutter first, then the ISO.
    static func bracketed(_ metered: (iso: Double, shutter: Double), ev: Double, isoFixed: Bool, shutterFixed: Bool,
                          capabilities: SourceCapabilities) -> (iso: Double, shutter: Double) {
        let wanted = metered.iso * metered.shutter * pow(2, ev)
        let shutterRange = capabilities.shutterRange, isoRange = capabilities.isoRange
        func clamp(_ v: Double, _ r: ClosedRange<Double>) -> Double { min(max(v, r.lowerBound), r.upperBound) }
        if shutterFixed { return (clamp((wanted / metered.shutter).rounded(), isoRange), metered.shutter) }
        let shutter = clamp(wanted / metered.iso, shutterRange)
        if isoFixed { return (metered.iso, shutter) }
        return (clamp((wanted / shutter).rounded(), isoRange), shutter)
    }

    /// Records a drop in the ledger and the journal.
    private func drop(_ sequenceNumber: UInt64, _ reason: BurstLedger.DropReason) {
        record { $0.recordDropped(sequenceNumber, reason: reason) }
        var entry = BurstJournal.Entry(event: "dropped")
        entry.sequenceNumber = sequenceNumber
        entry.reason = reason.rawValue
        journalAppend(entry)
    }

    /// Appends to the journal, if there is one; a failure is reported once per line as an error.
    private func journalAppend(_ entry: BurstJournal.Entry) {
        guard let journal else { return }
        do { try journal.append(entry) } catch { lock.withLock { errors.append("journal: \(error)") } }
    }

    /// Changes the ledger under the lock.
    private func record(_ change: (inout BurstLedger) -> Void) {
        lock.withLock { change(&ledger) }
    }
}
