import ArgumentParser
import RawBurst

/// `capture`'s options for a real camera: `--camera aravis[:ID]`, its pixel format, region, binning, trigger mode and
/// how its white balance is taken.
struct CameraOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Capture from a GenICam camera through Aravis: aravis (the first one found) or aravis:ID "
                               + "(an id `rawburst cameras` lists), instead of the simulated sensor.", valueName: "aravis[:id]"))
    var camera: String?

    @Option(name: .customLong("pixel-format"),
            help: ArgumentHelp("With --camera: the pixel format to set, a Bayer (BayerRG12p, ...) or monochrome (Mono8, Mono12p, "
                               + "Mono12Packed, ...) format the camera offers (default: its current one). A monochrome format "
                               + "makes monochrome DNGs.", valueName: "name"))
    var pixelFormat: String?

    @Option(help: ArgumentHelp("With --camera: the region of interest to read, WxH+X+Y in sensor pixels, even numbers "
                               + "for a Bayer format (default: the whole sensor).", valueName: "WxH+X+Y"))
    var crop: String?

    @Option(help: ArgumentHelp("With --camera: what starts each exposure: free-running (the camera's own clock), software "
                               + "(rawburst fires TriggerSoftware for each frame, so each is exposed with the settings set "
                               + "before it; chosen by itself for a --bracket) or line:NAME (a pulse on input line NAME, e.g. "
                               + "line:Line1) (default free-running).", valueName: "mode"),
            transform: { try BadValue.parse($0, as: CameraTrigger.self,
                                            otherwise: "--trigger must be free-running, software or line:NAME, not '\($0)'") })
    var trigger: CameraTrigger?

    @Option(name: .customLong("trigger-timeout"),
            help: ArgumentHelp("With --camera: how long to wait for a frame before the burst fails as stalled; with "
                               + "--trigger line:NAME, how long to wait for each external trigger (default 5s).",
                               valueName: "time"),
            transform: CaptureValues.triggerTimeout)
    var triggerTimeout: TimeSpan?

    @Option(help: ArgumentHelp("With --camera: combine N x N sensor cells (or HxV) into one pixel, BinningHorizontal/"
                               + "BinningVertical; --crop is then in binned pixels (default: no binning).", valueName: "N|HxV"),
            transform: { try BadValue.parse($0, as: CameraBinning.self,
                                            otherwise: "--binning must be N or HxV, whole numbers 1...64, not '\($0)'") })
    var binning: CameraBinning?

    @Option(name: .customLong("balance-ratio"),
            help: ArgumentHelp("With --camera that has BalanceRatio: as-shot-neutral (the camera sends Bayer data "
                               + "unbalanced: its ratios become each DNG's AsShotNeutral) or applied (it multiplies the "
                               + "Bayer data by them: AsShotNeutral 1,1,1) (default as-shot-neutral). Not used for a "
                               + "monochrome format.", valueName: "handling"),
            transform: { try BadValue.parse($0, as: CameraWhiteBalance.Handling.self,
                                            otherwise: "--balance-ratio must be as-shot-neutral or applied, not '\($0)'") })
    var balanceRatio: CameraWhiteBalance.Handling?

    /// The trigger mode for a burst with or without a bracketing plan that changes settings from frame to frame, and a
    /// note when software triggering was chosen for it. Free-running frames already on their way were exposed with the
    /// old settings, and a line's pulses do not wait for a new setting: such a plan needs software triggering.
    func trigger(bracketing: Bool) throws -> (trigger: CameraTrigger, note: String?) {
        guard bracketing else { return (trigger ?? .freeRunning, nil) }
        switch trigger {
        case nil:
            return (.software, "--bracket with a camera: using --trigger software, so each frame is exposed with its step's settings")
        case .software?:
            return (.software, nil)
        case let other?:
            throw BadValue("--bracket with --trigger \(other): a frame could be exposed before its step's settings are set; "
                           + "use --trigger software (or leave --trigger out)")
        }
    }

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
            if trigger != nil { throw BadValue("--trigger needs --camera") }
            if triggerTimeout != nil { throw BadValue("--trigger-timeout needs --camera") }
            if binning != nil { throw BadValue("--binning needs --camera") }
            if balanceRatio != nil { throw BadValue("--balance-ratio needs --camera") }
            return nil
        }
        if camera == "aravis" { return .some(nil) }
        guard camera.hasPrefix("aravis:"), camera.count > "aravis:".count else {
            throw BadValue("--camera must be aravis or aravis:ID, not '\(camera)'")
        }
        return .some(String(camera.dropFirst("aravis:".count)))
    }
}
