import Foundation
import RawCore
import RawSources

/// A classic 24-patch ColorChecker on a mid-grey wall, for colour accuracy checks.
///
/// The chart's 6 × 4 patches (`ColorCheckerClassic/patches`, linear sRGB reflectances through Bradford
/// D50 → D65) sit in the classic layout, separated and framed by black gaps, centred in the reference frame and
/// about 60 % of its width wide; around it is a wall of reflectance 0.18. Everything is at one distance.
/// ``patchRects`` gives each patch's measurement rectangle in normalised image coordinates and
/// `chartJSON()` the whole description as JSON (`samples/scenes/colorchart.json` holds a copy).
public struct ColorChartScene: Scene {
    public let name = "colorchart"
    public let illuminantKelvin: Double
    public let illuminance: Double
    public let subjectDistance: Double

    /// Reflectance of the wall around the chart.
    public static let wallReflectance = 0.18
    /// Reflectance of the black frame and gaps between patches.
    public static let gapReflectance = 0.02
    /// Width of the chart (frame included) in reference-plane units (the frame is 2 wide).
    public static let chartWidth = 1.2
    /// Gap between patches (and frame width) as a fraction of a patch's side.
    public static let gapFraction = 0.2
    /// Fraction of a patch's side left out on every side of its measurement rectangle.
    public static let measurementInset = 0.2

    /// Side of one (square) patch in reference-plane units.
    public static var patchSide: Double { chartWidth / (6 + 7 * gapFraction) }
    /// Width of the gaps in reference-plane units.
    public static var gap: Double { patchSide * gapFraction }
    /// Height of the chart (frame included) in reference-plane units.
    public static var chartHeight: Double { 4 * patchSide + 5 * gap }

    // Precomputed for `sample`: chart origin (top-left of the frame), pitch, side and colours.
    private let left: Double
    private let top: Double
    private let side: Double
    private let pitch: Double
    private let gapWidth: Double
    private let width: Double
    private let height: Double
    private let colours: [Float] // 24 × RGB in chart order
    private let depth: Float
    private let wall: ScenePoint
    private let black: ScenePoint

    /// Creates the scene.
    /// - Parameters:
    ///   - illuminantKelvin: colour temperature of the light (default 6504 K, D65; clamped to 2000...12000).
    ///   - illuminance: light on the chart in lux (default 1000, a bright studio).
    ///   - distance: distance of the wall and chart in metres (default 1.5; at least 0.01).
    public init(illuminantKelvin: Double = 6504, illuminance: Double = 1000, distance: Double = 1.5) {
        self.illuminantKelvin = min(max(illuminantKelvin, 2000), 12000)
        self.illuminance = max(illuminance, 0)
        self.subjectDistance = max(distance, 0.01)
        side = Self.patchSide
        gapWidth = Self.gap
        pitch = side + gapWidth
        width = Self.chartWidth
        height = Self.chartHeight
        left = -width / 2
        top = -height / 2
        var colours = [Float](repeating: 0, count: 72)
        for patch in ColorCheckerClassic.patches {
            let rgb = patch.linearSRGB
            let i = (patch.row * 6 + patch.column) * 3
            colours[i] = Float(rgb.red)
            colours[i + 1] = Float(rgb.green)
            colours[i + 2] = Float(rgb.blue)
        }
        self.colours = colours
        depth = Float(subjectDistance)
        wall = ScenePoint(grey: Float(Self.wallReflectance), depth: depth)
        black = ScenePoint(grey: Float(Self.gapReflectance), depth: depth)
    }

    public func sample(x: Double, y: Double) -> ScenePoint {
        let lx = x - left, ly = y - top
        guard lx >= 0, ly >= 0, lx < width, ly < height else { return wall }
        let cx = lx - gapWidth, cy = ly - gapWidth
        if cx >= 0, cy >= 0 {
            let column = Int(cx / pitch), row = Int(cy / pitch)
            if column < 6, row < 4, cx - Double(column) * pitch < side, cy - Double(row) * pitch < side {
                let i = (row * 6 + column) * 3
                return ScenePoint(red: colours[i], green: colours[i + 1], blue: colours[i + 2], depth: depth)
            }
        }
        return black
    }

    /// A patch's full square in reference-plane coordinates (x across, y down).
    public static func patchSquare(row: Int, column: Int) -> (x0: Double, y0: Double, x1: Double, y1: Double) {
        let x0 = -chartWidth / 2 + gap + Double(column) * (patchSide + gap)
        let y0 = -chartHeight / 2 + gap + Double(row) * (patchSide + gap)
        return (x0, y0, x0 + patchSide, y0 + patchSide)
    }

    /// Each patch's measurement rectangle in normalised image coordinates of the reference frame
    /// (`u = (x + 1) / 2` across, `v = (y + 0.75) / 1.5` down, both 0...1), shrunk by
    /// ``measurementInset`` of the patch's side on every side so a measurement never touches an edge.
    /// In chart order (patch 1 first).
    public var patchRects: [(patch: ColorCheckerPatch, x0: Double, y0: Double, x1: Double, y1: Double)] {
        ColorCheckerClassic.patches.map { patch in
            let square = Self.patchSquare(row: patch.row, column: patch.column)
            let inset = Self.measurementInset * Self.patchSide
            return (patch, (square.x0 + inset + 1) / 2, (square.y0 + inset + 0.75) / 1.5,
                    (square.x1 - inset + 1) / 2, (square.y1 - inset + 0.75) / 1.5)
        }
    }

