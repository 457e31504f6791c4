import Foundation
import RawCore
import Synchronization
import Testing

/// `ParallelRows` called from a thread at the background priority (a burst's writer, nice 10) keeps its helpers at that
/// priority (`BackgroundWorkers`), so a writer's parallel encoding never competes with the sensor's thread as an
/// equal (issue #33); called at the normal priority, or a little nice, it is Dispatch's as before.
@Suite struct ParallelRowsPriorityTests {
    /// What one index saw: whether its thread ran at the background priority, its nice value, and which thread it was.
    struct Visit: Sendable {
        let index: Int
        let background: Bool
        let nice: Int32
        let thread: UInt
        let spun: UInt64
    }

    /// Runs `ParallelRows.perform` over `iterations` indices on a new thread (lowered to nice `nice` first when it is
    /// above 0), each index spinning a little so that several threads take part; returns the visits and the thread.
    static func visits(iterations: Int, nice: Int32) -> (visits: [Visit], caller: UInt) {
        let seen = Mutex<[Visit]>([])
        let done = DispatchSemaphore(value: 0)
        let caller = Mutex<UInt>(0)
        let thread = Thread {
            caller.withLock { $0 = UInt(pthread_self()) }
            if nice > 0 { #expect(ThreadPriority.lowerCurrentThread(to: nice)) }
            ParallelRows.perform(iterations: iterations) { k in
                var x: UInt64 = UInt64(k)
                for _ in 0..<200_000 { x = x &* 6_364_136_223_846_793_005 &+ 1 }
                let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                let visit = Visit(index: k, background: ThreadPriority.currentThreadIsBackground, nice: nice,
                                  thread: UInt(pthread_self()), spun: x)
                seen.withLock { $0.append(visit) }
            }
            done.signal()
        }
        thread.start()
        done.wait()
        return (seen.withLock { $0 }, caller.withLock { $0 })
    }

    @Test("from a background thread every index runs once, each on a thread at the background priority")
    func backgroundCallerKeepsItsHelpersInTheBackground() {
        let visits = Self.visits(iterations: 64, nice: ThreadPriority.background).visits
        #expect(visits.map(\.index).sorted() == Array(0..<64))
        #expect(visits.allSatisfy { $0.background && $0.nice >= ThreadPriority.background },
                "\(visits.filter { !$0.background }.count) indices ran above the background priority")
    }

    @Test("from a background thread the work runs on two threads at once (each index waits for the other to start), both at the background priority")
    func backgroundWorkIsParallel() throws {
        try #require(ProcessInfo.processInfo.activeProcessorCount > 1)
        let started = Mutex(0)
        let met = Mutex(false)
        let nices = Mutex<[Int32]>([])
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            ThreadPriority.lowerCurrentThread(to: ThreadPriority.background)
            ParallelRows.perform(iterations: 2) { _ in
                let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                nices.withLock { $0.append(nice) }
                started.withLock { $0 += 1 }
                // Up to 20 s for the other index to start: only a second thread can start it while this one waits.
                let end = Date().addingTimeInterval(20)
                while started.withLock({ $0 }) < 2 && Date() < end { usleep(1_000) }
                if started.withLock({ $0 }) == 2 { met.withLock { $0 = true } }
            }
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(met.withLock { $0 }, "the two indices never ran at the same time")
        // The second thread is a helper: at the background priority, not one of Dispatch's at the normal one.
        #expect(nices.withLock { $0 }.count == 2 && nices.withLock { $0 }.allSatisfy { $0 >= ThreadPriority.background },
                "nice values \(nices.withLock { $0 })")
    }

    @Test("two background callers at once (two writers): each gets every one of its indices once")
    func twoBackgroundCallersAtOnce() {
        let results = Mutex<[[Visit]]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let v = Self.visits(iterations: 40, nice: ThreadPriority.background).visits
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
        let visits = Self.visits(iterations: 32, nice: 0).visits
        #expect(visits.map(\.index).sorted() == Array(0..<32))
        #expect(!visits.contains { $0.background || $0.nice >= ThreadPriority.background })
    }

    @Test("from a thread a little nice (5, a user's `nice`) the helpers are Dispatch's, above the background priority")
    func aLittleNiceCallerKeepsDispatch() throws {
        try #require(!ThreadPriority.currentThreadIsBackground)
        let (visits, caller) = Self.visits(iterations: 64, nice: 5)
        #expect(visits.map(\.index).sorted() == Array(0..<64))
        #expect(!visits.contains { $0.background })
        #expect(visits.filter { $0.thread == caller }.allSatisfy { $0.nice == 5 })
        // Dispatch's workers keep the nice value of their quality of service: never the background's.
        #expect(visits.filter { $0.thread != caller }.allSatisfy { $0.nice < ThreadPriority.background })
    }
}
