import ArgumentParser
import Foundation
import RawBurst

/// `rawburst live`: the viewfinder without recording until asked: the same sources and settings as `capture`, shown
/// in a page in the browser; Record on the page records a burst into OUT/take-NNN, as `capture` would.
struct LiveViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Show a source live in the browser: frame, focus and expose, then record bursts from the page.",
        usage: "rawburst live [--live <addr:port>] [--live-token <token>] [<capture options>]",
        discussion: """
        Serves a self-contained page (no external scripts; works offline) at --live ADDR:PORT, 127.0.0.1:8180 by \
        default, and prints its address. The page shows the newest frame (developed as the DNG previews are, at most \
        1024 px, turned as --orientation and --mirror say), focus peaking, zebra, the RGB and luma histogram with \
        clipping, the 3x3 grid and metering zone, and \
        the burst's figures (fps, pool fill, MB/s, drops by reason, the governor); its controls set ISO, shutter, \
        focus, white balance and EV, lock AE and AF, focus and meter where you tap, and trigger, pause and stop.

        Nothing is recorded until Record: the page says "not recording" and shows the preview's rate, and the frames \
        shown are counted in the take's manifest as outside-pre-record (--pre-record keeps the last seconds of them), \
        not as the recording's drops. Each recording (--frames frames, or until Stop) goes to OUT/take-001/, \
        OUT/take-002/ ... with its manifest; the page's /files serves only the files the recording made (matched with \
        its journal by device and inode). Quit on the page, q, Ctrl-C or SIGTERM end \
        the command. The last settings are kept in $XDG_CONFIG_HOME/rawburst/live.json and used at the next start \
        unless the command line says otherwise (or --ignore-saved-settings).

        Beyond loopback (--live 0.0.0.0:8180) the page needs a token: --live-token, or one is made and printed in the \
        address. Every option of `rawburst capture` works here. Details: docs/live.md.
        """
    )

    @OptionGroup var capture: CaptureCommand

    func run() throws {
        var capture = capture
        // Until Stop, unless a count, a duration or a plan says otherwise.
        if capture.framesOption == nil && capture.duration == nil, try capture.bracketPlan() == nil {
            capture.framesOption = BurstSession.maximumFrames
        }
        let endpoint = capture.liveOptions.endpoint ?? .standard
        capture.liveOptions.endpoint = endpoint
        try capture.runWithViewfinder(at: endpoint, takes: true)
    }
}
