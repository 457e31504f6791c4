import RawCore
import RawSources

/// A scene as one sensor with one lens sees it, before exposure: for every pixel, the response of that
/// pixel's colour filter to the scene point it looks at (in units where white paper's luminance is 1, and
/// the camera's strongest channel answers 1 to white under D65), with the lens's fall-off applied, and the
/// depth of that point.
///
/// This is the part of the simulation that does not change from frame to frame; it is built once per
/// scene, sensor and lens (a 12 MP plane takes a few hundred milliseconds on two cores).
final class ScenePlane: Sendable {
    /// Colour-filtered response per pixel.
    let response: FloatPlane
    /// Scene depth per pixel in metres.
    let depth: FloatPlane
    /// 3x3 matrix from linear-sRGB reflectance to camera RGB under the scene's light.
    let cameraMatrix: [Double]
    /// The camera's response to white under the scene's light, largest component 1 (the true neutral).
    let sceneNeutral: [Double]

    init(scene: any Scene, profile: SensorProfile, lens: LensProfile, model: SpectralCameraModel) {
        let width = profile.width, height = profile.height
        let illuminant = StandardIlluminant.forKelvin(scene.illuminantKelvin)
        cameraMatrix = model.reflectanceToCamera(illuminant: illuminant)
        sceneNeutral = model.neutral(illuminant: illuminant)
        response = FloatPlane(width: width, height: height)
        depth = FloatPlane(width: width, height: height)
        let projection = LensProjection(width: width, height: height, lens: lens)
        let cfa = profile.cfaLayout
        // Row of the camera matrix for each CFA position (0 red, 1 green, 2 blue).
        let channelOfPosition: [Int] = (0..<4).map { index in
            switch cfa.color(row: index / 2, column: index % 2) {
            case .red: 0
            case .blue: 2
            default: 1
            }
        }
        let m = cameraMatrix.map { Float($0) }
        let responseValues = UncheckedBox(response.values)
        let depthValues = UncheckedBox(depth.values)
        let rowsPerChunk = 16
        ParallelRows.perform(iterations: (height + rowsPerChunk - 1) / rowsPerChunk) { chunk in
            for row in (chunk * rowsPerChunk)..<min(height, (chunk + 1) * rowsPerChunk) {
                for column in 0..<width {
                    let (x, y) = projection.sceneCoordinates(row: row, column: column)
                    let point = scene.sample(x: x, y: y)
                    let c = channelOfPosition[(row & 1) * 2 + (column & 1)] * 3
                    let value = m[c] * point.red + m[c + 1] * point.green + m[c + 2] * point.blue
                    let light = Float(projection.illumination(row: row, column: column))
                    responseValues.value[row * width + column] = max(0, value * light)
                    depthValues.value[row * width + column] = point.depth.isFinite && point.depth > 0 ? point.depth : 1e6
                }
            }
        }
    }
}
