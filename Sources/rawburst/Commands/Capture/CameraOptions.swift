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

    @Option(help: ArgumentHelp("With --camera: the region of interest to read, WxH+X+Y in sensor pixels, even numbers "
                               + "(default: the whole sensor).", valueName: "WxH+X+Y"))
    var crop: String?

    /// The region of --crop, nil without it; a malformed one is a bad value.
    func region() throws -> CameraRegion? {
        guard let crop else { return nil }
        guard camera != nil else { throw BadValue("--crop needs --camera") }
        guard let region = CameraRegion(parsing: crop) else {
            throw BadValue("--crop must be WxH+X+Y (e.g. 1024x768+512+384), not '\(crop)'")
        }
        return region
    }

    /// The Aravis device id of --camera (nil for the first camera), or nil when --camera is not given.
    func cameraID() throws -> String?? {
        guard let camera else {
            if pixelFormat != nil { throw BadValue("--pixel-format needs --camera") }
            if crop != nil { throw BadValue("--crop needs --camera") }
            return nil
        }
        if camera == "aravis" { return .some(nil) }
        guard camera.hasPrefix("aravis:"), camera.count > "aravis:".count else {
            throw BadValue("--camera must be aravis or aravis:ID, not '\(camera)'")
        }
        return .some(String(camera.dropFirst("aravis:".count)))
    }
}
