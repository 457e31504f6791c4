@testable import RawCapture
import Testing

/// The pool the prediction expects: when the writers finish frames, as the one queue the cores are.
struct ExpectedBurstTests {
    static func near(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 }
    }

    @Test("writers slower than the frames: the first finishes a write's latency after it came, the rest 1/capacity apart")
    func busyQueue() {
        let e = ExpectedBurst(fps: 5, capacity: 2.5, latency: 0.5, framesPerTrigger: 1, slots: 40, writers: 2)
        #expect(Self.near(e.finishTimes(frames: 5), [0.5, 0.9, 1.3, 1.7, 2.1]))
    }

    @Test("writers faster than the frames: each frame finishes its latency after its tick; two frames a trigger queue up")
    func idleQueue() {
        let e = ExpectedBurst(fps: 2, capacity: 10, latency: 0.3, framesPerTrigger: 1, slots: 40, writers: 2)
        #expect(Self.near(e.finishTimes(frames: 3), [0.3, 0.8, 1.3]))
        let pairs = ExpectedBurst(fps: 2, capacity: 5, latency: 0.3, framesPerTrigger: 2, slots: 40, writers: 2)
        // A frame takes 1/(5·2) = 0.1 s of the queue: the trigger's second frame finishes 0.1 s after its first.
        #expect(Self.near(pairs.finishTimes(frames: 4), [0.3, 0.4, 0.8, 0.9]))
    }
}
