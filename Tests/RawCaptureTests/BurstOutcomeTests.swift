import Foundation
import RawCapture
import RawCore
import Testing

/// Typed outcomes: each case says what the report, the manifest and the journal have always said.
@Suite struct BurstOutcomeTests {
    @Test("stop causes: the words of the report, and only a request counts as one")
    func stopCauses() {
        let cases: [(BurstSession.StopCause, String, Bool)] = [
            (.requested("stopped by SIGINT"), "stopped by SIGINT", true),
            (.thermalCritical, "thermal state critical", false),
            (.planStepRejected(step: 2, detail: "ISO: 6400 is too high"), "sensor: step 2 of the plan: ISO: 6400 is too high", false),
            (.sensorFailed("replay finished"), "sensor error: replay finished", false),
            (.noFreeSlot, "no free slot (policy stop)", false),
            (.writesFailing("Input/output error"), "writes failing: Input/output error", false),
        ]
        for (cause, text, requested) in cases {
            #expect(cause.description == text)
            #expect(cause.isRequested == requested, "\(cause)")
        }
    }

    @Test("burst failures: one line each, develop failures told by their case")
    func failures() {
        let cases: [(BurstSession.Failure, String, Bool)] = [
            (.sensor("replay finished"), "sensor: replay finished", false),
            (.journal("disk full"), "journal: disk full", false),
            (.write(sequenceNumber: 3, sensor: nil, detail: "Input/output error"), "frame 3: Input/output error", false),
            (.write(sequenceNumber: 3, sensor: "front", detail: "Input/output error"), "frame 3 (front): Input/output error", false),
            (.develop(sequenceNumber: 7, sensor: "back", detail: "x"), "develop frame 7 (back): x", true),
            (.sidecar(sequenceNumber: 2, sensor: nil, detail: "/b/p-0002.json: cannot flush to disk: Input/output error"),
             "frame 2: written, but its sidecar is not: /b/p-0002.json: cannot flush to disk: Input/output error", false),
            (.notDurable(sequenceNumber: 5, sensor: "front", detail: "/b: cannot flush the directory to disk: Input/output error"),
             "frame 5 (front): written, but not durable: /b: cannot flush the directory to disk: Input/output error", false),
        ]
        for (failure, text, develop) in cases {
            #expect(failure.description == text)
            #expect(failure.isDevelopment == develop, "\(failure)")
        }
    }

    @Test("governor steps and deferrals are written with the manifest's names and words")
    func manifestNames() throws {
        let deferral = DevelopDeferral(sequenceNumber: 4, sensor: "main", dng: "main-0004.dng", cause: .governor(.noPreviews))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(deferral), as: UTF8.self)
        #expect(json == #"{"dng":"main-0004.dng","reason":"governor at no-previews","sensor":"main","sequenceNumber":4}"#)
        #expect(try JSONDecoder().decode(DevelopDeferral.self, from: Data(json.utf8)) == deferral)
        #expect(BurstGovernor.Cause.filling(secondsToFull: 0.8, free: 3, slots: 8).description
                == "pool full in 0.8 s at the measured rate (3 of 8 slots free)")
        #expect(BurstGovernor.Cause.nearlyFull(free: 1, slots: 8).description == "pool nearly full (1 of 8 slots free)")
    }

    @Test("one error protocol: the subject, then the message")
    func errorProtocol() {
        #expect(FramePoolError("no slots").description == "no slots")
        #expect(BracketPlanError("x") != BracketPlanError("y"))
        let error: any RawBurstError = FileError(path: "/tmp/a", "cannot open")
        #expect(error.subject == "/tmp/a" && error.message == "cannot open" && "\(error)" == "/tmp/a: cannot open")
        let invalid: any RawBurstError = InvalidValueError("whiteLevel", "must be positive")
        #expect(invalid.subject == "whiteLevel" && "\(invalid)" == "invalid whiteLevel: must be positive")
    }
}
