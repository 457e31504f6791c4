import Foundation
import RawCapture
import RawCore
import RawDNG
import RawImageIO
import RawLive
import RawSimulator
import RawSources
import Testing

/// The live previews as the page gets them: a JPEG of the right size and brightness, peaking that finds focus, zebra
/// that finds over-exposure, histograms that count every pixel, two sensors placed in their panes, and a sensor thread
/// that never waits for the worker.
@Suite struct LivePreviewerTests {
    /// Collects published previews; a test waits for them with a timeout, so a broken previewer fails instead of hanging.
    final class Collector: @unchecked Sendable {  // `frames` only under `condition`
        private let condition = NSCondition()
        private var frames: [LiveFrame] = []
        func add(_ frame: LiveFrame) { condition.withLock { frames.append(frame); condition.broadcast() } }
        /// The previews once there are `count`, or nil after 60 s.
        func wait(for count: Int) -> [LiveFrame]? {
            condition.withLock {
                let deadline = Date().addingTimeInterval(60)
                while frames.count < count { if !condition.wait(until: deadline) { return nil } }
                return frames
            }
        }
    }

    /// One frame of `scene` by `profile` (2016 px wide by default: the 12 MP phone camera at half size).
    static func capture(_ scene: any Scene, profile: String = "phone-wide", width: Int = 2016, iso: Double = 100,
                        shutter: Double = 1.0 / 60, focus: Double = 1.5, sequence: UInt64 = 0) throws -> CapturedFrame {
        let p = try #require(SensorProfile.builtIn(named: profile)).resized(toWidth: width)
        let sensor = try SimulatedSensor(profile: p, scene: scene, seed: 5 + sequence)
        try sensor.configure(CaptureSettings(iso: iso, shutter: shutter, focus: .metres(focus), whiteBalance: .preset(.daylight)))
        return try sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame))
    }

    /// The one preview of `frames` at `longEdge` with `overlays`.
    static func preview(_ frames: [CapturedFrame], longEdge: Int = 512, arrangement: LivePreviewArrangement = .stacked,
                        overlays: LiveOverlays = LiveOverlays()) throws -> LiveFrame {
        let collector = Collector()
        let previewer = LivePreviewer(longEdge: longEdge, arrangement: arrangement, overlays: { overlays },
                                      publish: { collector.add($0) })
        previewer.view(frames, level: .normal)
        let published = collector.wait(for: 1)
        previewer.stop()
        return try #require(published?.first)
    }

    static func meanOf(_ samples: [UInt8]) -> Double { Double(samples.reduce(0) { $0 + Int($1) }) / Double(max(1, samples.count)) }

    @Test("the JPEG decodes to the frame's picture at most the long edge, as bright as PreviewRenderer's")
    func jpegDecodesAndMatchesThePreviewRenderer() throws {
        let frame = try Self.capture(ColorChartScene(), sequence: 9)
        let live = try Self.preview([frame], longEdge: 512)
        let decoded = try live.jpeg.withUnsafeBytes { try JPEGMemoryDecoder.decode($0, maximumPixels: 1 << 22).get() }
        #expect(decoded.width == live.width && decoded.height == live.height)
        #expect(max(live.width, live.height) <= 512 && max(live.width, live.height) >= 256)
        #expect(live.panes == [try PixelRect(top: 0, left: 0, height: live.height, width: live.width)])
        let reference = PreviewRenderer.render(frame.image, longEdge: max(live.width, live.height))
        #expect(abs(Self.meanOf(decoded.samples) - Self.meanOf(reference.pixels)) < 3)
        #expect(live.sequenceNumber == frame.sequenceNumber && live.captureMonotonicNanoseconds == frame.monotonicNanoseconds)
        #expect(live.renderedMonotonicNanoseconds >= frame.monotonicNanoseconds)
        #expect(live.sensors.map(\.name) == [frame.sensorName] && live.sensors[0].settings == frame.settings)
        #expect(live.peaking == nil && live.zebra == nil)
    }

    @Test("white balance readout: daylight as-shot neutral reads about 5500 K")
    func whiteBalanceReadout() throws {
        let live = try Self.preview([try Self.capture(ColorChartScene())], longEdge: 256)
        let kelvin = try #require(live.sensors[0].kelvin)
        #expect((4500...6500).contains(kelvin), "\(kelvin) K")
        #expect(live.sensors[0].tint != nil)
    }

    @Test("peaking: the star focused at its distance is marked several times more than defocused, at each level",
          arguments: ["high", "medium", "low"])
    func peakingFindsFocus(level: String) throws {
        let star = SiemensStarScene(distance: 1.5)
        let overlays = LiveOverlays(peaking: true, peakingLevel: level)
        // The half-size 12 MP camera at a 1024 px preview: the grid a 12 MP frame binned 2x2 gives.
        let focused = try Self.preview([try Self.capture(star, focus: star.subjectDistance)], longEdge: 1024, overlays: overlays)
        let defocused = try Self.preview([try Self.capture(star, focus: 0.2)], longEdge: 1024, overlays: overlays)
        let sharp = try #require(focused.peaking), blurred = try #require(defocused.peaking)
        #expect(sharp.width == focused.width && sharp.height == focused.height)
        #expect(sharp.fraction > 0.01 && sharp.fraction > 4 * blurred.fraction, "\(sharp.fraction) vs \(blurred.fraction)")
        let marked = (0..<sharp.height).reduce(0) { n, y in n + (0..<sharp.width).filter { sharp.isMarked(x: $0, y: y) }.count }
        #expect(abs(Double(marked) / Double(sharp.width * sharp.height) - sharp.fraction) < 1e-12)
    }

    @Test("zebra marks an over-exposed frame and not a dark one")
    func zebraMarksOverExposure() throws {
        let overlays = LiveOverlays(zebra: true, zebraLevel: 0.95)
        let bright = try Self.preview([try Self.capture(ColorChartScene(), shutter: 1.0 / 2)], overlays: overlays)
        let dark = try Self.preview([try Self.capture(ColorChartScene(), shutter: 1.0 / 8000)], overlays: overlays)
        #expect(try #require(bright.zebra).fraction > 0.3)
        #expect(try #require(dark.zebra).fraction == 0)
        // Over-exposed, the raw samples clip; the dark frame's do not.
        #expect(bright.histogram.clipped.allSatisfy { $0 > 0.1 })
        #expect(dark.histogram.clipped == [0, 0, 0])
    }

    @Test("each histogram has 64 bins whose counts sum to the picture's pixels")
    func histogramCountsEveryPixel() throws {
        let live = try Self.preview([try Self.capture(ColorChartScene())], longEdge: 300)
        let pixels = UInt32(live.width * live.height)
        for channel in [live.histogram.red, live.histogram.green, live.histogram.blue, live.histogram.luma] {
            #expect(channel.count == LiveHistogram.bins && channel.reduce(0, +) == pixels)
        }
    }

    @Test("two sensors stacked: the picture's height is the sum, each pane where its picture is", arguments: LivePreviewArrangement.allCases)
    func twoSensorsArePlacedInPanes(arrangement: LivePreviewArrangement) throws {
        let a = try Self.capture(ColorChartScene(), profile: "phone-wide", width: 1024, sequence: 4)
        let b = try Self.capture(ColorChartScene(), profile: "phone-tele", width: 800, sequence: 4)
        let live = try Self.preview([a, b], longEdge: 256, arrangement: arrangement,
                                    overlays: LiveOverlays(peaking: true, zebra: true))
        let (one, two) = (live.panes[0], live.panes[1])
        #expect(live.panes.count == 2 && live.sensors.map(\.name) == [a.sensorName, b.sensorName])
        #expect(max(one.width, one.height) <= 256 && max(two.width, two.height) <= 256)
        if arrangement == .stacked {
            #expect(live.height == one.height + two.height && live.width == max(one.width, two.width))
            #expect(one.top == 0 && one.left == 0 && two.top == one.height && two.left == 0)
        } else {
            #expect(live.width == one.width + two.width && live.height == max(one.height, two.height))
            #expect(one.top == 0 && one.left == 0 && two.left == one.width && two.top == 0)
        }
        #expect(live.peaking?.width == live.width && live.zebra?.height == live.height)
        let decoded = try live.jpeg.withUnsafeBytes { try JPEGMemoryDecoder.decode($0, maximumPixels: 1 << 22).get() }
        #expect(decoded.width == live.width && decoded.height == live.height)
    }

    @Test("mailbox: with the worker blocked in publish, every view returns and the replaced triggers count as skipped")
    func mailboxNeverBlocksTheSensorThread() throws {
        let frame = try Self.capture(ColorChartScene(), width: 640)
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let collector = Collector()
        let previewer = LivePreviewer(longEdge: 128, overlays: { LiveOverlays() }, publish: { live in
            entered.signal()
            collector.add(live)
            release.wait()
        })
        previewer.view([frame], level: .normal)
        #expect(entered.wait(timeout: .now() + 60) == .success, "the first preview was published")
        // The worker is stuck in publish: these must all return (a blocking view would never reach the semaphore).
        let returned = DispatchSemaphore(value: 0)
        let sensor = Thread {
            for _ in 0..<20 { previewer.view([frame], level: .normal) }
            returned.signal()
        }
        sensor.start()
        let done = returned.wait(timeout: .now() + 60) == .success
        #expect(done, "view blocked on the worker")
        let stats = previewer.statistics
        #expect(stats.triggersSeen == 21 && stats.skipped == 19 && stats.published == 1)
        release.signal()
        release.signal()
        #expect(collector.wait(for: 2)?.count == 2, "the newest trigger is previewed once the worker is free")
        previewer.stop()
        #expect(previewer.statistics.published == 2 && previewer.statistics.binCopyP95Milliseconds > 0)
    }

    @Test("thinning: once the governor sheds work, at most 5 previews a second and `thinned` says so")
    func governorThinsThePreviews() throws {
        let frame = try Self.capture(ColorChartScene(), width: 320)
        let collector = Collector()
        let previewer = LivePreviewer(longEdge: 64, overlays: { LiveOverlays() }, publish: { collector.add($0) })
        let began = Date()
        for _ in 0..<30 { previewer.view([frame], level: .noPreviews) }
        let seconds = Date().timeIntervalSince(began)
        #expect(previewer.thinned)
        let stats = previewer.statistics
        let accepted = stats.triggersSeen - stats.thinned
        #expect(stats.triggersSeen == 30 && accepted >= 1 && Double(accepted) <= (seconds * LivePreviewer.thinnedRate).rounded(.up) + 1)
        previewer.view([frame], level: .normal)
        #expect(!previewer.thinned)
        previewer.stop()
    }
}
