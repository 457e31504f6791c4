import RawCameras
import Testing

/// GigE Vision's 16-bit frame ids (0 never used) extended into a burst's 64-bit sequence numbers.
@Suite struct FrameIDExtenderTests {
    /// Feeds `ids` and returns each step's (missing numbers, own number).
    static func run(_ ids: [UInt64], zeroIsSkipped: Bool = true) -> [([UInt64], UInt64)] {
        var extender = FrameIDExtender(zeroIsSkipped: zeroIsSkipped)
        return ids.map { id in
            let step = extender.next(id)
            return (Array(step.missing), step.sequenceNumber)
        }
    }

    @Test("the first id is number 0 whatever its value; consecutive ids are consecutive numbers")
    func consecutive() {
        let steps = Self.run([65401, 65402, 65403])
        #expect(steps.map(\.1) == [0, 1, 2])
        #expect(steps.allSatisfy { $0.0.isEmpty })
    }

    @Test("65535 is followed by 1 (GVSP skips 0): no frame is missing across the wrap")
    func wrapSkipsZero() {
        let steps = Self.run([65534, 65535, 1, 2])
        #expect(steps.map(\.1) == [0, 1, 2, 3])
        #expect(steps.allSatisfy { $0.0.isEmpty })
    }

    @Test("gaps across the wrap are counted exactly, the unused id 0 not among them")
    func gapsAcrossWrap() {
        // 65535 missing; after 1, ids 2 and 3 missing.
        let steps = Self.run([65533, 65534, 1, 4])
        #expect(steps.map(\.1) == [0, 1, 3, 6])
        #expect(steps.map(\.0) == [[], [], [2], [4, 5]])
    }

    @Test("without the zero rule, 0 is an id like any other")
    func wrapWithZero() {
        let steps = Self.run([65535, 0, 2], zeroIsSkipped: false)
        #expect(steps.map(\.1) == [0, 1, 3])
        #expect(steps.map(\.0) == [[], [], [2]])
    }

    @Test("many wraps go on into 64-bit numbers")
    func manyWraps() {
        var extender = FrameIDExtender()
        var id: UInt64 = 65000
        var last: UInt64 = 0
        for _ in 0..<200_000 {
            last = extender.next(id).sequenceNumber
            id = id == 65535 ? 1 : id + 1
        }
        #expect(last == 199_999)
    }

    @Test("a repeated or late id takes the next number, counts nothing missing, and does not move the reference")
    func outOfOrder() {
        var extender = FrameIDExtender()
        _ = extender.next(10)
        _ = extender.next(11)
        let late = extender.next(9)
        #expect(late.outOfOrder && late.missing.isEmpty && late.sequenceNumber == 2)
        let next = extender.next(12)
        #expect(!next.outOfOrder && next.missing.isEmpty && next.sequenceNumber == 3)
    }

    @Test("a camera that starts counting again (three ids in a row behind the last, each after the one before) is followed")
    func restart() {
        // 30000, 30001, then the camera restarts at 1: 1, 2, 3 are out of order (no frames counted missing), then 4, 6
        // follow the new reference (5 missing).
        let steps = Self.run([30000, 30001, 1, 2, 3, 4, 6])
        #expect(steps.map(\.1) == [0, 1, 2, 3, 4, 5, 7])
        #expect(steps.map { $0.0 } == [[], [], [], [], [], [], [6]])
        // Late ids that are not a run (9, then 5) never move the reference.
        let scattered = Self.run([100, 101, 9, 5, 9, 102])
        #expect(scattered.map(\.1) == [0, 1, 2, 3, 4, 5] && scattered.allSatisfy { $0.0.isEmpty })
    }

    @Test("a restart the caller saw (the camera's clock went back) starts the ids again wherever they lie, counting nothing")
    func explicitRestart() {
        var extender = FrameIDExtender()
        _ = extender.next(40000)
        _ = extender.next(40001)
        let restarted = extender.restart(1)
        #expect(restarted.sequenceNumber == 2 && restarted.missing.isEmpty && !restarted.outOfOrder)
        let next = extender.next(3)
        #expect(next.sequenceNumber == 4 && Array(next.missing) == [3])
    }
}
