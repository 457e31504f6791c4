import Foundation
import RawAnalysis
import RawCore
import RawDevelop
import RawFiles
import RawSimulator
import RawSources
import TestSupport
import Testing

/// What each analysis promises: histogram arithmetic, exposure figures, sharpness against defocus, zebra and
/// clipping exactly at their thresholds, metering, exposure-invariant peaking.
@Suite("Analysis behaviour")
struct AnalysisBehaviourTests {
    /// A Bayer frame whose samples `value(row, column)` gives (black 64, white 4000, 12 bits).
    static func frame(width: Int = 64, height: Int = 48, _ value: (Int, Int) -> UInt16) throws -> RawFrame {
        let storage = PixelStorage(count: width * height)
        for y in 0..<height { for x in 0..<width { storage.baseAddress[y * width + x] = value(y, x) } }
        return try RawFrame(width: width, height: height, storage: storage, cfa: .rggb, blackLevels: BlackLevels(uniform: 64),
                            whiteLevel: 4000, bitsPerSample: 12)
    }

    @Test("histogram arithmetic: re-binning, lower edges, quantiles and mean on known counts")
    func histogramArithmetic() {
        let full = [0, 2, 0, 0, 5, 1, 0, 2]              // values 1 (x2), 4 (x5), 5, 7 (x2)
        let h = Histogram(fullDepth: full, bins: 8)
        #expect(h.counts == full && h.total == 10 && h.cumulative == [0, 2, 2, 2, 7, 8, 8, 10])
        #expect(h.quantile(0) == 1 && h.quantile(0.2) == 1 && h.quantile(0.21) == 4 && h.quantile(0.7) == 4)
        #expect(h.quantile(0.75) == 5 && h.quantile(1) == 7)
        let expectedMean: Double = 41.0 / 10   // (2·1 + 5·4 + 5 + 2·7) / 10
        #expect(h.mean == expectedMean)
        let h3 = Histogram(fullDepth: full, bins: 3)       // bins: v·3/8 → 0..2 → {0,1,2}, {3,4,5}, {6,7}
        #expect(h3.counts == [2, 6, 2] && h3.range == 8)
        #expect((0..<3).map(h3.lowerEdge) == [0, 3, 6])
        #expect(Histogram(fullDepth: [0, 0], bins: 2).quantile(0.5) == nil)
    }

    @Test("raw histogram: per-colour counts, clipped at white, at black, exposure statistics")
    func rawHistogramCounts() throws {
        // Red samples: half at 4000 (clipped), half at 64 (black); greens 1000; blues 2032 (half of the range above black).
        let f = try Self.frame { y, x in
            switch (y % 2, x % 2) {
            case (0, 0): return x % 4 == 0 ? 4000 : 64
            case (1, 1): return 2032
            default: return 1000
            }
        }
        let h = RawHistogram(frame: f)
        let red = try #require(h.channel(.red)), green = try #require(h.channel(.green)), blue = try #require(h.channel(.blue))
        #expect(red.total == 768 && green.total == 1536 && blue.total == 768)
        #expect(red.fullDepth[4000] == 384 && red.fullDepth[64] == 384 && red.clipped == 384 && red.atBlack == 384)
        #expect(green.fullDepth[1000] == 1536 && green.clipped == 0 && green.atBlack == 0 && blue.fullDepth[2032] == 768)
        #expect(red.clippedFraction == 0.5 && red.blackFraction == 0.5)
        let stats = ExposureStatistics(h)
        #expect(abs(stats.clippedFraction - 384.0 / 3072) < 1e-12 && abs(stats.blackFraction - 384.0 / 3072) < 1e-12)
        // Mean signal: (384·3936 + 384·0 + 1536·936 + 768·1968) / 3072 over a range of 3936.
        let sum: Double = 384 * 3936 + 1536 * 936 + 768 * 1968
        let mean = sum / 3072
        #expect(abs(stats.meanEV - log2(mean / 3936)) < 1e-9)
        // The darkest 0.1 % is black (1 code value above it counts as the floor), the brightest is white.
        #expect(abs(stats.usedDynamicRange - log2(3936)) < 1e-9)
        let stops = blue.stopsHistogram(whiteLevel: 4000, stops: 12, binsPerStop: 8)
        #expect(stops.total == 768 && stops.counts[Int(((log2(1968.0 / 3936) + 12) * 8).rounded(.down))] == 768)
    }

