import Foundation
@testable import RawAnalysis
import RawCore
import RawSimulator
import RawSources
import Testing

/// Peaking as a photographer reads it: marks mean "in focus", whatever the exposure and the ISO, and a subject out
/// of focus, or a flat noisy frame, is left unmarked.
@Suite("Peaking levels")
struct PeakingLevelsTests {
    /// The phone main camera at half its resolution (pixels twice as large, so the picture and its depth of field
    /// are the 12 MP camera's, with a quarter of the work).
    static let camera = SensorProfile.builtIn(named: "phone-wide")!.resized(toWidth: 2016)

    /// The star at 1.5 m.
    static let star = SiemensStarScene(distance: 1.5)

    /// A frame of `scene`.
    static func frame(_ scene: any Scene, iso: Double, shutter: Double, focus: Double, seed: UInt64 = 5) throws -> RawFrame {
        let s = try SimulatedSensor(profile: camera, scene: scene, seed: seed)
        try s.configure(CaptureSettings(iso: iso, shutter: shutter, focus: .metres(focus)))
        return try s.nextFrame(into: PixelStorage(count: s.samplesPerFrame)).image.frame
    }

    /// Grid cells from `cell` to the nearest edge of the star (a wedge boundary every 5°, or the rim), nil for cells
    /// within a tenth of the radius from the centre, where the wedges are finer than the grid.
    static func cellsToStarEdge(column: Int, row: Int, width: Int, height: Int) -> Double? {
        let half = Double(width)                                // half the sensor width in grid cells (2 pixels each)
        let x = (Double(column) + 0.5 - Double(width) / 2) / (half / 2), y = (Double(row) + 0.5 - Double(height) / 2) / (half / 2)
        let r = (x * x + y * y).squareRoot()
        guard r > 0.1 * star.radius else { return nil }
        let toRim = abs(r - star.radius) * half / 2
        guard r < star.radius else { return toRim }
        var angle = atan2(y, x) * 180 / .pi
        if angle < 0 { angle += 360 }
        let wedge = 360.0 / Double(2 * star.cycles)
        let off = angle.truncatingRemainder(dividingBy: wedge)
        let toSpoke = min(off, wedge - off) * .pi / 180 * r * half / 2
        return min(toSpoke, toRim)
    }

    /// An ISO and a shutter time.
    struct Exposure: Sendable, CustomStringConvertible {
        let iso: Double
        let shutter: Double
        var description: String { "ISO \(Int(iso)) 1/\(Int((1 / shutter).rounded()))" }
    }

    /// Normal, two stops under, two stops over (the white wedges clip), and two high ISOs.
    static let exposures = [Exposure(iso: 100, shutter: 1.0 / 60), Exposure(iso: 100, shutter: 1.0 / 240),
                            Exposure(iso: 100, shutter: 1.0 / 15), Exposure(iso: 800, shutter: 1.0 / 500),
                            Exposure(iso: 3200, shutter: 1.0 / 2000)]

    @Test("the star in focus is marked along its edges at every exposure and ISO, at each level", arguments: exposures)
    func inFocusStarIsMarkedOnItsEdges(exposure: Exposure) throws {
        let iso = exposure.iso, shutter = exposure.shutter
        let frame = try Self.frame(Self.star, iso: iso, shutter: shutter, focus: Self.star.subjectDistance)
        let field = GradientField(frame: frame)
        var fractions: [Double] = []
        for (name, level) in PeakingThreshold.levels {
            let p = FocusPeaking(field, rule: level)
            fractions.append(p.markedFraction)
            var onEdges = 0, offEdges = 0
            for row in 0..<p.height {
                for column in 0..<p.width where p.mask[row * p.width + column] != 0 {
                    guard let d = Self.cellsToStarEdge(column: column, row: row, width: p.width, height: p.height) else { continue }
                    if d <= 2.5 { onEdges += 1 } else { offEdges += 1 }
                }
            }
            // Marked: a good share of the frame (the star's 72 edges and its rim), all of it on the star's edges.
            #expect(p.markedFraction > 0.015, "\(name) ISO \(iso) 1/\(Int(1 / shutter)): \(p.markedFraction)")
            #expect(Double(offEdges) < 0.01 * Double(onEdges + offEdges), "\(name): \(offEdges) of \(onEdges + offEdges) off the edges")
            // Along the edges: at two thirds of the radius, almost every one of the 72 spokes has a mark within 2.5 cells.
            var spokesMarked = 0
            let ringRadius = 2.0 / 3 * Self.star.radius * Double(p.width) / 2
            for spoke in 0..<(2 * Self.star.cycles) {
                let angle = (Double(spoke) + 0.0) * 2 * .pi / Double(2 * Self.star.cycles)
                let cx = Double(p.width) / 2 + ringRadius * cos(angle), cy = Double(p.height) / 2 + ringRadius * sin(angle)
                var found = false
                for dy in -3...3 { for dx in -3...3 {
                    let x = Int(cx) + dx, y = Int(cy) + dy
                    if x >= 0, y >= 0, x < p.width, y < p.height, p.mask[y * p.width + x] != 0 { found = true }
                } }
                if found { spokesMarked += 1 }
            }
            #expect(spokesMarked >= 70, "\(name) ISO \(iso): \(spokesMarked) of 72 spokes marked")
        }
        // The levels nest: high marks the most, low the fewest.
        #expect(fractions[0] > fractions[1] && fractions[1] > fractions[2], "\(fractions)")
    }

