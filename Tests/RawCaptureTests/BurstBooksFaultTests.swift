import Foundation
import RawCapture
import RawCore
import RawDNG
import RawSimulator
import RawSources
import TestSupport
import Testing

/// Error paths keep the books (issue #17 items 2, 3, 5 and the fault-injection test of "What to build" 5): a
/// short burst with sidecars has each of its file-system calls failed in turn, and after each, the ledger, the
/// report, the files, the journal and `recover` agree: every frame is written or dropped, never both.
@Suite struct BurstBooksFaultTests {
    /// A burst of `frames` small frames with sidecars into `directory`, one writer, drop-newest with room for
    /// every frame (so one failed write loses only its frame), with `rule` choosing the file-system call that fails.
    static func burst(in directory: String, frames: Int = 2, failing rule: FileSystemFaults.Rule,
                      template: FilenameTemplate = .standard) throws -> (report: BurstSession.Report, calls: [FileSystemFaults.Call]) {
        let sensor = try BurstEngineTests.sensor()
        var configuration = BurstSession.Configuration(
            frames: frames, overflow: .dropNewest, writers: 1,
            memoryBudget: BurstSessionTests.budget(slots: frames + 1, sensor: sensor, writers: 1), outputDirectory: directory,
            nameTemplate: template)
        configuration.sidecars = true
        let session = try BurstSession(source: sensor, configuration: configuration)
        let (report, calls) = FileSystemFaults.injecting(directory: directory, failing: rule) { session.run() }
        return (report, calls)
    }

    /// What the failure of `call` must have done to the books: nothing for a journal line but a journal failure;
    /// a DNG that failed before its name was published is a dropped frame; a sidecar that failed leaves its frame
    /// written; a directory that could not be flushed leaves the frame written but not durable.
    enum Expected: String, Equatable { case journal, dropped, sidecar, notDurable }

    static func expected(for call: FileSystemFaults.Call) -> Expected {
        let name = (call.path as NSString).lastPathComponent
        if name == BurstJournal.fileName { return .journal }
        if call.kind == .openDirectory || call.kind == .syncDirectory { return .notDurable }
        return name.contains(".json") ? .sidecar : .dropped
    }

    /// Checks the books after a burst whose `failed` call failed (nil: none did).
    static func checkBooks(_ report: BurstSession.Report, directory: String, failed: FileSystemFaults.Call?) throws {
        let context = Comment(rawValue: "failing \(failed?.description ?? "nothing")")
        #expect(report.problems == [], context)
        let ledger = report.ledger
        let written = Set(ledger.written), dropped = Set(ledger.drops.map(\.sequenceNumber))
        #expect(written.isDisjoint(with: dropped) && written.union(dropped) == Set(ledger.produced), context)
        #expect(ledger.drops.allSatisfy { $0.reason == .writeFailed }, context)
        #expect(Set(report.frames.map(\.sequenceNumber)) == written && report.frames.count == written.count, context)
        let names = Set(try BurstEngineTests.names(in: directory))
        #expect(!names.contains { $0.hasPrefix(".") }, "temporary files left: \(names.sorted()); \(context)")
        for n in ledger.produced {
            let dng = BurstEngineTests.fileName(n), sidecar = FrameSidecar.fileName(forDNG: dng)
            if written.contains(n) {
                #expect(names.contains(dng), "frame \(n) written without its DNG; \(context)")
                let path = (directory as NSString).appendingPathComponent(dng)
                #expect(DNGValidator.validate(path: path).allSatisfy { !$0.isError }, "frame \(n); \(context)")
                let sidecarFailed = report.failures.contains { if case .sidecar(n, _, _) = $0 { true } else { false } }
                #expect(names.contains(sidecar) != sidecarFailed, "frame \(n): sidecar \(names.contains(sidecar)); \(context)")
            } else {
                #expect(!names.contains(dng) && !names.contains(sidecar), "frame \(n) dropped but its files exist; \(context)")
            }
        }
        guard let failed else {
            #expect(report.failures.isEmpty && written.count == ledger.produced.count, context)
            return
        }
        // Exactly one failure, of the kind the failed call calls for.
        #expect(report.failures.count == 1, "\(report.errors); \(context)")
        let kind = expected(for: failed)
        switch (kind, report.failures.first) {
        case (.journal, .journal?), (.dropped, .write?), (.sidecar, .sidecar?), (.notDurable, .notDurable?): break
        default: Issue.record("expected \(kind), got \(report.errors); \(context)")
        }
        #expect((kind == .dropped) == (dropped.count == 1), "dropped \(dropped.sorted()); \(context)")
        try checkJournalAndRecovery(report, directory: directory, failedJournal: kind == .journal ? failed : nil)
    }