    @Test("samples above the bit depth count in the last bin, on Bayer and X-Trans rows alike")
    func histogramClampsLargeSamples() throws {
        // 12-bit frames (range 4096) holding a few samples of 5000 and 65535.
        let bayer = try Self.frame(width: 37, height: 10) { y, x in (y, x) == (3, 5) ? 5000 : ((y, x) == (4, 8) ? 65535 : 100) }
        let h = RawHistogram(frame: bayer)
        #expect(h.range == 4096)
        let total = h.channels.reduce(0) { $0 + $1.fullDepth[4095] }
        #expect(total == 2 && h.channels.reduce(0) { $0 + $1.total } == 370)
        #expect(h.channel(.red)?.fullDepth[4095] == 1 && h.channel(.blue)?.fullDepth[4095] == 1)   // (4, 8) red, (3, 5) blue
        let storage = PixelStorage(count: 36 * 12)
        for i in 0..<(36 * 12) { storage.baseAddress[i] = i == 7 ? 9000 : UInt16(i % 4000) }
        let xtrans = try RawFrame(width: 36, height: 12, storage: storage, cfa: .xTrans, blackLevels: BlackLevels(uniform: 0),
                                  whiteLevel: 4000, bitsPerSample: 12)
        let hx = RawHistogram(frame: xtrans)
        #expect(hx.channels.reduce(0) { $0 + $1.fullDepth[4095] } == 1 && hx.channels.reduce(0) { $0 + $1.total } == 432)
    }

    @Test("zebra marks exactly the pixels whose Rec. 709 luma reaches the threshold, in 8 and 16 bits")
    func zebraIsExact() throws {
        var rng = SplitMix64(seed: 11)
        let w = 97, h = 61
        var bytes = (0..<(w * h * 3)).map { _ in UInt8(truncatingIfNeeded: 200 &+ UInt8(truncatingIfNeeded: rng.next() % 56)) }
        // Greys right at the limit: luma 243/255 = 0.9529 is at or above 95 %, 242/255 = 0.949 is below.
        for (i, v) in [243, 242, 255, 0].enumerated() { bytes[3 * i] = UInt8(v); bytes[3 * i + 1] = UInt8(v); bytes[3 * i + 2] = UInt8(v) }
        let image = try DevelopedImage(width: w, height: h, samples: .uint8(bytes), colorSpace: .sRGB, metadata: FrameMetadata())
        for (threshold, numerator) in [(0.95, 95), (0.9, 90), (0.99, 99)] {
            let z = Zebra(image, threshold: threshold)
            for i in 0..<(w * h) {
                // 100 · (2126 R + 7152 G + 722 B) ≥ numerator · 10000 · 255, all in integers.
                let y = 2126 * Int(bytes[3 * i]) + 7152 * Int(bytes[3 * i + 1]) + 722 * Int(bytes[3 * i + 2])
                let expected: UInt8 = 100 * y >= numerator * 10000 * 255 ? 1 : 0
                if z.mask[i] != expected { Issue.record("pixel \(i) at \(threshold): \(z.mask[i]) vs \(expected)"); break }
            }
            #expect(z.markedFraction > 0 && z.markedFraction < 1)
        }
        let z95 = Zebra(image, threshold: 0.95)
        #expect(Array(z95.mask.prefix(4)) == [1, 0, 1, 0])
        let wide = try DevelopedImage(width: w, height: h, samples: .uint16(bytes.map { UInt16($0) * 257 }), colorSpace: .sRGB,
                                      metadata: FrameMetadata())
        #expect(Zebra(wide, threshold: 0.95).mask == z95.mask)
        // Stripes alternate every half period along the diagonal.
        #expect(Zebra.stripes(x: 0, y: 0) && !Zebra.stripes(x: 4, y: 0) && Zebra.stripes(x: 4, y: 4))
    }

    @Test("raw clipping mask: cells with a sample at or above white, per colour")
    func clippingMask() throws {
        let f = try Self.frame { y, x in
            if y == 10 && x == 20 { return 4000 }          // red at (10, 20): cell (5, 10)
            if y == 11 && x == 20 { return 4095 }          // green at (11, 20): same cell
            if y == 31 && x == 41 { return 3999 }          // blue just below white: not clipped
            return 500
        }
        let m = ClippingMask(frame: f)
        #expect(m.width == 32 && m.height == 24)
        #expect(m.mask[5 * 32 + 10] == ClippingMask.bit(.red) | ClippingMask.bit(.green))
        #expect(m.count(.red) == 1 && m.count(.green) == 1 && m.count(.blue) == 0)
        #expect(m.mask.filter { $0 != 0 }.count == 1)
    }

