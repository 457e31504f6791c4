import Foundation
import RawCapture
import RawCore
import TestSupport
import Testing

/// Issue #17 items 2, 3 and 5, one test each: a failed sidecar or directory flush after a DNG is committed leaves
/// the frame written (and says so), and `recover` reads sequence numbers with the burst's own name template and
/// lists the frames lost in flight.
@Suite struct BurstBooksRegressionTests {
    typealias Faults = BurstBooksFaultTests

    /// The committed line of frame `n` in the journal of `directory`.
    static func committedLine(_ n: UInt64, in directory: String) throws -> BurstJournal.Entry? {
        try BurstJournal.read(path: (directory as NSString).appendingPathComponent(BurstJournal.fileName)).entries
            .first { $0.kind == .committed && $0.sequenceNumber == n }
    }

    @Test("item 2: a sidecar that fails after its DNG is committed leaves the frame written, its failure typed, recover agreeing")
    func aFailedSidecarLeavesTheFrameWritten() throws {
        let tmp = try TemporaryDirectory()
        let (report, _) = try Faults.burst(in: tmp.url.path, frames: 3, failing: .first(.sync, pathContaining: "-0001.json"))
        #expect(report.ledger.written.sorted() == [0, 1, 2] && report.ledger.drops.isEmpty && report.problems.isEmpty)
        #expect(report.failures.count == 1)
        guard case .sidecar(1, nil, let detail)? = report.failures.first else {
            Issue.record("expected a sidecar failure of frame 1, got \(report.errors)")
            return
        }
        #expect(detail.hasSuffix("phone-wide-0001.json: cannot flush to disk: Input/output error"), "\(detail)")
        #expect(report.errors == ["frame 1: written, but its sidecar is not: \(detail)"])
        let names = try BurstEngineTests.names(in: tmp.url.path)
        #expect(names.contains("phone-wide-0001.dng") && !names.contains("phone-wide-0001.json") && names.contains("phone-wide-0002.json"))
        #expect(try Self.committedLine(1, in: tmp.url.path)?.sidecar == false)
        #expect(try Self.committedLine(2, in: tmp.url.path)?.sidecar == nil)
        let recovered = try BurstRecovery.recover(directory: tmp.url.path)
        #expect(recovered.frames.map(\.sequenceNumber) == [0, 1, 2] && recovered.frames.allSatisfy(\.journaled))
        #expect(recovered.dropped.isEmpty && recovered.problems.isEmpty && recovered.missingSidecars == ["phone-wide-0001.json"])
    }

    @Test("issue #33: the journal names each file the burst wrote by device and inode: DNGs, sidecars, itself")
    func theJournalIdentifiesItsFiles() throws {
        let tmp = try TemporaryDirectory()
        let (report, _) = try Faults.burst(in: tmp.url.path, frames: 3, failing: .first(.sync, pathContaining: "no-such-file"))
        #expect(report.ledger.written.sorted() == [0, 1, 2] && report.failures.isEmpty)
        let entries = try BurstJournal.read(path: tmp.url.path + "/" + BurstJournal.fileName).entries
        let files = BurstJournal.Entry.identifiedFiles(entries)
        #expect(Set(files.keys) == Set([BurstJournal.fileName] + (0...2).flatMap { ["phone-wide-000\($0).dng", "phone-wide-000\($0).json"] }))
        for (name, identity) in files {
            var info = stat()
            #expect(lstat(tmp.url.path + "/" + name, &info) == 0)
            #expect(identity == FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)), "\(name)")
        }
        #expect(entries.first { $0.kind == .start }?.identity == FileIdentity(path: tmp.url.path + "/" + BurstJournal.fileName))
        // A journal written before identities were recorded names no file, and still reads and recovers.
        let old = entries.map { entry -> BurstJournal.Entry in
            var e = entry
            (e.device, e.inode, e.sidecarInode) = (nil, nil, nil)
            return e
        }
        #expect(BurstJournal.Entry.identifiedFiles(old).isEmpty)
        let encoder = JSONEncoder()
        try Data(old.map { String(decoding: try encoder.encode($0), as: UTF8.self) }.joined(separator: "\n").utf8)
            .write(to: tmp.url.appendingPathComponent(BurstJournal.fileName))
        let recovered = try BurstRecovery.recover(directory: tmp.url.path)
        #expect(recovered.frames.map(\.sequenceNumber) == [0, 1, 2] && recovered.frames.allSatisfy(\.journaled) && recovered.problems.isEmpty)
    }