    /// The journal records what the ledger says (all of it, unless the journal itself failed), and `recover` finds
    /// exactly the written frames, with their sequence numbers, and the drops, and nothing lost in flight.
    static func checkJournalAndRecovery(_ report: BurstSession.Report, directory: String,
                                        failedJournal: FileSystemFaults.Call?) throws {
        let context = Comment(rawValue: "failing \(failedJournal?.description ?? "no journal call")")
        let ledger = report.ledger
        let journalPath = (directory as NSString).appendingPathComponent(BurstJournal.fileName)
        guard FileManager.default.fileExists(atPath: journalPath) else {
            // Only a journal that could not be opened is missing; recovery then needs --force.
            #expect(failedJournal?.kind == .open, context)
            #expect(throws: FileError.self) { try BurstRecovery.recover(directory: directory) }
            let forced = try BurstRecovery.recover(directory: directory, force: true)
            #expect(Set(forced.frames.compactMap(\.sequenceNumber)) == Set(ledger.written) && !forced.journal, context)
            return
        }
        let entries = try BurstJournal.read(path: journalPath).entries
        let committed = entries.filter { $0.kind == .committed }.compactMap(\.sequenceNumber)
        let droppedLines = entries.filter { $0.kind == .dropped }.compactMap(\.sequenceNumber)
        if failedJournal == nil {
            #expect(committed.sorted() == ledger.written.sorted() && droppedLines == ledger.drops.map(\.sequenceNumber), context)
        } else {
            #expect(Set(committed).isSubset(of: ledger.written) && Set(droppedLines).isSubset(of: ledger.drops.map(\.sequenceNumber)),
                    context)
        }
        let sidecarFailures = report.failures.filter { if case .sidecar = $0 { true } else { false } }.count
        if failedJournal == nil {
            // A failed sidecar or directory flush is on the frame's committed line.
            #expect(entries.filter { $0.sidecar == false }.count == sidecarFailures, context)
            let notDurable = report.failures.filter { if case .notDurable = $0 { true } else { false } }.count
            #expect(entries.filter { $0.durable == false }.count == notDurable, context)
        }
        let recovered = try BurstRecovery.recover(directory: directory)
        #expect(recovered.problems == [] && recovered.invalidFiles == [], context)
        #expect(recovered.frames.compactMap(\.sequenceNumber).sorted() == ledger.written.sorted(), context)
        #expect(recovered.frames.filter { !$0.journaled }.count == ledger.written.count - committed.count, context)
        #expect(recovered.dropped.map(\.sequenceNumber) == droppedLines && recovered.lostInFlight == [], context)
        #expect(recovered.missingSidecars.count == sidecarFailures, context)
        #expect(recovered.removedTemporaryFiles == [] && recovered.finished == entries.contains { $0.kind == .end }, context)
    }

    @Test("every file-system call of a short burst fails in turn: each frame is written or dropped, never both, and recover agrees")
    func everyFileSystemCallFailsInTurn() throws {
        let clean = try TemporaryDirectory()
        let (report, calls) = try Self.burst(in: clean.url.path, failing: .none)
        try Self.checkBooks(report, directory: clean.url.path, failed: nil)
        #expect(Set(calls.map(\.kind)) == Set(FileSystemCall.allCases), "\(calls)")
        var outcomes: [Expected: Int] = [:]
        for n in 1...calls.count {
            let tmp = try TemporaryDirectory()
            let (report, made) = try Self.burst(in: tmp.url.path, failing: .number(n))
            let failed = try #require(made.count >= n ? made[n - 1] : nil, "call \(n) of \(made.count) never came")
            try Self.checkBooks(report, directory: tmp.url.path, failed: failed)
            outcomes[Self.expected(for: failed), default: 0] += 1
        }
        // Every kind of outcome was exercised: journal failures, dropped frames, failed sidecars, names not durable.
        #expect(outcomes.count == 4 && calls.count >= 40, "\(outcomes), \(calls.count) calls")
        print("fault injection: \(calls.count) calls of a 2-frame burst with sidecars failed in turn: "
              + outcomes.map { "\($0.value) \($0.key.rawValue)" }.sorted().joined(separator: ", "))
    }
}
