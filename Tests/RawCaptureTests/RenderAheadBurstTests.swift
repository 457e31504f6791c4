import Foundation
import RawCapture
import RawCore
import RawFiles
import RawSimulator
import RawSources
import TestSupport
import Testing

/// A burst from sensors that render ahead (`RenderAheadSource`): a bracketing plan reaches every frame despite the
/// settings latency, the viewfinder's settings arrive `depth` frames later and every frame's settings, metadata and
/// DNG EXIF say what it was made with; the memory plan counts where the frames made ahead live.
@Suite struct RenderAheadBurstTests {
    static func wrapped(_ depth: Int = 2, seed: UInt64 = 1, ownsBuffers: Bool = false) throws -> RenderAheadSource {
        RenderAheadSource(try BurstEngineTests.sensor(seed: seed), depth: depth, ownsBuffers: ownsBuffers)
    }

    static func configuration(frames: Int, source: any FrameSource, output: String) -> BurstSession.Configuration {
        BurstSession.Configuration(frames: frames, overflow: .block, writers: 2,
                                   memoryBudget: BurstSessionTests.budget(slots: 8, sensor: source, writers: 2),
                                   outputDirectory: output)
    }

    @Test("one source, two bursts one after the other (the viewfinder's takes): the second starts its render thread anew, its frames numbered after the first's, and settings fed between them reach it",
          arguments: [false, true])
    func twoBurstsFromOneSource(ownsBuffers: Bool) throws {
        let source = try Self.wrapped(ownsBuffers: ownsBuffers)
        let first = try TemporaryDirectory(), second = try TemporaryDirectory()
        let one = try BurstSession(source: source, configuration: Self.configuration(frames: 5, source: source, output: first.url.path)).run()
        #expect(one.problems == [] && one.ledger.written.count == 5 && one.ledger.drops.isEmpty)
        try source.configure(CaptureSettings(iso: 800, shutter: 1.0 / 200, focus: .metres(1.5), whiteBalance: .preset(.daylight)))
        let two = try BurstSession(source: source, configuration: Self.configuration(frames: 5, source: source, output: second.url.path)).run()
        #expect(two.problems == [] && two.ledger.written.count == 5 && two.ledger.drops.isEmpty, "\(two.problems) \(two.ledger.drops)")
        let last = try #require(one.frames.map(\.sequenceNumber).max())
        #expect(two.frames.allSatisfy { $0.sequenceNumber > last }, "\(two.frames.map(\.sequenceNumber)) after \(last)")
        #expect(Set(two.frames.map(\.sequenceNumber)).count == 5)
        // Configured before the second burst's first frame was made: every frame of it was made with ISO 800.
        #expect(two.frames.allSatisfy { $0.settings.iso == 800 }, "\(two.frames.map(\.settings.iso))")
    }

    @Test("a bracketing plan gives each frame its own step although settings reach the sensor two frames late: settings, bracket index, and the DNG's EXIF ISO (our reader and ExifTool)")
    func bracketReachesEveryFrame() throws {
        let tmp = try TemporaryDirectory()
        let source = try Self.wrapped()
        var configuration = Self.configuration(frames: 9, source: source, output: tmp.url.path)
        configuration.plan = (try BracketPlan(parsing: "iso:100,400,1600"), BurstViewerHookTests.base)
        let report = try BurstSession(source: source, configuration: configuration).run()
        #expect(report.problems == [] && report.frames.count == 9)
        let steps: [Double] = [100, 400, 1600]
        for record in report.frames {
            let step = Int(record.sequenceNumber % 3)
            #expect(record.bracketIndex == step, "frame \(record.sequenceNumber)")
            #expect(record.settings.iso == steps[step], "frame \(record.sequenceNumber)'s settings")
            #expect(try RawFileReader().read(path: record.path).metadata.iso == steps[step], "frame \(record.sequenceNumber)'s EXIF")
        }
        for record in report.frames where record.sequenceNumber < 3 {
            #expect(try ExifTool.tags(of: record.path)["ExifIFD:ISO"]?.double == steps[Int(record.sequenceNumber)])
        }
    }

