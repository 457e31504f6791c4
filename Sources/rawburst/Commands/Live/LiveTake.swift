import RawBurst

/// One burst under the viewfinder: `capture --live`'s only one, or one of `rawburst live`'s recordings. Made by the
/// command, filled in by the burst it steers (written once, on the thread that runs the burst).
final class LiveTake {
    let viewfinder: LiveViewfinder
    /// The recording's number (from 1) and its folder.
    let number: Int
    let folder: String
    /// What the viewfinder did during the burst (set when it ends).
    private(set) var report: CaptureViewfinderReport?
    /// Whether Ctrl-C, SIGTERM or the q key stopped it (so `rawburst live` ends rather than waiting for another).
    private(set) var stoppedBySignalOrKey = false
    /// Why the burst ended (nil: every frame taken).
    private(set) var stopCause: BurstSession.StopCause?

    init(viewfinder: LiveViewfinder, number: Int, folder: String) {
        self.viewfinder = viewfinder
        self.number = number
        self.folder = folder
    }

    /// The burst has started: the page steers it.
    func begin(_ session: BurstSession, frames: Int) {
        viewfinder.attach(session, take: number, folder: folder, frames: frames, framesPerTrigger: session.source.framesPerTrigger)
    }

    /// The burst has ended (for `stopCause`; a signal or a key stopped it when `stoppedBySignalOrKey`).
    func end(stopCause: BurstSession.StopCause?, stoppedBySignalOrKey: Bool) {
        self.stopCause = stopCause
        self.stoppedBySignalOrKey = stoppedBySignalOrKey
        report = viewfinder.detach()
    }

    /// Whether `rawburst live` may wait for another recording after this one: it ended because its frames were taken
    /// or Stop was pressed on the page — not by a signal, a key, Quit or a failure.
    var allowsAnother: Bool {
        guard !stoppedBySignalOrKey, !viewfinder.controls.quitRequested else { return false }
        guard let stopCause else { return true }
        return stopCause.isRequested
    }
}
