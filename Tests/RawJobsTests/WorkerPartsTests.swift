import Foundation
import RawDigest
@testable import RawJobs
import TestSupport
import Testing

/// The worker mode's parts (issue #22): SHA-256 against published vectors and coreutils, manifest lines as command
/// lines, shards, the results log's lock and torn lines.
@Suite("worker mode parts")
struct WorkerPartsTests {
    @Test("SHA-256 gives FIPS 180-2's example digests, and sha256sum's for a file larger than one read")
    func sha256() throws {
        #expect(FileSHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(FileSHA256.hex(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(FileSHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let tmp = try TemporaryDirectory()
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(3 << 20) + 12345).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let file = tmp.file("random.bin")
        try Data(bytes).write(to: file)
        let theirs = try ExternalTool("sha256sum").run([file.path]).stdout.prefix(64)
        #expect(FileSHA256.hex(ofFileAt: file.path) == String(theirs))
        #expect(FileSHA256.hex(of: bytes) == String(theirs))
        #expect(FileSHA256.hex(ofFileAt: tmp.file("missing").path) == nil)
    }

    @Test("a job's options become command-line arguments, sorted, JSON types kept apart (true is a flag, 1 a value)")
    func optionsAsArguments() throws {
        let line = #"{"input": "a.nef", "output": "o/a.jpg", "options": {"wb": "daylight", "size": 1024, "exposure": -0.5, "no-rotate": true, "--look": "vivid", "preset": ["a", "b"]}, "timeout": "90s", "memoryLimit": "2GiB"}"#
        let job = try WorkerManifest.parse(line: Data(line.utf8), number: 4, lineNumber: 9)
        #expect(job.arguments == ["--look=vivid", "--exposure=-0.5", "--no-rotate", "--preset=a", "--preset=b", "--size=1024",
                                  "--wb=daylight"], "one argument each, so a value that starts with - stays a value")
        #expect(job.number == 4 && job.line == 9 && job.input == "a.nef" && job.output == "o/a.jpg")
        #expect(job.limits == JobLimits(seconds: 90, memoryBytes: 2 << 30))
        let numeric = try WorkerManifest.parse(line: Data(#"{"input": "a", "output": "b", "options": {"x": 1}, "timeout": 2.5, "memoryLimit": 20971520}"#.utf8),
                                               number: 0, lineNumber: 1)
        #expect(numeric.arguments == ["--x=1"] && numeric.limits == JobLimits(seconds: 2.5, memoryBytes: 20 << 20))
        for (bad, message) in [(#"{"input": "a", "output": "b", "options": {"flag": false}}"#, "a flag is set with true"),
                               (#"{"input": "a", "output": "b", "options": {"Size": 3}}"#, "is not an option name"),
                               (#"{"input": "a", "output": "b", "options": {"results": "x"}}"#, "belongs to the whole run"),
                               (#"{"input": "a", "output": "b", "options": {"wb": {"k": 1}}}"#, "a value must be"),
                               (#"{"input": 3, "output": "b"}"#, "\"input\" must be a path"),
                               (#"{"input": "a\u0000.cr2", "output": "b"}"#, "without NUL"),
                               (#"{"input": "a", "output": "b", "timeout": 0.001}"#, "at least 0.01 seconds"),
                               (#"{"input": "a", "output": "b", "memoryLimit": "1K"}"#, "at least 16MiB"),
                               (#"["a", "b"]"#, "not a JSON object")] {
            #expect(throws: WorkerManifestError.self) { try WorkerManifest.parse(line: Data(bad.utf8), number: 0, lineNumber: 1) }
            do { _ = try WorkerManifest.parse(line: Data(bad.utf8), number: 0, lineNumber: 1) } catch {
                #expect(error.message.contains(message), "\(bad): \(error.message)")
            }
        }
    }

    @Test("shards K/N are disjoint and cover every job; malformed ones are refused")
    func shards() throws {
        let shards = (1...4).map { WorkerShard("\($0)/4")! }
        for number in 0..<101 { #expect(shards.filter { $0.contains(number) }.count == 1) }
        #expect(shards[2].contains(6) && !shards[2].contains(7))
        for bad in ["0/4", "5/4", "1/0", "-1/2", "1/2/3", "a/b", "", "1"] { #expect(WorkerShard(bad) == nil, "\(bad)") }
    }

    @Test("the results log is locked while a worker holds it; lines survive reopening; a torn line is counted, not read")
    func resultsLog() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("r.jsonl").path
        let job = WorkerJob(number: 3, input: "in.cr2", output: "out.dng")
        do {
            let log = try ResultsLog(path: path)
            #expect(throws: ResultsLogError.self) { _ = try ResultsLog(path: path, lockWait: 0.2) }
            try log.append(JobRecord(job: job, outcome: .failure(.timeout, "slow", seconds: 1.5), run: "r1"))
        }
        try ResultsLog(path: path, lockWait: 0.2)   // the first one let it go
            .append(JobRecord(job: job, outcome: .failure(.corrupt, "bad", seconds: 0.1), run: "r2"))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"input": "in.cr2", "outp"#.utf8))
        try handle.close()
        let (records, unreadable) = try ResultsLog.records(at: path)
        #expect(records.map(\.run) == ["r1", "r2"] && unreadable == 1)
        #expect(records[0].outcome.error == JobError(kind: .timeout, message: "slow") && records[0].job == 3)
        #expect(JobSupervisor.lastRecords(records).values.map(\.run) == ["r2"], "the last line of a job wins")
        let refusal = JobRecord(job: job, outcome: .failure(.exists, "there", seconds: 0), run: "r9")
        #expect(JobSupervisor.lastRecords(records + [refusal]).values.map(\.run) == ["r2"], "an exists refusal says nothing")
        try ResultsLog(path: path).append(JobRecord(job: job, outcome: .failure(.crashed, "gone", seconds: 0), run: "r3"))
        let after = try ResultsLog.records(at: path)
        #expect(after.records.map(\.run) == ["r1", "r2", "r3"] && after.unreadable == 1, "a torn line does not swallow the next")
    }

    @Test("an output is kept only when it is on disk as its ok line says; killed jobs' temporaries are removed, nothing else")
    func intactAndTemporaries() throws {
        let tmp = try TemporaryDirectory()
        let output = tmp.file("a.dng")
        try Data("abc".utf8).write(to: output)
        let job = WorkerJob(number: 0, input: "a.cr2", output: output.path)
        var outcome = JobOutcome.success(action: "converted", output: output.path, seconds: 1, warnings: [])
        #expect(outcome.bytes == 3 && outcome.sha256 == FileSHA256.hex(of: Array("abc".utf8)) && outcome.digestKind == .sha256)
        #expect(JobSupervisor.isIntact(JobRecord(job: job, outcome: outcome, run: "r")))
        try Data("abd".utf8).write(to: output)
        #expect(!JobSupervisor.isIntact(JobRecord(job: job, outcome: outcome, run: "r")), "same size, other bytes")
        outcome.status = .failed
        try Data("abc".utf8).write(to: output)
        #expect(!JobSupervisor.isIntact(JobRecord(job: job, outcome: outcome, run: "r")), "a failed line keeps nothing")

        for name in [".a.dng.Xy12Zq.tmp", ".a.dng.short.tmp", ".b.dng.Xy12Zq.tmp", "a.dng.Xy12Zq.tmp"] {
            try Data().write(to: tmp.file(name))
        }
        JobSupervisor.removeTemporaries(of: output.path)
        let left = try FileManager.default.contentsOfDirectory(atPath: tmp.path).sorted()
        #expect(left == [".a.dng.short.tmp", ".b.dng.Xy12Zq.tmp", "a.dng", "a.dng.Xy12Zq.tmp"])
    }
}
