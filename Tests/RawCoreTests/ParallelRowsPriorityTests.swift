import Foundation
import RawCore
import Synchronization
import Testing

/// `ParallelRows` called from a thread below the normal priority (a burst's writer) keeps its helpers at that
/// priority (`BackgroundWorkers`), so a writer's parallel encoding never competes with the sensor's thread as an
/// equal (issue #33); called at the normal priority it is Dispatch's as before.
@Suite struct ParallelRowsPriorityTests {
    /// What one index saw: whether its thread ran below the normal priority, and which thread it was.
    struct Visit: Sendable {
        let index: Int
        let background: Bool
        let thread: UInt
        let spun: UInt64
    }

    /// Runs `ParallelRows.perform` over `iterations` indices on a new thread (lowered to the background priority
    /// first when `lowered`), each index spinning a little so that several threads take part; returns the visits.
    static func visits(iterations: Int, lowered: Bool) -> [Visit] {
        let seen = Mutex<[Visit]>([])
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            if lowered { #expect(ThreadPriority.lowerCurrentThread(to: ThreadPriority.background)) }
            ParallelRows.perform(iterations: iterations) { k in
                var x: UInt64 = UInt64(k)
                for _ in 0..<200_000 { x = x &* 6_364_136_223_846_793_005 &+ 1 }
                let visit = Visit(index: k, background: ThreadPriority.currentThreadIsBackground, thread: UInt(pthread_self()),
                                  spun: x)
                seen.withLock { $0.append(visit) }
            }
            done.signal()
        }
        thread.start()
        done.wait()
        return seen.withLock { $0 }
    }

    @Test("from a background thread every index runs once, each on a thread at the background priority")
    func backgroundCallerKeepsItsHelpersInTheBackground() {
        let visits = Self.visits(iterations: 64, lowered: true)
        #expect(visits.map(\.index).sorted() == Array(0..<64))
        #expect(visits.allSatisfy { $0.background }, "\(visits.filter { !$0.background }.count) indices ran at the normal priority")
        if ProcessInfo.processInfo.activeProcessorCount > 1 {
            #expect(Set(visits.map(\.thread)).count > 1, "the work was not split over threads")
        }
    }

    @Test("two background callers at once (two writers): each gets every one of its indices once")
    func twoBackgroundCallersAtOnce() {
        let results = Mutex<[[Visit]]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let v = Self.visits(iterations: 40, lowered: true)
            results.withLock { $0.append(v) }
        }
        let both = results.withLock { $0 }
        #expect(both.count == 2)
        for visits in both {
            #expect(visits.map(\.index).sorted() == Array(0..<40))
            #expect(visits.allSatisfy { $0.background })
        }
    }

    @Test("from a thread at the normal priority the helpers stay at the normal priority")
    func normalCallerIsNotLowered() throws {
        // Only meaningful when the test process itself runs at the normal priority.
        try #require(!ThreadPriority.currentThreadIsBackground)
        let visits = Self.visits(iterations: 32, lowered: false)
        #expect(visits.map(\.index).sorted() == Array(0..<32))
        #expect(!visits.contains { $0.background })
    }
}