    /// Each patch's measurement rectangle as `profile` with `lens` frames the chart, normalised (0...1 across
    /// and down), or nil for a patch not wholly inside the frame. For a fisheye the straight-sided box inside
    /// the curved patch image is given.
    public func patchRects(profile: SensorProfile, lens: LensProfile)
        -> [(patch: ColorCheckerPatch, rect: (x0: Double, y0: Double, x1: Double, y1: Double)?)] {
        let projection = LensProjection(width: profile.width, height: profile.height, lens: lens)
        return ColorCheckerClassic.patches.map { patch in
            let square = Self.patchSquare(row: patch.row, column: patch.column)
            let inset = Self.measurementInset * Self.patchSide
            let x0 = square.x0 + inset, x1 = square.x1 - inset, y0 = square.y0 + inset, y1 = square.y1 - inset
            let corners = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)].map { projection.imagePoint(sceneX: $0.0, sceneY: $0.1) }
            let u0 = max(corners[0].u, corners[2].u), u1 = min(corners[1].u, corners[3].u)
            let v0 = max(corners[0].v, corners[1].v), v1 = min(corners[2].v, corners[3].v)
            guard u0 >= 0, v0 >= 0, u1 <= 1, v1 <= 1, u1 > u0, v1 > v0 else { return (patch, nil) }
            return (patch, (u0, v0, u1, v1))
        }
    }

    /// The chart as JSON (pretty-printed, keys sorted, ending in a newline): the scene's name, illuminant,
    /// illuminance, distance, wall and gap reflectances, the coordinate convention, and for every patch its
    /// number, name, row, column, measurement rectangle (normalised), reference Lab D50, linear sRGB and
    /// 8-bit sRGB (clipped to the gamut, rounded).
    ///
    /// Without a profile the rectangles are those of the reference frame (``patchRects``); with one they are
    /// where that camera and lens see the chart (``patchRects(profile:lens:)``), and a patch outside its frame
    /// has no `rect`.
    public func chartJSON(profile: SensorProfile? = nil, lens: LensProfile? = nil) -> String {
        let rects: [(x0: Double, y0: Double, x1: Double, y1: Double)?]
        let coordinates: String
        var camera: String?
        if let profile {
            let lens = lens ?? profile.lenses[0]
            rects = patchRects(profile: profile, lens: lens).map(\.rect)
            coordinates = "rect: normalised image coordinates of this camera's frame, u across and v down, 0...1"
            camera = "\(profile.name) \(lens.name)"
        } else {
            rects = patchRects.map { ($0.x0, $0.y0, $0.x1, $0.y1) }
            coordinates = "rect: normalised image coordinates of the reference frame, "
                + "u = (x + 1) / 2 across, v = (y + 0.75) / 1.5 down, 0...1"
        }
        let patches = zip(ColorCheckerClassic.patches, rects).map { p, rect in
            let rgb = p.linearSRGB
            let eight = [rgb.red, rgb.green, rgb.blue].map { Int((ColorSpaceMath.srgbEncode($0) * 255).rounded()) }
            return ChartFile.Patch(number: p.number, name: p.name, row: p.row, column: p.column,
                                   rect: rect.map { .init(x0: $0.x0, y0: $0.y0, x1: $0.x1, y1: $0.y1) },
                                   labD50: .init(L: p.labD50.L, a: p.labD50.a, b: p.labD50.b),
                                   linearSRGB: [rgb.red, rgb.green, rgb.blue], sRGB8: eight)
        }
        let file = ChartFile(scene: name, camera: camera, illuminantKelvin: illuminantKelvin,
                             illuminant: illuminantKelvin == 6504 ? "D65" : "\(illuminantKelvin) K",
                             illuminanceLux: illuminance, distanceMetres: subjectDistance,
                             wallReflectance: Self.wallReflectance, gapReflectance: Self.gapReflectance,
                             coordinates: coordinates, reference: ColorCheckerClassic.reference, patches: patches)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(file) else { return "{}\n" } // plain values: cannot fail
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// The layout of ``ColorChartScene/chartJSON()``.
private struct ChartFile: Encodable {
    struct Rect: Encodable {
        let x0, y0, x1, y1: Double
    }

    struct Lab: Encodable {
        // swiftlint:disable:next identifier_name
        let L, a, b: Double
    }

    struct Patch: Encodable {
        let number: Int
        let name: String
        let row: Int
        let column: Int
        let rect: Rect?
        let labD50: Lab
        let linearSRGB: [Double]
        let sRGB8: [Int]
    }

    let scene: String
    let camera: String?
    let illuminantKelvin: Double
    let illuminant: String
    let illuminanceLux: Double
    let distanceMetres: Double
    let wallReflectance: Double
    let gapReflectance: Double
    let coordinates: String
    let reference: String
    let patches: [Patch]
}
