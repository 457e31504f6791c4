import Foundation
import RawCapture
import RawCore
import RawDNG
import RawSimulator
import RawSources
import TestSupport
import Testing

/// The CPU and disk plan held against bursts on simulated slow disks, on a real-time clock: when the pool fills
/// against when the plan said, and the governor's rungs before any drop. Real-time: serialized, and kept apart from
/// parallel suites by its name (docs/testing.md).
@Suite(.serialized) struct BurstTimePlanRealTimeTests {
    @Test("a disk at 10–90 % of the needed bandwidth: no frame is dropped while the governor has a rung left",
          arguments: [0.1, 0.3, 0.5, 0.7, 0.9])
    func noDropBeforeTheLastRung(fraction: Double) throws {
        let tmp = try TemporaryDirectory()
        let (report, session) = try BurstTimePlanTests.diskBurst(fraction: fraction, slots: 8, seconds: 2, governor: true,
                                                   directory: tmp.url.path)
        #expect(report.problems == [])
        #expect(session.configuration.timePlan?.bottleneck == .disk)
        // A slow disk's ladder: packed (a quarter fewer bytes at 12 bits), then the rate.
        let levels = report.degradations.map(\.newLevel)
        #expect(levels.allSatisfy { $0 == .packed || $0 == .lowerRate }, "\(report.degradations)")
        let poolFull = report.ledger.drops.filter { $0.reason == .poolFull }.map(\.sequenceNumber)
        if let first = poolFull.min() {
            let lowered = try #require(report.degradations.first { $0.newLevel == .lowerRate }, "dropped \(poolFull) at level normal")
            #expect(first > lowered.afterSequenceNumber ?? 0, "frame \(first) dropped before the rate was lowered: \(report.degradations)")
        }
        if fraction <= 0.5 { #expect(levels.contains(.lowerRate), "\(report.degradations)") }
    }

    @Test("prediction against outcome on three disk speeds, without the governor: the pool fills within ±15 % of when it said",
          arguments: [0.25, 0.5, 0.75])
    func predictionHolds(fraction: Double) throws {
        let tmp = try TemporaryDirectory()
        // At 10 fps the writers need a small share of the cores even in a debug build on a loaded machine, so the
        // disk is what fills the pool: 16 slots in about 16 / (10 − 10 × fraction) s.
        let slots = 16
        let (report, session) = try BurstTimePlanTests.diskBurst(fraction: fraction, fps: 10, slots: slots,
                                                   seconds: Double(slots) / (10 * (1 - fraction)) + 0.5,
                                                   governor: false, directory: tmp.url.path)
        let predicted = try #require(session.prediction?.secondsBeforeFull, "\(String(describing: session.prediction))")
        #expect(session.pool.slotCount == slots)
        let first = try #require(report.ledger.drops.filter { $0.reason == .poolFull }.map(\.sequenceNumber).min())
        let start = try #require(report.triggerNanoseconds.first)
        let at = Double(report.triggerNanoseconds[Int(first)] - start) / 1e9
        let planned = session.configuration.timePlan?.options.first { $0.compression == .none }?.bytes ?? 0
        #expect(abs(at - predicted) <= 0.15 * predicted, "predicted \(predicted) s, first drop at \(at) s (frame \(first)); bytes planned \(planned), written \(report.frames.map(\.bytes).max() ?? 0); commits \(report.frames.sorted { $0.committedNanoseconds < $1.committedNanoseconds }.map { Double($0.committedNanoseconds - start) / 1e9 })")
    }
}