    @Test("item 3: a directory that cannot be flushed after the rename is a typed failure, journaled, not ignored",
          arguments: [FileSystemCall.openDirectory, .syncDirectory])
    func aDirectoryFlushFailureIsNotIgnored(call: FileSystemCall) throws {
        let tmp = try TemporaryDirectory()
        let (report, _) = try Faults.burst(in: tmp.url.path, frames: 3, failing: .first(call, pathContaining: "-0002.dng"))
        #expect(report.ledger.written.sorted() == [0, 1, 2] && report.ledger.drops.isEmpty && report.problems.isEmpty)
        guard report.failures.count == 1, case .notDurable(2, nil, let detail) = report.failures[0] else {
            Issue.record("expected frame 2 not durable, got \(report.errors)")
            return
        }
        let reason = call == .openDirectory ? "cannot open the directory to flush it" : "cannot flush the directory to disk"
        #expect(detail == "\(tmp.url.path): \(reason): Input/output error", "\(detail)")
        #expect(try Self.committedLine(2, in: tmp.url.path)?.durable == false)
        #expect(try Self.committedLine(1, in: tmp.url.path)?.durable == nil)
        #expect(try BurstRecovery.recover(directory: tmp.url.path).frames.map(\.sequenceNumber) == [0, 1, 2])
    }

    @Test("item 5: recover reads an unjournaled frame's number with the burst's template and lists frames lost in flight")
    func recoverReadsNamesWithTheTemplate() throws {
        let tmp = try TemporaryDirectory()
        let template = try FilenameTemplate("%4q-%H%M%S")
        let (report, _) = try Faults.burst(in: tmp.url.path, frames: 4, failing: .none, template: template)
        #expect(report.ledger.written.count == 4 && report.failures.isEmpty)
        // A crash after frames 0-2 were renamed but before their committed lines, with frame 3 still being written:
        // the journal has the start line and four produced lines; frame 3's DNG never got its name.
        let journal = tmp.url.appendingPathComponent(BurstJournal.fileName)
        let lines = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n")
        let kept = lines.filter { $0.contains(#""event":"start""#) || $0.contains(#""event":"produced""#) }
        #expect(kept.count == 5 && kept[0].contains(#""name":"%4q-%H%M%S""#))
        try Data((kept.joined(separator: "\n") + "\n").utf8).write(to: journal)
        let frame3 = try #require(report.frames.first { $0.sequenceNumber == 3 })
        try FileManager.default.removeItem(atPath: frame3.path)
        let recovered = try BurstRecovery.recover(directory: tmp.url.path)
        #expect(recovered.frames.map(\.sequenceNumber) == [0, 1, 2], "\(recovered.frames)")
        #expect(recovered.frames.allSatisfy { !$0.journaled && $0.sensor == "phone-wide" })
        #expect(recovered.lostInFlight.map(\.sequenceNumber) == [3] && recovered.lostInFlight.map(\.sensor) == ["phone-wide"])
        #expect(!recovered.finished)
        #expect(recovered.missingSidecars.isEmpty && recovered.problems.isEmpty)
    }

    @Test("a frame journaled as committed whose DNG is missing or cut short is a problem, not lost in flight")
    func aCommittedFrameIsNeverLostInFlight() throws {
        let tmp = try TemporaryDirectory()
        let (report, _) = try Faults.burst(in: tmp.url.path, frames: 3, failing: .none)
        #expect(report.ledger.written.sorted() == [0, 1, 2] && report.failures.isEmpty)
        let frame1 = try #require(report.frames.first { $0.sequenceNumber == 1 })
        let frame2 = try #require(report.frames.first { $0.sequenceNumber == 2 })
        try FileManager.default.removeItem(atPath: frame1.path)
        let cut = try FileHandle(forWritingTo: URL(fileURLWithPath: frame2.path))
        try cut.truncate(atOffset: 1000)
        try cut.close()
        let recovered = try BurstRecovery.recover(directory: tmp.url.path)
        #expect(recovered.frames.map(\.sequenceNumber) == [0])
        #expect(recovered.problems == ["frame 1: phone-wide-0001.dng is journaled but missing",
                                       "frame 2: phone-wide-0002.dng has 1000 bytes, the journal says \(frame2.bytes)"],
                "\(recovered.problems)")
        #expect(recovered.lostInFlight.isEmpty, "committed frames listed as lost in flight: \(recovered.lostInFlight)")
    }

