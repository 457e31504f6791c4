import Foundation
import RawCore
import RawLive
import RawSimulator
import RawSources
import Testing

/// The sensor thread's binned copy: every output sample is the rounded mean of the same-colour samples of its block of
/// CFA periods (partial blocks at the edges included, partial periods left out), and the clipping is counted on the
/// full-resolution samples.
@Suite struct LiveBinnedMosaicTests {
    /// Settings of a real simulated frame, for frames built by hand.
    static let settings: AppliedSettings = {
        let profile = SensorProfile.builtIn(named: "phone-wide")!.resized(toWidth: 320)
        let sensor = try! SimulatedSensor(profile: profile, scene: ColorChartScene(), seed: 1, clock: .freeRunning)
        return try! sensor.nextFrame(into: PixelStorage(count: sensor.samplesPerFrame)).settings
    }()

    /// A frame of `width` x `height` samples with pseudo-random values below `white`, the CFA `cfa`, an active area
    /// and default crop that start off the period's phase.
    static func frame(width: Int, height: Int, cfa: CFALayout, white: UInt32 = 4095, seed: UInt64 = 7,
                      active: PixelRect? = nil, crop: PixelRect? = nil) throws -> CapturedFrame {
        var state = seed
        let storage = PixelStorage(unsafeUninitializedCount: width * height) { p in
            for i in 0..<(width * height) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                p[i] = UInt16(truncatingIfNeeded: (state >> 33) % UInt64(white + 1))
            }
        }
        let raw = try RawFrame(width: width, height: height, storage: storage, cfa: cfa, activeArea: active, defaultCrop: crop,
                               blackLevels: try BlackLevels(rows: 1, columns: 2, values: [64, 70]), whiteLevel: white,
                               bitsPerSample: 12)
        return CapturedFrame(image: RawImage(frame: raw, metadata: .empty, calibration: nil), settings: settings,
                             sequenceNumber: 3, monotonicNanoseconds: 1000, latenessNanoseconds: 0, sensorName: "hand")
    }

    /// The binned sample of output period (i, j), phase (dy, dx), computed directly from the frame.
    static func direct(_ raw: RawFrame, k: Int, i: Int, j: Int, dy: Int, dx: Int) -> UInt16 {
        let pr = raw.cfa.rows, pc = raw.cfa.columns
        let top = raw.activeArea.top + raw.defaultCrop.top, left = raw.activeArea.left + raw.defaultCrop.left
        let across = raw.defaultCrop.width / pc, down = raw.defaultCrop.height / pr
        var sum = 0, n = 0
        for q in (j * k)..<min((j + 1) * k, down) {
            for p in (i * k)..<min((i + 1) * k, across) {
                sum += Int(raw[top + q * pr + dy, left + p * pc + dx])
                n += 1
            }
        }
        return UInt16((sum + n / 2) / n)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let width: Int, height: Int, k: Int, xTrans: Bool, framed: Bool
        var testDescription: String { "\(width)x\(height) k=\(k)\(xTrans ? " X-Trans" : "")\(framed ? " with crop" : "")" }
    }

    @Test("each binned sample is the rounded mean of its block's same-colour samples, edges included", arguments: [
        Case(width: 24, height: 16, k: 2, xTrans: false, framed: false), Case(width: 26, height: 18, k: 2, xTrans: false, framed: false),
        Case(width: 23, height: 17, k: 3, xTrans: false, framed: false),
        Case(width: 41, height: 29, k: 4, xTrans: false, framed: true), Case(width: 9, height: 7, k: 1, xTrans: false, framed: true),
        Case(width: 50, height: 37, k: 2, xTrans: true, framed: false), Case(width: 61, height: 45, k: 3, xTrans: true, framed: true),
    ])
    func binnedSamplesAreDirectAverages(_ c: Case) throws {
        let active = c.framed ? try PixelRect(top: 1, left: 3, height: c.height - 2, width: c.width - 5) : nil
        let crop = c.framed ? try PixelRect(top: 1, left: 1, height: c.height - 4, width: c.width - 7) : nil
        let captured = try Self.frame(width: c.width, height: c.height, cfa: c.xTrans ? .xTrans : .rggb, active: active, crop: crop)
        let raw = captured.image.frame
        let mosaic = LiveBinnedMosaic()
        mosaic.fill(from: captured, factor: c.k)
        let small = try mosaic.image()
        let pr = raw.cfa.rows, pc = raw.cfa.columns
        let across = raw.defaultCrop.width / pc, down = raw.defaultCrop.height / pr
        #expect(small.frame.width == (across + c.k - 1) / c.k * pc && small.frame.height == (down + c.k - 1) / c.k * pr)
        #expect(small.frame.whiteLevel == raw.whiteLevel && small.frame.bitsPerSample == raw.bitsPerSample)
        let top = raw.activeArea.top + raw.defaultCrop.top, left = raw.activeArea.left + raw.defaultCrop.left
        var mismatches = 0
        for y in 0..<small.frame.height {
            for x in 0..<small.frame.width {
                let (dy, dx) = (y % pr, x % pc)
                #expect(small.frame.color(row: y, column: x) == raw.color(row: top + dy, column: left + dx))
                #expect(small.frame.blackLevel(row: y, column: x) == raw.blackLevel(row: top + dy, column: left + dx))
                if small.frame[y, x] != Self.direct(raw, k: c.k, i: x / pc, j: y / pr, dy: dy, dx: dx) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test("a frame of the same size binned again reuses the buffer and gives the new frame's samples")
    func binningAgainReusesAndOverwrites() throws {
        let mosaic = LiveBinnedMosaic()
        let a = try Self.frame(width: 40, height: 30, cfa: .rggb, seed: 1), b = try Self.frame(width: 40, height: 30, cfa: .rggb, seed: 2)
        mosaic.fill(from: a, factor: 2)
        let first = try mosaic.image().frame.storage
        mosaic.fill(from: b, factor: 2)
        let again = try mosaic.image()
        #expect(again.frame.storage === first)
        #expect(again.frame[5, 7] == Self.direct(b.image.frame, k: 2, i: 3, j: 2, dy: 1, dx: 1))
    }

    @Test("clipping is counted per colour on the full-resolution samples: only red at white gives red's fraction")
    func clippingPerColour() throws {
        let captured = try Self.frame(width: 40, height: 20, cfa: .rggb, white: 4095)
        let raw = captured.image.frame
        // Samples below white everywhere, then every third red sample at white.
        for y in 0..<raw.height {
            for x in 0..<raw.width { raw[y, x] = min(raw[y, x], 4000) }
        }
        var redClipped = 0
        for y in stride(from: 0, to: raw.height, by: 2) {
            for x in stride(from: 0, to: raw.width, by: 2) where (x / 2 + y / 2) % 3 == 0 {
                raw[y, x] = 4095
                redClipped += 1
            }
        }
        let mosaic = LiveBinnedMosaic()
        mosaic.fill(from: captured, factor: 4)
        let fractions = mosaic.clippedFractions
        #expect(fractions[0] == Double(redClipped) / Double(20 * 10))
        #expect(fractions[1] == 0 && fractions[2] == 0)
        // Averaging over 4x4 periods hides every one of them in the small mosaic.
        let small = try mosaic.image().frame
        #expect((0..<small.height).allSatisfy { y in (0..<small.width).allSatisfy { small[y, $0] < 4095 } })
    }

    @Test("the factor keeps the binned crop's long side within the long edge", arguments: [(4032, 1024, 2), (2016, 1024, 1), (4032, 512, 4)])
    func factorFitsTheLongEdge(width: Int, longEdge: Int, factor: Int) throws {
        let raw = try RawFrame(width: width, height: width * 3 / 4, cfa: .rggb, blackLevels: try BlackLevels(uniform: 0),
                               whiteLevel: 1023, bitsPerSample: 10)
        #expect(LiveBinnedMosaic.factor(for: raw, longEdge: longEdge) == factor)
    }
}
