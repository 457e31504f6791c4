import Foundation
import RawBurst

/// A burst's viewfinder as the command line runs it: the page's server, the previews, the controls and the status,
/// wired to one burst after another (`capture --live` has one; `rawburst live` one per recording).
final class LiveViewfinder: Sendable {
    let server: LiveServer
    let previewer: LivePreviewer
    let controls: LiveControls
    let address: LiveAddress
    private let pump: LiveStatusPump

    /// Starts the server at `endpoint` (refusals are one line, exit status 2) for a burst from `setup`, whose source
    /// was configured with `settings`; the previews of the sensors named in `mirrored` are flipped left to right.
    init(endpoint: LiveEndpoint, token: String?, setup: CaptureSetup, settings: CaptureSettings, fixedBecause: String?,
         presets: [LivePreset], store: LiveSettingsStore?, folder: String, previewSize: Int, sideBySide: Bool,
         mirrored: Set<String>) throws {
        let capabilities = setup.source.sources[0].capabilities
        let controls = LiveControls(initial: settings, capabilities: capabilities, fixedBecause: fixedBecause, presets: presets,
                                    store: store)
        let server = LiveServer(configuration: .init(host: endpoint.host, port: endpoint.port, token: token, folder: folder),
                                handler: controls)
        let lens = capabilities.lenses.first { $0.name == settings.lens } ?? capabilities.lenses[0]
        let source = LiveStatus.Source(
            sensors: setup.source.sensorNames, isoMinimum: capabilities.isoRange.lowerBound,
            isoMaximum: capabilities.isoRange.upperBound, shutterMinimum: capabilities.shutterRange.lowerBound,
            shutterMaximum: capabilities.shutterRange.upperBound, minimumFocusMetres: lens.minimumFocusDistance,
            apertureMinimum: lens.apertureRange.lowerBound, apertureMaximum: lens.apertureRange.upperBound,
            adjustable: fixedBecause == nil)
        previewer = LivePreviewer(longEdge: previewSize, arrangement: sideBySide ? .sideBySide : .stacked,
                                  mirrored: setup.source.sensorNames.map(mirrored.contains), overlays: { server.overlays }, publish: { frame in
            if let first = frame.sensors.first { controls.observe(first.settings) }
            server.publish(frame)
        })
        let previewer = previewer
        pump = LiveStatusPump { burst in
            var burst = burst
            burst.previewsThinned = previewer.thinned
            server.publish(LiveStatus(burst: burst, controls: controls.status, source: source))
        }
        pump.publishNow()
        do {
            address = try server.start()
        } catch {
            pump.close()
            previewer.stop()
            throw BadValue("--live \(endpoint): \(error)")
        }
        self.server = server
        self.controls = controls
    }

    /// Hooks the viewfinder into a burst's configuration: previews of every trigger, and the page's settings (unless
    /// they are fixed: the controls then refuse every change with the reason).
    func configure(_ configuration: inout BurstSession.Configuration) {
        configuration.viewer = previewer
        if controls.adjustable { configuration.settingsFeed = controls }
    }

    /// The page's controls now steer `session` (take `take`, into `folder`, `frames` triggers of `framesPerTrigger`).
    func attach(_ session: BurstSession, take: Int, folder: String, frames: Int, framesPerTrigger: Int) {
        _ = server.takeDeliveries()
        server.setFolder(folder)
        pump.begin(take: take, folder: folder, frames: frames, framesPerTrigger: framesPerTrigger)
        controls.attach(session)
    }

    /// The burst's progress, for the status.
    func update(_ progress: BurstSession.Progress) { pump.update(progress) }

    /// The burst has ended: the controls let it go; what the previews did during it, for its manifest.
    func detach() -> CaptureViewfinderReport {
        controls.attach(nil)
        pump.end()
        let deliveries = server.takeDeliveries()
        return CaptureViewfinderReport(address: LiveAddress(host: address.host, port: address.port, token: nil).url, deliveries: deliveries,
                                       previewer: previewer.statistics, server: server.statistics)
    }

    /// Stops the previews, the status and the server (the pages see the connection close).
    func close() {
        controls.flushSaves()
        previewer.stop()
        pump.close()
        server.stop()
    }
}

/// What the viewfinder did during a burst, in its manifest: every previewed frame's time from capture to the socket.
struct CaptureViewfinderReport: Encodable {
    /// The page's address (without its token).
    let address: String
    /// Previews delivered, and their latency from the frame's capture to the socket (ms).
    let delivered: Int
    let latencyP50Milliseconds: Double?
    let latencyP95Milliseconds: Double?
    let latencyMaxMilliseconds: Double?
    /// The previewer's and the server's counts (cumulative since the viewfinder started).
    let previewer: LivePreviewer.Statistics
    let server: LiveServerStatistics
    /// Per previewed frame: its sequence number and latency.
    let frames: [Frame]

    struct Frame: Encodable {
        let sequenceNumber: UInt64
        let milliseconds: Double
    }

    init(address: String, deliveries: [LiveDelivery], previewer: LivePreviewer.Statistics, server: LiveServerStatistics) {
        self.address = address
        self.previewer = previewer
        self.server = server
        frames = deliveries.map { Frame(sequenceNumber: $0.sequenceNumber, milliseconds: ($0.milliseconds * 100).rounded() / 100) }
        delivered = frames.count
        let milliseconds = frames.map(\.milliseconds)
        func percentile(_ p: Double) -> Double? { milliseconds.isEmpty ? nil : BurstStatistics.percentile(milliseconds, p) }
        latencyP50Milliseconds = percentile(0.5)
        latencyP95Milliseconds = percentile(0.95)
        latencyMaxMilliseconds = milliseconds.max()
    }
}
