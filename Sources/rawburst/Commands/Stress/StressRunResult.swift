import Foundation
import RawBurst

/// The `--json` report of `rawburst stress`.
struct StressReport: Encodable {
    let quick: Bool
    let sensor: String
    let runs: [StressRunResult]
    /// True when every burst passed.
    let passed: Bool
}

/// One burst of a stress scenario: its figures from the child's report, and the harness's own checks.
struct StressRunResult: Encodable {
    let scenario: String
    let label: String
    let command: String
    let exitStatus: Int
    let fpsAsked: Double
    /// Triggers per second achieved (from the first frame's start to the last's).
    let fpsAchieved: Double
    let produced: Int
    let written: Int
    let dropped: Int
    /// Drops by reason.
    let dropReasons: [String: Int]
    let slots: Int
    let queueHighWater: Int
    let encodeP50Milliseconds: Double
    let encodeP99Milliseconds: Double
    let slotLatencyP99Milliseconds: Double
    let lateFrames: Int
    /// The governor's levels, in order.
    let degradations: [String]
    let stopReason: String?
    let processStartToFirstFrameMilliseconds: Double?
    let peakRSSBytes: Int
    let budgetBytes: Int
    /// The sensor's working memory (part of the budget).
    let sensorBytes: Int
    /// budget + 64 MiB.
    let residentLimitBytes: Int
    /// Every produced frame written or dropped, never both, files matching the account.
    let accounted: Bool
    let withinMemoryLimit: Bool
    /// Why the burst failed, empty when it passed.
    let problems: [String]
    /// True when `problems` is empty.
    let passed: Bool

    /// The parts of `capture --json` the harness reads.
    private struct ChildReport: Decodable {
        struct Frame: Decodable {
            let sensor: String
            let sequenceNumber: UInt64
            let path: String
        }
        struct Burst: Decodable {
            struct Drop: Decodable {
                let sensor: String
                let sequenceNumber: UInt64
                let reason: String
            }
            let memory: BurstMemoryPlan
            let slots: Int
            let highWater: Int
            let produced: Int
            let written: Int
            let dropped: [Drop]
            let statistics: BurstStatistics
            let processStartToFirstFrameMilliseconds: Double?
            let peakRSSBytes: Int
            let degradations: [GovernorStep]
            let stopReason: String?
            let problems: [String]
            let errors: [String]
        }
        /// A governor step as the manifest names it (`BurstGovernor.Step` is written, not read back).
        struct GovernorStep: Decodable {
            let level: String
        }
        let sensors: [String]
        let frames: [Frame]
        let burst: Burst
    }