    @Test("an exposure bracket over automatic exposure: metered before the first frame is made, each frame exposed its step's stops from it, two frames of latency or not")
    func exposureBracketOverAutoExposure() throws {
        let tmp = try TemporaryDirectory()
        let source = try Self.wrapped()
        var configuration = Self.configuration(frames: 6, source: source, output: tmp.url.path)
        let automatic = CaptureSettings(focus: .metres(1.5), whiteBalance: .preset(.daylight))
        configuration.plan = (try BracketPlan(parsing: "ev:-1,0,+1"), automatic)
        let report = try BurstSession(source: source, configuration: configuration).run()
        #expect(report.problems == [] && report.frames.count == 6)
        let byNumber = Dictionary(uniqueKeysWithValues: report.frames.map { ($0.sequenceNumber, $0) })
        func exposure(_ n: UInt64) throws -> Double {
            let s = try #require(byNumber[n]).settings
            return s.iso * s.shutter
        }
        for n in UInt64(0)..<6 {
            #expect(byNumber[n]?.bracketIndex == Int(n % 3))
            #expect(byNumber[n]?.settings.exposureCompensation == [-1.0, 0, 1][Int(n % 3)], "frame \(n)")
        }
        // One stop apart within a run, the same steps again in the next.
        for run in [UInt64(0), 3] {
            #expect(abs(try exposure(run + 1) / exposure(run) - 2) < 0.02, "run from \(run)")
            #expect(abs(try exposure(run + 2) / exposure(run + 1) - 2) < 0.02, "run from \(run)")
        }
        #expect(abs(try exposure(3) / exposure(0) - 1) < 1e-9)
    }

    @Test("settings fed before frame k reach frame k + 2 (the declared latency); the frames before keep theirs: settings, metadata and the DNG's EXIF ISO and exposure time", arguments: [1, 4])
    func fedSettingsArriveTwoFramesLater(before k: Int) throws {
        let tmp = try TemporaryDirectory()
        let source = try Self.wrapped()
        // Two slots lent by the burst: two frames made ahead, two frames of latency.
        #expect(source.slotsToBorrow(poolSlots: 8) == 2)
        var configuration = Self.configuration(frames: 9, source: source, output: tmp.url.path)
        let feed = BurstViewerHookTests.ArmedFeed()
        configuration.settingsFeed = feed
        var changed = BurstViewerHookTests.base
        changed.iso = 800
        changed.shutter = 1.0 / 400
        let session = try BurstSession(source: source, configuration: configuration)
        let report = session.run(hooks: BurstSession.Hooks(afterTrigger: { count in if count == k { feed.arm(changed) } }))
        #expect(report.problems == [] && report.frames.count == 9)
        #expect(feed.results.count == 1 && feed.results.first?.1 == nil)
        for record in report.frames {
            let late = record.sequenceNumber >= UInt64(k + 2)
            let (iso, shutter) = late ? (800.0, 1.0 / 400) : (100.0, 1.0 / 100)
            #expect(record.settings.iso == iso && record.settings.shutter == shutter, "frame \(record.sequenceNumber)")
            let tags = try ExifTool.tags(of: record.path)
            #expect(tags["ExifIFD:ISO"]?.double == iso, "frame \(record.sequenceNumber)'s EXIF ISO")
            #expect(abs((tags["ExifIFD:ExposureTime"]?.double ?? 0) - shutter) < 1e-9, "frame \(record.sequenceNumber)'s EXIF exposure")
        }
    }

    @Test("memory: one sensor renders ahead into two lent pool slots; a pair into buffers of its own, counted as its working memory")
    func memoryPlanKnowsWhereFramesWait() throws {
        let tmp = try TemporaryDirectory()
        let single = try Self.wrapped()
        let one = try BurstSession(source: single, configuration: Self.configuration(frames: 4, source: single, output: tmp.url.path))
        #expect(one.memory.lentSlots == 2)
        let report = one.run()
        #expect(report.problems == [] && report.writtenCount == 4)
        let a = try Self.wrapped(seed: 1, ownsBuffers: true), b = try Self.wrapped(seed: 2, ownsBuffers: true)
        let source = BurstSource.pair(DualSource(a, b, clock: .freeRunning))
        var configuration = BurstSession.Configuration(frames: 4, overflow: .block, writers: 2,
                                                       outputDirectory: tmp.url.appendingPathComponent("pair").path)
        try FileManager.default.createDirectory(atPath: configuration.outputDirectory, withIntermediateDirectories: true)
        configuration.memoryBudget = BurstMemoryPlan.budget(forSlots: 6, source: source, configuration: configuration)
        let pair = try BurstSession(source: source, configuration: configuration)
        #expect(pair.memory.lentSlots == 0 && pair.pool.slotCount == 6)
        #expect(pair.memory.sourceBytes == a.inner.workingMemoryBytes + b.inner.workingMemoryBytes + 2 * 2 * a.samplesPerFrame * 2)
        let pairReport = pair.run()
        #expect(pairReport.problems == [] && pairReport.writtenCount == 8)
        // Both frames of a pair carry the pair's tick.
        let byNumber = Dictionary(grouping: pairReport.frames, by: \.sequenceNumber)
        for (n, frames) in byNumber {
            #expect(frames.count == 2 && Set(frames.map(\.monotonicNanoseconds)).count == 1, "pair \(n)")
        }
    }
}
