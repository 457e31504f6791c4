import RawCapture
import RawCore
import RawDNG
import RawSources
import Testing

/// `BurstGovernor` on its own: its ladders, when it predicts the pool fills, lateness, the thermal floor and the rate.
@Suite struct BurstGovernorTests {
    @Test("each bottleneck's ladder holds only the rungs that give it something, in the declared order")
    func ladders() {
        func ladder(_ b: BurstGovernor.Bottleneck, _ c: DNGCompression, shed: Bool = true, packable: Bool = true,
                    realTime: Bool = true) -> [BurstGovernor.Level] {
            BurstGovernor.ladder(bottleneck: b, compression: c, shedsWork: shed, packable: packable, realTime: realTime)
        }
        #expect(ladder(.cpu, .lj92) == [.noPreviews, .packed, .uncompressed, .lowerRate])
        #expect(ladder(.cpu, .lj92, packable: false) == [.noPreviews, .uncompressed, .lowerRate])
        #expect(ladder(.cpu, .packed) == [.noPreviews, .uncompressed, .lowerRate])
        #expect(ladder(.cpu, .none) == [.noPreviews, .lowerRate])
        #expect(ladder(.cpu, .none, shed: false) == [.lowerRate])
        #expect(ladder(.cpu, .none, shed: false, realTime: false) == [])
        // A slow disk: uncompressing would add bytes and shedding previews saves none; packing saves a quarter.
        #expect(ladder(.disk, .none) == [.packed, .lowerRate])
        #expect(ladder(.disk, .none, packable: false) == [.lowerRate])
        #expect(ladder(.disk, .lj92) == [.lowerRate])
        #expect(ladder(.disk, .packed) == [.lowerRate])
    }

    /// A governor at 10 fps over `slots` slots with the CPU ladder of a lossless-JPEG burst.
    static func governor(slots: Int = 20) -> BurstGovernor {
        BurstGovernor(ladder: [.noPreviews, .packed, .uncompressed, .lowerRate],
                      work: BurstGovernor.Work(compression: .lj92, fps: 10), slots: slots)
    }

