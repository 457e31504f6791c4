import Foundation
import RawCapture
import RawCore
import RawDNG
import RawFiles
import RawSimulator
import RawSources
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The burst engine against storage faults (parsed, injected at the I/O layer, and a real full tmpfs) and the
/// memory plan's refusals. Exact stop reasons, written frames, drops and files.
@Suite struct BurstFaultTests {
    // MARK: - 5. Parsing the simulations

    @Test func storageFaultsParse() throws {
        let rate = try StorageFaults(parsing: "80MB/s")
        #expect(rate.bytesPerSecond == 80_000_000 && rate.stalls.isEmpty && rate.randomStall == nil)
        #expect(rate.fullFromWrite == nil && rate.errorWrites.isEmpty && rate.description == "80MB/s")
        #expect(try StorageFaults(parsing: "2MiB/s").bytesPerSecond == 2 * 1_048_576)
        #expect(try StorageFaults(parsing: "1kB/s").bytesPerSecond == 1000)

        let stall = try StorageFaults(parsing: "stall:2s@3s")
        #expect(stall.stalls.map(\.seconds) == [2] && stall.stalls.map(\.at) == [3] && stall.bytesPerSecond == nil)
        let stalls = try StorageFaults(parsing: "stalls:300ms/10%")
        let random = try #require(stalls.randomStall)
        #expect(abs(random.seconds - 0.3) < 1e-12 && abs(random.probability - 0.1) < 1e-12)
        #expect(try StorageFaults(parsing: "fail@5").fullFromWrite == 5)
        #expect(try StorageFaults(parsing: "error@3").errorWrites == [3])

        let all = try StorageFaults(parsing: "80MB/s, stall:1.5s@500ms,stalls:1s/100%,fail@20,error@7,error@9,fail@12")
        #expect(all.bytesPerSecond == 80_000_000)
        #expect(all.stalls.map(\.seconds) == [1.5] && all.stalls.map(\.at) == [0.5])
        #expect(all.randomStall?.seconds == 1 && all.randomStall?.probability == 1)
        #expect(all.fullFromWrite == 12) // the earliest full-disk write wins
        #expect(all.errorWrites == [7, 9])
        // The rate's "/s" may be left out: the number is a rate either way.
        #expect(try StorageFaults(parsing: "80MB").bytesPerSecond == 80_000_000)
    }

