import Foundation
import Testing
import TestSupport

/// `rawburst live` driven from its page in a real browser (headless chromium under Selenium; Tests/Live/
/// live_page_check.py does what a photographer would and reports what it saw; the assertions are here). The sensor is
/// phone-wide's design at 640x480, so a debug build keeps up with the page; the 12 MP figures are measured by the
/// benchmarks and by hand (docs/live.md).
@Suite(.serialized) struct LiveBrowserRealTimeTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Live/live_page_check.py")

    /// phone-wide's profile at 640x480 (the same pixels, noise and lens; a smaller sensor).
    static func smallProfile(in folder: URL) throws -> String {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: repository.appendingPathComponent("profiles/phone-wide.json"))
        var profile = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        profile["name"] = "live-test"
        profile["width"] = 640
        profile["height"] = 480
        let path = folder.appendingPathComponent("live-test.json")
        try JSONSerialization.data(withJSONObject: profile).write(to: path)
        return path.path
    }

    @Test func aPhotographerFramesFocusesExposesAndRecordsFromThePage() throws {
        // Installed by `make deps`; missing, the test fails rather than passing unseen.
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"), "chromium is missing: run make deps")
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), "chromium-driver is missing: run make deps")
        #expect(Python.hasModule("selenium"), "selenium is missing: run make deps")
        let work = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("rawburst-live-browser-\(getpid())")
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let profile = try Self.smallProfile(in: work)
        let r = try Python.json(scriptFile: Self.script, arguments: [CLI.executable.path, work.path, profile], timeout: 600)
        let report = r.object ?? [:]
        #expect(report["error"] == nil, "\(report["error"]?.string ?? ""): \(report["stderr"]?.string ?? "")")
        print("live browser test: screenshots in \(work.path)/shots")

        // The preview changes over time: at least 10 distinct frames in 2 s.
        #expect((report["distinctSequencesIn2s"]?.int ?? 0) >= 10)
        #expect(report["browserLog"]?.array?.isEmpty ?? false, "the page logged errors: \(String(describing: report["browserLog"]))")
        // Peaking: marks drawn; the star far out of focus (0.1 m) has a small fraction of what it has in focus (2 m).
        let near = report["peakingFractionsAt0.1m"]?.array?.compactMap(\.double) ?? []
        let far = report["peakingFractionsAt2m"]?.array?.compactMap(\.double) ?? []
        #expect(near.count >= 3 && far.count >= 3, "frames at the asked focus: \(near), \(far)")
        if let blurred = near.max(), let sharp = far.min() {
            #expect(sharp > 0.01, "in focus, the star's edges are marked")
            #expect(blurred < sharp / 4, "out of focus \(blurred) vs in focus \(sharp)")
        }
        #expect((report["overlayMarkedFocused"]?.int ?? 0) > (report["overlayMarkedDefocused"]?.int ?? 0))
        #expect((report["overlayMarkedFocused"]?.int ?? 0) > 100)
        // The slider sends the focus it shows: at its minimum, the lens's closest focus (0.1 m).
        #expect(report["focusAfterSliderAtMinimum"]?.double.map { abs($0 - 0.1) < 1e-6 } ?? false,
                "focus after the slider: \(String(describing: report["focusAfterSliderAtMinimum"]))")
        // ISO and shutter set on the page: in the next frames, the readouts, and the recorded DNGs' EXIF.
        #expect(report["previewISO"]?.double == 400)
        #expect(report["previewShutter"]?.double.map { abs($0 - 0.008) < 1e-9 } ?? false)
        #expect(report["readoutISO"]?.string?.contains("400") ?? false)
        #expect(report["readoutShutter"]?.string?.contains("1/125") ?? false)
        #expect(report["dngISO"]?.double == 400)
        #expect(report["dngExposureTime"]?.double.map { abs($0 - 0.008) < 1e-9 } ?? false)
        // Out of range: refused on the page with the command line's reason.
        #expect(report["refusal"]?.string?.contains("102400 is outside 50...6400") ?? false,
                "refusal: \(String(describing: report["refusal"]))")
        // A tap moves AF and metering there.
        let point = report["tapStatusFocusPoint"]?.object ?? [:]
        #expect(point["x"]?.double.map { abs($0 - 0.25) < 0.03 } ?? false)
        #expect(point["y"]?.double.map { abs($0 - 0.75) < 0.03 } ?? false)
        #expect(report["tapFrameMetering"]?.string?.hasPrefix("spot:0.2") ?? false,
                "the next frames are metered at the tap: \(String(describing: report["tapFrameMetering"]))")
        // Only looking, the page says it is not recording and shows the preview's rate, no drops (issue #33: it read
        // "drops 166 (outside-pre-record)"); recording, the recording's own written frames and drops.
        let looking = report["burstPanelLooking"]?.string ?? ""
        #expect(looking.contains("not recording") && looking.contains("fps preview"), "\(looking)")
        #expect(!looking.contains("drops") && !looking.contains("outside-pre-record") && !looking.contains("written"), "\(looking)")
        let recording = report["burstPanelRecording"]?.string ?? ""
        #expect(recording.contains("written") && recording.contains("drops") && !recording.contains("not recording"), "\(recording)")
        #expect(!recording.contains("outside-pre-record"), "\(recording)")
        // Record and stop: the take's DNGs and manifest, nothing lost but the frames shown before Record, and every
        // previewed frame's latency in the manifest.
        #expect(report["recordingSeen"] == .bool(true))
        #expect((report["dngs"]?.int ?? 0) >= 5)
        #expect(report["manifestWritten"]?.int == report["dngs"]?.int)
        #expect(report["manifestDropsOtherThanBeforeTrigger"]?.array?.isEmpty ?? false,
                "drops: \(String(describing: report["manifestDropsOtherThanBeforeTrigger"]))")
        #expect((report["manifestPreviewLatencies"]?.int ?? 0) > 0)
        // Quit on the page ends the command cleanly.
        #expect(report["exitCode"]?.int == 0, "stderr: \(report["stderr"]?.string ?? "")")
        #expect(report["shots"]?.array?.count == 7)
    }
}
