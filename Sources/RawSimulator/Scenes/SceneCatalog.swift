import RawCore
import RawSources
/// The scenes the simulated sensor knows by name, as the CLI spells them.
///
/// `colorchart`, `siemens-star`, `slanted-edge`, `grey-ramp`, `depth` and `hdr` are procedural scenes with
/// their default parameters; `image:PATH` photographs a PNG, JPEG or TIFF file (see ``ImageScene``).
public enum SceneCatalog {
    /// The procedural scenes' names (an `image:PATH` name is accepted too).
    public static let names: [String] = ["colorchart", "siemens-star", "slanted-edge", "grey-ramp", "depth", "hdr"]

    /// Prefix of image scenes: `image:` followed by the file's path.
    public static let imagePrefix = "image:"

    /// The scene called `name`, with default parameters.
    /// - Throws: ``SceneError/unknownScene(name:known:)`` for a name not in ``names`` and not `image:PATH`;
    ///   ``SceneError/unreadableImage(path:reason:)`` when the image cannot be read.
    public static func scene(named name: String) throws(SceneError) -> any Scene {
        switch name {
        case "colorchart": return ColorChartScene()
        case "siemens-star": return SiemensStarScene()
        case "slanted-edge": return SlantedEdgeScene()
        case "grey-ramp": return GreyRampScene()
        case "depth": return DepthScene()
        case "hdr": return HDRScene()
        default:
            if name.hasPrefix(imagePrefix) {
                let path = String(name.dropFirst(imagePrefix.count))
                guard !path.isEmpty else {
                    throw SceneError.unreadableImage(path: path, reason: "no path given (write image:PATH)")
                }
                return try ImageScene(path: path)
            }
            throw SceneError.unknownScene(name: name, known: names + [imagePrefix + "PATH"])
        }
    }
}
