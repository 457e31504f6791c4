// The JSON text messages the server sends (WebSocket text messages, `GET /status`, `POST /command` answers).

/// The status JSON (`GET /status` and the WebSocket's text messages): `type` "status", the burst, controls and source
/// as published (absent before the first), the server's `viewer` figures, the overlays computed and the folder.
struct LiveStatusMessage: Encodable {
    var type = "status"
    var burst: LiveStatus.Burst?
    var controls: LiveStatus.Controls?
    var source: LiveStatus.Source?
    var viewer: LiveServerStatistics
    var overlays: LiveOverlays
    var folder: String

    init(status: LiveStatus?, viewer: LiveServerStatistics, overlays: LiveOverlays, folder: String) {
        burst = status?.burst
        controls = status?.controls
        source = status?.source
        self.viewer = viewer
        self.overlays = overlays
        self.folder = folder
    }
}

/// A command's answer on the wire.
struct LiveReplyMessage: Encodable {
    var type = "reply"
    var cmd: String
    var ok: Bool
    var message: String?
    var setting: String?
    var reason: String?

    init(cmd: String, ok: Bool, message: String?, setting: String?, reason: String?) {
        self.cmd = cmd
        self.ok = ok
        self.message = message
        self.setting = setting
        self.reason = reason
    }
}
