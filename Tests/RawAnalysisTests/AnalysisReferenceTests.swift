import Foundation
import RawAnalysis
import RawCore
import RawDNG
import RawFiles
import RawSimulator
import RawSources
import TestSupport
import Testing

/// RawAnalysis against independent implementations: numpy/rawpy histograms, scipy.ndimage peaking.
@Suite("Analysis against numpy, rawpy and scipy")
struct AnalysisReferenceTests {
    /// A DNG of the simulated `sensor` looking at the depth scene, focused at `focus` metres.
    static func capture(_ sensor: String = "phone-front", focus: Double = 1, iso: Double = 100, seed: UInt64 = 4,
                        scene: String = "depth", in tmp: TemporaryDirectory, name: String = "frame.dng") throws -> String {
        let s = try SimulatedSensor(profile: SensorProfile.builtIn(named: sensor)!, scene: SceneCatalog.scene(named: scene), seed: seed)
        try s.configure(CaptureSettings(iso: iso, shutter: 1.0 / 60, focus: .metres(focus)))
        let path = tmp.file(name).path
        try DNGWriter().write(try s.nextFrame(into: PixelStorage(count: s.samplesPerFrame)).image, to: path)
        return path
    }

    static let rawpyHistograms = """
        import json, sys, rawpy, numpy
        path, top = sys.argv[1], int(sys.argv[2])
        bins = [int(b) for b in sys.argv[3:]]
        with rawpy.imread(path) as raw:
            values = raw.raw_image_visible
            colours = raw.raw_colors_visible
            desc = raw.color_desc.decode()
            out = {}
            for letter in sorted(set(desc)):
                indices = [i for i, c in enumerate(desc) if c == letter]
                selected = values[numpy.isin(colours, indices)]
                out[letter] = {str(b): numpy.histogram(selected, bins=b, range=(0, top))[0].tolist() for b in bins}
            print(json.dumps(out))
        """

    @Test("raw histograms equal numpy.histogram of rawpy's samples, bin by bin, per colour, full depth and 256 bins",
          .enabled(if: ToolAvailability.hasPythonModules("rawpy", "numpy")),
          arguments: ["simulated", "canon-550d-magiclantern.dng", "kodak-dc120.kdc"])
    func histogramsMatchNumpy(_ source: String) throws {
        let tmp = try TemporaryDirectory()
        let path = source == "simulated" ? try Self.capture(in: tmp) : try #require(TestPaths.sharedSample(source)).path
        let frame = try RawFileReader().read(path: path).frame
        let h = RawHistogram(frame: frame)
        #expect(h.range == 1 << frame.bitsPerSample)
        let reference = try Python.json(script: Self.rawpyHistograms, arguments: [path, "\(h.range)", "\(h.range)", "256"])
        for channel in h.channels {
            let letter = String(channel.color.letter)
            let full = reference[letter]?["\(h.range)"]?.array?.compactMap(\.int)
            #expect(full == channel.fullDepth, "\(source) \(letter): full-depth counts differ")
            let binned = reference[letter]?["256"]?.array?.compactMap(\.int)
            #expect(binned == channel.histogram(bins: 256).counts, "\(source) \(letter): 256-bin counts differ")
            #expect(channel.total == channel.fullDepth.reduce(0, +) && channel.total > 0)
        }
        #expect(h.channels.map(\.total).reduce(0, +) == frame.activeArea.width * frame.activeArea.height)
    }

    /// The luma grid and gradient field written for Python, and the peaking masks of both rules.
    static let scipyPeaking = """
        import json, sys, rawpy, numpy
        from scipy import ndimage
        path, fraction = sys.argv[1], float(sys.argv[2])
        ks = [float(k) for k in sys.argv[3].split(",")]
        ours_luma = numpy.fromfile(sys.argv[4], dtype="<f4")
        ours_mask_f = numpy.fromfile(sys.argv[5], dtype="u1")
        ours_mask_sd = numpy.fromfile(sys.argv[6], dtype="u1")
        with rawpy.imread(path) as raw:
            v = raw.raw_image_visible.astype(numpy.float64)
            black = float(numpy.mean(raw.black_level_per_channel))
            white = float(raw.white_level)
        h, w = v.shape[0] // 2, v.shape[1] // 2
        blocks = v[:2 * h, :2 * w].reshape(h, 2, w, 2).mean(axis=(1, 3))
        luma = ((blocks - black) / (white - black)).astype(numpy.float32)
        ours = ours_luma.reshape(h, w)
        smooth = numpy.array([1, 2, 1], dtype=numpy.float32) / 4
        b = ndimage.correlate1d(luma, smooth, axis=0, mode="nearest")
        b = ndimage.correlate1d(b, smooth, axis=1, mode="nearest")
        gx = ndimage.sobel(b, axis=1, mode="nearest")
        gy = ndimage.sobel(b, axis=0, mode="nearest")
        mag = numpy.hypot(gx, gy)
        k = max(1, int(round(mag.size * fraction)))
        t = numpy.partition(mag.ravel(), mag.size - k)[mag.size - k]
        mask_f = mag >= t
        mean, sd = float(mag.mean()), float(mag.std())
        levels = numpy.zeros(mag.shape, dtype=numpy.uint8)
        for n, kk in enumerate(ks):
            levels[mag >= mean + kk * sd] = n + 1
        def iou(a, b):
            return float(numpy.logical_and(a, b).sum()) / float(max(1, numpy.logical_or(a, b).sum()))
        mf, ms = ours_mask_f.reshape(h, w) > 0, ours_mask_sd.reshape(h, w)
        print(json.dumps({
            "lumaMaxDiff": float(numpy.abs(ours - luma).max()),
            "iouFraction": iou(mf, mask_f),
            "iouLevels": min(iou(ms >= n, levels >= n) for n in range(1, len(ks) + 1)),
            "marked": float(mask_f.mean()),
        }))
        """

    @Test("the peaking mask matches scipy.ndimage on rawpy's luma (IoU ≥ 0.98), for a fraction and for sd levels",
          .enabled(if: ToolAvailability.hasPythonModules("rawpy", "numpy", "scipy")))
    func peakingMatchesScipy() throws {
        let tmp = try TemporaryDirectory()
        let path = try Self.capture(in: tmp)
        let frame = try RawFileReader().read(path: path).frame
        let luma = LumaGrid(frame: frame)
        #expect(luma.block == 2 && luma.width == frame.activeArea.width / 2 && luma.height == frame.activeArea.height / 2)
        let field = GradientField(luma)
        let byFraction = FocusPeaking(field, rule: .fraction(0.05))
        let byLevels = FocusPeaking(field, rule: .deviations([1, 2, 3]))
        #expect(abs(byFraction.markedFraction - 0.05) < 0.001, "\(byFraction.markedFraction)")
        let lumaFile = tmp.file("luma.f32"), fractionFile = tmp.file("fraction.u8"), levelsFile = tmp.file("levels.u8")
        try luma.values.withUnsafeBytes { try Data($0).write(to: lumaFile) }
        try Data(byFraction.mask).write(to: fractionFile)
        try Data(byLevels.mask).write(to: levelsFile)
        let r = try Python.json(script: Self.scipyPeaking, arguments: [path, "0.05", "1,2,3", lumaFile.path, fractionFile.path,
                                                                         levelsFile.path])
        #expect((r["lumaMaxDiff"]?.double ?? 1) < 1e-5, "\(r)")
        #expect((r["iouFraction"]?.double ?? 0) >= 0.98, "\(r)")
        #expect((r["iouLevels"]?.double ?? 0) >= 0.98, "\(r)")
    }
}
