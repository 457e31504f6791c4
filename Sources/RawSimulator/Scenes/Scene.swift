import RawCore
import RawSources
/// What the lens sees at one point of a scene: the surface's reflectance and its distance.
///
/// Reflectance is given in linear sRGB coordinates relative to a perfect white diffuser (1, 1, 1) under the
/// scene's illuminant, so that values are easy to write down (a mid grey card is 0.18 in every channel);
/// the simulated sensor turns it into a smooth reflectance spectrum, lights it with the scene's illuminant
/// and integrates it against the camera's own spectral sensitivities. Values above 1 describe surfaces
/// brighter than white paper (a sky, a lamp); components may be slightly negative for colours outside the
/// sRGB gamut (the ColorChecker's cyan), which is what their spectra give in these coordinates.
public struct ScenePoint: Sendable, Hashable {
    /// Linear sRGB reflectance, red.
    public var red: Float
    /// Linear sRGB reflectance, green.
    public var green: Float
    /// Linear sRGB reflectance, blue.
    public var blue: Float
    /// Distance from the camera in metres (finite, > 0).
    public var depth: Float

    /// Creates a point.
    public init(red: Float, green: Float, blue: Float, depth: Float) {
        self.red = red
        self.green = green
        self.blue = blue
        self.depth = depth
    }

    /// A neutral surface of reflectance `level` at `depth` metres.
    public init(grey level: Float, depth: Float) {
        self.init(red: level, green: level, blue: level, depth: depth)
    }
}

/// A scene the simulated sensor can photograph: a deterministic function from a point of the image plane to
/// what is there, plus the light it is lit by.
///
/// Coordinates are those of a reference framing: `x` runs from -1 (left edge) to 1 (right edge) of the view of a
/// standard wide lens (the `phone-wide` profile's field of view), `y` from -aspect (top) to +aspect (bottom)
/// with the same scale, so shapes stay round. Longer lenses see a central part of this plane, fisheye lenses see
/// beyond its edges: `sample` must answer for any finite coordinates (a background continues outside).
public protocol Scene: Sendable {
    /// The scene's name as the CLI spells it (`colorchart`, `siemens-star`, `image:/path/to.png`, ...).
    var name: String { get }
    /// Correlated colour temperature of the light in kelvin (2000...12000).
    var illuminantKelvin: Double { get }
    /// Illuminance on the scene in lux: white paper (reflectance 1) has luminance `illuminance / π` cd/m².
    var illuminance: Double { get }
    /// A typical subject distance in metres, where the camera focuses when nothing else is asked for.
    var subjectDistance: Double { get }
    /// What is at (`x`, `y`) of the reference image plane.
    func sample(x: Double, y: Double) -> ScenePoint
}