    /// Checks the child's report `data` (exit status `exitStatus`, standard error `stderr`) against the files in
    /// `output`.
    init(scenario: String, label: String, fpsAsked: Double, command: String, exitStatus: Int, report data: Data,
         stderr: String, output: String) {
        self.scenario = scenario
        self.label = label
        self.command = command
        self.exitStatus = exitStatus
        self.fpsAsked = fpsAsked
        var problems: [String] = []
        guard let report = try? JSONDecoder().decode(ChildReport.self, from: data) else {
            let reason = stderr.split(separator: "\n").first.map(String.init) ?? "no report"
            problems.append("capture exited with status \(exitStatus) without a report: \(reason)")
            (fpsAchieved, produced, written, dropped, dropReasons, slots, queueHighWater) = (0, 0, 0, 0, [:], 0, 0)
            (encodeP50Milliseconds, encodeP99Milliseconds, slotLatencyP99Milliseconds, lateFrames) = (0, 0, 0, 0)
            (degradations, stopReason, processStartToFirstFrameMilliseconds) = ([], nil, nil)
            (peakRSSBytes, budgetBytes, sensorBytes, residentLimitBytes) = (0, 0, 0, 0)
            (accounted, withinMemoryLimit) = (false, false)
            self.problems = problems
            passed = false
            return
        }
        let burst = report.burst
        fpsAchieved = burst.statistics.triggersPerSecond
        produced = burst.produced
        written = burst.written
        dropped = burst.dropped.count
        dropReasons = Dictionary(burst.dropped.map { ($0.reason, 1) }, uniquingKeysWith: +)
        slots = burst.slots
        queueHighWater = burst.highWater
        encodeP50Milliseconds = burst.statistics.encodeP50Milliseconds
        encodeP99Milliseconds = burst.statistics.encodeP99Milliseconds
        slotLatencyP99Milliseconds = burst.statistics.slotLatencyP99Milliseconds
        lateFrames = burst.statistics.lateFrames
        degradations = burst.degradations.map(\.level)
        stopReason = burst.stopReason
        processStartToFirstFrameMilliseconds = burst.processStartToFirstFrameMilliseconds
        peakRSSBytes = burst.peakRSSBytes
        budgetBytes = burst.memory.budgetBytes
        sensorBytes = burst.memory.sourceBytes
        residentLimitBytes = burst.memory.residentLimitBytes

        // Accounting, checked here rather than believed: the written and dropped sequence numbers of each
        // sensor are disjoint and together exactly 0..<produced per sensor, and the DNGs on disk are the
        // written frames' files.
        struct Key: Hashable { let sensor: String; let sequence: UInt64 }
        let writtenKeys = report.frames.map { Key(sensor: $0.sensor, sequence: $0.sequenceNumber) }
        let droppedKeys = burst.dropped.map { Key(sensor: $0.sensor, sequence: $0.sequenceNumber) }
        let perSensor = burst.produced / max(1, report.sensors.count)
        let expected = Set(report.sensors.flatMap { sensor in (0..<UInt64(perSensor)).map { Key(sensor: sensor, sequence: $0) } })
        if Set(writtenKeys).count != writtenKeys.count { problems.append("a frame was written twice") }
        if Set(droppedKeys).count != droppedKeys.count { problems.append("a frame was dropped twice") }
        let both = Set(writtenKeys).intersection(droppedKeys)
        if let first = both.first { problems.append("frame \(first.sequence) of \(first.sensor) is both written and dropped") }
        if burst.produced % max(1, report.sensors.count) != 0 { problems.append("\(burst.produced) frames from \(report.sensors.count) sensors") }
        let accountedFor = Set(writtenKeys).union(droppedKeys)
        if accountedFor != expected {
            let missing = expected.subtracting(accountedFor).map(\.sequence).sorted()
            let extra = accountedFor.subtracting(expected).map(\.sequence).sorted()
            if !missing.isEmpty { problems.append("unaccounted for: \(missing.prefix(10).map(String.init).joined(separator: ", "))") }
            if !extra.isEmpty { problems.append("accounted but never produced: \(extra.prefix(10).map(String.init).joined(separator: ", "))") }
        }
        if burst.written != writtenKeys.count { problems.append("the report says \(burst.written) written but lists \(writtenKeys.count)") }
        let files = Set(((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).filter { $0.hasSuffix(".dng") })
        let listed = Set(report.frames.map { ($0.path as NSString).lastPathComponent })
        if files != listed {
            problems.append("\(files.count) DNGs on disk, \(listed.count) in the report"
                            + (files.subtracting(listed).first.map { " (\($0) not in it)" } ?? ""))
        }
        problems += burst.problems.map { "the capture's own check: \($0)" }
        problems += burst.errors.map { "write error: \($0)" }
        accounted = problems.isEmpty
        withinMemoryLimit = burst.peakRSSBytes <= burst.memory.residentLimitBytes
        if !withinMemoryLimit {
            problems.append(String(format: "peak RSS %.0f MiB over the limit of %.0f MiB", Double(burst.peakRSSBytes) / 1_048_576,
                                   Double(burst.memory.residentLimitBytes) / 1_048_576))
        }
        if ![0, 3].contains(exitStatus) { problems.append("capture exited with status \(exitStatus)") }
        self.problems = problems
        passed = problems.isEmpty
    }

    /// The table's header line.
    static let tableHeader = "scenario       burst                   fps asked/got  made  written dropped  slots hw  "
        + "encode p50/p99 ms  slot p99 ms  RSS/limit MiB  result"

    /// This burst as one line of the table.
    var tableRow: String {
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }
        let mib = { (bytes: Int) in String(format: "%.0f", Double(bytes) / 1_048_576) }
        return pad(scenario, 15) + pad(label, 24)
            + pad(String(format: "%.0f/%.1f", fpsAsked, fpsAchieved), 15) + pad(String(produced), 6) + pad(String(written), 8)
            + pad(String(dropped), 9) + pad("\(slots) \(queueHighWater)", 10)
            + pad(String(format: "%.0f/%.0f", encodeP50Milliseconds, encodeP99Milliseconds), 19)
            + pad(String(format: "%.2f", slotLatencyP99Milliseconds), 13) + pad("\(mib(peakRSSBytes))/\(mib(residentLimitBytes))", 15)
            + (passed ? "ok" : "FAIL") + (degradations.isEmpty ? "" : "  governor: " + degradations.joined(separator: ">"))
            + (stopReason.map { "  stopped: \($0)" } ?? "")
    }
}
