import Foundation
import RawCore
import RawSources

/// Contrast-detect autofocus: sweeps the focus through the lens's range, measures the contrast of the
/// focus area at each step, then narrows in on the sharpest position.
///
/// The sweep is uniform in dioptres (1 / distance) from infinity to the minimum focus distance (48 steps),
/// followed by a golden-section search between the neighbours of the best step. Contrast is the mean
/// squared difference between neighbouring same-colour samples, divided by the squared mean (so it does not
/// depend on exposure), measured on the noise-free optical image of a square 8 % of the frame width.
///
/// Only the focus area (with a margin for the blur) is sampled from the scene; its planes are the sweep's
/// working memory (``workingBytes(profile:zone:)``) and are freed when it ends.
struct AutoFocus: Sendable {
    let profile: SensorProfile
    let lens: LensProfile
    let aperture: Double

    /// The result: the distance chosen, the contrast curve of the sweep (dioptres, contrast) and the bytes of
    /// the planes it used.
    struct Result: Sendable {
        let focus: Double
        let sweep: [(dioptres: Double, contrast: Double)]
        let planeBytes: Int
    }

    /// Pixels around the focus area that are sampled too, so that the blur near its edges sees the scene.
    static let margin = 96

    /// Side of the square focus area around a point.
    static func pointSide(profile: SensorProfile) -> Int { max(32, Int(Double(profile.width) * 0.08)) & ~1 }

    /// Bytes of the planes the sweep uses (the area's scene response and depth, the blurred area, and the blur's
    /// half-widths and horizontal pass: five single-precision planes of the area with its margins), at most, for a
    /// focus point or (`zone`) the largest of the 3x3 zones.
    static func workingBytes(profile: SensorProfile, zone: Bool) -> Int {
        let (w, h) = (profile.width, profile.height)
        var width = min(w, pointSide(profile: profile) + 2 * margin), height = min(h, pointSide(profile: profile) + 2 * margin)
        if zone {
            width = (0..<3).map { z in min(w, ((w * (z + 1) / 3) & ~1) - ((w * z / 3) & ~1) + 2 * margin) }.max() ?? w
            height = (0..<3).map { z in min(h, ((h * (z + 1) / 3) & ~1) - ((h * z / 3) & ~1) + 2 * margin) }.max() ?? h
        }
        return 5 * FloatPlane.bytes(width: width, height: height)
    }

    /// Focuses on a square 8 % of the frame width around `point`.
    func run(sampler: SceneSampler, point: NormalisedPoint) -> Result {
        let side = Self.pointSide(profile: profile)
        let cx = Int(point.x * Double(profile.width)) & ~1, cy = Int(point.y * Double(profile.height)) & ~1
        let x0 = max(0, min(profile.width - side, cx - side / 2)) & ~1
        let y0 = max(0, min(profile.height - side, cy - side / 2)) & ~1
        return run(sampler: sampler, area: (x0, y0, side, side))
    }

    /// Focuses on zone `zone` (0...8, row by row) of the 3x3 grid.
    func run(sampler: SceneSampler, zone: Int) -> Result {
        let x0 = (profile.width * (zone % 3) / 3) & ~1, x1 = (profile.width * (zone % 3 + 1) / 3) & ~1
        let y0 = (profile.height * (zone / 3) / 3) & ~1, y1 = (profile.height * (zone / 3 + 1) / 3) & ~1
        return run(sampler: sampler, area: (x0, y0, x1 - x0, y1 - y0))
    }