    @Test("the star out of focus by far more than the depth of field marks < 0.5 % even at the high level",
          arguments: [exposures[0], exposures[4]])
    func defocusedStarIsNotMarked(exposure: Exposure) throws {
        let iso = exposure.iso, shutter = exposure.shutter
        // Focused at 0.2 m: the depth of field (2-pixel circle of confusion at f/1.8) ends near 0.21 m; the star is at
        // 1.5 m and blurred over a circle of 15 pixels (7 analysis cells).
        let frame = try Self.frame(Self.star, iso: iso, shutter: shutter, focus: 0.2)
        let field = GradientField(frame: frame)
        for (name, level) in PeakingThreshold.levels {
            #expect(FocusPeaking(field, rule: level).markedFraction < 0.005, "\(name) ISO \(iso)")
        }
        // The fraction rule, by construction, still marks at least its 4 % of the frame (more where the blurred ramps'
        // equal slopes tie at the threshold): the reason it is not the default.
        #expect(FocusPeaking(field, rule: .fraction(0.04)).markedFraction >= 0.04)
    }

    /// A uniform 18 % grey card filling the frame.
    struct GreyCard: Scene {
        let name = "grey-card"
        let illuminantKelvin = 5600.0
        let illuminance = 1000.0
        let subjectDistance = 1.5
        func sample(x: Double, y: Double) -> ScenePoint { ScenePoint(grey: 0.18, depth: 1.5) }
    }

    @Test("a flat grey at ISO 3200 (and 6400) marks < 0.1 % at every level", arguments: [3200.0, 6400])
    func flatNoisyGreyIsNotMarked(iso: Double) throws {
        let frame = try Self.frame(GreyCard(), iso: iso, shutter: 1.0 / 2000, focus: 1.5)
        let field = GradientField(frame: frame)
        for (name, level) in PeakingThreshold.levels {
            let p = FocusPeaking(field, rule: level)
            #expect(p.markedFraction < 0.001, "\(name) ISO \(iso): \(p.markedFraction)")
            #expect((p.noise?.slope ?? 0) > 0, "the noise is measured")
        }
    }

    @Test("the noise model fitted on a frame grows with ISO")
    func noiseGrowsWithISO() throws {
        var medians: [Float] = []
        for (iso, shutter) in [(100.0, 1.0 / 60), (3200, 1.0 / 2000)] {
            let field = GradientField(frame: try Self.frame(GreyCard(), iso: iso, shutter: shutter, focus: 1.5))
            medians.append(EdgeNoise(field).medianSquare(atBrightness: 0.2))
        }
        // 32x the gain at the same brightness: about 32x the variance of the shot noise.
        #expect(medians[1] > 10 * medians[0], "\(medians)")
    }

    @Test("the windowed maximum equals a direct search of every window, borders clamped, at any size and radius")
    func localMaximumIsExact() {
        var rng = SplitMix64(seed: 11)
        for (w, h, r) in [(37, 23, 7), (5, 4, 7), (64, 48, 1), (17, 30, 3), (1, 9, 2), (100, 3, 8)] {
            let values = (0..<(w * h)).map { _ in Float(rng.next() % 10_000) / 100 }
            let fast = LocalMaximum.of(values, width: w, height: h, radius: r, threads: 2)
            var expected = [Float](repeating: 0, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    var m = -Float.infinity
                    for dy in -r...r {
                        for dx in -r...r { m = max(m, values[min(h - 1, max(0, y + dy)) * w + min(w - 1, max(0, x + dx))]) }
                    }
                    expected[y * w + x] = m
                }
            }
            #expect(fast == expected, "\(w)x\(h) radius \(r)")
        }
    }
}