    @Test("a hostile template (adjacent %q fields) gives up on a long name quickly instead of backtracking for ages")
    func aHostileTemplateIsBounded() throws {
        let template = try FilenameTemplate("%q%q%q%q%q%q%qx")
        let name = String(repeating: "1", count: 200) + ".dng"
        let clock = ContinuousClock()
        var fields: FilenameTemplate.NameFields?
        let elapsed = clock.measure { fields = template.fields(of: name, sensors: ["phone-wide"]) }
        #expect(fields == nil)
        // Without the step cap the backtracking runs for longer than anyone waits; with it, milliseconds. The bound is
        // loose so a sanitizer build on a busy machine stays far inside it (under TSan it took 0.6 s).
        #expect(elapsed < .seconds(10), "\(elapsed)")
        // The cap leaves ordinary names alone: a name of this template is still read back.
        #expect(try FilenameTemplate("%q-%q").fields(of: "7-7.dng")?.sequenceNumber == 7)
    }

    @Test("file name templates read their own names back, and refuse names they cannot have made or that are ambiguous")
    func templatesReadNamesBack() throws {
        let time = try CaptureTime(millisecondsSince1970: 1_790_000_000_123, utcOffsetSeconds: 3600)
        for text in ["%s-%4q", "%4q-%H%M%S", "IMG_%n_%q", "%q", "%Y%m%d-%s-%2q.DNG", "%s_%L_%12q", "a%%b-%q"] {
            let template = try FilenameTemplate(text)
            for (sensor, n) in [("phone-wide", UInt64(0)), ("phone/front", 7), ("x", 123_456)] {
                let name = template.name(sensor: sensor, sequenceNumber: n, counter: 5, captureTime: time)
                let fields = template.fields(of: name, sensors: ["phone-wide", "phone/front", "x"])
                #expect(fields?.sequenceNumber == n, "\(text): \(name)")
                #expect(fields?.sensor == (template.namesSensor ? sensor.replacingOccurrences(of: "/", with: "_") : nil), "\(text): \(name)")
            }
        }
        let standard = FilenameTemplate.standard
        #expect(standard.fields(of: "vacation-0001.jpg", sensors: ["phone-wide"]) == nil)
        #expect(standard.fields(of: "phone-wide-01.dng", sensors: ["phone-wide"]) == nil) // %4q writes at least 4 digits
        #expect(standard.fields(of: "phone-wide-00012.dng", sensors: ["phone-wide"]) == nil) // longer only without a leading 0
        #expect(standard.fields(of: "phone-wide-12345.dng", sensors: ["phone-wide"])?.sequenceNumber == 12345)
        // `%q%n` cannot tell where the sequence number ends: nothing is guessed.
        #expect(try FilenameTemplate("%q%n").fields(of: "123.dng") == nil)
    }
}
