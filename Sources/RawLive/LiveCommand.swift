import RawCore
import RawSources

/// What a page asks of the camera or the burst (a WebSocket text message or `POST /command`, decoded by
/// `LiveServer`). Settings commands change what the next frames are taken with; nil values mean automatic.
public enum LiveCommand: Sendable, Hashable {
    case setISO(Double?)
    case setShutter(Double?)
    case setAperture(Double?)
    case setFocus(FocusDistance?)
    case setWhiteBalance(WhiteBalanceSetting)
    case setExposureCompensation(Double)
    case setMetering(MeteringMode)
    /// Everything automatic at once (ISO, shutter, focus, white balance, 0 EV, matrix metering, locks off).
    case auto
    /// Auto exposure lock: keeps the ISO and shutter of the newest frame (on), or meters again (off).
    case autoExposureLock(Bool)
    /// Autofocus lock: keeps the focus distance of the newest frame (on), or focuses again (off).
    case autoFocusLock(Bool)
    /// Focus and meter at a point of the picture (0...1 from the top left), both automatic there.
    case tap(NormalisedPoint)
    /// Meter on a zone of the 3x3 grid (0...8, row by row).
    case meteringZone(Int)
    /// A lighting preset by name.
    case preset(String)
    /// The pre-record's trigger, or the start of a recording (`rawburst live`).
    case trigger
    case pause
    case resume
    /// Ends the recording (the burst); `rawburst live` goes on showing frames.
    case stop
    /// Ends `rawburst live` altogether.
    case quit
}

/// The answer to a command: done, or refused with the setting and the reason (as the command line would say it).
public enum LiveReply: Sendable, Hashable {
    case done(String)
    case refused(setting: String, reason: String)
}

/// Who carries out a page's commands (`LiveControls`): called from the server's tasks, so it never blocks for long.
public protocol LiveCommandHandler: Sendable {
    /// Carries out `command`, or says why not.
    func handle(_ command: LiveCommand) -> LiveReply
}