    @Test("X-Trans clipping: each clipped sample sets its own colour's bit, whichever 3x3 block of the period it is in")
    func xTransClipping() throws {
        let storage = PixelStorage(count: 12 * 12)
        for i in 0..<(12 * 12) { storage.baseAddress[i] = 500 }
        // Row 0 of the X-Trans pattern is G G R G G B: (0, 2) is red in the first block, (0, 5) blue in the second.
        storage.baseAddress[5] = 4000
        storage.baseAddress[8] = 4000                   // (0, 8) = column 2 of the next period: red
        let f = try RawFrame(width: 12, height: 12, storage: storage, cfa: .xTrans, blackLevels: BlackLevels(uniform: 0),
                             whiteLevel: 4000, bitsPerSample: 12)
        #expect(CFALayout.xTrans.color(row: 0, column: 5) == .blue && CFALayout.xTrans.color(row: 0, column: 2) == .red)
        let m = ClippingMask(frame: f)
        #expect(m.width == 4 && m.height == 4)
        #expect(m.mask[1] == ClippingMask.bit(.blue) && m.mask[2] == ClippingMask.bit(.red))
        #expect(m.count(.blue) == 1 && m.count(.red) == 1 && m.count(.green) == 0)
    }

    @Test("a flat frame (lens cap) or a wholly clipped one has no edges to mark")
    func flatFramesMarkNothing() throws {
        for level: UInt16 in [64, 4000] {
            let field = GradientField(frame: try Self.frame { _, _ in level })
            #expect(field.magnitudes.allSatisfy { $0 == 0 })
            for rule in [PeakingThreshold.fraction(0.04), .deviations([1, 2]), .high, .medium, .low] {
                #expect(FocusPeaking(field, rule: rule).markedFraction == 0, "\(level) \(rule)")
            }
        }
    }