    @Test("storage faults that do not parse are refused, naming the bad part", arguments: [
        ("fast", "'fast' is not a rate of at least 1kB/s (e.g. 80MB/s)"),
        ("999/s", "'999/s' is not a rate of at least 1kB/s"),
        ("fail@0", "'fail@0' is not fail@N with N a write number from 1"),
        ("error@x", "'error@x' is not error@N with N a write number from 1"),
        ("stalls:1s/200%", "'stalls:1s/200%' is not stalls:LENGTH/P%"),
        ("stalls:1s/10", "'stalls:1s/10' is not stalls:LENGTH/P%"),
        ("stall:2s", "'stall:2s' is not stall:LENGTH@TIME"),
        ("stall:0s@1s", "'stall:0s@1s' is not stall:LENGTH@TIME"),
        ("80MB/s,,fail@3", "'' is not a rate of at least 1kB/s"),
        ("fail@3, fast", "'fast' is not a rate"),
    ])
    func storageFaultsRefused(text: String, message: String) throws {
        let error = try #require(throws: BurstOptionError.self) { try StorageFaults(parsing: text) }
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test func thermalSchedulesParseAndStepAtTheirTimes() throws {
        let schedule = try ThermalSchedule(parsing: "fair@2s,SERIOUS@5s, nominal@1m")
        #expect(schedule.changes.map(\.seconds) == [2, 5, 60])
        #expect(schedule.changes.map(\.state) == [.fair, .serious, .nominal])
        #expect(schedule.description == "fair@2s,serious@5s,nominal@60s")
        let expected: [(Double, ThermalState)] = [(0, .nominal), (1.999, .nominal), (2, .fair), (4.999, .fair), (5, .serious),
                                                  (59.9, .serious), (60, .nominal), (1e6, .nominal)]
        for (t, state) in expected { #expect(schedule.state(at: t) == state, "at \(t) s") }
        let short = try ThermalSchedule(parsing: "critical@500ms")
        #expect(short.state(at: 0.499) == .nominal && short.state(at: 0.5) == .critical)
        #expect(short.description == "critical@500ms")
        #expect(try ThermalSchedule(parsing: short.description) == short)

        let refused: [(String, String)] = [
            ("serious@5s,fair@2s", "'fair@2s': the times must increase"),
            ("fair@2s,serious@2s", "'serious@2s': the times must increase"),
            ("hot@1s", "'hot@1s' is not STATE@TIME with STATE nominal, fair, serious or critical"),
            ("serious", "'serious' is not STATE@TIME"),
            ("fair@soon", "'fair@soon': 'soon' is not a time"),
            ("fair@-1s", "'fair@-1s': '-1s' is not a time"),
            ("", "'' is not STATE@TIME"),
        ]
        for (text, message) in refused {
            let error = try #require(throws: BurstOptionError.self) { try ThermalSchedule(parsing: text) }
            #expect(error.message.contains(message), "\(text): \(error.message)")
        }
    }

    // MARK: - 6. Injected storage faults

    @Test func aFullDiskStopsABlockBurstAfterTheLastGoodWrite() throws {
        let tmp = try TemporaryDirectory()
        let sensor = try BurstEngineTests.sensor()
        var configuration = BurstSession.Configuration(
            frames: 10, overflow: .block, writers: 1, memoryBudget: BurstSessionTests.budget(slots: 3, sensor: sensor, writers: 1),
            outputDirectory: tmp.url.path)
        configuration.storageFaults = try StorageFaults(parsing: "fail@4")
        let report = try BurstSession(source: sensor, configuration: configuration).run()
        #expect(report.problems == [])
        #expect(report.stoppedEarly)
        #expect(report.stopReason == "writes failing: No space left on device (simulated: write 4, full from write 4)")
        // Writes are numbered from 1 in the one writer's order: frames 0, 1, 2 are writes 1...3.
        #expect(report.ledger.written.sorted() == [0, 1, 2])
        let produced = report.ledger.produced.count
        #expect(produced >= 4 && produced <= 10 && report.ledger.produced == BurstEngineTests.numbers(0..<produced))
        #expect(report.ledger.drops == BurstEngineTests.numbers(3..<produced).map { .init(sequenceNumber: $0, reason: .writeFailed) })
        #expect(report.errors == (3..<produced).map {
            "frame \($0): No space left on device (simulated: write \($0 + 1), full from write 4)"
        })
        let names = try BurstEngineTests.names(in: tmp.url.path)
        #expect(!names.contains { $0.hasPrefix(".") }, "temporary files left: \(names)")
        #expect(try BurstEngineTests.dngNames(in: tmp.url.path) == Set([0, 1, 2].map { BurstEngineTests.fileName(UInt64($0)) }))
        let reference = try BurstEngineTests.referenceFrames(count: 3)
        for n in 0..<3 {
            let path = tmp.url.appendingPathComponent(BurstEngineTests.fileName(UInt64(n))).path
            #expect(try RawFileReader().read(path: path).frame.activeSamples() == reference[n], "frame \(n)")
        }
    }

    @Test func oneFailedWriteUnderDropNewestLosesOnlyThatFrame() throws {
        let tmp = try TemporaryDirectory()
        let sensor = try BurstEngineTests.sensor()
        // More slots than frames: no frame can find the pool full.
        var configuration = BurstSession.Configuration(
            frames: 10, overflow: .dropNewest, writers: 1,
            memoryBudget: BurstSessionTests.budget(slots: 12, sensor: sensor, writers: 1), outputDirectory: tmp.url.path)
        configuration.storageFaults = try StorageFaults(parsing: "error@3")
        let report = try BurstSession(source: sensor, configuration: configuration).run()
        #expect(report.problems == [])
        #expect(report.stopReason == nil)
        #expect(report.ledger.produced == BurstEngineTests.numbers(0..<10))
        #expect(report.ledger.written.sorted() == [0, 1, 3, 4, 5, 6, 7, 8, 9])
        #expect(report.ledger.drops == [.init(sequenceNumber: 2, reason: .writeFailed)])
        #expect(report.errors == ["frame 2: Input/output error (simulated: write 3)"])
        #expect(try BurstEngineTests.dngNames(in: tmp.url.path) == Set([0, 1, 3, 4, 5, 6, 7, 8, 9].map { BurstEngineTests.fileName(UInt64($0)) }))
    }