    /// Focuses on the rectangle `area` (even origin, pixels).
    func run(sampler: SceneSampler, area: (x0: Int, y0: Int, width: Int, height: Int)) -> Result {
        let margin = Self.margin
        let inner = (x0: area.x0, y0: area.y0)
        let columns = max(0, inner.x0 - margin)..<min(profile.width, inner.x0 + area.width + margin)
        let rows = max(0, inner.y0 - margin)..<min(profile.height, inner.y0 + area.height + margin)
        let plane = ScenePlane(sampler: sampler, rows: rows, columns: columns)
        // The blurred area and the blur's workspace, for the last size used: each step blurs only as far around
        // the focus area as its widest box reaches (at most the margin), which the area's pixels then equal.
        var buffers: (output: FloatPlane, workspace: DefocusBlur.Workspace)?
        var planeBytes = plane.response.byteCount + plane.depth.byteCount
        func contrast(dioptres: Double) -> Double {
            let blur = DefocusBlur(focusMetres: dioptres <= 0 ? .infinity : 1 / dioptres, fNumber: aperture,
                                   focalLength: lens.focalLength, pixelPitch: profile.pixelPitchMicrons)
            let reach = Self.reach(blur, depth: plane.depth)
            let x0 = max(0, inner.x0 - reach - columns.lowerBound), y0 = max(0, inner.y0 - reach - rows.lowerBound)
            let x1 = min(columns.count, inner.x0 + area.width + reach - columns.lowerBound)
            let y1 = min(rows.count, inner.y0 + area.height + reach - rows.lowerBound)
            if buffers.map({ $0.output.width != x1 - x0 || $0.output.height != y1 - y0 }) ?? true {
                buffers = nil
                let output = FloatPlane(width: x1 - x0, height: y1 - y0, uninitialized: ())
                buffers = (output, DefocusBlur.Workspace(width: x1 - x0, height: y1 - y0))
                planeBytes = max(planeBytes, plane.response.byteCount + plane.depth.byteCount + 3 * output.byteCount)
            }
            let (output, workspace) = buffers!
            blur.apply(source: plane.response, depth: plane.depth, rows: y0..<y1, columns: x0..<x1, into: output,
                       workspace: workspace)
            return Self.contrast(output, x0: inner.x0 - columns.lowerBound - x0, y0: inner.y0 - rows.lowerBound - y0,
                                 width: area.width, height: area.height)
        }
        let nearest = 1 / lens.minimumFocusDistance
        let steps = 48
        var sweep: [(dioptres: Double, contrast: Double)] = []
        for i in 0...steps {
            let d = nearest * Double(i) / Double(steps)
            sweep.append((d, contrast(dioptres: d)))
        }
        let best = sweep.indices.max { sweep[$0].contrast < sweep[$1].contrast } ?? 0
        var lo = sweep[max(0, best - 1)].dioptres, hi = sweep[min(steps, best + 1)].dioptres
        let ratio = (5.0.squareRoot() - 1) / 2
        var a = hi - ratio * (hi - lo), b = lo + ratio * (hi - lo)
        var fa = contrast(dioptres: a), fb = contrast(dioptres: b)
        for _ in 0..<14 {
            if fa > fb {
                hi = b; b = a; fb = fa
                a = hi - ratio * (hi - lo); fa = contrast(dioptres: a)
            } else {
                lo = a; a = b; fa = fb
                b = lo + ratio * (hi - lo); fb = contrast(dioptres: b)
            }
        }
        let dioptres = (lo + hi) / 2
        return Result(focus: dioptres <= 1e-9 ? .infinity : 1 / dioptres, sweep: sweep, planeBytes: planeBytes)
    }

    /// Pixels (even) a box of `blur` reaches from its pixel at the depths of `depth`: twice (⌈largest half-width⌉
    /// + 2) sub-plane pixels, at most ``margin``.
    static func reach(_ blur: DefocusBlur, depth: FloatPlane) -> Int {
        var largest = 0.0, lastDepth = Float.nan
        for i in 0..<depth.count where depth.values[i] != lastDepth {
            lastDepth = depth.values[i]
            largest = max(largest, blur.halfWidth(depth: Double(lastDepth)))
        }
        return min(margin, 2 * (Int(largest.rounded(.up)) + 2))
    }

    /// Contrast of the rectangle at (`x0`, `y0`) of `width` x `height` in `plane`.
    static func contrast(_ plane: FloatPlane, x0: Int, y0: Int, width: Int, height: Int) -> Double {
        var sum = 0.0, squares = 0.0, n = 0.0
        let w = plane.width
        for y in y0..<(y0 + height - 2) {
            let row = plane.values + y * w
            let below = plane.values + (y + 2) * w
            for x in x0..<(x0 + width - 2) {
                let v = Double(row[x])
                let dx = v - Double(row[x + 2]), dy = v - Double(below[x])
                squares += dx * dx + dy * dy
                sum += v
                n += 1
            }
        }
        let mean = sum / max(n, 1)
        return squares / max(n, 1) / max(mean * mean, 1e-30)
    }
}
