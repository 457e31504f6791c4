import Foundation
import RawCapture
import RawCore
import RawFiles
import RawSimulator
import RawSources
import TestSupport
import Testing

/// The journal and recovery after a crash, on a burst folder with every kind of leftover.
@Suite struct BurstRecoveryTests {
    @Test func theJournalRecordsEachCommittedFrameAndRecoveryFindsEveryKindOfLeftover() throws {
        let tmp = try TemporaryDirectory()
        var profile = try #require(SensorProfile.builtIn(named: "phone-front"))
        profile.width = 320
        profile.height = 240
        let sensor = try SimulatedSensor(profile: profile, scene: GreyRampScene(), seed: 3)
        try sensor.configure(CaptureSettings(iso: 100, shutter: 1.0 / 100, focus: .metres(2)))
        let session = try BurstSession(source: sensor, configuration: .init(
            frames: 6, writers: 2, memoryBudget: BurstSessionTests.budget(slots: 8, sensor: sensor, writers: 2), outputDirectory: tmp.url.path))
        let report = session.run()
        #expect(report.problems == [] && report.errors.isEmpty)
        let (entries, unreadable) = try BurstJournal.read(path: tmp.url.appendingPathComponent("journal.jsonl").path)
        #expect(unreadable == 0)
        #expect(entries.first?.event == "start" && entries.last?.event == "end" && entries.last?.written == 6)
        #expect(Set(entries.filter { $0.event == "committed" }.compactMap(\.sequenceNumber)) == Set(0..<6))

        // A clean folder: every frame, nothing else.
        let clean = try BurstRecovery.recover(directory: tmp.url.path)
        #expect(clean.frames.map(\.sequenceNumber) == [0, 1, 2, 3, 4, 5] && clean.finished && clean.problems.isEmpty)

        // Now the leftovers of a crash: a cut journal line, a temporary file, a journaled file lost, a complete
        // file whose journal line was lost, and an invalid DNG under a final name.
        func url(_ name: String) -> URL { tmp.url.appendingPathComponent(name) }
        let journal = try FileHandle(forWritingTo: url("journal.jsonl"))
        try journal.seekToEnd()
        try journal.write(contentsOf: Data(#"{"event":"committed","sequen"#.utf8))
        try journal.close()
        try Data(repeating: 7, count: 1000).write(to: url(".phone-front-0009.dng.AbCdEf.tmp"))
        try FileManager.default.removeItem(at: url("phone-front-0002.dng"))
        try FileManager.default.copyItem(at: url("phone-front-0005.dng"), to: url("phone-front-0007.dng"))
        try Data("not a dng".utf8).write(to: url("phone-front-0008.dng"))
        let result = try BurstRecovery.recover(directory: tmp.url.path)
        #expect(result.frames.filter(\.journaled).map(\.sequenceNumber) == [0, 1, 3, 4, 5])
        #expect(result.frames.filter { !$0.journaled }.map(\.file) == ["phone-front-0007.dng"])
        #expect(result.frames.first { !$0.journaled }?.sequenceNumber == 7)
        #expect(result.problems == ["frame 2: phone-front-0002.dng is journaled but missing"])
        #expect(result.invalidFiles == ["phone-front-0008.dng"])
        #expect(result.removedTemporaryFiles == [".phone-front-0009.dng.AbCdEf.tmp"])
        #expect(!FileManager.default.fileExists(atPath: url(".phone-front-0009.dng.AbCdEf.tmp").path))
        #expect(result.unreadableJournalLines == 1)
    }
}