    @Test("metering: zones, matrix, centre-weighted and spot in EV below clipping")
    func metering() throws {
        // Left third 1/8 of the range above black, the rest 1/2; a bright square around (0.75, 0.5) at the full range.
        let range = 4000.0 - 64
        let f = try Self.frame(width: 240, height: 180) { y, x in
            if abs(x - 180) < 12 && abs(y - 90) < 12 { return 4000 }
            return UInt16(64 + (x < 80 ? range / 8 : range / 2))
        }
        let m = Metering(frame: f, spot: NormalisedPoint(x: 0.75, y: 0.5))
        #expect(m.zones.count == 9)
        for z in [0, 3, 6] { #expect(abs(m.zones[z] - -3) < 1e-9, "zone \(z): \(m.zones[z])") }
        for z in [1, 2, 4, 7, 8] { #expect(abs(m.zones[z] - -1) < 0.02, "zone \(z): \(m.zones[z])") }
        #expect(abs(m.spot - 0) < 1e-9)
        let center = Metering(frame: f)
        #expect(abs(center.spot - -1) < 1e-9)
        #expect(m.matrix < -1 && m.matrix > -3)
    }

    @Test("sharpness falls monotonically as focus moves off the Siemens star; every zone of it too")
    func sharpnessFallsWithDefocus() throws {
        let profile = SensorProfile.builtIn(named: "phone-front")!
        let subject = SiemensStarScene().subjectDistance
        var scores: [Sharpness] = []
        // Focus errors growing in dioptres: the star at 2 m, focus from 2 m towards 0.4 m.
        for focus in [subject, 1.6, 1.2, 0.9, 0.6, 0.4] {
            let s = try SimulatedSensor(profile: profile, scene: SiemensStarScene(), seed: 9)
            try s.configure(CaptureSettings(iso: 100, shutter: 1.0 / 60, focus: .metres(focus)))
            let frame = try s.nextFrame(into: PixelStorage(count: s.samplesPerFrame)).image.frame
            let luma = LumaGrid(frame: frame)
            scores.append(Sharpness(GradientField(luma), luma: luma))
        }
        let whole = scores.map(\.score)
        #expect(zip(whole, whole.dropFirst()).allSatisfy { $0 > $1 }, "\(whole)")
        // The front camera's deep depth of field blurs the star only a little at 0.4 m; the score still drops clearly.
        #expect(whole[0] > 1.1 * whole[whole.count - 1], "\(whole)")
        let centre = scores.map { $0.zones[4] }
        #expect(zip(centre, centre.dropFirst()).allSatisfy { $0 > $1 }, "\(centre)")
    }

    @Test("peaking and sharpness do not change with exposure: one stop less marks the same cells")
    func peakingIgnoresExposure() throws {
        let profile = SensorProfile.builtIn(named: "phone-front")!
        var masks: [[UInt8]] = [], absolute: [[UInt8]] = [], scores: [Double] = []
        for shutter in [1.0 / 60, 1.0 / 120] {
            let s = try SimulatedSensor(profile: profile, scene: SceneCatalog.scene(named: "depth"), seed: 2)
            try s.configure(CaptureSettings(iso: 50, shutter: shutter, focus: .metres(1)))
            let frame = try s.nextFrame(into: PixelStorage(count: s.samplesPerFrame)).image.frame
            let luma = LumaGrid(frame: frame)
            let field = GradientField(luma)
            masks.append(FocusPeaking(field, rule: .fraction(0.04)).mask)
            absolute.append(FocusPeaking(field, rule: .medium).mask)
            scores.append(Sharpness(field, luma: luma).score)
        }
        let both = zip(masks[0], masks[1]).filter { $0 != 0 && $1 != 0 }.count
        let either = zip(masks[0], masks[1]).filter { $0 != 0 || $1 != 0 }.count
        #expect(Double(both) / Double(either) > 0.85, "IoU \(Double(both) / Double(either))")
        let bothAbsolute = zip(absolute[0], absolute[1]).filter { $0 != 0 && $1 != 0 }.count
        let eitherAbsolute = zip(absolute[0], absolute[1]).filter { $0 != 0 || $1 != 0 }.count
        #expect(eitherAbsolute > 0 && Double(bothAbsolute) / Double(eitherAbsolute) > 0.85,
                "medium IoU \(Double(bothAbsolute) / Double(max(1, eitherAbsolute)))")
        #expect(abs(scores[0] / scores[1] - 1) < 0.1, "\(scores)")
    }

    @Test("the field computed straight from the frame equals the one from its stored luma grid, value for value")
    func fusedFieldEqualsGridField() throws {
        var rng = SplitMix64(seed: 3)
        for (w, h) in [(64, 48), (130, 97), (8, 6), (3, 3)] {
            let f = try Self.frame(width: w, height: h) { _, _ in UInt16(64 + rng.next() % 3900) }
            let luma = LumaGrid(frame: f)
            let stored = GradientField(luma, threads: 2, countingMagnitudes: true)
            let fused = GradientField(frame: f, threads: 2, countingMagnitudes: true)
            #expect(fused.width == stored.width && fused.height == stored.height)
            #expect(fused.magnitudes == stored.magnitudes, "\(w)x\(h)")
            let a = FocusPeaking(fused, rule: .fraction(0.1)), b = FocusPeaking(stored, rule: .fraction(0.1), threads: 1)
            #expect(a.mask == b.mask && a.thresholds == b.thresholds, "\(w)x\(h)")
            // The threshold marks exactly the strongest cells: no more than asked except for ties.
            let k = max(1, Int((Double(fused.magnitudes.count) * 0.1).rounded()))
            #expect(a.thresholds[0] == fused.magnitudes.sorted(by: >)[k - 1])
        }
    }

    @Test("peaking thresholds parse and print; bad ones are refused")
    func peakingThresholdParsing() {
        #expect(PeakingThreshold(parsing: "4%") == .fraction(0.04))
        #expect(PeakingThreshold(parsing: "0.1") == .fraction(0.1))
        #expect(PeakingThreshold(parsing: "sd:1,2,3") == .deviations([1, 2, 3]))
        #expect(PeakingThreshold(parsing: "High") == .contrast(0.3) && PeakingThreshold(parsing: "medium") == .contrast(0.4))
        #expect(PeakingThreshold(parsing: "low") == .contrast(0.55) && PeakingThreshold(parsing: "contrast:0.2") == .contrast(0.2))
        #expect(PeakingThreshold.standard.description == "medium" && PeakingThreshold.contrast(0.2).description == "contrast:0.2")
        for bad in ["contrast:0", "contrast:-1", "contrast:x", "contrast:", "contrast:5"] { #expect(PeakingThreshold(parsing: bad) == nil, "\(bad)") }
        for bad in ["0", "100%", "1.5", "sd:", "sd:3,2", "sd:1,2,3,4", "sharp"] { #expect(PeakingThreshold(parsing: bad) == nil, "\(bad)") }
    }
}
