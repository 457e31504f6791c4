import Foundation
import Synchronization

/// What the routes and the WebSocket sessions share: the hub, the command handler and the folder.
final class LiveServerCore: Sendable {
    let hub: LiveHub
    let handler: any LiveCommandHandler
    let token: String?
    let connections = LiveConnections()
    private let folderPath: Mutex<String>

    init(hub: LiveHub, handler: any LiveCommandHandler, token: String?, folder: String) {
        self.hub = hub
        self.handler = handler
        self.token = token
        folderPath = Mutex(folder)
    }

    var folder: LiveFolder { LiveFolder(path: folderPath.withLock { $0 }) }

    func setFolder(_ path: String) { folderPath.withLock { $0 = path } }

    func statusText() -> String { hub.statusText(folder: folder.path) }

    /// Carries out one command message (`client` nil: `POST /command`); returns whether it was understood and the
    /// replies, one per command (`{"type":"reply","cmd":...,"ok":...}`).
    func perform(_ bytes: [UInt8], client: Int?) -> (understood: Bool, replies: [String]) {
        switch LiveCommandDecoder.decode(bytes) {
        case .failure(let error):
            let reply = LiveReplyMessage(cmd: error.cmd ?? "", ok: false, message: nil, setting: nil, reason: error.reason)
            return (false, [LiveJSON.string(reply)])
        case .success(.overlays(let change)):
            hub.changeOverlays(change, for: client)
            let now = hub.overlays
            let text = "peaking \(now.peaking ? "on (\(now.peakingLevel))" : "off"), zebra \(now.zebra ? "on (\(now.zebraLevel))" : "off")"
            return (true, [LiveJSON.string(LiveReplyMessage(cmd: "overlays", ok: true, message: text, setting: nil, reason: nil))])
        case .success(.commands(let commands)):
            let replies = commands.map { command -> String in
                let reply: LiveReplyMessage = switch handler.handle(command) {
                case .done(let message):
                    LiveReplyMessage(cmd: Self.name(of: command), ok: true, message: message, setting: nil, reason: nil)
                case .refused(let setting, let reason):
                    LiveReplyMessage(cmd: Self.name(of: command), ok: false, message: nil, setting: setting, reason: reason)
                }
                return LiveJSON.string(reply)
            }
            return (true, replies)
        }
    }

    /// The `cmd` a command is written with.
    static func name(of command: LiveCommand) -> String {
        switch command {
        case .setISO, .setShutter, .setAperture, .setFocus, .setWhiteBalance, .setExposureCompensation, .setMetering: "set"
        case .auto: "auto"
        case .autoExposureLock: "ae-lock"
        case .autoFocusLock: "af-lock"
        case .tap: "tap"
        case .meteringZone: "zone"
        case .preset: "preset"
        case .trigger: "trigger"
        case .pause: "pause"
        case .resume: "resume"
        case .stop: "stop"
        case .quit: "quit"
        }
    }
}
