import ArgumentParser
import RawBurst

/// `capture`'s options for a real camera: `--camera aravis[:ID]` and its pixel format.
struct CameraOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Capture from a GenICam camera through Aravis: aravis (the first one found) or aravis:ID "
                               + "(an id `rawburst cameras` lists), instead of the simulated sensor.", valueName: "aravis[:id]"))
    var camera: String?

    @Option(name: .customLong("pixel-format"),
            help: ArgumentHelp("With --camera: the pixel format to set, a Bayer format the camera offers (default: its current one).",
                               valueName: "name"))
    var pixelFormat: String?

    /// The Aravis device id of --camera (nil for the first camera), or nil when --camera is not given.
    func cameraID() throws -> String?? {
        guard let camera else {
            if pixelFormat != nil { throw BadValue("--pixel-format needs --camera") }
            return nil
        }
        if camera == "aravis" { return .some(nil) }
        guard camera.hasPrefix("aravis:"), camera.count > "aravis:".count else {
            throw BadValue("--camera must be aravis or aravis:ID, not '\(camera)'")
        }
        return .some(String(camera.dropFirst("aravis:".count)))
    }
}
