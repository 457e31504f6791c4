#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import RawBurst

/// The ways a person or a script steers a running burst: signals (SIGUSR1 trigger, SIGUSR2 pause/resume,
/// SIGINT/SIGTERM stop after the frames in hand are written; a second SIGINT ends the process at once),
/// keys on a terminal (Enter or space trigger, p pause/resume, q stop), and a timed trigger.
// @unchecked: `finished` is shared with the key thread under `lock`; the other fields belong to start()/finish()'s caller.
final class BurstControls: @unchecked Sendable {
    private let session: BurstSession
    private let queue = DispatchQueue(label: "rawburst.controls")
    private var sources: [DispatchSourceSignal] = []
    private var savedTerminal: termios?
    private var keyThread: Thread?
    private var timer: DispatchSourceTimer?
    private let lock = NSLock()
    private var finished = false
    private var stoppedHere = false

    /// Whether a signal or a key stopped the burst (`rawburst live` then ends instead of waiting for the next recording).
    var stoppedBySignalOrKey: Bool { lock.withLock { stoppedHere } }

    /// Controls for `session`; keys are read only when `keys` is true (standard input is a terminal).
    init(session: BurstSession) {
        self.session = session
    }

    /// Installs the signal handlers, the key reader (when `keys`) and the timed trigger (after `triggerAfter` s).
    func start(keys: Bool, triggerAfter: Double?) {
        let session = session
        watch(SIGUSR1) { session.trigger() }
        watch(SIGUSR2) { session.togglePause() }
        watch(SIGTERM) { [self] in stop("stopped by SIGTERM") }
        watch(SIGINT) { [self] in
            stop("stopped by SIGINT")
            // A second Ctrl-C ends the process at once.
            signal(SIGINT, SIG_DFL)
        }
        if let triggerAfter {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + triggerAfter)
            timer.setEventHandler { session.trigger() }
            timer.resume()
            self.timer = timer
        }
        if keys { startKeys() }
    }

    private func stop(_ reason: String) {
        lock.withLock { stoppedHere = true }
        session.stop(reason: reason)
    }

    /// Removes the handlers and gives the terminal back as it was.
    func finish() {
        lock.withLock { finished = true }
        for source in sources { source.cancel() }
        sources.removeAll()
        timer?.cancel()
        for sig in [SIGUSR1, SIGUSR2, SIGTERM, SIGINT] { signal(sig, SIG_DFL) }
        if var saved = savedTerminal {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            savedTerminal = nil
        }
    }

    private func watch(_ sig: Int32, _ action: @escaping @Sendable () -> Void) {
        signal(sig, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
        source.setEventHandler(handler: action)
        source.resume()
        sources.append(source)
    }

    /// Reads single keys without echo on a thread of its own; the terminal is restored by `finish()`.
    private func startKeys() {
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return }
        savedTerminal = settings
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 2 // reads return every 0.2 s, so the thread sees the end of the burst
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &settings) == 0 else { savedTerminal = nil; return }
        let session = session
        let thread = Thread { [self] in
            var byte: UInt8 = 0
            while !lock.withLock({ finished }) {
                guard read(STDIN_FILENO, &byte, 1) == 1 else { continue }
                switch byte {
                case 10, 13, 32: session.trigger()
                case UInt8(ascii: "p"), UInt8(ascii: "P"): session.togglePause()
                case UInt8(ascii: "q"), UInt8(ascii: "Q"): stop("stopped with the q key")
                default: break
                }
            }
        }
        thread.name = "rawburst-keys"
        thread.start()
        keyThread = thread
    }
}

/// The live status of a burst on a terminal, redrawn in place at most ten times a second:
/// frames, rate, queue, disk rate, drops, the governor's level, and what the keys do.
// @unchecked: `lastDraw` is read and written only under `lock`; the rest is immutable.
final class BurstStatusLine: @unchecked Sendable {
    private let enabled: Bool
    private let total: Int
    private let keys: Bool
    private let lock = NSLock()
    private var lastDraw: UInt64 = 0
    /// The plan's prediction in a few words (`continuous`, `holds ~38 frames`), set before the burst starts.
    var prediction: String? {
        get { lock.lock(); defer { lock.unlock() }; return predictionText }
        set { lock.lock(); predictionText = newValue; lock.unlock() }
    }
    private var predictionText: String?

    init(enabled: Bool, total: Int, keys: Bool) {
        self.enabled = enabled
        self.total = total
        self.keys = keys
    }

    func update(_ p: BurstSession.Progress) {
        guard enabled else { return }
        let now = MonotonicClock.nanoseconds()
        lock.lock(); defer { lock.unlock() }
        guard now - lastDraw >= 100_000_000 || lastDraw == 0 else { return }
        lastDraw = now
        let seconds = max(p.seconds, 1e-3)
        var text: String
        if p.waitingForTrigger {
            text = "pre-recording: \(p.queued) frame\(p.queued == 1 ? "" : "s") kept · " + String(format: "%.1f s", p.seconds)
                + (keys ? " · Enter or SIGUSR1 triggers" : " · SIGUSR1 triggers")
        } else {
            text = "\(p.written)/\(total) written · " + String(format: "%.1f fps", Double(p.made) / seconds)
                + " · queue \(p.queued)/\(p.slots) · " + String(format: "%.0f MB/s", Double(p.bytes) / seconds / 1e6)
                + " · \(p.dropped) dropped"
            if p.level != .normal { text += " · \(p.level.name)" } else if let predictionText { text += " · \(predictionText)" }
        }
        if p.paused { text = "PAUSED · " + text + (keys ? " · p resumes" : "") }
        else if keys { text += " · p pause · q stop" }
        Terminal.stderr("\r\u{1B}[2K" + text)
    }

    func finish() {
        guard enabled else { return }
        Terminal.stderr("\r\u{1B}[2K")
    }
}
