import Foundation
import RawCameras
import RawCore
import Testing

/// Gain ↔ ISO through a camera profile's table; every expected number below is worked out by hand in its comment.
@Suite("gain tables")
struct GainTableTests {
    static func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= tolerance * max(1, abs(b))
    }

    @Test("dB points interpolate log-linearly, both ways; outside the table there is no ISO and no gain")
    func decibelPoints() throws {
        let table = try GainTable(unit: .decibels, points: [.init(gain: 0, iso: 100), .init(gain: 12, iso: 400),
                                                            .init(gain: 24, iso: 3200)])
        // 6 dB is half way from 0 to 12: 100 × 4^0.5 = 200.
        #expect(Self.close(table.iso(gain: 6), 200))
        // 18 dB is half way from 12 to 24: 400 × 8^0.5 = 1131.3708498984761.
        #expect(Self.close(table.iso(gain: 18), 1131.3708498984761))
        // 3 dB: 100 × 4^0.25 = 141.4213562373095.
        #expect(Self.close(table.iso(gain: 3), 141.4213562373095))
        #expect(Self.close(table.iso(gain: 0), 100) && Self.close(table.iso(gain: 24), 3200))
        // ISO 800 lies in 12...24 dB: 12 + 12 × ln(800/400) / ln(3200/400) = 12 + 12 × 1/3 = 16 dB.
        #expect(Self.close(table.gain(iso: 800), 16))
        #expect(Self.close(table.gain(iso: 200), 6) && Self.close(table.gain(iso: 100), 0))
        #expect(table.iso(gain: -0.5) == nil && table.iso(gain: 24.5) == nil)
        #expect(table.gain(iso: 99) == nil && table.gain(iso: 3201) == nil && table.gain(iso: 0) == nil)
        #expect(table.gainRange == 0...24 && table.isoRange == 100...3200)
    }

    @Test("raw points interpolate linearly, both ways; outside the table there is no ISO and no gain")
    func rawPoints() throws {
        let table = try GainTable(unit: .raw, points: [.init(gain: 0, iso: 100), .init(gain: 4, iso: 200),
                                                       .init(gain: 10, iso: 800)])
        // Gain 2: 100 + (200 − 100) × 2/4 = 150. Gain 7: 200 + (800 − 200) × 3/6 = 500.
        #expect(Self.close(table.iso(gain: 2), 150) && Self.close(table.iso(gain: 7), 500))
        // Gain 4.5: 200 + 600 × 0.5/6 = 250.
        #expect(Self.close(table.iso(gain: 4.5), 250))
        // ISO 500 → 4 + 6 × (500 − 200)/600 = 7; ISO 125 → 0 + 4 × 25/100 = 1.
        #expect(Self.close(table.gain(iso: 500), 7) && Self.close(table.gain(iso: 125), 1))
        #expect(table.iso(gain: 10.5) == nil && table.iso(gain: -1) == nil && table.gain(iso: 850) == nil && table.gain(iso: 50) == nil)
        #expect(table.description == "raw Gain 0...10 → ISO 100...800 (3 points)")
    }

    @Test("the base-ISO shorthand is the dB rule, unbounded; without a profile ISO 100 is 0 dB")
    func baseISO() throws {
        let table = try GainTable(baseISO: 200)
        // 20 × log10(800 / 200) = 20 × 0.6020599913279624 = 12.041199826559248 dB.
        #expect(Self.close(table.gain(iso: 800), 12.041199826559248))
        // −20 dB: 200 × 10^−1 = 20; 60 dB: 200 × 10^3 = 200000.
        #expect(Self.close(table.iso(gain: -20), 20) && Self.close(table.iso(gain: 60), 200_000))
        #expect(table.gainRange == nil && table.isoRange == nil)
        #expect(Self.close(GainTable.sfnc.iso(gain: 0), 100) && Self.close(GainTable.sfnc.iso(gain: 20), 1000))
        // Beyond what an ISO can be recorded as: no ISO.
        #expect(GainTable.sfnc.iso(gain: 200) == nil)
    }

    @Test("a stream's AnalogueGain maps through a dB table as 20·log10(gain); without one, base ISO × gain")
    func streamGain() throws {
        var camera = StreamCamera(baseISO: 50)
        #expect(camera.iso(analogueGain: 2) == 100 && camera.iso(analogueGain: 0) == 0)
        camera.gainTable = try GainTable(unit: .decibels, points: [.init(gain: 0, iso: 100), .init(gain: 12, iso: 400)])
        // A factor of 2 is 6.020599913279624 dB: 100 × 4^(6.020599913279624/12) = 100 × 2^1.003433318879937
        // = 200.4765258524... (12 dB in the table is not exactly a factor of 4).
        #expect(Self.close(camera.iso(analogueGain: 2), 200.4765258524, 1e-9))
        // A factor of 8 is 18.06 dB, beyond the table: unknown.
        #expect(camera.iso(analogueGain: 8) == 0)
    }
}
