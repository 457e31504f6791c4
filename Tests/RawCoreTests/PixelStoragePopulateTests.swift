#if canImport(Glibc)
import Glibc
#endif
import RawCore
import Testing

/// `PixelStorage.populate`: a lazily zeroed storage's pages faulted in ahead of its first writer, samples unchanged
/// (the frame pool's writers warm new slots with it so that the sensor's thread does not pay the zero-fill; issue #33).
@Suite struct PixelStoragePopulateTests {
    /// Minor page faults the calling thread has taken so far.
    static func threadMinorFaults() -> Int {
        var usage = rusage()
        // RUSAGE_THREAD (1, Linux): this thread alone, not the tests running beside it.
        getrusage(__rusage_who_t(1), &usage)
        return usage.ru_minflt
    }

    /// Page faults the calling thread takes writing every sample of `storage`.
    static func faultsWritingEverySample(_ storage: PixelStorage) -> Int {
        let before = threadMinorFaults()
        let p = storage.baseAddress
        for i in 0..<storage.count { p[i] = UInt16(truncatingIfNeeded: i) }
        return threadMinorFaults() - before
    }

    /// 48 MiB (12,288 pages of 4 KiB): above glibc's largest dynamic mmap threshold (32 MiB), so every storage is fresh
    /// memory from the kernel, never heap memory an earlier test touched (an 8 MiB one was, in a full run).
    static let samples = 24 << 20

    @Test("a populated storage is still all zero and its writer takes almost no page faults; an unpopulated one one a page")
    func populatedPagesAreFaultedInAhead() {
        let untouched = PixelStorage(lazilyZeroedCount: Self.samples)
        let unpopulatedFaults = Self.faultsWritingEverySample(untouched)
        // One a 4 KiB page (12,288), or one a 2 MiB page where the kernel backs every mapping with huge pages (24).
        #expect(unpopulatedFaults >= 20, "writing a fresh 48 MiB storage took only \(unpopulatedFaults) faults")

        let storage = PixelStorage(lazilyZeroedCount: Self.samples)
        #expect(storage.populate())
        #expect(storage.buffer.allSatisfy { $0 == 0 })
        let faults = Self.faultsWritingEverySample(storage)
        #expect(faults < 50 && faults * 10 < unpopulatedFaults,
                "writing a populated storage took \(faults) faults, an unpopulated one \(unpopulatedFaults)")
    }

    @Test("populating a storage already written keeps every sample")
    func populateKeepsTheSamples() {
        let storage = PixelStorage(lazilyZeroedCount: Self.samples)
        let p = storage.baseAddress
        for i in Swift.stride(from: 0, to: storage.count, by: 3) { p[i] = UInt16(truncatingIfNeeded: i &* 7) }
        #expect(storage.populate())
        var wrong = 0
        for i in 0..<storage.count where p[i] != (i % 3 == 0 ? UInt16(truncatingIfNeeded: i &* 7) : 0) { wrong += 1 }
        #expect(wrong == 0)
    }
}
