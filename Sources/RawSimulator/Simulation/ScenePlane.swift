import RawCore
import RawSources

/// A scene as one sensor with one lens sees it, before exposure, pixel by pixel: the response of the pixel's
/// colour filter to the scene point it looks at (in units where white paper's luminance is 1, and the camera's
/// strongest channel answers 1 to white under D65), with the lens's fall-off applied, and the depth of that point.
///
/// Each pixel's values depend on its position alone, so any part of the frame can be sampled on its own (a
/// strip of rows for the optical image, the focus area for autofocus, a sparse grid for white balance) and
/// gives the same values as the whole frame would.
struct SceneSampler: Sendable {
    let scene: any Scene
    let width: Int
    let height: Int
    let projection: LensProjection
    /// 3x3 matrix from linear-sRGB reflectance to camera RGB under the scene's light.
    let cameraMatrix: [Double]
    /// The camera's response to white under the scene's light, largest component 1 (the true neutral).
    let sceneNeutral: [Double]
    /// The camera matrix as single precision, and a fourth row: a monochrome pixel's response (the three filters'
    /// together, scaled so that white under D65 answers 1).
    private let matrix: [Float]
    /// Row of the camera matrix for each CFA position (0 red, 1 green, 2 blue; 3 for every pixel of a monochrome
    /// sensor), (row & 1) * 2 + (column & 1).
    let channelOfPosition: [Int]
    /// The normalised x of every column (computed once: a division per pixel less).
    private let columnX: [Double]

    init(scene: any Scene, profile: SensorProfile, lens: LensProfile, model: SpectralCameraModel) {
        self.scene = scene
        width = profile.width
        height = profile.height
        let illuminant = StandardIlluminant.forKelvin(scene.illuminantKelvin)
        let camera = model.reflectanceToCamera(illuminant: illuminant)
        cameraMatrix = camera
        sceneNeutral = model.neutral(illuminant: illuminant)
        let whiteD65 = model.neutral(illuminant: StandardIlluminant.d65).reduce(0, +)
        let panchromatic = (0..<3).map { c in (camera[c] + camera[3 + c] + camera[6 + c]) / whiteD65 }
        matrix = (camera + panchromatic).map { Float($0) }
        projection = LensProjection(width: width, height: height, lens: lens)
        columnX = (0..<width).map { [projection] in projection.normalisedX(column: $0) }
        let cfa = profile.cfaLayout
        channelOfPosition = (0..<4).map { index in
            if cfa.isMonochrome { return 3 }
            return switch cfa.color(row: index / 2, column: index % 2) {
            case .red: 0
            case .blue: 2
            default: 1
            }
        }
    }

    /// The colour-filtered response of pixel (`row`, `column`).
    @inline(__always)
    func response(row: Int, column: Int) -> Float {
        sample(row: row, column: column).response
    }

    /// The response and depth (metres; 1e6 for points without a finite positive depth) of pixel (`row`, `column`).
    @inline(__always)
    func sample(row: Int, column: Int) -> (response: Float, depth: Float) {
        sample(xs: columnX[column], ys: projection.normalisedY(row: row), channel: channelOfPosition[(row & 1) * 2 + (column & 1)])
    }

    /// The response and depth of the image point at normalised (`xs`, `ys`) under the filter of `channel`.
    @inline(__always)
    private func sample(xs: Double, ys: Double, channel: Int) -> (response: Float, depth: Float) {
        let (x, y) = projection.sceneCoordinates(xs: xs, ys: ys)
        let point = scene.sample(x: x, y: y)
        let c = channel * 3
        let value = matrix[c] * point.red + matrix[c + 1] * point.green + matrix[c + 2] * point.blue
        let light = Float(projection.illumination(xs: xs, ys: ys))
        return (max(0, value * light), point.depth.isFinite && point.depth > 0 ? point.depth : 1e6)
    }

    /// Samples columns `columns` of row `row` into `response` and `depth` (one value per column).
    func fill(row: Int, columns: Range<Int>, response: UnsafeMutablePointer<Float>, depth: UnsafeMutablePointer<Float>) {
        let ys = projection.normalisedY(row: row)
        let channels = (channelOfPosition[(row & 1) * 2], channelOfPosition[(row & 1) * 2 + 1])
        columnX.withUnsafeBufferPointer { xs in
            var i = 0
            for column in columns {
                let s = sample(xs: xs[column], ys: ys, channel: column & 1 == 0 ? channels.0 : channels.1)
                response[i] = s.response
                depth[i] = s.depth
                i += 1
            }
        }
    }
}

/// The scene as the sensor sees it over one rectangle of the frame: ``SceneSampler``'s response and depth for
/// every pixel of it. Autofocus blurs its focus area from one of these; the frame itself is rendered strip by
/// strip (``OpticalStripRenderer``) without a whole-frame plane.
final class ScenePlane: Sendable {
    /// Colour-filtered response per pixel of the rectangle.
    let response: FloatPlane
    /// Scene depth per pixel of the rectangle, in metres.
    let depth: FloatPlane

    /// Samples the rectangle `rows` x `columns` of the frame (parallel over rows).
    init(sampler: SceneSampler, rows: Range<Int>, columns: Range<Int>) {
        response = FloatPlane(width: columns.count, height: rows.count, uninitialized: ())
        depth = FloatPlane(width: columns.count, height: rows.count, uninitialized: ())
        let responseValues = UncheckedBox(response.values), depthValues = UncheckedBox(depth.values)
        let width = columns.count, rowsPerChunk = 16
        ParallelRows.perform(iterations: (rows.count + rowsPerChunk - 1) / rowsPerChunk) { chunk in
            for r in (chunk * rowsPerChunk)..<min(rows.count, (chunk + 1) * rowsPerChunk) {
                sampler.fill(row: rows.lowerBound + r, columns: columns, response: responseValues.value + r * width,
                             depth: depthValues.value + r * width)
            }
        }
    }

    /// Bytes of the two planes of a `width` x `height` rectangle.
    static func bytes(width: Int, height: Int) -> Int { 2 * FloatPlane.bytes(width: width, height: height) }
}