    // MARK: - 7. A real full file system

    /// Runs `arguments` (e.g. `mount ...`); the exit status and what it printed.
    static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "\(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static var mountTool: String? {
        ["/usr/bin/mount", "/bin/mount"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static var umountTool: String? {
        ["/usr/bin/umount", "/bin/umount"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Mounts a tmpfs of `size` (e.g. `600k`) on a new folder, runs `body` with its path and unmounts it.
    /// Nil when this machine does not let us mount (the reason is recorded as a known issue, not a failure).
    static func withTmpfs<T>(size: String, _ body: (String) throws -> T) throws -> T? {
        let tmp = try TemporaryDirectory()
        let disk = tmp.url.appendingPathComponent("disk").path
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        let mount = try #require(mountTool), umount = try #require(umountTool)
        let mounted = run(mount, ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", disk])
        guard mounted.status == 0 else {
            // Root without CAP_SYS_ADMIN (an unprivileged container): nothing to test here.
            withKnownIssue("cannot mount a tmpfs: \(mounted.output)") { Issue.record("mount exited \(mounted.status)") }
            return nil
        }
        defer {
            if run(umount, [disk]).status != 0 { _ = run(umount, ["-l", disk]) }
        }
        return try body(disk)
    }

    /// What must hold after a burst into a full file system: the books balance, the burst stopped on the
    /// failing writes, the frames before the disk filled are written (one writer: in order), every later one
    /// failed, no temporary file is left, and each file under its final name holds its whole frame.
    static func checkFullDiskBurst(_ report: BurstSession.Report, directory: String) throws {
        #expect(report.problems == [])
        #expect(report.stoppedEarly && report.stopReason?.hasPrefix("writes failing: ") == true, "\(report.stopReason ?? "nil")")
        let written = report.ledger.written.sorted()
        #expect(written.count < 10, "written \(written)")
        #expect(written == BurstEngineTests.numbers(0..<written.count))
        let produced = report.ledger.produced
        #expect(produced == BurstEngineTests.numbers(0..<produced.count) && produced.count > written.count)
        #expect(report.ledger.drops == produced.dropFirst(written.count).map { .init(sequenceNumber: $0, reason: .writeFailed) })
        #expect(report.errors.filter { $0.hasPrefix("frame ") }.count == produced.count - written.count, "\(report.errors)")
        let names = try BurstEngineTests.names(in: directory)
        #expect(!names.contains { $0.hasPrefix(".") }, "temporary files left: \(names)")
        #expect(Set(names.filter { $0.hasSuffix(".dng") }) == Set(written.map { BurstEngineTests.fileName($0) }))
        let reference = try BurstEngineTests.referenceFrames(count: written.count)
        for n in written {
            let path = (directory as NSString).appendingPathComponent(BurstEngineTests.fileName(n))
            #expect(try RawFileReader().read(path: path).frame.activeSamples() == reference[Int(n)], "frame \(n)")
        }
    }

    @Test("a burst into a real, small tmpfs stops when it is full and leaves only whole files",
          .enabled(if: getuid() == 0 && Self.mountTool != nil && Self.umountTool != nil))
    func aRealFullFileSystem() throws {
        // 600 KiB: two DNGs (302 576 bytes, 74 pages each) and the journal's page fit, and one page is left,
        // so the third DNG's header is written and its first strip fails with the system's ENOSPC.
        try Self.withTmpfs(size: "600k") { disk in
            let sensor = try BurstEngineTests.sensor()
            let configuration = BurstSession.Configuration(
                frames: 10, overflow: .block, writers: 1,
                memoryBudget: BurstSessionTests.budget(slots: 3, sensor: sensor, writers: 1), outputDirectory: disk)
            let report = try BurstSession(source: sensor, configuration: configuration).run()
            try Self.checkFullDiskBurst(report, directory: disk)
            #expect(!report.ledger.written.isEmpty)
            #expect(report.stopReason?.contains("No space left on device") == true, "\(report.stopReason ?? "nil")")
            let frameErrors = report.errors.filter { $0.hasPrefix("frame ") }
            #expect(frameErrors.allSatisfy { $0.contains("No space left on device") }, "\(frameErrors)")
        }
    }

    @Test("a burst onto a tmpfs that is already full writes nothing and leaves nothing behind",
          .enabled(if: getuid() == 0 && Self.mountTool != nil && Self.umountTool != nil))
    func aFileSystemAlreadyFull() throws {
        try Self.withTmpfs(size: "256k") { disk in
            // Fill it to the last byte.
            let fd = open((disk as NSString).appendingPathComponent("filler"), O_WRONLY | O_CREAT, 0o644)
            try #require(fd >= 0)
            let chunk = [UInt8](repeating: 0x55, count: 65536)
            while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
            close(fd)
            let sensor = try BurstEngineTests.sensor()
            let configuration = BurstSession.Configuration(
                frames: 10, overflow: .block, writers: 1,
                memoryBudget: BurstSessionTests.budget(slots: 3, sensor: sensor, writers: 1), outputDirectory: disk)
            let report = try BurstSession(source: sensor, configuration: configuration).run()
            try Self.checkFullDiskBurst(report, directory: disk)
            #expect(report.ledger.written.isEmpty)
            // The DNG's header is the first write to fail here: the message must still say why.
            #expect(report.stopReason?.contains("No space left on device") == true, "\(report.stopReason ?? "nil")")
        }
    }

    // MARK: - 8. The memory plan

    @Test(arguments: [1, 3, 8])
    func aPreRecordNeedsItsFramesAndOneMoreSlot(preRecord: Int) throws {
        let sensor = try BurstEngineTests.sensor()
        var configuration = BurstSession.Configuration(
            frames: 5, writers: 1, memoryBudget: BurstSessionTests.budget(slots: preRecord, sensor: sensor, writers: 1),
            outputDirectory: "/tmp")
        configuration.preRecordFrames = preRecord
        let error = try #require(throws: FramePoolError.self) { try BurstSession.check(configuration, source: .single(sensor)) }
        let frames = preRecord == 1 ? "1 frame" : "\(preRecord) frames"
        #expect(error.message.contains("holds \(preRecord) frame slot"), "\(error)")
        #expect(error.message.contains("a pre-record of \(frames) needs \(preRecord + 1) slots"), "\(error)")
        // One slot more is enough.
        configuration.memoryBudget = BurstSessionTests.budget(slots: preRecord + 1, sensor: sensor, writers: 1)
        #expect(try BurstSession.check(configuration, source: .single(sensor)).slots == preRecord + 1)

        // A pair needs that for each sensor.
        let pair = try BurstEngineTests.pair()
        configuration.memoryBudget = BurstMemoryPlan.budget(forSlots: 2 * preRecord + 1, source: pair, configuration: configuration)
        let pairError = try #require(throws: FramePoolError.self) { try BurstSession.check(configuration, source: pair) }
        #expect(pairError.message.contains("a pre-record of \(frames) needs \(2 * preRecord + 2) slots"), "\(pairError)")
        configuration.memoryBudget = BurstMemoryPlan.budget(forSlots: 2 * preRecord + 2, source: pair, configuration: configuration)
        #expect(try BurstSession.check(configuration, source: pair).slots == 2 * preRecord + 2)
    }

    @Test func aPreRecordCannotBeCombinedWithABracketingPlan() throws {
        let sensor = try BurstEngineTests.sensor()
        var configuration = BurstSession.Configuration(frames: 3, writers: 1, outputDirectory: "/tmp")
        configuration.plan = (try BracketPlan(parsing: "ev:-1,0,+1"), CaptureSettings(iso: 100, shutter: 1.0 / 100))
        #expect(try BurstSession.check(configuration, source: .single(sensor)).slots >= 2)
        configuration.preRecordFrames = 2
        let error = try #require(throws: FramePoolError.self) { try BurstSession.check(configuration, source: .single(sensor)) }
        #expect(error.message == "a pre-record cannot be combined with a bracketing plan (the plan's first frame would be unknown)")
        configuration.plan = nil
        configuration.preRecordFrames = 100_001
        let tooMany = try #require(throws: FramePoolError.self) { try BurstSession.check(configuration, source: .single(sensor)) }
        #expect(tooMany.message == "a pre-record must keep 0...100000 frames, not 100001")
    }
}
