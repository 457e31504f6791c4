import RawCapture
import RawCore
import RawSources
import Testing

/// The memory plan counts every writer's analyser and says when a burst's peak went over its limit; the governor
/// takes its first step before a small pool can overflow (issue #17 item 4).
@Suite struct BurstMemoryPlanTests {
    /// An analyser that only states its working memory (the plan's arithmetic is what is tested).
    struct SizedAnalyzer: BurstFrameAnalyzer {
        let bytesPerSample: Int
        func workingBytes(samplesPerFrame: Int) -> Int { samplesPerFrame * bytesPerSample }
        func analyse(_ frame: RawFrame) -> any Sendable { frame.width }
    }

    @Test func everyWritersAnalyserIsCountedBeforeThePool() throws {
        let sensor = try BurstEngineTests.sensor()
        let source = BurstSource.single(sensor)
        var configuration = BurstSession.Configuration(frames: 20, writers: 3, outputDirectory: "/tmp")
        configuration.memoryBudget = BurstMemoryPlan.budget(forSlots: 12, source: source, configuration: configuration)
        let without = try BurstSession.check(configuration, source: source)
        #expect(without.slots == 12 && without.analyzerBytes == 0)
        // Each writer's analyser takes two slots' worth of bytes (8 bytes a sample, a slot is 2): six slots fewer.
        configuration.analysis = SizedAnalyzer(bytesPerSample: 4)
        let with = try BurstSession.check(configuration, source: source)
        #expect(with.analyzerBytes == 3 * 4 * source.samplesPerSlot)
        #expect(with.slots == 6)
        #expect(with.totalBytes <= with.budgetBytes && with.totalBytes == without.totalBytes)
        // A budget that cannot hold the analysers and two slots is refused, naming them.
        configuration.analysis = SizedAnalyzer(bytesPerSample: 40)
        let error = try #require(throws: FramePoolError.self) { try BurstSession.check(configuration, source: source) }
        #expect(error.message.contains("spare frames, writers, analysers and the process"), "\(error)")
    }

    @Test func aPeakOverTheLimitIsNamedWithItsFigures() throws {
        let sensor = try BurstEngineTests.sensor()
        var configuration = BurstSession.Configuration(frames: 10, writers: 1, outputDirectory: "/tmp")
        configuration.memoryBudget = 256 << 20
        let plan = try BurstSession.check(configuration, source: .single(sensor))
        #expect(plan.residentLimitBytes == (256 + 64) << 20)
        #expect(plan.overrun(peakResidentBytes: 100 << 20) == nil)
        #expect(plan.overrun(peakResidentBytes: plan.residentLimitBytes) == nil)
        #expect(plan.overrun(peakResidentBytes: (320 + 27) << 20)
                == "peak RSS 347 MiB went over the memory limit of 320 MiB (--memory-budget 256 MiB + 64 MiB) by 27 MiB")
    }

    @Test("a pool never gets more than maximumSlots slots, however small its frames")
    func slotsAreCapped() throws {
        let sensor = try BurstEngineTests.sensor()
        let source = BurstSource.single(sensor)
        var configuration = BurstSession.Configuration(frames: 1_000_000, writers: 1, outputDirectory: "/tmp")
        configuration.memoryBudget = BurstMemoryPlan.budget(forSlots: BurstMemoryPlan.maximumSlots * 3, source: source,
                                                            configuration: configuration)
        #expect(try BurstSession.check(configuration, source: source).slots == BurstMemoryPlan.maximumSlots)
        configuration.memoryBudget = BurstMemoryPlan.budget(forSlots: 40, source: source, configuration: configuration)
        #expect(try BurstSession.check(configuration, source: source).slots == 40)
    }
}