    @Test("a pool filling at a measured rate is stepped before it is full, one rung per settled window")
    func predictsTheFill() {
        var g = Self.governor()
        var steps: [(frame: Int, step: BurstGovernor.Step)] = []
        // 10 fps in, 5 fps out: the occupancy grows by one slot every two frames (plus the writer's own slot).
        for n in 0..<60 {
            let occupied = min(20, 1 + n / 2)
            let o = BurstGovernor.Observation(seconds: Double(n) / 10, occupied: occupied, free: 20 - occupied,
                                              finished: n / 2, lastSequenceNumber: UInt64(n))
            if let step = g.observe(o) { steps.append((n, step)) }
        }
        // The first step long before the pool is full (frame ~38), each later one only after a fresh window.
        #expect(steps.count >= 2, "\(steps.map(\.step))")
        // In the ladder's order; once at the top, only the rate goes on down.
        let ladder: [BurstGovernor.Level] = [.noPreviews, .packed, .uncompressed, .lowerRate]
        let climbed = steps.map(\.step.newLevel)
        #expect(Array(climbed.prefix(4)) == Array(ladder.prefix(climbed.count)), "\(climbed)")
        #expect(climbed.dropFirst(4).allSatisfy { $0 == .lowerRate })
        let rates = steps.compactMap(\.step.fps)
        #expect(rates == rates.sorted(by: >) && rates.allSatisfy { $0 < 10 }, "\(rates)")
        let first = steps.first?.frame ?? 99
        #expect(first < 30, "first step at frame \(first)")
        for (a, b) in zip(steps, steps.dropFirst()) { #expect(b.frame - a.frame >= 3, "\(a.frame) → \(b.frame)") }
        #expect(steps.first?.step.reason.hasPrefix("pool full in ") == true)
        #expect(g.work.shedsOptionalWork)
    }

    @Test("a steady pool is left alone")
    func steadyPool() {
        var g = Self.governor(slots: 6)
        for n in 0..<100 {
            let occupied = 1 + n % 2
            let o = BurstGovernor.Observation(seconds: Double(n) / 10, occupied: occupied, free: 6 - occupied, finished: n)
            #expect(g.observe(o) == nil, "frame \(n)")
        }
        #expect(g.level == .normal && g.steps.isEmpty)
    }

    @Test("the last free slot sends the governor to the top of its ladder at once, and the rate follows the writers")
    func nearlyFullGoesToTheTop() throws {
        var g = Self.governor(slots: 8)
        var last: BurstGovernor.Step?
        // The writers finish 4 frames a second while 10 come: 8 slots fill in about 1.3 s.
        for n in 0..<40 where last == nil {
            let occupied = min(8, 1 + (n * 6) / 10)
            last = g.observe(.init(seconds: Double(n) / 10, occupied: occupied, free: 8 - occupied, finished: (n * 4) / 10,
                                   lastSequenceNumber: UInt64(n)))
        }
        let step = try #require(last)
        // With a window of 0.4 s, a prediction may come first; whichever came, the top is reached with a slot left.
        while g.level < .lowerRate {
            let o = BurstGovernor.Observation(seconds: 5, occupied: 7, free: 1, finished: 20)
            guard g.observe(o) != nil else { break }
        }
        #expect(g.level == .lowerRate, "\(g.steps)")
        #expect(g.work.compression == .none && g.work.shedsOptionalWork)
        let fps = try #require(g.work.fps)
        // 85 % of the measured 4 fps, within 10/8 ... 8.5 fps.
        #expect(fps >= 1.25 && fps <= 8.5, "\(fps)")
        #expect(step.afterSequenceNumber != nil)
    }

    @Test("frames often starting more than a quarter interval late are pressure, one late frame is not; a run of late drops is one step")
    func latenessIsPressure() {
        var g = Self.governor()
        func observe(_ n: Int, lateMilliseconds: UInt64 = 0, lateDrops: Int = 0) -> BurstGovernor.Step? {
            g.observe(.init(seconds: Double(n) / 10, occupied: 1, free: 19, finished: n,
                            lastLatenessNanoseconds: lateMilliseconds * 1_000_000, lateDrops: lateDrops))
        }
        for n in 0..<5 { #expect(observe(n) == nil) }
        // One frame 40 ms late in a window of calm ones: jitter.
        #expect(observe(5, lateMilliseconds: 40) == nil)
        for n in 6..<10 { #expect(observe(n) == nil) }
        // Two of the window's five late: pressure.
        #expect(observe(10, lateMilliseconds: 40) == nil)
        let late = observe(11, lateMilliseconds: 40)
        #expect(late?.newLevel == .noPreviews && late?.reason == "frames starting late (40 ms)", "\(String(describing: late))")
        // A stall drops four ticks late at once: one step after a fresh window, not four.
        var steps: [BurstGovernor.Step] = []
        for (i, n) in (12..<16).enumerated() { if let s = observe(n, lateDrops: i + 1) { steps.append(s) } }
        #expect(steps.count <= 1, "\(steps)")
        for n in 16..<22 { if let s = observe(n, lateDrops: 4) { steps.append(s) } }
        #expect(steps.map(\.newLevel) == [.packed] && steps.first?.cause == .lateDrop, "\(steps)")
        // A single late drop in a later window is a hiccup: no step.
        for n in 22..<40 { #expect(observe(n, lateDrops: n < 30 ? 4 : 5) == nil, "frame \(n)") }
    }

    @Test("the rate never goes below an eighth of the burst's own, and a CinemaDNG clip keeps its rate")
    func rateFloorAndKeptRate() {
        var g = BurstGovernor(ladder: [.lowerRate], work: BurstGovernor.Work(compression: .none, fps: 16), slots: 8)
        var seconds = 0.0
        for n in 0..<200 {
            // A source that needs 10 s a frame: every tick is dropped late, again and again.
            seconds += 1 / (g.work.fps ?? 16)
            _ = g.observe(.init(seconds: seconds, occupied: 0, free: 8, finished: 0, lateDrops: n + 1, sensorSeconds: 10))
        }
        #expect(g.work.fps == 2 && g.level == .lowerRate, "\(String(describing: g.work.fps)) \(g.steps.map(\.fps))")
        var clip = BurstGovernor(ladder: [.noPreviews, .lowerRate], work: BurstGovernor.Work(compression: .lj92, fps: 24),
                                 slots: 8, keepsRate: true)
        #expect(clip.ladder == [.noPreviews])
        #expect(clip.observe(.init(seconds: 0, occupied: 1, free: 7, finished: 0, thermal: .serious))?.fps == nil)
        #expect(clip.work.fps == 24 && clip.work.shedsOptionalWork)
    }

    @Test("the thermal state sets a floor that lifts when it cools")
    func thermalFloor() {
        var g = Self.governor()
        #expect(g.observe(.init(seconds: 0, occupied: 1, free: 19, finished: 0, thermal: .fair))?.newLevel == .noPreviews)
        #expect(g.work.shedsOptionalWork && g.work.compression == .lj92)
        let serious = g.observe(.init(seconds: 0.1, occupied: 1, free: 19, finished: 1, thermal: .serious))
        #expect(serious?.newLevel == .lowerRate && serious?.fps == 5)
        let cooled = g.observe(.init(seconds: 0.2, occupied: 1, free: 19, finished: 2, thermal: .nominal))
        #expect(cooled?.newLevel == .normal && cooled?.fps == 10 && !g.work.shedsOptionalWork)
    }

    @Test("a lowered rate that stays calm is given back, doubling each calm wait, up to the burst's own; a raise that brings pressure back waits twice as long next time")
    func rateComesBack() throws {
        var g = BurstGovernor(ladder: [.packed, .lowerRate], work: BurstGovernor.Work(compression: .none, fps: 10), slots: 20)
        var seconds = 0.0, sequence: UInt64 = 0
        func tick(occupied: Int, finished: Int, lateDrops: Int = 0) -> BurstGovernor.Step? {
            seconds += 1 / (g.work.fps ?? 10)
            sequence += 1
            return g.observe(.init(seconds: seconds, occupied: occupied, free: 20 - occupied, queued: occupied - 1,
                                   finished: finished, lateDrops: lateDrops, lastSequenceNumber: sequence))
        }
        // A stall: the pool fills to the last slots, the governor goes to the top and lowers the rate.
        for n in 0..<12 where g.level < .lowerRate { _ = tick(occupied: min(19, 1 + n * 2), finished: n / 4) }
        #expect(g.level == .lowerRate, "\(g.steps)")
        let lowered = try #require(g.work.fps)
        #expect(lowered < 10)
        // The writers catch up and the pool stays nearly empty: within the calm wait, nothing changes.
        var raises: [BurstGovernor.Step] = []
        var finished = 10
        let calmStart = seconds
        while seconds - calmStart < 1.5 {
            finished += 1
            #expect(tick(occupied: 1, finished: finished) == nil)
        }
        // Then the rate comes back in quarters, each after a calm wait, until lower-rate is off.
        while seconds - calmStart < 40 && g.level == .lowerRate {
            finished += 1
            if let step = tick(occupied: 1, finished: finished) { raises.append(step) }
        }
        #expect(g.level == .packed && g.work.fps == 10 && g.work.compression == .packed, "\(g.steps)")
        let rates = raises.compactMap(\.fps)
        #expect(rates == rates.sorted() && rates.last == 10 && rates.count == raises.count, "\(rates)")
        for (a, b) in zip([lowered] + rates, rates) { #expect(b <= a * 2 + 0.01) }
        #expect(raises.allSatisfy { $0.reason.hasPrefix("no pressure for ") }, "\(raises.map(\.reason))")
        #expect(raises.first.map { $0.seconds - calmStart >= 2 } == true)
        // Pressure again: lowered; the next raise waits at least twice the first wait (4 s).
        let base = finished
        for n in 0..<20 where g.level < .lowerRate { _ = tick(occupied: min(19, 1 + n * 2), finished: base + n / 4) }
        #expect(g.level == .lowerRate)
        finished = base + 10
        let again = seconds
        var next: BurstGovernor.Step?
        while seconds - again < 30 && next == nil {
            finished += 1
            next = tick(occupied: 1, finished: finished)
        }
        let raised = try #require(next)
        #expect(raised.seconds - again >= 4, "\(raised)")
        // Late drops break the calm: no raise while ticks are being dropped.
        var h = BurstGovernor(ladder: [.lowerRate], work: BurstGovernor.Work(compression: .none, fps: 10), slots: 20)
        var t = 0.0
        for n in 0..<400 {
            t += 1 / (h.work.fps ?? 10)
            let step = h.observe(.init(seconds: t, occupied: 1, free: 19, finished: n, lateDrops: n, sensorSeconds: 0.2))
            if case .calm = step?.cause { Issue.record("raised while dropping late at \(t) s") }
        }
    }
}
