import Foundation
import RawCore
import Testing

/// `SideThread`: its result, and a CPU clock that lets process-wide CPU measurements leave the side work out.
@Suite struct SideThreadTests {
    /// Spins for `nanoseconds` of this thread's own CPU time; returns a value that depends on every step.
    static func spin(nanoseconds: UInt64) -> UInt64 {
        var clock = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &clock)
        let start = UInt64(clock.tv_sec) * 1_000_000_000 + UInt64(clock.tv_nsec)
        var x: UInt64 = 1, now = start
        while now - start < nanoseconds {
            for _ in 0..<10_000 { x = x &* 6_364_136_223_846_793_005 &+ 1 }
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &clock)
            now = UInt64(clock.tv_sec) * 1_000_000_000 + UInt64(clock.tv_nsec)
        }
        return x
    }

    @Test("the side thread's result comes back; its CPU time is counted while it runs and kept after it ends")
    func resultAndCPU() {
        let side = SideThread(name: "test spin") { Self.spin(nanoseconds: 120_000_000) }
        // While it runs, its clock moves (read by this thread: the side thread's clock, not this one's).
        var during: [UInt64] = []
        for _ in 0..<3 {
            _ = Self.spin(nanoseconds: 20_000_000)
            during.append(side.cpuNanoseconds)
        }
        let result = side.wait()
        #expect(result != 0)
        #expect(side.wait() == result, "a second wait returns at once with the same result")
        let total = side.cpuNanoseconds
        // It spun 120 ms of its own CPU (other tests running at the same time do not count on its clock).
        #expect(total >= 120_000_000 && total < 200_000_000, "\(total)")
        #expect(during == during.sorted() && during.allSatisfy { $0 <= total }, "\(during) then \(total)")
        #expect(side.cpuNanoseconds == total, "after it ended the figure stays")
    }
}
