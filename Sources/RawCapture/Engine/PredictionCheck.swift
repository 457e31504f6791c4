import RawCore

/// The prediction held against what happened (`burst.predictionCheck` in the manifest): how many triggers (frames
/// per sensor) and seconds from the start of the burst's clock passed before the first governor step and the first
/// drop, against what was promised.
///
/// The promise (`BurstPrediction`): `continuous` — no step and no drop; `holds ~N frames` — the first step (or, without
/// the governor, the first drop) after N·(1 ± 0.25) frames (a burst that ends sooner keeps it as far as it went); and
/// for every burst, degrade before any drop (NFR5): no drop before the first step, unless the prediction said drops
/// come first (a sensor slower than the rate, or no governor). `edge`, `sensor-limited` and `free-running` promise
/// no timing, and a pre-record, a burst waiting for its trigger or a paused one is not checked (the prediction is
/// about a burst that triggers on its clock from its first frame). Steps for the thermal state, or giving rate back,
/// are not the plan's: they are left out.
public struct PredictionCheck: Sendable, Hashable, Codable {
    /// The outcome.
    public enum Verdict: String, Sendable, Hashable, Codable {
        case kept, broken
        case notChecked = "not-checked"
    }

    /// What was predicted, and when its first event was due (triggers, seconds).
    public let predicted: BurstPrediction.Kind
    public let predictedFrames: Int?
    public let predictedSeconds: Double?
    /// Triggers before the first governor step (the first frame it applied to, counted from the first triggered
    /// frame), and its time on the burst's clock (s); nil when the governor never stepped.
    public let firstStepFrame: Int?
    public let firstStepSeconds: Double?
    /// Triggers before the first drop (its sequence number from the first triggered frame), when, and why.
    public let firstDropFrame: Int?
    public let firstDropSeconds: Double?
    public let firstDropReason: String?
    /// Triggers taken in all.
    public let triggers: Int
    /// The first event's frames over the predicted, less one (−0.05: 5 % early), when both are known.
    public let error: Double?
    /// No drop came before the first governor step, or the prediction said drops would come first.
    public let degradedBeforeDrop: Bool
    public let verdict: Verdict
    /// One sentence for the user.
    public let summary: String

    /// Checks `prediction` against `report`; `checkable` false for a pre-record or a burst that waits for its trigger.
    public init(_ prediction: BurstPrediction, report: BurstSession.Report, checkable: Bool) {
        predicted = prediction.kind
        predictedFrames = prediction.framesBeforeFirstEvent
        predictedSeconds = prediction.secondsBeforeFirstEvent
        let start = report.clockStartNanoseconds ?? report.startedNanoseconds
        let first = report.triggeredAtSequenceNumber ?? 0
        func seconds(_ nanoseconds: UInt64) -> Double {
            (Double(nanoseconds > start ? nanoseconds - start : 0) / 1e7).rounded() / 100
        }
        let step = report.degradations.first { step in
            switch step.cause {
            case .thermal, .calm: false
            default: true
            }
        }
        firstStepFrame = step.map { step in
            // The step applies from the frame after `afterSequenceNumber`: that many frames were taken before it.
            let applied = step.afterSequenceNumber.map { $0 + 1 } ?? first
            return Int(applied >= first ? applied - first : 0)
        }
        firstStepSeconds = step.map { seconds(report.startedNanoseconds + UInt64(max(0, $0.seconds) * 1e9)) }
        let drop = report.firstDrop.flatMap { $0.sequenceNumber >= first ? $0 : nil }
        firstDropFrame = drop.map { Int($0.sequenceNumber - first) }
        firstDropSeconds = drop.map { seconds($0.nanoseconds) }
        firstDropReason = drop?.reason.rawValue
        triggers = report.ledger.produced.filter { $0 >= first }.count
        // Drops first are what the prediction said for a sensor too slow for the rate, or a burst without the governor.
        let dropsFirstPredicted = prediction.kind == .sensorLimited || prediction.firstEvent == .drop
        let (stepFrame, dropFrame) = (self.firstStepFrame, self.firstDropFrame)
        let degraded = dropsFirstPredicted || dropFrame.map { d in stepFrame.map { $0 <= d } ?? false } ?? true
        degradedBeforeDrop = degraded
        let event = [stepFrame, dropFrame].compactMap { $0 }.min()
        let predictedFrames = self.predictedFrames
        error = predictedFrames.flatMap { n in event.map { n > 0 ? ((Double($0) / Double(n) - 1) * 1000).rounded() / 1000 : 0 } }
        (verdict, summary) = Self.verdict(prediction, checkable: checkable && report.pauses == 0, event: event,
                                          triggers: triggers, degraded: degraded, firstStep: self.firstStepFrame,
                                          firstDrop: self.firstDropFrame, dropReason: self.firstDropReason)
    }

    /// The verdict and its sentence.
    private static func verdict(_ p: BurstPrediction, checkable: Bool, event: Int?, triggers: Int, degraded: Bool,
                                firstStep: Int?, firstDrop: Int?, dropReason: String?) -> (Verdict, String) {
        var happened: String
        switch (firstStep, firstDrop) {
        case (nil, nil): happened = "no governor step and no drop in \(triggers) frames"
        case (let s?, nil): happened = "first governor step after \(s) frames, no drop"
        case (nil, let d?): happened = "first drop (\(dropReason ?? "?")) after \(d) frames, no governor step"
        case (let s?, let d?): happened = "first governor step after \(s) frames, first drop (\(dropReason ?? "?")) after \(d)"
        }
        guard checkable else { return (.notChecked, "not checked (pre-record, waiting for a trigger, or paused): " + happened) }
        if !degraded { return (.broken, "broken: a frame was dropped before the governor stepped in; " + happened) }
        switch p.kind {
        case .continuous:
            return event == nil ? (.kept, "kept: continuous, " + happened) : (.broken, "broken: predicted continuous; " + happened)
        case .holds:
            let n = p.framesBeforeFirstEvent ?? 0
            let low = Int((Double(n) * 0.75).rounded(.down)), high = Int((Double(n) * 1.25).rounded(.up))
            let window = "predicted ~\(n) frames (\(low)...\(high))"
            guard let event else {
                return triggers <= high ? (.kept, "kept as far as the burst went: \(window); " + happened)
                    : (.broken, "broken: \(window); " + happened)
            }
            return (low...high).contains(event) ? (.kept, "kept: \(window); " + happened) : (.broken, "broken: \(window); " + happened)
        case .edge, .sensorLimited, .freeRunning:
            return (.notChecked, "no timing promised (\(p.kind.rawValue)): " + happened)
        }
    }
}
